#include "engine_process/gtp_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

extern char** environ;

namespace hane {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

void ignore_sigpipe_once() {
  static std::once_flag once;
  std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string quoted_excerpt(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 80)) {
    if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 32) {
      out += '?';
    } else {
      out += c;
    }
  }
  if (s.size() > 80) out += "...";
  return absl::StrCat("\"", out, "\"");
}

}  // namespace

absl::StatusOr<std::vector<std::string>> split_command_line(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '\'') {
      const size_t end = line.find('\'', i + 1);
      if (end == std::string_view::npos) return absl::InvalidArgumentError(absl::StrCat("unterminated ' in: ", std::string(line)));
      word.append(line.substr(i + 1, end - i - 1));
      i = end;
      in_word = true;
    } else if (c == '"') {
      size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() && (line[j + 1] == '"' || line[j + 1] == '\\')) ++j;
        word += line[j];
      }
      if (j >= line.size()) return absl::InvalidArgumentError(absl::StrCat("unterminated \" in: ", std::string(line)));
      i = j;
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
      in_word = true;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) return absl::InvalidArgumentError("empty command line");
  return words;
}

GtpClient::~GtpClient() { stop(0.5); }

absl::Status GtpClient::start(const std::vector<std::string>& argv) {
  stop();
  ignore_sigpipe_once();
  if (argv.empty()) return absl::InvalidArgumentError("no program to start");
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0) return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  if (pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]);
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  if (pipe2(err, O_CLOEXEC) != 0) {
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]), ::close(out[1]), ::close(err[1]);
  if (rc != 0) {
    ::close(in[1]), ::close(out[0]), ::close(err[0]);
    const std::string msg = absl::StrCat("cannot start ", argv[0], ": ", std::strerror(rc));
    if (rc == ENOENT) return absl::NotFoundError(msg);
    if (rc == EACCES) return absl::PermissionDeniedError(msg);
    return absl::InternalError(msg);
  }
  pid_ = pid;
  to_child_ = in[1];
  from_child_ = out[0];
  err_child_ = err[0];
  fcntl(from_child_, F_SETFL, fcntl(from_child_, F_GETFL) | O_NONBLOCK);
  fcntl(err_child_, F_SETFL, fcntl(err_child_, F_GETFL) | O_NONBLOCK);
  broken_ = false;
  exit_status_ = -1;
  out_buf_.clear();
  err_partial_.clear();
  tail_.clear();
  return absl::OkStatus();
}

void GtpClient::set_stderr_file(const std::string& path) {
  drain_stderr(false);
  if (stderr_file_) std::fclose(stderr_file_);
  stderr_file_ = nullptr;
  stderr_path_ = path;
}

void GtpClient::add_stderr_bytes(std::string_view bytes) {
  if (!stderr_path_.empty()) {
    if (!stderr_file_) stderr_file_ = std::fopen(stderr_path_.c_str(), "ab");
    if (stderr_file_) {
      std::fwrite(bytes.data(), 1, bytes.size(), stderr_file_);
      std::fflush(stderr_file_);
    }
  }
  err_partial_.append(bytes);
  size_t nl;
  while ((nl = err_partial_.find('\n')) != std::string::npos) {
    std::string line = err_partial_.substr(0, nl);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    err_partial_.erase(0, nl + 1);
    tail_.push_back(std::move(line));
    if (tail_.size() > kTailLines) tail_.pop_front();
  }
}

void GtpClient::drain_stderr(bool final) {
  if (err_child_ < 0) return;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(err_child_, buf, sizeof buf);
    if (n > 0) {
      add_stderr_bytes({buf, static_cast<size_t>(n)});
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  if (final && !err_partial_.empty()) add_stderr_bytes("\n");
}

std::string GtpClient::describe_exit() {
  if (pid_ > 0 && exit_status_ < 0) {
    int status = 0;
    // The child closed its stdout; give it a moment to exit before deciding it has not.
    for (int i = 0; i < 50; ++i) {
      const pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exit_status_ = status;
        break;
      }
      if (r < 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  if (exit_status_ < 0) return "closed its output";
  if (WIFEXITED(exit_status_)) return absl::StrCat("exited with code ", WEXITSTATUS(exit_status_));
  if (WIFSIGNALED(exit_status_)) {
    const int sig = WTERMSIG(exit_status_);
    return absl::StrCat("killed by signal ", sig, " (", strsignal(sig), ")");
  }
  return "ended";
}

absl::StatusOr<GtpReply> GtpClient::command(std::string_view line, double timeout_s) {
  if (pid_ <= 0 || broken_) return absl::UnavailableError("not running");
  drain_stderr(false);
  if (!write_all(to_child_, std::string(line) + "\n")) {
    broken_ = true;
    drain_stderr(true);
    return absl::UnavailableError(describe_exit());
  }
  const auto start = Clock::now();
  char buf[4096];
  for (;;) {
    // A complete reply: optional empty lines, then '=' or '?' ... up to an empty line.
    size_t begin = out_buf_.find_first_not_of("\n");
    if (begin == std::string::npos) begin = out_buf_.size();
    const size_t end = out_buf_.find("\n\n", begin);
    if (end != std::string::npos) {
      std::string reply = out_buf_.substr(begin, end - begin);
      out_buf_.erase(0, end + 2);
      if (reply.empty() || (reply[0] != '=' && reply[0] != '?')) {
        broken_ = true;
        return absl::DataLossError(absl::StrCat("malformed reply to '", std::string(line), "': ", quoted_excerpt(reply)));
      }
      GtpReply r;
      r.ok = reply[0] == '=';
      size_t i = 1;
      while (i < reply.size() && reply[i] >= '0' && reply[i] <= '9') ++i;
      r.text = reply.substr(i);
      const size_t a = r.text.find_first_not_of(" \n");
      const size_t b = r.text.find_last_not_of(" \n");
      r.text = a == std::string::npos ? "" : r.text.substr(a, b - a + 1);
      return r;
    }
    const double left = timeout_s - seconds_since(start);
    if (left <= 0) {
      broken_ = true;
      drain_stderr(true);
      return absl::DeadlineExceededError(absl::StrFormat("no reply to '%s' within %g s", std::string(line), timeout_s));
    }
    if (cancel_ && cancel_->load()) {
      broken_ = true;
      return absl::CancelledError("interrupted");
    }
    pollfd fds[2] = {{from_child_, POLLIN, 0}, {err_child_, POLLIN, 0}};
    const int wait_ms = static_cast<int>(std::min(left * 1000.0 + 1, 50.0));
    const int n = ::poll(fds, 2, wait_ms);
    if (n < 0 && errno != EINTR) {
      broken_ = true;
      return absl::InternalError(absl::StrCat("poll: ", std::strerror(errno)));
    }
    if (fds[1].revents) drain_stderr(false);
    if (fds[0].revents) {
      const ssize_t got = ::read(from_child_, buf, sizeof buf);
      if (got > 0) {
        // GTP 2 section 2.11: controllers drop CR and treat tabs as spaces.
        for (ssize_t k = 0; k < got; ++k) {
          if (buf[k] == '\r') continue;
          out_buf_ += buf[k] == '\t' ? ' ' : buf[k];
        }
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        broken_ = true;
        drain_stderr(true);
        return absl::UnavailableError(describe_exit());
      }
    }
  }
}

void GtpClient::close_fds() {
  for (int* fd : {&to_child_, &from_child_, &err_child_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

void GtpClient::stop(double grace_s) {
  if (pid_ <= 0) {
    close_fds();
    return;
  }
  // A broken connection (timeout, garbage) gets no grace: the child may be stuck.
  if (broken_) grace_s = 0;
  if (!broken_ && to_child_ >= 0) write_all(to_child_, "quit\n");
  if (to_child_ >= 0) ::close(to_child_);
  to_child_ = -1;
  const auto start = Clock::now();
  while (exit_status_ < 0) {
    int status = 0;
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exit_status_ = status;
      break;
    }
    if (r < 0) break;
    if (seconds_since(start) >= grace_s) {
      ::kill(-pid_, SIGKILL);  // its own process group (see start)
      ::kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      exit_status_ = status;
      break;
    }
    drain_stderr(false);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  drain_stderr(true);
  close_fds();
  if (stderr_file_) std::fclose(stderr_file_);
  stderr_file_ = nullptr;
  pid_ = -1;
  broken_ = false;
}

}  // namespace hane
