// Raw playouts of the `rules` policy from the empty board, one thread, beside the uniform
// policy on the same driver. Run: build/bench/hane_bench --benchmark_filter=RulesPlayout
//
// BM_RulesPlayoutTactics/SIZE/MASK adds the tactical rules to the default rules: mask bit 1
// `ladder`, 2 `nakade`, 4 `two_liberty` with Pachi's heuristic (two_liberty_reads 0), 8
// `two_liberty` with ladder reads, 16 `ko`, 32 `ko` and `ko_threat`. With
// HANE_BENCH_PLAYOUTS=N in the environment each row of this file plays exactly N playouts
// (seed 1): fixed work, for instruction counts under callgrind (scripts/playout-instructions
// counts them inside run_playout and divides by the counter `moves`).
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "bench_positions.h"

#include "playout/rules.h"
#include "playout/uniform.h"

namespace hane {
namespace {

// HANE_BENCH_PLAYOUTS=N: exactly N iterations (playouts) per row.
void fixed_work(benchmark::internal::Benchmark* b) {
  if (const char* n = std::getenv("HANE_BENCH_PLAYOUTS"); n && std::atoi(n) > 0) b->Iterations(std::atoi(n));
}

void BM_RulesPlayout(benchmark::State& state) { bench::playouts<RulesPolicy>(state); }
void BM_RulesPlayoutUniform(benchmark::State& state) { bench::playouts<UniformPolicy>(state); }
BENCHMARK(BM_RulesPlayout)->Arg(9)->Arg(19)->Apply(fixed_work);
BENCHMARK(BM_RulesPlayoutUniform)->Arg(9)->Arg(19)->Apply(fixed_work);

void BM_RulesPlayoutTactics(benchmark::State& state) {
  const int64_t mask = state.range(1);
  RulesOptions o;
  o.ladder = mask & 1 ? 1 : 0;
  o.nakade = mask & 2 ? 1 : 0;
  o.two_liberty = mask & (4 | 8) ? 1 : 0;
  o.two_liberty_reads = (mask & 8) != 0;
  o.ko = mask & (16 | 32) ? 1 : 0;
  o.ko_threat = mask & 32 ? 1 : 0;
  bench::playouts<RulesPolicy>(state, RulesPolicy(o));
}
BENCHMARK(BM_RulesPlayoutTactics)->ArgsProduct({{9, 19}, {0, 1, 2, 4, 7, 8, 16, 48}})->Apply(fixed_work);

}  // namespace
}  // namespace hane
