// Micro-benchmarks of local patterns. Run: build/bench/hane_bench --benchmark_filter=Pattern
#include <benchmark/benchmark.h>

#include "bench_positions.h"

#include <vector>

#include "features/pattern.h"
#include "features/pattern_tracker.h"
#include "go/board.h"
#include "playout/uniform.h"

namespace hane {
namespace {


// Codes of every empty point, one full-board pass (arg: 0 = 3x3, 1 = diamond12).
void BM_PatternFullBoard(benchmark::State& state) {
  const PatternShape shape = static_cast<PatternShape>(state.range(0));
  const Board b = bench::random_midgame(5);
  std::vector<uint64_t> codes(Board::kMaxVertices);
  for (auto _ : state) {
    pattern_codes(b, Color::kWhite, shape, codes);
    benchmark::DoNotOptimize(codes.data());
    benchmark::ClobberMemory();
  }
  state.counters["empty"] = static_cast<double>(b.empty_points().size());
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(b.empty_points().size()));
}
BENCHMARK(BM_PatternFullBoard)->Arg(0)->Arg(1);

// The same with canonical() applied to every code: what a pattern-table lookup needs.
void BM_PatternFullBoardCanonical(benchmark::State& state) {
  const PatternShape shape = static_cast<PatternShape>(state.range(0));
  const Board b = bench::random_midgame(5);
  std::vector<uint64_t> codes(Board::kMaxVertices);
  const size_t n = b.empty_points().size();
  for (auto _ : state) {
    pattern_codes(b, Color::kWhite, shape, codes);
    for (size_t i = 0; i < n; ++i) codes[i] = canonical(codes[i], shape);
    benchmark::DoNotOptimize(codes.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
}
BENCHMARK(BM_PatternFullBoardCanonical)->Arg(0)->Arg(1);

// One pattern_code() call per empty point (the slow path, for comparison).
void BM_PatternPointByPoint(benchmark::State& state) {
  const PatternShape shape = static_cast<PatternShape>(state.range(0));
  const Board b = bench::random_midgame(5);
  for (auto _ : state) {
    uint64_t x = 0;
    for (int16_t v : b.empty_points()) x ^= pattern_code(b, Vertex(v), Color::kWhite, shape);
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(b.empty_points().size()));
}
BENCHMARK(BM_PatternPointByPoint)->Arg(0)->Arg(1);

// canonical() of one code (items: codes), over the mid-game's codes in turn.
void BM_PatternCanonical(benchmark::State& state) {
  const PatternShape shape = static_cast<PatternShape>(state.range(0));
  const Board b = bench::random_midgame(5);
  std::vector<uint64_t> codes(b.empty_points().size());
  pattern_codes(b, Color::kBlack, shape, codes);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(canonical(codes[i], shape));
    if (++i == codes.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PatternCanonical)->Arg(0)->Arg(1);

// Random playouts on 19x19 from the empty board, with (arg 1) and without (arg 0) a tracker
// updated after every move; the difference per move is the tracker's cost.
void BM_PatternTrackerPlayout(benchmark::State& state) {
  const bool track = state.range(0) != 0;
  const Board empty(19);
  Board board(19);
  PatternTracker tracker(empty);
  Rng rng(9);
  int64_t moves = 0, dirty = 0, changed = 0;
  for (auto _ : state) {
    board = empty;
    if (track) tracker.reset(board);
    Color c = Color::kBlack;
    int passes = 0;
    for (int m = 0; m < 3 * 19 * 19 && passes < 2; ++m) {
      const Vertex v = random_move(board, c, rng);
      if (v.is_pass()) {
        board.play(v, c);
        ++passes;
      } else {
        board.play_legal(v, c);
        passes = 0;
      }
      if (track) {
        tracker.update(board, v);
        dirty += static_cast<int64_t>(tracker.dirty().size());
        changed += tracker.num_changed_points();
      }
      c = opponent(c);
      ++moves;
    }
    benchmark::DoNotOptimize(tracker.black_code(board.at(3, 3)));
  }
  state.SetItemsProcessed(moves);  // moves per second
  if (track) {
    state.counters["dirty/move"] = static_cast<double>(dirty) / static_cast<double>(moves);
    state.counters["changed/move"] = static_cast<double>(changed) / static_cast<double>(moves);
  }
}
BENCHMARK(BM_PatternTrackerPlayout)->Arg(0)->Arg(1);

// tracker.reset() on the mid-game position (a full recomputation of all codes).
void BM_PatternTrackerReset(benchmark::State& state) {
  const Board b = bench::random_midgame(5);
  PatternTracker tracker;
  for (auto _ : state) {
    tracker.reset(b);
    benchmark::DoNotOptimize(tracker.black_code(b.at(3, 3)));
  }
}
BENCHMARK(BM_PatternTrackerReset);

}  // namespace
}  // namespace hane
