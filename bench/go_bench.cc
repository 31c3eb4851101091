// Micro-benchmarks of the rules core. Run: build/bench/hane_bench --benchmark_filter=Go
#include <benchmark/benchmark.h>

#include "bench_positions.h"

#include "go/board.h"
#include "playout/uniform.h"

namespace hane {
namespace {

// The uniform policy's playouts (as BM_RulesPlayoutUniform, under the Go filter).
void BM_GoRandomPlayout(benchmark::State& state) { bench::playouts<UniformPolicy>(state); }
BENCHMARK(BM_GoRandomPlayout)->Arg(9)->Arg(19);

void BM_GoLegalAllPoints(benchmark::State& state) {
  const Board b = bench::random_midgame(2);
  for (auto _ : state) {
    int legal = 0;
    for (int16_t v : b.empty_points()) legal += b.legal(Vertex(v), Color::kBlack) == Legality::kLegal;
    benchmark::DoNotOptimize(legal);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(b.empty_points().size()));
}
BENCHMARK(BM_GoLegalAllPoints);

void BM_GoHashAfterAllPoints(benchmark::State& state) {
  const Board b = bench::random_midgame(3);
  for (auto _ : state) {
    uint64_t h = 0;
    for (int16_t v : b.empty_points()) h ^= b.hash_after(Vertex(v), Color::kBlack);
    benchmark::DoNotOptimize(h);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(b.empty_points().size()));
}
BENCHMARK(BM_GoHashAfterAllPoints);

void BM_GoBoardCopy(benchmark::State& state) {
  const Board b = bench::random_midgame(4);
  Board copy(19);
  for (auto _ : state) {
    copy = b;
    benchmark::DoNotOptimize(copy);
  }
}
BENCHMARK(BM_GoBoardCopy);

}  // namespace
}  // namespace hane
