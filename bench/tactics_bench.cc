// Micro-benchmarks of the tactical facts. Run: build/bench/hane_bench --benchmark_filter=Tactics
#include <benchmark/benchmark.h>

#include "bench_positions.h"

#include <string_view>
#include <vector>

#include "features/tactics.h"
#include "go/board.h"
#include "playout/uniform.h"

namespace hane {
namespace {

// The first 150 moves of a KGS game between two 6-dan players (allpotti-gassan, 2006-01-01),
// in SGF coordinates, alternating from Black: a real mid-game position with Black to move.
constexpr std::string_view kGameMoves =
    "qddppqdcocqjqnqgcejqfcdedfeecdecgdccgffgdgfffedibichbgbhahbjcgcibcbbadehioabbfkpiqirhqhrfqeqfpjndocodncp"
    "erepeodrcnfrgreshskrhmnqpokdmcidhghijgkfkgmfmhilgkijkjflfmemfnglhlhkelfkimjmjlikdlngebdboiphqlpkkbpdpcrd"
    "qerercqfjchegepeqclclbmdndmbnchcgbhbefdaifiecabajejdnkgghfomnmnnmmmnkllglhjikiorpriphpjojplm";

Board real_midgame() {
  Board b(19);
  Color c = Color::kBlack;
  for (size_t i = 0; i + 1 < kGameMoves.size(); i += 2) {
    const auto v = from_sgf(kGameMoves.substr(i, 2), 19);
    if (v) b.play(*v, c);
    c = opponent(c);
  }
  return b;
}


std::vector<Vertex> legal_moves(const Board& b, Color c) {
  std::vector<Vertex> out;
  for (int16_t v : b.empty_points()) {
    if (b.legal(Vertex(v), c) == Legality::kLegal) out.emplace_back(v);
  }
  return out;
}

// move_facts for every legal move of Black. Args: position (0 real game, 1 random), ladders.
void BM_TacticsMoveFacts(benchmark::State& state) {
  const Board b = state.range(0) == 0 ? real_midgame() : bench::random_midgame(7);
  const LadderReading ladders = state.range(1) ? LadderReading::kRead : LadderReading::kSkip;
  const std::vector<Vertex> moves = legal_moves(b, Color::kBlack);
  int ataris = 0, saves = 0;
  for (Vertex v : moves) {
    const MoveFacts f = move_facts(b, v, Color::kBlack);
    ataris += f.atari();
    saves += f.save_atari();
  }
  for (auto _ : state) {
    for (Vertex v : moves) {
      MoveFacts f = move_facts(b, v, Color::kBlack, ladders);
      benchmark::DoNotOptimize(f);
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(moves.size()));
  state.counters["candidates"] = static_cast<double>(moves.size());
  state.counters["ataris"] = ataris;
  state.counters["saves"] = saves;
  state.counters["ns/candidate"] =
      benchmark::Counter(static_cast<double>(state.iterations() * moves.size()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_TacticsMoveFacts)->ArgsProduct({{0, 1}, {0, 1}})->Unit(benchmark::kMicrosecond);

void BM_TacticsLibertiesAfter(benchmark::State& state) {
  const Board b = bench::random_midgame(7);
  const std::vector<Vertex> moves = legal_moves(b, Color::kBlack);
  for (auto _ : state) {
    int sum = 0;
    for (Vertex v : moves) sum += liberties_after(b, v, Color::kBlack);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(moves.size()));
}
BENCHMARK(BM_TacticsLibertiesAfter);

// A working ladder across the whole 19x19 board, from the 3-3 point to the far corner.
void BM_TacticsLongLadder(benchmark::State& state) {
  Board b(19);
  b.set_stone(b.at(2, 1), Color::kBlack);
  b.set_stone(b.at(3, 1), Color::kBlack);
  b.set_stone(b.at(1, 2), Color::kBlack);
  b.set_stone(b.at(2, 2), Color::kWhite);
  const Vertex atari = b.at(2, 3);
  if (!ladder_capture(b, atari, Color::kBlack)) state.SkipWithError("the ladder should work");
  for (auto _ : state) benchmark::DoNotOptimize(ladder_capture(b, atari, Color::kBlack));
}
BENCHMARK(BM_TacticsLongLadder)->Unit(benchmark::kMicrosecond);

void BM_TacticsNakadeShape(benchmark::State& state) {
  const Board b = real_midgame();
  const std::vector<Vertex> moves = legal_moves(b, Color::kBlack);
  for (auto _ : state) {
    int found = 0;
    for (Vertex v : moves) found += nakade_shape(b, v).has_value();
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(moves.size()));
}
BENCHMARK(BM_TacticsNakadeShape);

}  // namespace
}  // namespace hane
