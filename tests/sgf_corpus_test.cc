// Every file of the fuzz seed corpus (tests/data/sgf/fuzz_corpus/, nasty inputs and inputs the
// fuzzer once crashed on) goes through the whole SGF layer without breaking an invariant.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "fuzz/sgf_check.h"

namespace hane {
namespace {

TEST(SgfCorpusTest, EveryFuzzCorpusFileKeepsTheInvariants) {
  const std::filesystem::path dir =
      std::filesystem::path(HANE_TEST_DATA_DIR) / "sgf" / "fuzz_corpus";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int files = 0;
  int records = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    EXPECT_EQ(fuzz::check_sgf(text), "") << entry.path();
    records += read_game(text).ok();
    ++files;
  }
  EXPECT_GE(files, 50);
  EXPECT_GE(records, 20);  // the corpus is not only broken files
}

}  // namespace
}  // namespace hane
