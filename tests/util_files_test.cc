// Writing files without losing the previous ones (util/files.h): a whole file replaced
// atomically (also a model file) survives a full disk; a new file never replaces one; an owned
// output folder refuses a folder of other files and lets only its own files be rewritten.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "predict/model_file.h"
#include "test_files.h"
#include "util/files.h"

namespace hane {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Runs `write` in a child process whose files may not grow beyond `limit` bytes (a full disk:
// write(2) fails with EFBIG); true when the write reported an error.
bool fails_on_a_full_disk(size_t limit, const std::function<bool()>& write) {
  const pid_t child = ::fork();
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit r{limit, limit};
    ::setrlimit(RLIMIT_FSIZE, &r);
    ::_exit(write() ? 0 : 3);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 3;
}

// Names in `dir` other than `keep`.
std::vector<std::string> other_files(const std::string& dir, const std::string& keep) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename() != keep) out.push_back(e.path().filename().string());
  }
  return out;
}

TEST(WriteFileAtomically, ReplacesTheFileAndLeavesNothingElse) {
  const std::string dir = testing::temp_path("files", "replace");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = dir + "/report.json";
  std::ofstream(path) << "old";
  ASSERT_TRUE(write_file_atomically(path, "new content").ok());
  EXPECT_EQ(text_of(path), "new content");
  EXPECT_TRUE(other_files(dir, "report.json").empty());
  // A folder that does not exist: an error naming the file, nothing made.
  const absl::Status s = write_file_atomically(dir + "/no/such/file", "x");
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr(dir + "/no/such/file"));
  fs::remove_all(dir);
}

TEST(WriteFileAtomically, AFullDiskLeavesTheOldFileWhole) {
  const std::string dir = testing::temp_path("files", "full");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = dir + "/report.json";
  std::ofstream(path) << "the old report";
  EXPECT_TRUE(fails_on_a_full_disk(100, [&] { return write_file_atomically(path, std::string(10000, 'x')).ok(); }));
  EXPECT_EQ(text_of(path), "the old report");
  EXPECT_TRUE(other_files(dir, "report.json").empty());  // the temporary file is removed
  fs::remove_all(dir);
}

// A model file written over an older one (a retraining, a shipped model): a full disk, as a
// kill, leaves the older model loadable.
TEST(WriteModelFile, AFullDiskLeavesThePreviousModelWhole) {
  const std::string dir = testing::temp_path("files", "model");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = dir + "/m.model";
  ASSERT_TRUE(write_model_file(path, {{"kind", "test"}, {"feature_version", 1}}, "small payload").ok());
  const std::string before = text_of(path);
  EXPECT_TRUE(fails_on_a_full_disk(200, [&] {
    return write_model_file(path, {{"kind", "test"}, {"feature_version", 1}}, std::string(100000, 'p')).ok();
  }));
  EXPECT_EQ(text_of(path), before);
  auto model = read_model_file(path);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->payload, "small payload");
  EXPECT_TRUE(other_files(dir, "m.model").empty());
  fs::remove_all(dir);
}

TEST(WriteNewFile, NeverReplacesAFile) {
  const std::string dir = testing::temp_path("files", "new");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = dir + "/game.sgf";
  ASSERT_TRUE(write_new_file(path, "(;GM[1])").ok());
  EXPECT_EQ(text_of(path), "(;GM[1])");
  const absl::Status again = write_new_file(path, "(;GM[1]C[other])");
  EXPECT_TRUE(absl::IsAlreadyExists(again)) << again;
  EXPECT_EQ(text_of(path), "(;GM[1])");
  EXPECT_TRUE(other_files(dir, "game.sgf").empty());
  fs::remove_all(dir);
}

TEST(OwnedFolder, RefusesAFolderOfOtherFilesAndRewritesOnlyItsOwn) {
  const std::string dir = testing::temp_path("files", "owned");
  fs::remove_all(dir);
  fs::create_directories(dir + "/sub");
  std::ofstream(dir + "/sub/mine.txt") << "mine";
  auto refused = OwnedFolder::open(dir, "tool.json", "tool run");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("no tool run of hane's (no tool.json)"));
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("mine.txt"));
  EXPECT_FALSE(fs::exists(dir + "/files.txt"));

  // A new folder becomes the tool's: its marker and files are listed, a stranger's is not written.
  const std::string own = dir + "/own";
  auto folder = OwnedFolder::open(own, "tool.json", "tool run");
  ASSERT_TRUE(folder.ok()) << folder.status();
  EXPECT_FALSE(folder->has_marker());
  ASSERT_TRUE(folder->write("tool.json", "{}").ok());
  ASSERT_TRUE(folder->write("a.txt", "1").ok());
  ASSERT_TRUE(folder->write("a.txt", "2").ok());
  EXPECT_EQ(text_of(own + "/a.txt"), "2");
  std::ofstream(own + "/b.txt") << "the user's";
  EXPECT_FALSE(folder->may_write("b.txt"));
  EXPECT_EQ(folder->write("b.txt", "x").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(text_of(own + "/b.txt"), "the user's");
  EXPECT_EQ(text_of(own + "/files.txt"), "tool.json\na.txt\n");
  // Opened again, the folder is the tool's; another process's notes count.
  auto again = OwnedFolder::open(own, "tool.json", "tool run");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->has_marker());
  std::ofstream(own + "/files.txt", std::ios::app) << "c.txt\n";
  std::ofstream(own + "/c.txt") << "written by another run";
  EXPECT_TRUE(again->may_write("c.txt"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hane
