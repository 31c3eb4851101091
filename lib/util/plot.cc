#include "util/plot.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace hane {

bool gnuplot_available() {
  static const bool available = std::system("gnuplot --version >/dev/null 2>&1") == 0;
  return available;
}

std::string gnuplot_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string run_gnuplot(const std::string& script_path, const std::string& script) {
  if (!gnuplot_available()) return "gnuplot not found (Debian package gnuplot-nox)";
  {
    std::ofstream f(script_path);
    f << script;
    if (!f) return "cannot write " + script_path;
  }
  std::string log = script_path;
  if (log.ends_with(".gp")) log.resize(log.size() - 3);
  log += ".log";
  // The shell sees the paths in single quotes (a quote inside closes, escapes and reopens).
  auto shell = [](const std::string& s) {
    std::string out = "'";
    for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
  };
  if (std::system(("gnuplot " + shell(script_path) + " 2>" + shell(log)).c_str()) != 0) {
    return "gnuplot failed (see " + log + ")";
  }
  std::remove(log.c_str());
  return "";
}

}  // namespace hane
