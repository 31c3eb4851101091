// Micro-benchmarks of local patterns and whole-board maps.
// Run: build/bench/hane_bench --benchmark_filter='Pattern|Influence|TreeGuess'
#include <benchmark/benchmark.h>

#include "bench_positions.h"

#include <memory>
#include <string>
#include <vector>

#include "features/influence.h"
#include "features/strategic_context.h"
#include "features/pattern.h"
#include "features/pattern_tracker.h"
#include "go/board.h"
#include "go/position.h"
#include "playout/uniform.h"
#include "predict/load.h"

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

// The whole-board maps (features/influence.h) of a 19x19 mid-game position (150 random moves),
// one map a run: arg 0 the distance-decay influence, 1 Bouzy's three operators, 2 every map and
// the classes (board_maps), 3 the tactics reader's dead stones, 4 board_maps with those dead
// stones and the static score (the static estimate_score).
void BM_InfluenceMaps(benchmark::State& state) {
  const Board b = bench::random_midgame(5);
  auto maps = std::make_unique<BoardMaps>();
  for (auto _ : state) {
    switch (state.range(0)) {
      case 0: distance_influence(b, nullptr, maps->influence); break;
      case 1: bouzy_maps(b, nullptr, maps->bouzy); break;
      case 2: board_maps(b, nullptr, *maps); break;
      case 3: maps->dead = dead_stones_by_tactics(b, Color::kBlack); break;
      default: {
        const PointSet dead = dead_stones_by_tactics(b, Color::kBlack);
        board_maps(b, &dead, *maps);
        benchmark::DoNotOptimize(static_margin(b, *maps, 7.5, false));
      }
    }
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_InfluenceMaps)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// The strategic softmax features' context (features/strategic_context.h) of the same position,
// one family a run: arg 0 class, 1 influence, 2 kind (each the maps with the dead stones: the
// three share them), 3 nearest (the two distance transforms), 4 phase (nothing to compute), 5
// every family.
void BM_StrategicContext(benchmark::State& state) {
  const Board b = bench::random_midgame(5);
  const int arg = static_cast<int>(state.range(0));
  const StrategicFamilies families =
      arg == 5 ? kAllStrategicFamilies : static_cast<StrategicFamilies>(1u << arg);
  auto ctx = std::make_unique<StrategicContext>(families);
  const Position p{&b, Color::kBlack, Vertex::none(), Vertex::none(), 151};
  for (auto _ : state) {
    ctx->set_position(p);
    benchmark::ClobberMemory();
  }
  state.SetLabel(strategic_families_string(families));
}
BENCHMARK(BM_StrategicContext)->DenseRange(0, 5)->Unit(benchmark::kMicrosecond);

// Beside the maps, one guess of the shipped decision tree (patterns/kgs-tree.model): every
// legal move of the same position scored, as `hane eval` times a guess.
void BM_TreeGuess(benchmark::State& state) {
  auto guesser = load_guesser(HANE_PATTERNS_DIR "/kgs-tree.model");
  if (!guesser.ok()) {
    state.SkipWithError(std::string(guesser.status().message()).c_str());
    return;
  }
  const Board b = bench::random_midgame(5);
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(static_cast<size_t>(legal_moves(b, Color::kBlack, moves)));
  std::vector<float> scores(moves.size());
  const Position p{&b, Color::kBlack, Vertex::none(), Vertex::none(), 151};
  for (auto _ : state) {
    (*guesser)->score(p, moves, scores);
    benchmark::DoNotOptimize(scores.data());
  }
  state.counters["moves"] = static_cast<double>(moves.size());
}
BENCHMARK(BM_TreeGuess)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace hane
