#include "util/files.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace hane {
namespace {

namespace fs = std::filesystem;

std::string reason() { return std::strerror(errno); }

std::string folder_of(const std::string& path) {
  const std::string parent = fs::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

// A new file next to `path`, opened for writing (O_EXCL: never one that exists), or -1.
int open_temporary(const std::string& path, std::string* name) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    *name = path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    const int fd = ::open(name->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

// Writes every byte and flushes them to the disk; false with errno set on failure.
bool write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    content.remove_prefix(static_cast<size_t>(n));
  }
  return ::fsync(fd) == 0;
}

// The temporary file with `content`, flushed and closed; its name in `tmp`.
absl::Status write_temporary(const std::string& path, std::string_view content, std::string* tmp) {
  const int fd = open_temporary(path, tmp);
  if (fd < 0) return absl::InternalError("cannot write " + path + ": cannot create a temporary file: " + reason());
  const bool written = write_all(fd, content);
  const std::string why = reason();
  if (::close(fd) != 0 || !written) {
    const std::string close_why = reason();
    ::unlink(tmp->c_str());
    return absl::InternalError("cannot write " + path + ": " + (written ? close_why : why));
  }
  return absl::OkStatus();
}

// Makes a rename or link in `folder` durable. Some file systems refuse fsync on a folder: not
// an error (the data itself is on the disk).
void sync_folder(const std::string& folder) {
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

absl::Status write_file_atomically(const std::string& path, std::string_view content) {
  std::string tmp;
  if (absl::Status s = write_temporary(path, content, &tmp); !s.ok()) return s;
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = reason();
    ::unlink(tmp.c_str());
    return absl::InternalError("cannot write " + path + ": cannot rename " + tmp + " to it: " + why);
  }
  sync_folder(folder_of(path));
  return absl::OkStatus();
}

absl::Status write_new_file(const std::string& path, std::string_view content) {
  std::string tmp;
  if (absl::Status s = write_temporary(path, content, &tmp); !s.ok()) return s;
  const int linked = ::link(tmp.c_str(), path.c_str());
  const int link_errno = errno;
  ::unlink(tmp.c_str());
  if (linked != 0 && link_errno == EEXIST) return absl::AlreadyExistsError(path + " exists");
  if (linked != 0) {
    // A file system without hard links: create the file exclusively and write it in place.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == EEXIST) return absl::AlreadyExistsError(path + " exists");
      return absl::InternalError("cannot write " + path + ": " + reason());
    }
    const bool written = write_all(fd, content);
    const std::string why = reason();
    if (::close(fd) != 0 || !written) {
      ::unlink(path.c_str());
      return absl::InternalError("cannot write " + path + ": " + why);
    }
  }
  sync_folder(folder_of(path));
  return absl::OkStatus();
}

absl::StatusOr<OwnedFolder> OwnedFolder::open(const std::string& dir, const std::string& marker, const std::string& what) {
  if (dir.empty()) return absl::InvalidArgumentError("no output folder");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    return absl::InvalidArgumentError(dir + " is a file, not a folder: name a new or empty folder, or a " + what +
                                      "'s own");
  }
  if (!fs::exists(dir + "/" + marker, ec)) {
    // Only a new folder, one without files, or one holding the command's own marker. (A
    // temporary file of the marker is the command's own: a run killed while writing it.)
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->is_directory(ec)) continue;
      if (it->path().parent_path() == fs::path(dir) && it->path().filename().string().starts_with(marker + ".tmp-")) {
        continue;
      }
      // A run starting at the same time may have made the marker since it was looked for:
      // the command writes its marker before any other file, so a folder holding it now is
      // the command's own.
      std::error_code marker_ec;
      if (fs::exists(dir + "/" + marker, marker_ec)) break;
      return absl::InvalidArgumentError("" + dir + " holds files but no " + what + " of hane's (no " + marker + "), e.g. " +
                                        it->path().string() + ": " + (what.find_first_of("aeiou") == 0 ? "an " : "a ") + what +
                                        " writes into a new or empty folder, or resumes its own; use another --out folder");
    }
  }
  ec.clear();
  fs::create_directories(dir, ec);
  if (ec) return absl::InternalError("cannot create " + dir + ": " + ec.message());
  OwnedFolder folder(dir, marker);
  folder.reload();
  return folder;
}

void OwnedFolder::reload() {
  // FILES only grows (lines appended whole): read what was added since the last read.
  std::ifstream f(path(kFilesList), std::ios::binary);
  if (!f) return;
  f.seekg(0, std::ios::end);
  const std::streamoff size = f.tellg();
  if (size < read_to_) read_to_ = 0;  // replaced by a shorter one: read it all again
  f.seekg(read_to_);
  std::string line;
  while (std::getline(f, line)) {
    if (f.eof()) break;  // a line still being written
    if (!line.empty()) written_.insert(line);
    read_to_ = f.tellg();
  }
}

bool OwnedFolder::wrote(const std::string& name) {
  if (written_.contains(name)) return true;
  reload();
  return written_.contains(name);
}

bool OwnedFolder::may_write(const std::string& name) {
  std::error_code ec;
  return name == marker_ || !fs::exists(path(name), ec) || wrote(name);
}

bool OwnedFolder::has_marker() const {
  std::error_code ec;
  return fs::exists(dir_ + "/" + marker_, ec);
}

absl::Status OwnedFolder::note(const std::string& name) {
  if (written_.contains(name)) return absl::OkStatus();
  // One write(2) in append mode: lines of processes writing into the folder at once do not mix.
  const std::string list = path(kFilesList);
  const int fd = ::open(list.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0) return absl::InternalError("cannot append to " + list + ": " + reason());
  const std::string line = name + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
  const std::string why = reason();
  ::close(fd);
  if (!ok) return absl::InternalError("cannot append to " + list + ": " + why);
  written_.insert(name);
  return absl::OkStatus();
}

absl::Status OwnedFolder::write(const std::string& name, std::string_view content) {
  if (!may_write(name)) {
    return absl::FailedPreconditionError(path(name) + " exists and was not written by hane (" + path(kFilesList) +
                                         " does not list it): it is left as it is");
  }
  return write_own(name, content);
}

absl::Status OwnedFolder::write_own(const std::string& name, std::string_view content) {
  if (name == marker_) {
    if (absl::Status s = write_file_atomically(path(name), content); !s.ok()) return s;
    return note(name);
  }
  if (absl::Status s = note(name); !s.ok()) return s;
  return write_file_atomically(path(name), content);
}

}  // namespace hane
