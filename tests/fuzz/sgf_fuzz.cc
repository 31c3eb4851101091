// libFuzzer target: arbitrary bytes through the whole SGF layer (see sgf_check.h).
// Seed corpus: tests/data/sgf/fuzz_corpus/. Run e.g.
//   build-fuzz/tests/fuzz/sgf_fuzz -max_total_time=180 /tmp/corpus tests/data/sgf/fuzz_corpus
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/sgf_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string problem =
      hane::fuzz::check_sgf(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!problem.empty()) {
    std::fprintf(stderr, "sgf_fuzz: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
