#include "util/progress.h"

#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>

namespace hane {
namespace {
std::atomic<bool> g_enabled{true};

std::string duration(double seconds) {
  char buf[32];
  if (seconds < 60) {
    std::snprintf(buf, sizeof buf, "%.1f s", seconds);
  } else if (seconds < 3600) {
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(seconds) / 60, static_cast<int>(seconds) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(seconds) / 3600, static_cast<int>(seconds) / 60 % 60);
  }
  return buf;
}
}  // namespace

std::string with_thousands(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

void Progress::set_enabled(bool enabled) { g_enabled = enabled; }

Progress::Progress(std::string what, std::string unit, int64_t total)
    : what_(std::move(what)), unit_(std::move(unit)), total_(total) {
  start_ = last_ = std::chrono::steady_clock::now();
  tty_ = isatty(STDERR_FILENO);
}

Progress::~Progress() {
  if (!finished_ && printed_) finish();
}

void Progress::update(int64_t done, const std::string& note) {
  done_ = done;
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_).count();
  if (since < (tty_ ? 0.5 : 10.0)) return;
  last_ = now;
  print(false, note);
}

void Progress::finish(const std::string& note) {
  if (finished_) return;
  finished_ = true;
  print(true, note);
}

void Progress::finish(int64_t done, const std::string& note) {
  done_ = done;
  finish(note);
}

std::string rate_text(double per_second, const std::string& unit) {
  if (per_second >= 100 || !(per_second > 0)) return with_thousands(std::llround(per_second)) + " " + unit + "/s";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", per_second);  // slow work, a match's games: 0.0417
  return std::string(buf) + " " + unit + "/s";
}

void Progress::print(bool final, const std::string& note) {
  if (!g_enabled) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? done_ / elapsed : 0;
  std::string line = what_ + ": " + with_thousands(done_);
  if (total_ > 0) line += "/" + with_thousands(total_);
  line += " " + unit_;
  line += ", " + rate_text(rate, unit_);
  if (final) {
    line += ", " + duration(elapsed);
  } else if (total_ > 0 && rate > 0 && done_ < total_) {
    line += ", ETA " + duration((total_ - done_) / rate);
  }
  if (!note.empty()) line += ", " + note;
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s%s", line.c_str(), final ? "\n" : "");
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
  printed_ = true;
}

}  // namespace hane
