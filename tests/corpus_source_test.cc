#include "corpus/source.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"

namespace hane {
namespace {

namespace fs = std::filesystem;

struct Member {
  std::string name;
  std::string data;
  bool directory = false;
};

enum class Kind { kTar, kTarGz, kTarBz2, kTarXz, kZip };

// Writes an archive with libarchive's write API; members in the given order.
void write_archive(const fs::path& path, Kind kind, const std::vector<Member>& members) {
  archive* a = archive_write_new();
  ASSERT_NE(a, nullptr);
  switch (kind) {
    case Kind::kTar:
      break;
    case Kind::kTarGz:
      archive_write_add_filter_gzip(a);
      break;
    case Kind::kTarBz2:
      archive_write_add_filter_bzip2(a);
      break;
    case Kind::kTarXz:
      archive_write_add_filter_xz(a);
      break;
    case Kind::kZip:
      break;
  }
  if (kind == Kind::kZip) {
    ASSERT_EQ(archive_write_set_format_zip(a), ARCHIVE_OK);
  } else {
    ASSERT_EQ(archive_write_set_format_pax_restricted(a), ARCHIVE_OK);
  }
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK) << archive_error_string(a);
  for (const Member& m : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, m.name.c_str());
    archive_entry_set_filetype(e, m.directory ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(e, m.directory ? 0755 : 0644);
    archive_entry_set_size(e, m.directory ? 0 : static_cast<la_int64_t>(m.data.size()));
    archive_entry_set_mtime(e, 1000000000, 0);
    ASSERT_EQ(archive_write_header(a, e), ARCHIVE_OK) << archive_error_string(a);
    if (!m.directory && !m.data.empty()) {
      ASSERT_EQ(archive_write_data(a, m.data.data(), m.data.size()),
                static_cast<la_ssize_t>(m.data.size()));
    }
    archive_entry_free(e);
  }
  ASSERT_EQ(archive_write_close(a), ARCHIVE_OK);
  archive_write_free(a);
}

void write_file(const fs::path& path, std::string_view data) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Incompressible bytes, fixed by the seed.
std::string noise(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

std::string game(int i) { return "(;GM[1]FF[4]SZ[19]C[game " + std::to_string(i) + "];B[pd];W[dp])"; }

struct SourceResult {
  std::vector<SourceEntry> entries;
  std::vector<SourceError> errors;
  SourceStats stats;
};

SourceResult read_all(const std::vector<std::string>& paths, SourceOptions options = {}) {
  SourceResult r;
  r.stats = for_each_entry(
      paths, [&](SourceEntry&& e) { r.entries.push_back(std::move(e)); },
      [&](const SourceError& e) { r.errors.push_back(e); }, options);
  return r;
}

std::vector<std::string> names(const SourceResult& r) {
  std::vector<std::string> out;
  for (const SourceEntry& e : r.entries) out.push_back(e.entry);
  return out;
}

std::string all_errors(const SourceResult& r) {
  std::string out;
  for (const SourceError& e : r.errors) out += describe(e) + "\n";
  return out;
}

class CorpusSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           ("hane_corpus_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(std::string_view name) const { return (dir_ / name).string(); }

  // The usual archive content: two records, a README and a directory entry in between.
  static std::vector<Member> usual_members() {
    return {{"games/", "", true},
            {"games/b.sgf", game(1)},
            {"games/README", "not a game"},
            {"games/a.SGF", game(2)},
            {"games/c.mgt", game(3)}};
  }

  fs::path dir_;
};

TEST(CorpusSourcePathTest, RecognisesArchiveAndRecordNames) {
  for (const char* p : {"a.tar", "a.tar.gz", "A.TGZ", "x/KGS-2001-19-2298-.tar.gz", "a.tar.bz2",
                        "a.tbz2", "a.zip", "a.ZIP", "a.tar.xz", "a.tar.zst"}) {
    EXPECT_TRUE(is_archive_path(p)) << p;
  }
  for (const char* p : {"a.sgf", "a.gz", "a.bz2", "tar", "a.tar.gz.part", "zip", ""}) {
    EXPECT_FALSE(is_archive_path(p)) << p;
  }
  for (const char* p : {"a.sgf", "a.SGF", "dir/a.Mgt", ".sgf"}) EXPECT_TRUE(is_record_path(p)) << p;
  for (const char* p : {"a.sgf.gz", "a.txt", "sgf", "a.sg"}) EXPECT_FALSE(is_record_path(p)) << p;
}

TEST(CorpusSourcePathTest, DescribeLeavesOutMissingParts) {
  EXPECT_EQ(describe({"KGS-2001.tar.gz", "2001/01/foo.sgf", 12345, "truncated gzip input"}),
            "KGS-2001.tar.gz: entry 2001/01/foo.sgf: byte 12345: truncated gzip input");
  EXPECT_EQ(describe({"x.sgf", "", -1, "No such file or directory"}),
            "x.sgf: No such file or directory");
  EXPECT_EQ(describe({"a.zip", "", 0, "bad"}), "a.zip: byte 0: bad");
}

TEST_F(CorpusSourceTest, ReadsEveryArchiveFormat) {
  const std::vector<std::pair<std::string, Kind>> archives = {
      {"a.tar.gz", Kind::kTarGz}, {"b.tar.bz2", Kind::kTarBz2}, {"c.zip", Kind::kZip},
      {"d.tar", Kind::kTar},      {"e.tgz", Kind::kTarGz},      {"f.tar.xz", Kind::kTarXz}};
  for (const auto& [name, kind] : archives) {
    SCOPED_TRACE(name);
    write_archive(dir_ / name, kind, usual_members());
    SourceResult r = read_all({path(name)});
    EXPECT_TRUE(r.errors.empty()) << all_errors(r);
    ASSERT_EQ(names(r), (std::vector<std::string>{"games/b.sgf", "games/a.SGF", "games/c.mgt"}));
    for (const SourceEntry& e : r.entries) EXPECT_EQ(e.source, path(name));
    EXPECT_EQ(r.entries[0].data, game(1));
    EXPECT_EQ(r.entries[1].data, game(2));
    EXPECT_EQ(r.entries[2].data, game(3));
    EXPECT_EQ(r.stats.entries, 3);
    EXPECT_EQ(r.stats.skipped_entries, 2);  // the directory and the README
    EXPECT_EQ(r.stats.errors, 0);
    EXPECT_EQ(r.stats.bytes, static_cast<int64_t>(game(1).size() + game(2).size() + game(3).size()));
    EXPECT_EQ(r.stats.input_bytes, static_cast<int64_t>(fs::file_size(dir_ / name)));
  }
}

TEST_F(CorpusSourceTest, ReadsLargeAndEmptyMembers) {
  const std::string big = noise(3 << 20, 7);  // spans many read blocks
  write_archive(dir_ / "a.tar.gz", Kind::kTarGz, {{"big.sgf", big}, {"empty.sgf", ""}});
  write_archive(dir_ / "b.zip", Kind::kZip, {{"big.sgf", big}, {"empty.sgf", ""}});
  SourceResult r = read_all({path("a.tar.gz"), path("b.zip")});
  EXPECT_TRUE(r.errors.empty()) << all_errors(r);
  ASSERT_EQ(r.entries.size(), 4u);
  EXPECT_TRUE(r.entries[0].data == big);
  EXPECT_EQ(r.entries[1].data, "");
  EXPECT_TRUE(r.entries[2].data == big);
  EXPECT_EQ(r.entries[3].data, "");
}

TEST_F(CorpusSourceTest, PlainFileHasNoEntryName) {
  write_file(dir_ / "one.sgf", game(5));
  SourceResult r = read_all({path("one.sgf")});
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].source, path("one.sgf"));
  EXPECT_EQ(r.entries[0].entry, "");
  EXPECT_EQ(r.entries[0].data, game(5));
  EXPECT_TRUE(r.errors.empty());
}

TEST_F(CorpusSourceTest, FolderIsRecursiveSortedAndKeepsArchiveOrder) {
  const fs::path root = dir_ / "root";
  write_file(root / "z.sgf", game(1));
  write_file(root / "a" / "b.SGF", game(2));
  write_file(root / "a" / "notes.txt", "notes");
  write_file(root / "a" / "deeper" / "c.mgt", game(3));
  write_file(root / "README", "readme");
  fs::create_directories(root / "empty");
  write_archive(root / "m.zip", Kind::kZip, {{"y.sgf", game(4)}, {"x.sgf", game(5)}});
  write_archive(root / "a" / "k.tar.gz", Kind::kTarGz, usual_members());

  SourceResult r = read_all({root.string()});
  EXPECT_TRUE(r.errors.empty()) << all_errors(r);
  std::vector<std::pair<std::string, std::string>> got;
  for (const SourceEntry& e : r.entries) got.emplace_back(e.source, e.entry);
  const std::string R = root.string();
  const std::vector<std::pair<std::string, std::string>> want = {
      {R + "/a/b.SGF", ""},
      {R + "/a/deeper/c.mgt", ""},
      {R + "/a/k.tar.gz", "games/b.sgf"},
      {R + "/a/k.tar.gz", "games/a.SGF"},
      {R + "/a/k.tar.gz", "games/c.mgt"},
      {R + "/m.zip", "y.sgf"},
      {R + "/m.zip", "x.sgf"},
      {R + "/z.sgf", ""}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(r.entries[0].data, game(2));
  EXPECT_EQ(r.entries[5].data, game(4));
  EXPECT_EQ(r.entries[7].data, game(1));
  // notes.txt and README in the folder; a directory and a README inside k.tar.gz.
  EXPECT_EQ(r.stats.skipped_entries, 4);
  EXPECT_EQ(r.stats.entries, 8);
}

TEST_F(CorpusSourceTest, PathsAreReadInTheOrderGiven) {
  write_file(dir_ / "b.sgf", game(1));
  write_file(dir_ / "a.sgf", game(2));
  write_archive(dir_ / "c.tar", Kind::kTar, {{"c1.sgf", game(3)}});
  SourceResult r = read_all({path("c.tar"), path("b.sgf"), path("a.sgf"), path("b.sgf")});
  std::vector<std::string> sources;
  for (const SourceEntry& e : r.entries) sources.push_back(e.source);
  EXPECT_EQ(sources, (std::vector<std::string>{path("c.tar"), path("b.sgf"), path("a.sgf"),
                                               path("b.sgf")}));
}

TEST_F(CorpusSourceTest, TruncatedTarGzDeliversCompleteEntriesThenOneError) {
  std::vector<Member> members;
  for (int i = 0; i < 20; ++i) {
    members.push_back({"g" + std::to_string(100 + i) + ".sgf", noise(10000, 100 + i)});
  }
  write_archive(dir_ / "whole.tar.gz", Kind::kTarGz, members);
  const std::string whole = read_file(dir_ / "whole.tar.gz");
  const size_t cut = whole.size() / 2;
  write_file(dir_ / "cut.tar.gz", std::string_view(whole).substr(0, cut));
  write_file(dir_ / "after.sgf", game(9));

  SourceResult r = read_all({path("cut.tar.gz"), path("after.sgf")});
  ASSERT_GE(r.entries.size(), 2u);
  const size_t delivered = r.entries.size() - 1;  // the last one is after.sgf
  ASSERT_GT(delivered, 0u);
  ASSERT_LT(delivered, members.size());
  for (size_t i = 0; i < delivered; ++i) {
    EXPECT_EQ(r.entries[i].entry, members[i].name);
    EXPECT_TRUE(r.entries[i].data == members[i].data) << members[i].name;
  }
  EXPECT_EQ(r.entries.back().source, path("after.sgf"));
  ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
  const SourceError& err = r.errors[0];
  EXPECT_EQ(err.source, path("cut.tar.gz"));
  EXPECT_EQ(err.entry, members[delivered].name) << describe(err);  // cut inside its data
  EXPECT_GT(err.offset, 0);
  EXPECT_LE(err.offset, static_cast<int64_t>(cut));
  EXPECT_EQ(r.stats.errors, 1);
}

TEST_F(CorpusSourceTest, TarGzCutAtEveryFewBytesNeverLosesOrInventsEntries) {
  std::vector<Member> members;
  for (int i = 0; i < 6; ++i) members.push_back({"g" + std::to_string(i) + ".sgf", game(i)});
  write_archive(dir_ / "whole.tar.gz", Kind::kTarGz, members);
  const std::string whole = read_file(dir_ / "whole.tar.gz");
  for (size_t cut = 0; cut < whole.size(); cut += 7) {
    SCOPED_TRACE(cut);
    write_file(dir_ / "cut.tar.gz", std::string_view(whole).substr(0, cut));
    SourceResult r = read_all({path("cut.tar.gz")});
    ASSERT_LE(r.entries.size(), members.size());
    for (size_t i = 0; i < r.entries.size(); ++i) EXPECT_EQ(r.entries[i].data, members[i].data);
    // A cut before the tar end-of-archive blocks are decompressed loses entries or breaks
    // the gzip stream: either way exactly one error.
    EXPECT_EQ(r.errors.size(), 1u) << all_errors(r);
  }
}

TEST_F(CorpusSourceTest, TruncatedZipDeliversCompleteEntriesThenOneError) {
  std::vector<Member> members;
  for (int i = 0; i < 10; ++i) {
    members.push_back({"z" + std::to_string(i) + ".sgf", noise(5000, 300 + i)});
  }
  write_archive(dir_ / "whole.zip", Kind::kZip, members);
  const std::string whole = read_file(dir_ / "whole.zip");
  write_file(dir_ / "cut.zip", std::string_view(whole).substr(0, whole.size() / 2));

  SourceResult r = read_all({path("cut.zip")});
  ASSERT_GT(r.entries.size(), 0u);
  ASSERT_LT(r.entries.size(), members.size());
  for (size_t i = 0; i < r.entries.size(); ++i) {
    EXPECT_EQ(r.entries[i].entry, members[i].name);
    EXPECT_TRUE(r.entries[i].data == members[i].data);
  }
  ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
  EXPECT_EQ(r.errors[0].source, path("cut.zip"));
  EXPECT_GT(r.errors[0].offset, 0);
}

TEST_F(CorpusSourceTest, GarbageArchiveIsOneErrorAndReadingGoesOn) {
  write_file(dir_ / "bad.tar.gz", noise(5000, 1));
  write_file(dir_ / "bad.zip", "PK\x03\x04 this is not really a zip file at all");
  write_file(dir_ / "empty.tar.bz2", "");
  write_file(dir_ / "good.sgf", game(1));
  SourceResult r = read_all({path("bad.tar.gz"), path("bad.zip"), path("empty.tar.bz2"),
                       path("good.sgf")});
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].source, path("good.sgf"));
  ASSERT_EQ(r.errors.size(), 3u) << all_errors(r);
  EXPECT_EQ(r.errors[0].source, path("bad.tar.gz"));
  EXPECT_EQ(r.errors[1].source, path("bad.zip"));
  EXPECT_EQ(r.errors[2].source, path("empty.tar.bz2"));
  EXPECT_EQ(r.stats.errors, 3);
}

TEST_F(CorpusSourceTest, GzipOfGarbageIsOneError) {
  // A valid gzip stream whose content is not an archive.
  archive* a = archive_write_new();
  archive_write_add_filter_gzip(a);
  archive_write_set_format_raw(a);
  ASSERT_EQ(archive_write_open_filename(a, path("notar.tar.gz").c_str()), ARCHIVE_OK);
  archive_entry* e = archive_entry_new();
  archive_entry_set_filetype(e, AE_IFREG);
  archive_write_header(a, e);
  const std::string text = noise(20000, 3);
  archive_write_data(a, text.data(), text.size());
  archive_entry_free(e);
  archive_write_close(a);
  archive_write_free(a);
  SourceResult r = read_all({path("notar.tar.gz")});
  EXPECT_TRUE(r.entries.empty());
  ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
}

TEST_F(CorpusSourceTest, NonexistentPathIsOneError) {
  write_file(dir_ / "good.sgf", game(1));
  SourceResult r = read_all({path("missing.sgf"), path("missing_folder"), path("good.sgf")});
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].source, path("missing.sgf"));
  EXPECT_EQ(r.errors[0].offset, -1);
  EXPECT_NE(r.errors[0].message.find("No such file"), std::string::npos) << r.errors[0].message;
  EXPECT_EQ(r.errors[1].source, path("missing_folder"));
  ASSERT_EQ(r.entries.size(), 1u);
}

TEST_F(CorpusSourceTest, GivenFileThatIsNeitherRecordNorArchiveIsAnError) {
  write_file(dir_ / "notes.txt", "hello");
  SourceResult r = read_all({path("notes.txt")});
  EXPECT_TRUE(r.entries.empty());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("not a game record or archive"), std::string::npos);
}

TEST_F(CorpusSourceTest, UnreadableFileIsOneError) {
  if (::geteuid() == 0) GTEST_SKIP() << "running as root: permissions are not enforced";
  write_file(dir_ / "locked.sgf", game(1));
  fs::permissions(dir_ / "locked.sgf", fs::perms::none);
  SourceResult r = read_all({path("locked.sgf")});
  EXPECT_TRUE(r.entries.empty());
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].source, path("locked.sgf"));
}

TEST_F(CorpusSourceTest, EntriesOverTheLimitAreSkippedWithAnError) {
  write_archive(dir_ / "a.tar.gz", Kind::kTarGz,
                {{"small1.sgf", std::string(50, 'a')},
                 {"large.sgf", std::string(200, 'b')},
                 {"small2.sgf", std::string(100, 'c')}});
  write_archive(dir_ / "b.zip", Kind::kZip,
                {{"large.sgf", std::string(200, 'b')}, {"small.sgf", std::string(10, 'c')}});
  write_file(dir_ / "large.sgf", std::string(101, 'x'));
  SourceOptions options;
  options.max_entry_bytes = 100;
  SourceResult r = read_all({path("a.tar.gz"), path("b.zip"), path("large.sgf")}, options);
  EXPECT_EQ(names(r), (std::vector<std::string>{"small1.sgf", "small2.sgf", "small.sgf"}));
  EXPECT_EQ(r.entries[1].data, std::string(100, 'c'));
  ASSERT_EQ(r.errors.size(), 3u) << all_errors(r);
  EXPECT_EQ(r.errors[0].source, path("a.tar.gz"));
  EXPECT_EQ(r.errors[0].entry, "large.sgf");
  EXPECT_NE(r.errors[0].message.find("200 bytes"), std::string::npos) << r.errors[0].message;
  EXPECT_EQ(r.errors[1].source, path("b.zip"));
  EXPECT_EQ(r.errors[1].entry, "large.sgf");
  EXPECT_EQ(r.errors[2].source, path("large.sgf"));
  EXPECT_EQ(r.errors[2].entry, "");
}

TEST_F(CorpusSourceTest, BrokenArchiveInFolderAmongGoodFiles) {
  const fs::path root = dir_ / "root";
  write_file(root / "a.sgf", game(1));
  write_archive(root / "b.tar.gz", Kind::kTarGz, {{"b1.sgf", game(2)}});
  write_file(root / "c.tar.gz", noise(3000, 5));
  write_archive(root / "d.tar.bz2", Kind::kTarBz2, {{"d1.sgf", game(3)}});
  SourceResult r = read_all({root.string()});
  EXPECT_EQ(names(r), (std::vector<std::string>{"", "b1.sgf", "d1.sgf"}));
  ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
  EXPECT_EQ(r.errors[0].source, (root / "c.tar.gz").string());
  EXPECT_EQ(r.stats.errors, 1);
  EXPECT_EQ(r.stats.entries, 3);
}

TEST_F(CorpusSourceTest, DamagedTarHeaderIsReportedOnceAndLaterEntriesAreRead) {
  std::vector<Member> members;
  for (int i = 0; i < 5; ++i) members.push_back({"t" + std::to_string(i) + ".sgf", game(i)});
  write_archive(dir_ / "a.tar", Kind::kTar, members);
  std::string bytes = read_file(dir_ / "a.tar");
  // pax_restricted writes plain ustar headers for short ASCII names: 512-byte header plus
  // one 512-byte data block each. Break the checksum of the third member's header.
  ASSERT_EQ(bytes.compare(2 * 1024, 6, "t2.sgf"), 0);
  bytes[2 * 1024 + 148] = 'x';
  write_file(dir_ / "a.tar", bytes);
  SourceResult r = read_all({path("a.tar")});
  EXPECT_EQ(names(r), (std::vector<std::string>{"t0.sgf", "t1.sgf", "t3.sgf", "t4.sgf"}));
  ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
  EXPECT_EQ(r.errors[0].source, path("a.tar"));
  EXPECT_NE(r.errors[0].message.find("after entry t1.sgf"), std::string::npos)
      << describe(r.errors[0]);
}

TEST_F(CorpusSourceTest, DamagedZipMemberIsOneErrorAndOthersAreRead) {
  std::vector<Member> members;
  for (int i = 0; i < 3; ++i) {
    members.push_back({"m" + std::to_string(i) + ".sgf", noise(5000, 500 + i)});
  }
  write_archive(dir_ / "a.zip", Kind::kZip, members);
  std::string bytes = read_file(dir_ / "a.zip");
  const size_t local = bytes.find("m1.sgf");  // first occurrence: the local header
  ASSERT_NE(local, std::string::npos);
  bytes[local + 1000] ^= 0x55;  // inside m1's data
  write_file(dir_ / "a.zip", bytes);
  SourceResult r = read_all({path("a.zip")});
  EXPECT_EQ(names(r), (std::vector<std::string>{"m0.sgf", "m2.sgf"}));
  ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
  EXPECT_EQ(r.errors[0].entry, "m1.sgf");
}

TEST_F(CorpusSourceTest, FolderLinksAreFollowedOnce) {
  const fs::path root = dir_ / "root";
  write_file(root / "sub" / "a.sgf", game(1));
  write_file(dir_ / "outside.sgf", game(2));
  fs::create_symlink(root, root / "sub" / "loop");          // a cycle
  fs::create_symlink(dir_ / "outside.sgf", root / "b.sgf");  // a linked file
  fs::create_symlink(dir_ / "gone.sgf", root / "c.sgf");     // a dangling link
  SourceResult r = read_all({root.string()});
  std::vector<std::string> sources;
  for (const SourceEntry& e : r.entries) sources.push_back(e.source);
  EXPECT_EQ(sources, (std::vector<std::string>{(root / "b.sgf").string(),
                                               (root / "sub" / "a.sgf").string()}));
  ASSERT_EQ(r.errors.size(), 1u) << all_errors(r);
  EXPECT_EQ(r.errors[0].source, (root / "c.sgf").string());
}

TEST_F(CorpusSourceTest, EntryReaderPullsLazilyInTheSameOrder) {
  write_archive(dir_ / "a.zip", Kind::kZip, usual_members());
  write_file(dir_ / "b.sgf", game(7));
  const std::vector<std::string> paths = {path("a.zip"), path("missing.sgf"), path("b.sgf")};
  SourceResult expected = read_all(paths);

  std::vector<SourceError> errors;
  EntryReader reader(paths, [&](const SourceError& e) { errors.push_back(e); });
  std::vector<SourceEntry> got;
  while (std::optional<SourceEntry> e = reader.next()) {
    // The missing path is reported only when the reader reaches it.
    EXPECT_EQ(errors.size(), e->source == path("b.sgf") ? 1u : 0u);
    got.push_back(std::move(*e));
  }
  EXPECT_FALSE(reader.next().has_value());  // stays at the end
  ASSERT_EQ(got.size(), expected.entries.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].source, expected.entries[i].source);
    EXPECT_EQ(got[i].entry, expected.entries[i].entry);
    EXPECT_EQ(got[i].data, expected.entries[i].data);
  }
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(reader.stats().entries, 4);
  EXPECT_EQ(reader.stats().errors, 1);
  EXPECT_EQ(reader.stats().skipped_entries, 2);

  // Without an error callback problems are still counted; the reusing overload works too.
  EntryReader quiet(paths);
  SourceEntry entry;
  int n = 0;
  while (quiet.next(entry)) ++n;
  EXPECT_EQ(n, 4);
  EXPECT_EQ(quiet.stats().errors, 1);

  EntryReader moved = std::move(quiet);
  EXPECT_FALSE(moved.next(entry));
}

TEST_F(CorpusSourceTest, EmptyInputs) {
  fs::create_directories(dir_ / "empty");
  write_archive(dir_ / "empty.tar.gz", Kind::kTarGz, {});
  write_archive(dir_ / "empty.zip", Kind::kZip, {});
  SourceResult r = read_all({path("empty"), path("empty.tar.gz"), path("empty.zip")});
  EXPECT_TRUE(r.entries.empty());
  EXPECT_TRUE(r.errors.empty()) << all_errors(r);
  SourceResult none = read_all({});
  EXPECT_TRUE(none.entries.empty());
  EXPECT_EQ(none.stats.errors, 0);
}

// The shared archives are the ten that datasets/kgs-SHA256SUMS lists (the folder's own
// SHA256SUMS, written when they were downloaded, is that list), and their maintainers name
// each archive by its number of games, KGS-YEAR-19-GAMES-.tar.gz: 2,298 + 3,646 + 7,582 +
// 10,388 + 8,133 + 733 + 525 + 717 + 913 + 847 = 35,782 entries, each one game. (Reading them
// all takes about 2 s: bench/corpus_bench.cc measures it.)
TEST(CorpusSourceKgsTest, CountsAllEntriesOfTheSharedArchives) {
  const fs::path kgs = fs::path(HANE_SHARED_DIR) / "datasets" / "kgs";
  if (!fs::is_directory(kgs)) GTEST_SKIP() << "no KGS archives at " << kgs;
  const fs::path sums = fs::path(HANE_TEST_DATA_DIR) / ".." / ".." / "datasets" / "kgs-SHA256SUMS";
  std::ifstream list(sums);
  ASSERT_TRUE(list) << "cannot read " << sums;
  std::set<std::string> listed, present;
  int64_t games_in_names = 0;
  for (std::string digest, name; list >> digest >> name;) {
    listed.insert(name);
    // KGS-2001-19-2298-.tar.gz: the third field after "KGS" is the number of games.
    const std::vector<std::string> fields = absl::StrSplit(name, '-');
    ASSERT_GE(fields.size(), 4u) << name;
    games_in_names += std::stoll(fields[3]);
  }
  for (const auto& e : fs::directory_iterator(kgs)) {
    if (e.path().extension() == ".gz") present.insert(e.path().filename().string());
  }
  EXPECT_EQ(present, listed) << "the shared archives are not the ones " << sums << " lists";
  std::ifstream theirs(kgs / "SHA256SUMS"), ours(sums);
  std::stringstream a, b;
  a << theirs.rdbuf();
  b << ours.rdbuf();
  EXPECT_EQ(a.str(), b.str()) << "the shared folder's SHA256SUMS differs from " << sums;
  EXPECT_EQ(games_in_names, 35782);

  std::vector<SourceError> errors;
  int64_t with_game = 0;
  const std::vector<std::string> paths = {kgs.string()};
  SourceStats stats = for_each_entry(
      paths,
      [&](SourceEntry&& e) {
        if (e.data.size() > 2 && e.data.find("(;") != std::string::npos) ++with_game;
      },
      [&](const SourceError& e) { errors.push_back(e); });
  EXPECT_TRUE(errors.empty()) << describe(errors.front());
  EXPECT_EQ(stats.entries, games_in_names);
  EXPECT_EQ(with_game, games_in_names);
}

}  // namespace
}  // namespace hane
