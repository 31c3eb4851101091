// Positions and loops the micro-benchmarks share.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>

#include "go/board.h"
#include "go/random.h"
#include "playout/policy.h"
#include "playout/uniform.h"

namespace hane::bench {

/// A mid-game position: `moves` uniformly random moves (see random_move) from the empty board,
/// Black first, seeded. Random play leaves more chains in atari than a real game does.
inline Board random_midgame(uint64_t seed, int moves = 150, int size = 19) {
  Board b(size);
  Rng rng(seed);
  Color c = Color::kBlack;
  for (int i = 0; i < moves; ++i) {
    b.play(random_move(b, c, rng), c);
    c = opponent(c);
  }
  return b;
}

/// Playouts of `policy` (default-made) from the empty board of state.range(0), one per
/// iteration, seed 1, with counters playouts/s, moves/playout, moves (the total: with a fixed
/// iteration count, e.g. --benchmark_min_time=200x, the work is fixed, so instruction counts
/// per move can be read under callgrind) and time/move (shown in ns).
template <class Policy>
void playouts(benchmark::State& state, Policy policy = Policy()) {
  const int size = static_cast<int>(state.range(0));
  const Board empty(size);
  Rng rng(1);
  int64_t moves = 0;
  for (auto _ : state) {
    policy.reset(empty, Color::kBlack);
    moves += run_playout(policy, rng).moves;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["playouts/s"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
  state.counters["moves/playout"] = static_cast<double>(moves) / n;
  state.counters["moves"] = static_cast<double>(moves);
  state.counters["time/move"] =
      benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace hane::bench
