// The learning side's plots: `hane eval --plot` (top-k curves, top-1 by phase) and the
// trainers' learning curves; their data files have one row per k, phase, epoch or
// measurement, whatever gnuplot does. Runs the built binary on small generated games.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hane {
namespace {

namespace fs = std::filesystem;

class PlotsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("hane_plots_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "games");
    // Short 9x9 games on distinct points (7 is prime to 81).
    for (int g = 0; g < 200; ++g) {
      std::string sgf = "(;GM[1]SZ[9]";
      for (int k = 0; k < 12; ++k) {
        const int p = (g * 13 + k * 7) % 81;
        sgf += std::string(";") + (k % 2 ? "W[" : "B[") + char('a' + p % 9) + char('a' + p / 9) + "]";
      }
      std::ofstream(dir_ / "games" / ("g" + std::to_string(g) + ".sgf")) << sgf << ")";
    }
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  void SetUp() override {
    if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  }
  static int hane(const std::string& args) {
    const std::string command = std::string(HANE_BINARY) + " " + args + " >" + (dir_ / "out.txt").string() + " 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  static std::string output() {
    std::ifstream in(dir_ / "out.txt");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  // The data rows (not '#') of a file, split into words.
  static std::vector<std::vector<std::string>> rows(const fs::path& file) {
    std::vector<std::vector<std::string>> out;
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream words(line);
      std::vector<std::string> row;
      for (std::string w; words >> w;) row.push_back(w);
      out.push_back(row);
    }
    return out;
  }
  static inline fs::path dir_;
};

TEST_F(PlotsTest, EvalPlotsTopKCurvesAndPhases) {
  const std::string games = (dir_ / "games").string() + " --size 9 --split all --quiet";
  ASSERT_EQ(hane("train diamond " + games + " --out " + (dir_ / "d.model").string()), 0) << output();
  ASSERT_EQ(hane("eval " + games + " -m uniform -m " + (dir_ / "d.model").string() + " --plot " + (dir_ / "plots").string()), 0)
      << output();
  EXPECT_THAT(output(), ::testing::HasSubstr("plots: "));
  const auto topk = rows(dir_ / "plots" / "topk.dat");
  ASSERT_EQ(topk.size(), 10u);  // k = 1..10
  for (size_t k = 0; k < topk.size(); ++k) {
    ASSERT_EQ(topk[k].size(), 3u);  // k, uniform, the table
    EXPECT_EQ(topk[k][0], std::to_string(k + 1));
    if (k > 0) {
      EXPECT_GE(std::stod(topk[k][2]), std::stod(topk[k - 1][2]));  // top-k never falls with k
    }
  }
  const auto phases = rows(dir_ / "plots" / "phases.dat");
  ASSERT_EQ(phases.size(), 4u);
  EXPECT_EQ(phases[0][1], "1-30");
  EXPECT_EQ(phases[0].size(), 4u);
}

TEST_F(PlotsTest, TrainersWriteTheirLearningCurves) {
  const std::string games = (dir_ / "games").string() + " --size 9 --quiet";
  // The softmax: one row per epoch run.
  ASSERT_EQ(hane("train softmax " + games + " --epochs 2 --patience 5 --min-count 1 --out " + (dir_ / "s.model").string()), 0)
      << output();
  const auto epochs = rows(dir_ / "s-curve.dat");
  ASSERT_EQ(epochs.size(), 2u) << output();
  EXPECT_EQ(epochs[0][0], "1");
  EXPECT_EQ(epochs[1][0], "2");
  EXPECT_EQ(epochs[0].size(), 3u);  // epoch, top-1 %, log-likelihood
  EXPECT_LT(std::stod(epochs[0][2]), 0);
  // The tree: the first and the last measurement (and every 1,000 leaves between).
  ASSERT_EQ(hane("train tree " + games + " --leaves 10 --min-leaf 1 --out " + (dir_ / "t.model").string()), 0) << output();
  const auto leaves = rows(dir_ / "t-curve.dat");
  ASSERT_EQ(leaves.size(), 2u) << output();
  EXPECT_EQ(leaves[0][0], "1");
  EXPECT_GT(std::stoi(leaves[1][0]), 1);
}

}  // namespace
}  // namespace hane
