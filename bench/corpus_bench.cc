// Reading game-record archives: every entry of the shared KGS archives (35,782 games in ten
// .tar.gz files), unpacked in a stream and handed over, nothing parsed. Run:
//   build/bench/hane_bench --benchmark_filter=Corpus
// Skipped with a message when ../shared/datasets/kgs is absent. (The count is checked by
// tests/corpus_source_test.cc; the time is measured here, not asserted.)
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "corpus/source.h"

namespace hane {
namespace {

void BM_CorpusReadKgsArchives(benchmark::State& state) {
  const std::filesystem::path kgs = std::filesystem::path(HANE_SHARED_DIR) / "datasets" / "kgs";
  if (!std::filesystem::is_directory(kgs)) {
    state.SkipWithError(("no KGS archives at " + kgs.string()).c_str());
    return;
  }
  const std::vector<std::string> paths = {kgs.string()};
  int64_t entries = 0, bytes = 0;
  for (auto _ : state) {
    const SourceStats stats = for_each_entry(paths, [](SourceEntry&& e) { benchmark::DoNotOptimize(e.data); }, {});
    entries += stats.entries;
    bytes += stats.bytes;
  }
  state.SetItemsProcessed(entries);  // entries (games) per second
  state.SetBytesProcessed(bytes);    // unpacked bytes per second
}
BENCHMARK(BM_CorpusReadKgsArchives)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace hane
