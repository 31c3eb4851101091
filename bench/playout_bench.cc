// Raw playouts of the `rules` policy from the empty board, one thread, beside the uniform
// policy on the same driver. Run: build/bench/hane_bench --benchmark_filter=RulesPlayout
#include <benchmark/benchmark.h>

#include "go/random.h"
#include "playout/rules.h"
#include "playout/uniform.h"

namespace hane {
namespace {

template <class Policy>
void playouts(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  const Board empty(size);
  Policy policy;
  Rng rng(1);
  int64_t moves = 0;
  for (auto _ : state) {
    policy.reset(empty, Color::kBlack);
    moves += run_playout(policy, rng).moves;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["playouts/s"] = benchmark::Counter(n, benchmark::Counter::kIsRate);
  state.counters["moves/playout"] = static_cast<double>(moves) / n;
  // Time per move (shown in ns).
  state.counters["time/move"] = benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_RulesPlayout(benchmark::State& state) { playouts<RulesPolicy>(state); }
void BM_RulesPlayoutUniform(benchmark::State& state) { playouts<UniformPolicy>(state); }
BENCHMARK(BM_RulesPlayout)->Arg(9)->Arg(19);
BENCHMARK(BM_RulesPlayoutUniform)->Arg(9)->Arg(19);

}  // namespace
}  // namespace hane
