// A GTP client: runs another Go program as a child process and talks to it over pipes
// (Go Text Protocol version 2, https://www.lysator.liu.se/~gunnar/gtp/). Used by the match
// runner for every engine, hane's own included.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdio>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace hane {

/// A successful exchange: `ok` for '=' replies, false for '?' replies; `text` is the reply
/// without the '=' / '?' (and id) and without surrounding whitespace; lines joined by '\n'.
struct GtpReply {
  bool ok = false;
  std::string text;
};

/// Splits a command line as a POSIX shell would for simple words: blanks separate words,
/// single quotes keep everything literally, double quotes keep blanks (with \" and \\ escapes),
/// a backslash outside quotes escapes the next character. No variables, globs or pipes.
/// InvalidArgument for an unterminated quote or an empty line.
absl::StatusOr<std::vector<std::string>> split_command_line(std::string_view line);

/// One engine process. Not thread-safe: one thread drives one client.
///
/// The child runs in its own process group (so Ctrl-C in a terminal reaches only the
/// controller, which then stops its engines), with stdin and stdout on pipes and stderr on a
/// third pipe that the client drains while it waits for replies: the lines go to the file set
/// with set_stderr_file() (e.g. one per game) and the last kTailLines are kept for fault
/// reports. An engine that outputs stderr while no command is pending is drained at the next
/// command.
class GtpClient {
 public:
  static constexpr size_t kTailLines = 12;

  GtpClient() = default;
  ~GtpClient();
  GtpClient(const GtpClient&) = delete;
  GtpClient& operator=(const GtpClient&) = delete;

  /// Starts argv[0] (looked up on PATH when it has no '/') with the given arguments. Stops a
  /// running child first. Errors: NotFound / PermissionDenied / Internal with the program
  /// name when it cannot be started. A program that starts and exits at once is only seen
  /// at the first command.
  absl::Status start(const std::vector<std::string>& argv);
  /// True between a successful start() and stop() or a fault that broke the connection.
  bool running() const { return pid_ > 0 && !broken_; }
  pid_t pid() const { return pid_; }

  /// Sends one command line (no newline) and waits at most `timeout_s` seconds (wall clock)
  /// for the reply. Errors, after which the client is broken (stop() and start() again):
  ///   DeadlineExceeded "no reply to 'genmove b' within 60 s",
  ///   Unavailable "exited with code 3" / "killed by signal 11" / "not running",
  ///   DataLoss "malformed reply to 'name': \"hello\"" (a reply not starting with = or ?),
  ///   Cancelled when the cancel flag became true while waiting.
  absl::StatusOr<GtpReply> command(std::string_view line, double timeout_s);

  /// Appends the engine's stderr to `path` from now on (created on the first line; "" to
  /// stop writing). Lines are also kept in stderr_tail().
  void set_stderr_file(const std::string& path);
  /// The last lines the engine wrote to stderr, oldest first.
  std::vector<std::string> stderr_tail() const { return {tail_.begin(), tail_.end()}; }

  /// A flag polled (every 50 ms) while waiting; when it becomes true command() returns
  /// Cancelled. May be null.
  void set_cancel_flag(const std::atomic<bool>* flag) { cancel_ = flag; }

  /// Sends "quit" (when still connected), waits up to `grace_s` for the child to exit, then
  /// kills its process group with SIGKILL and reaps it (at once when the connection broke).
  /// Safe to call when not running.
  void stop(double grace_s = 1.0);

 private:
  void drain_stderr(bool final);
  void add_stderr_bytes(std::string_view bytes);
  void close_fds();
  std::string describe_exit();  // reaps the child if it has exited

  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1, err_child_ = -1;
  bool broken_ = false;
  int exit_status_ = -1;  // waitpid status once reaped
  std::string out_buf_, err_partial_;
  std::deque<std::string> tail_;
  std::string stderr_path_;
  FILE* stderr_file_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
};

}  // namespace hane
