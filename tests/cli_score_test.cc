// `hane score`: score estimators measured on counted games. Runs the built binary on a few
// 9x9 games made here: two counted (RE[B+..], RE[W+..]), one resigned and one without a result
// (left out, and said so), with hane's own estimators and hane itself spoken to over GTP.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace hane {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class CliScoreTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("hane_cli_score_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "games");
    // The same moves in every game (so read with --no-dedup): Black builds a wall on the third
    // row from the top, White on the third from the bottom (Chinese rules, area counting), then
    // both pass: 20 moves; --at 0.9 takes the position after 18, both walls whole.
    std::string moves;
    for (int x = 0; x < 9; ++x) {
      moves += std::string(";B[") + char('a' + x) + "c];W[" + char('a' + x) + "g]";
    }
    moves += ";B[];W[]";
    const std::pair<const char*, const char*> games[] = {
        {"b.sgf", "B+2.5"}, {"w.sgf", "W+3.5"}, {"resigned.sgf", "B+R"}, {"none.sgf", ""}};
    for (const auto& [name, result] : games) {
      std::ofstream(dir_ / "games" / name) << "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]" << (*result ? "RE[" : "")
                                           << result << (*result ? "]" : "") << moves << ")";
    }
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  void SetUp() override {
    if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  }
  static testing::CliResult hane(const std::string& args) { return testing::run_hane(args, "", dir_); }
  static std::string path(const std::string& name) { return (dir_ / name).string(); }
  static inline fs::path dir_;
};

TEST_F(CliScoreTest, MeasuresEachEstimatorOnTheCountedGames) {
  // hane's estimate in this process and hane gtp's estimate_score over GTP: the same answers.
  const std::string gtp = std::string(HANE_BINARY) + " gtp --quiet --prior none --estimate-playouts 20";
  const testing::CliResult r = hane("score " + path("games") + " --size 9 --split all --no-dedup --threads 1 --at 0.9 -e static "
                                    "-e estimate:playouts=20 -e final_score --end-playouts 50 -e 'self=gtp:" + gtp +
                                    "' --json " + path("score.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("estimator"));
  EXPECT_THAT(r.out, HasSubstr("winners"));
  for (const char* name : {"static ", "estimate:playouts=20 ", "final_score ", "self "}) EXPECT_THAT(r.out, HasSubstr(name));
  EXPECT_THAT(r.err, HasSubstr("1 game(s) left out: result not counted"));
  EXPECT_THAT(r.err, HasSubstr("1 game(s) left out: no result (RE)"));

  std::ifstream in(path("score.json"));
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j["estimators"].size(), 4u);
  for (const auto& e : j["estimators"]) {
    EXPECT_EQ(e["positions"], 2) << e.dump();
    EXPECT_EQ(e["failed"], 0) << e.dump();
    const double share = e["winners_share"];
    EXPECT_TRUE(share >= 0 && share <= 1);
  }
  ASSERT_EQ(j["positions"].size(), 2u);
  for (const auto& p : j["positions"]) {
    EXPECT_EQ(p["moves"], 18);
    EXPECT_EQ(p["counting"], "area");
    EXPECT_EQ(p["self"]["margin"], p["estimate:playouts=20"]["margin"]) << p.dump();
    // Two equal walls: Black's and White's areas match, komi decides.
    EXPECT_EQ(p["static"]["margin"], -7.5) << p.dump();
  }
  // Both positions are even but for komi: White named twice, so the B+2.5 game is missed.
  EXPECT_EQ(j["estimators"][0]["winners_named"], 1);
  EXPECT_DOUBLE_EQ(j["estimators"][0]["mean_abs_error"].get<double>(), (10.0 + 4.0) / 2);
  EXPECT_DOUBLE_EQ(j["estimators"][0]["winners_share"].get<double>(), 0.5);
}

TEST_F(CliScoreTest, AnEngineThatFailsIsCountedAndNamed) {
  // `true` starts and exits: every estimate of it fails, the others go on; the work failed (1).
  const testing::CliResult r =
      hane("score " + path("games") + " --size 9 --split all --no-dedup --quiet -e static -e broken=gtp:true");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("broken: "));
  EXPECT_THAT(r.err, HasSubstr("b.sgf"));
  EXPECT_THAT(r.out, HasSubstr("static "));
  // A spec that is no estimator, and a name given twice, are usage errors.
  EXPECT_EQ(hane("score " + path("games") + " --size 9 -e guess").code, 2);
  EXPECT_EQ(hane("score " + path("games") + " --size 9 -e static -e static").code, 2);
  EXPECT_EQ(hane("score " + path("games") + " --size 9 -e estimate:playouts=x").code, 2);
  // The playouts' policy settings, checked before any game is read.
  const testing::CliResult bad = hane("score " + path("games") + " --size 9 -e estimate:rules.no_such_rule=1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_THAT(bad.err, HasSubstr("rules.no_such_rule"));
  EXPECT_EQ(hane("score " + path("games") + " --size 9 -e estimate:rules.ladder=7").code, 2);
  EXPECT_EQ(hane("score " + path("games") + " --size 9 --split all --no-dedup --quiet -e estimate:playouts=20,rules.ladder=1").code,
            0);
  EXPECT_EQ(hane("score " + path("games") + " --size 9 --at 0").code, 2);
  // Nothing counted: a failure of the work that says why.
  const testing::CliResult none = hane("score " + path("games") + " --size 19 --quiet");
  EXPECT_EQ(none.code, 1);
}

}  // namespace
}  // namespace hane
