// hane bench: speed of the core (playouts/s), printed and optionally written as JSON.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "go/playout.h"
#include "tools/commands.h"

namespace hane::tools {
namespace {

struct BenchOptions {
  double seconds = 2.0;
  uint64_t seed = 1;
  std::string json_path;
};

// Uniform-random playouts from the empty board for about `seconds`; returns playouts/s.
double playouts_per_second(int size, const BenchOptions& o) {
  const Board empty(size);
  Board board(size);
  Rng rng(o.seed);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  int64_t playouts = 0;
  double elapsed = 0;
  do {
    for (int i = 0; i < 64; ++i) {
      board = empty;
      random_playout(board, Color::kBlack, rng);
    }
    playouts += 64;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < o.seconds);
  return playouts / elapsed;
}

void run(const BenchOptions& o) {
  nlohmann::json report;
  std::printf("uniform-random playouts from the empty board, one thread, %.1f s each\n", o.seconds);
  for (int size : {9, 19}) {
    const double rate = playouts_per_second(size, o);
    std::printf("  %2dx%-2d  %10.0f playouts/s\n", size, size, rate);
    report["playouts_per_second"][std::to_string(size)] = rate;
  }
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << report.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.json_path);
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand("bench", "Measure the speed of the core: playouts/s on 9x9 and 19x19.");
  cmd->add_option("--seconds", options->seconds, "Time spent on each measurement, in seconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "PRNG seed")->capture_default_str();
  cmd->add_option("--json", options->json_path, "Also write the results to this JSON file");
  cmd->callback([options] { run(*options); });
}

}  // namespace hane::tools
