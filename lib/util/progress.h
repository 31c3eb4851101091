// Progress lines for long runs, on stderr: count, rate, ETA. Results never go here.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace hane {

/// Prints at most one line per `interval` (and one at finish()). On a terminal the line is
/// redrawn in place; otherwise each report is a new line, every 10 s at most. Not thread-safe:
/// call from one thread.
class Progress {
 public:
  /// `what` names the job ("reading", "training epoch 3"); `unit` the counted items ("games");
  /// `total` the expected count, or 0 if unknown (then no ETA).
  Progress(std::string what, std::string unit, int64_t total = 0);
  ~Progress();

  /// Sets the count done so far, and an optional note shown at the end of the line.
  void update(int64_t done, const std::string& note = {});
  /// Prints the final line (count, rate, time taken). Called by the destructor if needed.
  void finish(const std::string& note = {});
  /// The same with the final count (work counted in batches ends between two updates).
  void finish(int64_t done, const std::string& note = {});
  /// Turns all progress output on or off (e.g. for --quiet); on by default.
  static void set_enabled(bool enabled);

 private:
  void print(bool final, const std::string& note);

  std::string what_, unit_;
  int64_t total_ = 0, done_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
  bool tty_ = false, finished_ = false, printed_ = false;
};

/// "12,345"
std::string with_thousands(int64_t n);

/// A rate for a progress line, always per second: "1,234 games/s" from 100 per second up
/// (rounded), below that three significant digits ("2.44 games/s", "0.0417 games/s"), so that
/// slow work does not read "0 games/s" and every line of a run has the same unit.
std::string rate_text(double per_second, const std::string& unit);

}  // namespace hane
