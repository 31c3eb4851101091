// Raw playouts of the `rules` policy from the empty board, one thread, beside the uniform
// policy on the same driver. Run: build/bench/hane_bench --benchmark_filter=RulesPlayout
#include <benchmark/benchmark.h>

#include "bench_positions.h"

#include "playout/rules.h"
#include "playout/uniform.h"

namespace hane {
namespace {

void BM_RulesPlayout(benchmark::State& state) { bench::playouts<RulesPolicy>(state); }
void BM_RulesPlayoutUniform(benchmark::State& state) { bench::playouts<UniformPolicy>(state); }
BENCHMARK(BM_RulesPlayout)->Arg(9)->Arg(19);
BENCHMARK(BM_RulesPlayoutUniform)->Arg(9)->Arg(19);

}  // namespace
}  // namespace hane
