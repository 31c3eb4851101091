// Writing the user's files without losing what was there: whole files replaced atomically, new
// files that never replace one, and output folders that a command owns (a marker file and a
// list of the files it wrote), so that nothing it did not write is ever overwritten.
//
// Every command that writes a file whole (model files, JSON reports, a match's or a tuning
// run's or an analysis's files, a played game) goes through these.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace hane {

/// Writes `content` to `path` so that `path` holds either its old content or the new one, never
/// a part or nothing, also after a kill, a crash or a full disk: the bytes go to a new
/// temporary file in the same folder (PATH.tmp-PID-N, created exclusively), which is flushed
/// to the disk (fsync) and then renamed over `path` (rename(2) replaces atomically within a
/// file system), and the folder is flushed so that the rename survives a power cut (the
/// order of SQLite's and LMDB's commits). On any failure the temporary file is removed and
/// `path` is left as it was. The new file gets the usual permissions (0666 less the umask).
/// Errors: Internal naming the file and the system's reason ("No space left on device").
absl::Status write_file_atomically(const std::string& path, std::string_view content);

/// Creates `path` with `content` only if no file of that name exists, atomically (a flushed
/// temporary file hard-linked to `path`: link(2) never replaces a file). Errors: AlreadyExists
/// when `path` exists (nothing written); Internal as write_file_atomically.
absl::Status write_new_file(const std::string& path, std::string_view content);

/// A folder a command writes its outputs into and may later resume or add to. It holds the
/// command's marker file (MARKER: match.json, tune.json, analyze.json), which says the folder
/// is the command's own, and FILES (files.txt): the names, relative to the folder, of every
/// file the command wrote there, each noted before it is written. The command deletes or
/// replaces only files that FILES lists.
class OwnedFolder {
 public:
  /// Opens `dir` (made when missing) for a command whose folders hold `marker`; `what` names
  /// such a folder in messages ("match", "tuning run", "analysis"). A folder that holds any
  /// file but no `marker` is refused, and left as it is: InvalidArgument "DIR holds files but
  /// no WHAT of hane's (no MARKER), e.g. FILE: a WHAT writes into a new or empty folder, or
  /// resumes its own; use another --out folder". Internal when the folder cannot be made.
  static absl::StatusOr<OwnedFolder> open(const std::string& dir, const std::string& marker, const std::string& what);

  OwnedFolder(OwnedFolder&&) = default;
  OwnedFolder& operator=(OwnedFolder&&) = default;

  const std::string& dir() const { return dir_; }
  /// dir/name.
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  /// True when FILES lists `name` (read again from the disk when not yet known, so that the
  /// notes of another process writing into the folder at the same time count).
  bool wrote(const std::string& name);
  /// True when `name` may be written: it does not exist, or FILES lists it.
  bool may_write(const std::string& name);
  /// Appends `name` to FILES (flushed) unless it is listed already. Internal on I/O errors.
  absl::Status note(const std::string& name);
  /// note(name), then write_file_atomically(path(name), content) (the marker: written first,
  /// then noted, so that a folder never holds FILES without its marker). FailedPrecondition,
  /// writing nothing, when `name` exists and FILES does not list it (the user's file).
  absl::Status write(const std::string& name, std::string_view content);
  /// note(name), then write_file_atomically, whether or not FILES lists `name`: for the fixed
  /// names of the command's own files in its own folder (settings, results, reports), which
  /// folders of older versions did not list.
  absl::Status write_own(const std::string& name, std::string_view content);
  /// True when the marker exists (the folder was the command's before this open, or it has
  /// been written since).
  bool has_marker() const;

  static constexpr const char* kFilesList = "files.txt";

 private:
  OwnedFolder(std::string dir, std::string marker) : dir_(std::move(dir)), marker_(std::move(marker)) {}
  void reload();

  std::string dir_, marker_;
  std::set<std::string> written_;
  long long read_to_ = 0;  // bytes of FILES read into written_
};

}  // namespace hane
