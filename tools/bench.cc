// hane bench: speed of the core (playouts/s), printed and optionally written as JSON.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "go/playout.h"
#include "predict/load.h"
#include "predict/softmax.h"
#include "search/softmax_policy.h"
#include "tools/commands.h"

namespace hane::tools {
namespace {

struct BenchOptions {
  double seconds = 2.0;
  uint64_t seed = 1;
  std::string json_path;
  std::string model_path;
};

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
// CPU time of this thread, in seconds: on a shared machine it counts only our own work.
double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Uniform-random playouts from the empty board for about `seconds`; returns playouts/s.
double playouts_per_second(int size, const BenchOptions& o) {
  const Board empty(size);
  Board board(size);
  Rng rng(o.seed);
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

// A position to guess in, kept with its own board.
struct SavedPosition {
  Board board;
  Color to_move;
  Vertex last, second_last;
};

// The softmax model on 19x19: full-board guesses on positions of policy playouts, then
// playouts with the incremental policy. Adds its figures to `report`.
void bench_softmax(const BenchOptions& o, nlohmann::json& report) {
  auto loaded = load_guesser(o.model_path);
  if (!loaded.ok()) throw std::runtime_error(std::string(loaded.status().message()));
  auto* guesser = dynamic_cast<SoftmaxGuesser*>(loaded->get());
  if (!guesser) throw std::runtime_error(o.model_path + ": --model needs a softmax model");
  const auto model = guesser->model();
  const std::string set(feature_set_name(model->feature_set));
  std::printf("\nsoftmax %s model %s on 19x19, one thread, %.1f s each\n", set.c_str(), o.model_path.c_str(), o.seconds);

  // Positions: every 7th move of policy playouts from the empty board, up to 200.
  SoftmaxPolicy policy(model);
  Rng rng(o.seed);
  std::vector<SavedPosition> positions;
  while (positions.size() < 200) {
    policy.reset(Board(19), Color::kBlack);
    Vertex second = Vertex::none();
    for (int m = 0, passes = 0; passes < 2 && m < 3 * 361; ++m) {
      if (m % 7 == 3 && positions.size() < 200) positions.push_back({policy.board(), policy.to_move(), policy.last_move(), second});
      const Vertex v = policy.sample(rng);
      passes = v.is_pass() ? passes + 1 : 0;
      second = policy.last_move();
      policy.play(v);
    }
  }

  // Full-board guesses: legal moves, then scores of all of them (as hane eval times them).
  std::vector<Vertex> moves(361);
  std::vector<float> scores(361);
  int64_t guesses = 0;
  const double guess_cpu_start = thread_cpu_seconds();
  const auto guess_start = Clock::now();
  double guess_seconds = 0;
  do {
    for (const SavedPosition& p : positions) {
      const int n = legal_moves(p.board, p.to_move, moves);
      guesser->score(Position{&p.board, p.to_move, p.last, p.second_last}, std::span(moves.data(), n),
                     std::span(scores.data(), n));
      ++guesses;
    }
    guess_seconds = since(guess_start);
  } while (guess_seconds < o.seconds);
  const double full_us = 1e6 * guess_seconds / guesses;
  const double full_cpu_us = 1e6 * (thread_cpu_seconds() - guess_cpu_start) / guesses;

  // Playouts with the incremental policy: sample, play, rescore the changed points.
  int64_t playouts = 0, moves_played = 0;
  const int64_t rescored_before = policy.rescored();
  const double playout_cpu_start = thread_cpu_seconds();
  const auto playout_start = Clock::now();
  double playout_seconds = 0;
  do {
    policy.reset(Board(19), Color::kBlack);
    moves_played += softmax_playout(policy, rng).moves;
    ++playouts;
    playout_seconds = since(playout_start);
  } while (playout_seconds < o.seconds);
  const double move_us = 1e6 * playout_seconds / moves_played;
  const double move_cpu_us = 1e6 * (thread_cpu_seconds() - playout_cpu_start) / moves_played;
  const double rate = playouts / playout_seconds;
  std::printf("  full-board guess       %10.2f µs (CPU %.2f µs; %lld guesses on %zu playout positions)\n", full_us,
              full_cpu_us, static_cast<long long>(guesses), positions.size());
  const double rescored = static_cast<double>(policy.rescored() - rescored_before) / moves_played;
  std::printf("  incremental move       %10.3f µs (CPU %.3f µs; sample + play + rescore %.1f points; %.0f moves per "
              "playout)\n", move_us, move_cpu_us, rescored, static_cast<double>(moves_played) / playouts);
  std::printf("  playouts               %10.0f playouts/s with the policy\n", rate);
  report["softmax"] = {{"model", o.model_path},
                       {"feature_set", set},
                       {"full_guess_us", full_us},
                       {"full_guess_cpu_us", full_cpu_us},
                       {"incremental_move_us", move_us},
                       {"incremental_move_cpu_us", move_cpu_us},
                       {"moves_per_playout", static_cast<double>(moves_played) / playouts},
                       {"points_rescored_per_move", rescored},
                       {"playouts_per_second", rate}};
}

void run(const BenchOptions& o) {
  nlohmann::json report;
  std::printf("uniform-random playouts from the empty board, one thread, %.1f s each\n", o.seconds);
  for (int size : {9, 19}) {
    const double rate = playouts_per_second(size, o);
    std::printf("  %2dx%-2d  %10.0f playouts/s\n", size, size, rate);
    report["playouts_per_second"][std::to_string(size)] = rate;
  }
  if (!o.model_path.empty()) bench_softmax(o, report);
  if (!o.json_path.empty()) {
    std::ofstream out(o.json_path);
    out << report.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write " + o.json_path);
  }
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand("bench", "Measure the speed of the core: playouts/s on 9x9 and 19x19 (and of a softmax model with --model).");
  cmd->add_option("--seconds", options->seconds, "Time spent on each measurement, in seconds")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "PRNG seed")->capture_default_str();
  cmd->add_option("--json", options->json_path,
                  "Also write the results to this JSON file (playouts_per_second; with --model also softmax: "
                  "full_guess_us, full_guess_cpu_us, incremental_move_us, incremental_move_cpu_us, "
                  "moves_per_playout, points_rescored_per_move, playouts_per_second)");
  cmd->add_option("--model", options->model_path,
                  "Also measure this softmax model on 19x19: µs per full-board guess, µs per incremental playout "
                  "move, playouts/s with the policy");
  cmd->callback([options] { run(*options); });
}

}  // namespace hane::tools
