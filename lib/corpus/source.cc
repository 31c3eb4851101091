#include "corpus/source.h"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <filesystem>
#include <set>
#include <system_error>
#include <utility>


namespace hane {
namespace {

namespace fs = std::filesystem;

// Read block handed to libarchive; also the granularity of error offsets in uncompressed
// archives (compressed ones report what the decompressor actually consumed).
constexpr size_t kArchiveBlockBytes = size_t{1} << 17;
// Chunk used when an archive member's size is not known in advance (streamed zip).
constexpr size_t kChunkBytes = size_t{1} << 16;

constexpr std::string_view kArchiveSuffixes[] = {
    ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz",
    ".txz", ".tar.zst", ".tzst", ".zip"};
constexpr std::string_view kRecordSuffixes[] = {".sgf", ".mgt"};

// `suffix` is lower case ASCII.
bool ends_with_ci(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  s.remove_prefix(s.size() - suffix.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

// Concatenates strings and integers.
std::string cat_piece(std::string_view s) { return std::string(s); }
std::string cat_piece(int64_t n) { return std::to_string(n); }
template <typename... Args>
std::string cat(const Args&... args) {
  std::string out;
  (out += ... += cat_piece(args));
  return out;
}

std::string errno_message(int err) { return std::error_code(err, std::generic_category()).message(); }

std::string bytes_over_limit(std::string_view what, int64_t size, int64_t limit) {
  return cat(what, " is ", size, " bytes, over the limit of ", limit, " bytes");
}

struct ArchiveFree {
  void operator()(archive* a) const { archive_read_free(a); }
};

// One path still to be read: given on the command line, or found in a folder.
struct Pending {
  std::string path;
  bool given;
};

}  // namespace

bool is_archive_path(std::string_view path) {
  for (std::string_view suffix : kArchiveSuffixes) {
    if (ends_with_ci(path, suffix)) return true;
  }
  return false;
}

bool is_record_path(std::string_view path) {
  for (std::string_view suffix : kRecordSuffixes) {
    if (ends_with_ci(path, suffix)) return true;
  }
  return false;
}

std::string describe(const SourceError& error) {
  std::string out = error.source;
  if (!error.entry.empty()) out += cat(": entry ", error.entry);
  if (error.offset >= 0) out += cat(": byte ", error.offset);
  out += cat(": ", error.message);
  return out;
}

struct EntryReader::State {
  std::deque<Pending> pending;
  SourceErrorCallback on_error;
  SourceOptions options;
  SourceStats stats;

  // The archive being read, if any.
  std::unique_ptr<archive, ArchiveFree> ar;
  std::string ar_path;
  std::string last_entry;  // name of the last member header read from `ar`
  bool in_damage = false;  // inside a run of unreadable headers (already reported)
  int64_t damage_position = -1;

  void report(std::string_view source, std::string_view entry, int64_t offset,
              std::string message) {
    ++stats.errors;
    if (on_error) {
      on_error(SourceError{std::string(source), std::string(entry), offset, std::move(message)});
    }
  }

  int64_t ar_offset() const { return ar ? archive_filter_bytes(ar.get(), -1) : -1; }

  std::string after_last_entry() const {
    return last_entry.empty() ? " (before the first entry)"
                              : cat(" (after entry ", last_entry, ")");
  }

  bool next(SourceEntry& out) {
    for (;;) {
      if (ar) {
        if (next_archive_entry(out)) return true;
        continue;
      }
      if (pending.empty()) return false;
      Pending item = std::move(pending.front());
      pending.pop_front();
      if (open_path(item, out)) return true;
    }
  }

  // Starts reading one path; returns true if it produced a record (plain file) in `out`.
  bool open_path(const Pending& item, SourceEntry& out) {
    const std::string& path = item.path;
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      report(path, "", -1, errno_message(errno));
      return false;
    }
    if (S_ISDIR(st.st_mode)) {
      expand_directory(path);
      return false;
    }
    if (!S_ISREG(st.st_mode)) {
      report(path, "", -1, "not a regular file or folder");
      return false;
    }
    if (is_archive_path(path)) {
      open_archive(path, st.st_size);
      return false;
    }
    if (is_record_path(path)) return read_file(path, out);
    if (item.given) {
      report(path, "", -1, std::string(kNotAnInput));
    } else {
      ++stats.skipped_entries;
    }
    return false;
  }

  // Lists every record and archive below `root` (following symbolic links, once per folder),
  // sorted by path, and queues them ahead of the remaining paths.
  void expand_directory(const std::string& root) {
    std::vector<std::string> files;
    std::set<std::pair<dev_t, ino_t>> seen;
    std::vector<fs::path> folders = {fs::path(root)};
    while (!folders.empty()) {
      fs::path dir = std::move(folders.back());
      folders.pop_back();
      struct stat dst;
      if (::stat(dir.c_str(), &dst) == 0 && !seen.insert({dst.st_dev, dst.st_ino}).second) {
        continue;  // already listed (a link back to a parent, or two links to one folder)
      }
      std::error_code ec;
      fs::directory_iterator it(dir, ec);
      const fs::directory_iterator end;
      while (!ec && it != end) {
        const fs::path& p = it->path();
        std::error_code sec;
        fs::file_status status = it->status(sec);  // follows symbolic links
        if (fs::is_directory(status)) {
          folders.push_back(p);
        } else if (fs::is_regular_file(status) || sec) {
          // Unreadable or dangling records and archives are kept, so reading reports them.
          std::string name = p.string();
          if (is_record_path(name) || is_archive_path(name)) {
            files.push_back(std::move(name));
          } else {
            ++stats.skipped_entries;
          }
        } else {
          ++stats.skipped_entries;  // fifo, socket, device
        }
        it.increment(ec);
      }
      if (ec) report(dir.string(), "", -1, cat("cannot list folder: ", ec.message()));
    }
    std::sort(files.begin(), files.end());
    std::vector<Pending> items;
    items.reserve(files.size());
    for (std::string& f : files) items.push_back(Pending{std::move(f), false});
    pending.insert(pending.begin(), std::make_move_iterator(items.begin()),
                   std::make_move_iterator(items.end()));
  }

  bool read_file(const std::string& path, SourceEntry& out) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      report(path, "", -1, cat("cannot open: ", errno_message(errno)));
      return false;
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      report(path, "", -1, errno_message(errno));
      ::close(fd);
      return false;
    }
    const int64_t size = st.st_size;
    stats.input_bytes += size;
    if (size > options.max_entry_bytes) {
      report(path, "", -1, bytes_over_limit("file", size, options.max_entry_bytes));
      ::close(fd);
      return false;
    }
    out.data.resize(static_cast<size_t>(size));
    int64_t got = 0;
    while (got < size) {
      ssize_t n = ::read(fd, out.data.data() + got, static_cast<size_t>(size - got));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        report(path, "", got, cat("read error: ", errno_message(errno)));
        ::close(fd);
        return false;
      }
      if (n == 0) break;  // the file shrank while being read: take what is there
      got += n;
    }
    ::close(fd);
    out.data.resize(static_cast<size_t>(got));
    out.source = path;
    out.entry.clear();
    ++stats.entries;
    stats.bytes += got;
    return true;
  }

  void open_archive(const std::string& path, int64_t size) {
    stats.input_bytes += size;
    if (size == 0) {
      report(path, "", 0, "not a readable archive: the file is empty");
      return;
    }
    std::unique_ptr<archive, ArchiveFree> a(archive_read_new());
    if (!a) {
      report(path, "", -1, "cannot allocate an archive reader");
      return;
    }
    // Return values only warn when a filter would run an external program; ignore them.
    archive_read_support_filter_gzip(a.get());
    archive_read_support_filter_bzip2(a.get());
    archive_read_support_filter_xz(a.get());
    archive_read_support_filter_zstd(a.get());
    archive_read_support_format_tar(a.get());
    // Seekable zip (central directory) for whole files; libarchive falls back to streaming
    // the local headers when the central directory is missing, e.g. a truncated download.
    archive_read_support_format_zip(a.get());
    if (archive_read_open_filename(a.get(), path.c_str(), kArchiveBlockBytes) < ARCHIVE_WARN) {
      const char* msg = archive_error_string(a.get());
      report(path, "", 0, cat("not a readable archive: ", msg ? msg : "unknown error"));
      return;
    }
    ar = std::move(a);
    ar_path = path;
    last_entry.clear();
    in_damage = false;
    damage_position = -1;
  }

  void close_archive() {
    ar.reset();
    ar_path.clear();
    last_entry.clear();
  }

  std::string ar_error() const {
    const char* msg = archive_error_string(ar.get());
    return msg ? msg : "unknown archive error";
  }

  // Reads the next record member of `ar` into `out`. Returns false when the archive ended
  // (it is then closed).
  bool next_archive_entry(SourceEntry& out) {
    archive* a = ar.get();
    for (;;) {
      archive_entry* ae = nullptr;
      const int r = archive_read_next_header(a, &ae);
      if (r == ARCHIVE_EOF) {
        close_archive();
        return false;
      }
      if (r == ARCHIVE_FATAL) {
        report(ar_path, "", ar_offset(), ar_error() + after_last_entry());
        close_archive();
        return false;
      }
      if (r == ARCHIVE_RETRY || r == ARCHIVE_FAILED) {
        // RETRY: a damaged tar header; libarchive scans ahead block by block for the next good
        // one, so report only the first of a run. FAILED: this member is unreadable, the next
        // may be fine. Give up if no input is consumed between two failures.
        const int64_t position = archive_filter_bytes(a, 0);
        if (damage_position == position) {
          close_archive();
          return false;
        }
        if (!in_damage || r == ARCHIVE_FAILED) {
          const char* name = ae ? archive_entry_pathname(ae) : nullptr;
          report(ar_path, name ? name : "", ar_offset(),
                 ar_error() + "; skipping to the next readable entry" + after_last_entry());
        }
        in_damage = r == ARCHIVE_RETRY;
        damage_position = position;
        continue;
      }
      in_damage = false;  // ARCHIVE_OK or ARCHIVE_WARN (e.g. a name not convertible)
      damage_position = -1;

      const char* name = archive_entry_pathname(ae);
      if (!name) name = archive_entry_pathname_utf8(ae);
      last_entry = name ? name : "";
      if (archive_entry_filetype(ae) != AE_IFREG || archive_entry_hardlink(ae) != nullptr ||
          !is_record_path(last_entry)) {
        ++stats.skipped_entries;
        continue;  // libarchive skips the member's data on the next header read
      }
      if (archive_entry_size_is_set(ae) && archive_entry_size(ae) >= 0) {
        const int64_t size = archive_entry_size(ae);
        if (size > options.max_entry_bytes) {
          report(ar_path, last_entry, ar_offset(),
                 bytes_over_limit("entry", size, options.max_entry_bytes));
          continue;
        }
        if (!read_known_size(size, out)) {
          if (!ar) return false;
          continue;
        }
      } else if (!read_unknown_size(out)) {
        if (!ar) return false;
        continue;
      }
      out.source = ar_path;
      out.entry = last_entry;
      ++stats.entries;
      stats.bytes += static_cast<int64_t>(out.data.size());
      return true;
    }
  }

  // Handles a failed archive_read_data: reports it, closes the archive when it cannot go on.
  void data_failure(la_ssize_t code) {
    report(ar_path, last_entry, ar_offset(), ar_error());
    if (code == ARCHIVE_FATAL) close_archive();
  }

  bool read_known_size(int64_t size, SourceEntry& out) {
    out.data.resize(static_cast<size_t>(size));
    int64_t got = 0;
    while (got < size) {
      la_ssize_t n = archive_read_data(ar.get(), out.data.data() + got,
                                       static_cast<size_t>(size - got));
      if (n < 0) {
        data_failure(n);
        return false;
      }
      if (n == 0) break;
      got += n;
    }
    if (got < size) {
      report(ar_path, last_entry, ar_offset(),
             cat("entry ends after ", got, " of ", size, " bytes"));
      return false;
    }
    return true;
  }

  bool read_unknown_size(SourceEntry& out) {
    out.data.clear();
    size_t got = 0;
    for (;;) {
      out.data.resize(got + kChunkBytes);
      la_ssize_t n = archive_read_data(ar.get(), out.data.data() + got, kChunkBytes);
      if (n < 0) {
        data_failure(n);
        return false;
      }
      if (n == 0) break;
      got += static_cast<size_t>(n);
      if (static_cast<int64_t>(got) > options.max_entry_bytes) {
        report(ar_path, last_entry, ar_offset(),
               cat("entry is over the limit of ", options.max_entry_bytes, " bytes"));
        return false;
      }
    }
    out.data.resize(got);
    return true;
  }
};

EntryReader::EntryReader(std::vector<std::string> paths, SourceErrorCallback on_error,
                         SourceOptions options)
    : state_(std::make_unique<State>()) {
  for (std::string& p : paths) state_->pending.push_back(Pending{std::move(p), true});
  state_->on_error = std::move(on_error);
  state_->options = options;
}

EntryReader::~EntryReader() = default;
EntryReader::EntryReader(EntryReader&&) noexcept = default;
EntryReader& EntryReader::operator=(EntryReader&&) noexcept = default;

bool EntryReader::next(SourceEntry& out) { return state_ && state_->next(out); }

std::optional<SourceEntry> EntryReader::next() {
  SourceEntry entry;
  if (!next(entry)) return std::nullopt;
  return entry;
}

const SourceStats& EntryReader::stats() const {
  static const SourceStats kEmpty;
  return state_ ? state_->stats : kEmpty;
}

SourceStats for_each_entry(std::span<const std::string> paths,
                           const std::function<void(SourceEntry&&)>& on_entry,
                           const SourceErrorCallback& on_error, SourceOptions options) {
  EntryReader reader(std::vector<std::string>(paths.begin(), paths.end()), on_error, options);
  SourceEntry entry;
  while (reader.next(entry)) on_entry(std::move(entry));
  return reader.stats();
}

}  // namespace hane
