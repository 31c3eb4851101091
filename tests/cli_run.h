// Running the built `hane` from a test, as a user does: its exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace hane::testing {

/// A quick engine's `hane gtp` options for the command-line tests.
inline const std::string kEngine = "--playouts 20 --prior none --threads 1 --quiet";

struct CliResult {
  int code = -1;     // exit code; -1 when killed by a signal
  std::string out;   // stdout
  std::string err;   // stderr
};

/// Runs `hane args` through the shell (so `args` may quote), with `input` on stdin; `scratch`
/// is an existing folder for the stdin and stderr files.
inline CliResult run_hane(const std::string& args, const std::string& input, const std::filesystem::path& scratch) {
  const std::string err_file = (scratch / "stderr.txt").string();
  const std::string in_file = (scratch / "stdin.txt").string();
  std::ofstream(in_file) << input;
  const std::string command = std::string(HANE_BINARY) + " " + args + " <" + in_file + " 2>" + err_file;
  CliResult r;
  FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), {});
  return r;
}

/// Writes `games` small 9×9 games of `moves` moves each as `dir`/g0.sgf, g1.sgf, ... (made with
/// its parents), the points spread by a fixed stride so that no two games are alike.
inline void write_9x9_games(const std::filesystem::path& dir, int games, int moves) {
  std::filesystem::create_directories(dir);
  for (int g = 0; g < games; ++g) {
    std::string sgf = "(;GM[1]SZ[9]";
    for (int k = 0; k < moves; ++k) {
      const int p = (g * 13 + k * 7) % 81;
      sgf += std::string(";") + (k % 2 ? "W[" : "B[") + char('a' + p % 9) + char('a' + p / 9) + "]";
    }
    std::ofstream(dir / ("g" + std::to_string(g) + ".sgf")) << sgf << ")";
  }
}

}  // namespace hane::testing
