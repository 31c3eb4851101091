// Streaming game-record inputs: single SGF/MGT files, folders (recursive) and archives
// (.tar, .tar.gz/.tgz, .tar.bz2/.tbz2, .tar.xz/.txz, .tar.zst/.tzst, .zip), read directly with
// libarchive without unpacking to disk.
//
// Every game-record entry (name ending in .sgf or .mgt, case-insensitive) is delivered as
// (source path, entry name inside the archive or empty, bytes), in a deterministic order:
// paths in the order given; inside a folder, all files sorted by full path (byte order);
// inside an archive, archive order. Other entries (directories, README, ...) are skipped
// and counted. Problems (missing path, unreadable file, corrupt or truncated archive, entry
// over the size limit, ...) are reported once each through an error callback, counted, and
// reading goes on with the next entry or path. Nothing here throws, except std::bad_alloc
// and whatever the caller's callbacks throw.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hane {

/// One game record: `source` is the file it came from (the archive for archive entries),
/// `entry` the member name inside the archive (empty for a plain file), `data` its bytes.
struct SourceEntry {
  std::string source;
  std::string entry;
  std::string data;
};

/// One problem. `entry` names the archive member being read, empty when the problem is not
/// inside one (a damaged header, a plain file, a folder). For archives `offset` is the number
/// of bytes of `source` consumed when the problem was detected (for a compressed archive:
/// what the decompressor consumed, i.e. about where the file is cut or damaged; 0 for an
/// unrecognised format); -1 when no position applies (missing path, plain file too large).
struct SourceError {
  std::string source;
  std::string entry;
  int64_t offset = -1;
  std::string message;
};

/// "KGS-2001.tar.gz: entry 2001/01/foo.sgf: byte 12345: truncated gzip input"; parts that do
/// not apply are left out.
std::string describe(const SourceError& error);

struct SourceStats {
  int64_t entries = 0;          // game records delivered
  int64_t skipped_entries = 0;  // archive members and folder files that are not game records
  int64_t errors = 0;           // problems reported
  int64_t bytes = 0;            // bytes of delivered game records (uncompressed)
  int64_t input_bytes = 0;      // size of the files and archives opened
};

struct SourceOptions {
  /// Records larger than this are skipped with an error.
  int64_t max_entry_bytes = int64_t{64} << 20;
};

/// True if the name ends (case-insensitively) in an archive suffix read by this layer.
bool is_archive_path(std::string_view path);
/// True if the name ends (case-insensitively) in .sgf or .mgt.
bool is_record_path(std::string_view path);
/// Why a file given as an input is not read: "not a game record or archive (expected .sgf,
/// .mgt, .tar, ... or .zip)".
inline constexpr std::string_view kNotAnInput =
    "not a game record or archive (expected .sgf, .mgt, .tar, .tar.gz, .tgz, .tar.bz2, .tar.xz, .tar.zst or .zip)";

using SourceErrorCallback = std::function<void(const SourceError&)>;

/// Pulls game records lazily across all paths, one at a time. Paths are opened (folders
/// listed, archives opened) only when reading reaches them. Not thread-safe.
class EntryReader {
 public:
  /// `on_error` is called for every problem, in stream order, from within next(); it may be
  /// empty (problems are then only counted in stats()).
  explicit EntryReader(std::vector<std::string> paths, SourceErrorCallback on_error = {},
                       SourceOptions options = {});
  ~EntryReader();
  EntryReader(EntryReader&&) noexcept;
  EntryReader& operator=(EntryReader&&) noexcept;

  /// Stores the next record in `out` (reusing its buffers) and returns true, or returns false
  /// when every path is exhausted.
  bool next(SourceEntry& out);
  /// The next record, or nullopt at the end.
  std::optional<SourceEntry> next();

  const SourceStats& stats() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Calls `on_entry` for each game record and `on_error` (may be empty) for each problem, in
/// stream order; returns the counts. `on_entry` may move from its argument.
SourceStats for_each_entry(std::span<const std::string> paths,
                           const std::function<void(SourceEntry&&)>& on_entry,
                           const SourceErrorCallback& on_error, SourceOptions options = {});

}  // namespace hane
