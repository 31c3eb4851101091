// hane tune: SPSA over real games with the fake engine's synthetic objective (its `tune=X`
// option: the optimum is X = 0.7), resume after a kill and an interrupt, and the usage errors
// of the command line (exit 2 before any game).
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_format.h"
#include "match/tune.h"
#include "test_files.h"

namespace hane {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kFake = HANE_FAKE_GTP_ENGINE;

// The fake engine with tune={x}: one parameter x in [0, 1], starting at 0.2.
TuneOptions fake_tune(const std::string& dir, int64_t games) {
  TuneOptions o;
  o.params = {{"x", 0.2, 0, 1, 0.1, 0.05}};
  o.integer = {false};
  o.name = "fake";
  o.engine = [](const std::string& name, const std::vector<std::string>& values) {
    return parse_engine_spec(name + "=gtp:'" + kFake + "' name=" + name + " seed={seed} tune=" + values[0], "hane", 0);
  };
  o.games = games;
  o.pairs = 2;
  o.game.size = 19;  // random games long enough for the resign times
  o.parallel = 2;
  o.seed = 3;
  o.out_dir = dir;
  o.progress = false;
  o.plots = false;
  return o;
}

size_t result_lines(const std::string& dir) {
  std::ifstream f(dir + "/results.jsonl");
  size_t n = 0;
  for (std::string line; std::getline(f, line);) n += !line.empty();
  return n;
}

// 400 games (100 batches of 2 pairs, N = 200 pairs) from x = 0.2 with C_END 0.1, R_END 0.05:
// in a simulation of this objective over 300 seeds the largest distance from 0.7 at the end
// was 0.124; the test allows 0.15.
TEST(Tune, ConvergesToTheFakeEnginesOptimum) {
  const std::string dir = testing::temp_path("tune", "converge");
  fs::remove_all(dir);
  auto out = run_tune(fake_tune(dir, 400), nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE(out->finished);
  EXPECT_NEAR(out->theta[0], 0.7, 0.15);
  EXPECT_EQ(out->report["games"], 400);
  EXPECT_EQ(out->report["schedule"]["pairs_total"], 200);
  EXPECT_EQ(out->report["schedule"]["A"], 20);
  EXPECT_EQ(out->report["trajectory"].size(), 100u);
  EXPECT_EQ(result_lines(dir), 400u);
  EXPECT_TRUE(fs::exists(dir + "/sgf/000399.sgf"));
  fs::remove_all(dir);
}

// A folder of someone else's files (no tune.json) is refused before any game, and every file in
// it is kept: the tuning's SGFs (sgf/000000.sgf, ...) would overwrite them.
TEST(Tune, RefusesAFolderOfOtherFilesAndKeepsThem) {
  const std::string dir = testing::temp_path("tune", "stranger");
  fs::remove_all(dir);
  fs::create_directories(dir + "/sgf");
  std::ofstream(dir + "/sgf/000000.sgf") << "(;GM[1]SZ[19]C[mine])";
  std::ofstream(dir + "/notes.txt") << "mine";
  auto out = run_tune(fake_tune(dir, 8), nullptr);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("no tune.json"));
  std::ifstream f(dir + "/sgf/000000.sgf");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}), "(;GM[1]SZ[19]C[mine])");
  EXPECT_TRUE(fs::exists(dir + "/notes.txt"));
  EXPECT_FALSE(fs::exists(dir + "/tune.json"));
  EXPECT_FALSE(fs::exists(dir + "/results.jsonl"));
  fs::remove_all(dir);
}

// The folder is kept by the results store of a match (match/results_store.h): files.txt lists
// every SGF written; a file in sgf/ named as a game still to be played that the run did not
// write stops the resume (it is left as it is); another run's settings name the setting and
// both values.
TEST(Tune, KeepsAFilesListAndNeverWritesOverAStrangersSgf) {
  const std::string dir = testing::temp_path("tune", "store");
  fs::remove_all(dir);
  ASSERT_TRUE(run_tune(fake_tune(dir, 8), nullptr).ok());
  std::set<std::string> listed;
  {
    std::ifstream f(dir + "/files.txt");
    for (std::string line; std::getline(f, line);) listed.insert(line);
  }
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(listed.contains(absl::StrFormat("sgf/%06d.sgf", i))) << i;
  EXPECT_TRUE(listed.contains("report.json"));
  // As if the run had been killed before game 7 was recorded and the user had put a file of
  // theirs where game 7's SGF goes.
  {
    std::ifstream in(dir + "/results.jsonl");
    std::string kept;
    for (std::string line; std::getline(in, line);) {
      const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || j.value("game", -1) != 7) kept += line + "\n";
    }
    std::ofstream(dir + "/results.jsonl") << kept;
    std::string files;
    for (const std::string& name : listed) {
      if (name != "sgf/000007.sgf") files += name + "\n";
    }
    std::ofstream(dir + "/files.txt") << files;
    std::ofstream(dir + "/sgf/000007.sgf") << "(;GM[1]C[mine])";
  }
  ASSERT_EQ(result_lines(dir), 7u);
  auto out = run_tune(fake_tune(dir, 8), nullptr);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("000007.sgf was not written by this tuning run"));
  std::ifstream f(dir + "/sgf/000007.sgf");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}), "(;GM[1]C[mine])");
  // Other settings: the message names the setting and both values.
  fs::remove(dir + "/sgf/000007.sgf");
  TuneOptions other = fake_tune(dir, 8);
  other.seed = 4;
  auto refused = run_tune(other, nullptr);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("seed: 4 now, 3 before"));
  fs::remove_all(dir);
}

TEST(Tune, ResumeAfterKillAndInterruptGivesTheSameTrajectory) {
  const std::string whole = testing::temp_path("tune", "whole");
  const std::string parts = testing::temp_path("tune", "parts");
  fs::remove_all(whole);
  fs::remove_all(parts);
  auto uninterrupted = run_tune(fake_tune(whole, 48), nullptr);
  ASSERT_TRUE(uninterrupted.ok()) << uninterrupted.status();

  // Killed after a few games (a line may be cut), then interrupted, then run to the end.
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto out = run_tune(fake_tune(parts, 48), nullptr);
    _exit(out.ok() ? 0 : 1);
  }
  for (int i = 0; i < 4000 && result_lines(parts) < 10; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  const size_t before = result_lines(parts);
  ASSERT_GE(before, 10u);
  ASSERT_LT(before, 48u) << "the run ended before it was killed";
  std::ofstream(parts + "/results.jsonl", std::ios::app) << "{\"game\": 47, \"pairing\": 0, \"bla";
  std::atomic<bool> interrupt{false};
  std::jthread stopper([&] {
    for (int i = 0; i < 4000 && result_lines(parts) < before + 6; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    interrupt = true;
  });
  auto part = run_tune(fake_tune(parts, 48), &interrupt);
  stopper.join();
  ASSERT_TRUE(part.ok()) << part.status();
  auto done = run_tune(fake_tune(parts, 48), nullptr);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_TRUE(done->finished);
  EXPECT_EQ(done->report["trajectory"], uninterrupted->report["trajectory"]);
  EXPECT_EQ(done->theta, uninterrupted->theta);
  EXPECT_EQ(result_lines(parts), 48u);

  // Another run's settings in the folder are refused.
  TuneOptions other = fake_tune(parts, 48);
  other.seed = 4;
  EXPECT_EQ(run_tune(other, nullptr).status().code(), absl::StatusCode::kInvalidArgument);
  fs::remove_all(whole);
  fs::remove_all(parts);
}

// The report of a short run: the running Elo says why it is not measured yet (the first batch
// starts at theta, where neither side is ahead), and the plots are drawn by util/plot.h, also
// in a folder whose name holds a quote, with the legends below the curves.
TEST(Tune, ShortRunReportAndPlots) {
  const std::string dir = testing::temp_path("tune", "it's plots");
  fs::remove_all(dir);
  TuneOptions o = fake_tune(dir, 4);
  o.plots = true;
  auto out = run_tune(o, nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->report["games"], 4);
  EXPECT_THAT(out->text, HasSubstr("running Elo: not measured yet"));
  EXPECT_THAT(out->text, HasSubstr("theta was still at its start"));
  EXPECT_THAT(out->text, ::testing::Not(HasSubstr("no game counted yet")));
  if (std::system("gnuplot --version >/dev/null 2>&1") == 0) {
    EXPECT_THAT(out->text, HasSubstr("plots: " + dir + "/theta-x.svg"));
    EXPECT_TRUE(fs::exists(dir + "/theta-x.svg"));
    EXPECT_TRUE(fs::exists(dir + "/elo.svg"));
    std::ifstream script(dir + "/plots.gp");
    EXPECT_THAT(std::string(std::istreambuf_iterator<char>(script), {}), HasSubstr("set key below"));
  }
  fs::remove_all(dir);
}

TEST(Tune, AgainstAnOpponentEachSidePlaysIt) {
  const std::string dir = testing::temp_path("tune", "against");
  fs::remove_all(dir);
  TuneOptions o = fake_tune(dir, 16);
  auto x = parse_engine_spec("x=gtp:'" + kFake + "' name=x seed={seed} tune=0.5", "hane", 0);
  ASSERT_TRUE(x.ok());
  o.against = *x;
  auto out = run_tune(o, nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->report["games"], 16);
  EXPECT_EQ(out->report["trajectory"].size(), 2u);  // 8 games a batch: 2 pairs per side
  EXPECT_THAT(out->report["running_elo"]["meaning"].get<std::string>(), HasSubstr("against the opponent"));
  fs::remove_all(dir);
}

TEST(Tune, AForfeitIsALossOfTheSideThatForfeited) {
  const std::string dir = testing::temp_path("tune", "forfeit");
  fs::remove_all(dir);
  TuneOptions o = fake_tune(dir, 4);
  o.pairs = 2;
  // Every engine crashes at its first genmove: black forfeits every game.
  o.engine = [](const std::string& name, const std::vector<std::string>& values) {
    return parse_engine_spec(name + "=gtp:'" + kFake + "' name=" + name + " crash=1 tune=" + values[0], "hane", 0);
  };
  auto out = run_tune(o, nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->report["forfeits"], 4);
  // Plus was black in two games and white in two: W - L = 0, theta stays.
  EXPECT_EQ(out->report["trajectory"][0]["result"], 0);
  EXPECT_EQ(out->theta[0], 0.2);
  fs::remove_all(dir);
}

// The command line: bad input is a usage error (exit 2) before any game.
int hane_code(const std::string& args, std::string* err = nullptr) {
  const std::string err_file = testing::temp_path("tune", "stderr.txt");
  const int status = std::system((std::string(HANE_BINARY) + " " + args + " >/dev/null 2>" + err_file).c_str());
  if (err) {
    std::ifstream in(err_file);
    err->assign(std::istreambuf_iterator<char>(in), {});
  }
  fs::remove(err_file);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(TuneCommand, BadParametersAreUsageErrorsBeforeAnyGame) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built";
  const std::string dir = testing::temp_path("tune", "usage");
  fs::remove_all(dir);
  const std::string base = "tune --quiet --out " + dir + " -e 'a=hane:--playouts 10 --prior none' ";
  std::string err;
  EXPECT_EQ(hane_code(base + "--param prior-wieght=40:0:100", &err), 2);
  EXPECT_THAT(err, HasSubstr("prior-wieght: not an option of hane gtp"));
  EXPECT_THAT(err, HasSubstr("did you mean"));
  EXPECT_EQ(hane_code(base + "--param prior-weight=400:0:100", &err), 2);
  EXPECT_THAT(err, HasSubstr("START is outside [MIN, MAX]"));
  EXPECT_EQ(hane_code(base + "--param prior-weight=40:100:100", &err), 2);
  EXPECT_THAT(err, HasSubstr("MIN must be below MAX"));
  EXPECT_EQ(hane_code(base + "--param prior-weight=40:100:0", &err), 2);
  EXPECT_EQ(hane_code(base + "--param prior-weight=40:0", &err), 2);
  EXPECT_EQ(hane_code(base + "--param prior-weight=x:0:100", &err), 2);
  EXPECT_THAT(err, HasSubstr("START 'x' is not a number"));
  EXPECT_EQ(hane_code(base + "--param policy=1:0:2", &err), 2);
  EXPECT_THAT(err, HasSubstr("--policy takes no number"));
  EXPECT_EQ(hane_code(base + "--param no-reuse-tree=1:0:2", &err), 2);
  EXPECT_THAT(err, HasSubstr("takes no number"));
  EXPECT_EQ(hane_code(base + "--param seed=1:0:2", &err), 2);
  EXPECT_EQ(hane_code(base + "--param playouts=10:1:100", &err), 2);
  EXPECT_THAT(err, HasSubstr("set it already"));
  EXPECT_EQ(hane_code(base + "--param resign=0.5:0:2", &err), 2);  // hane gtp refuses --resign 2
  EXPECT_THAT(err, HasSubstr("--resign"));
  EXPECT_EQ(hane_code(base + "--param rules.capture=0.9:0:1.5", &err), 2);
  EXPECT_THAT(err, HasSubstr("rules.capture=1.5"));
  EXPECT_EQ(hane_code(base + "--param rules.bogus=0.5:0:1", &err), 2);
  EXPECT_THAT(err, HasSubstr("no setting 'rules.bogus'"));
  EXPECT_EQ(hane_code(base + "--param softmax.temperature=1:0.5:2", &err), 2);
  EXPECT_THAT(err, HasSubstr("reads no softmax.* settings"));
  EXPECT_EQ(hane_code("tune --quiet --out " + dir + " -e 'a=gtp:gnugo --mode gtp' --param level=5:0:10", &err), 2);
  EXPECT_THAT(err, HasSubstr("must hold {level}"));
  EXPECT_FALSE(fs::exists(dir + "/results.jsonl"));
  fs::remove_all(dir);
}


// Ctrl-C: the run stops after the games in progress, says so and how to resume, and prints theta
// so far as not finished, never as the tuned settings; exit 130.
TEST(TuneCommand, CtrlCSaysItStoppedAndHowToResume) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built";
  const std::string dir = testing::temp_path("tune", "ctrlc");
  const std::string out_file = testing::temp_path("tune", "ctrlc.out");
  fs::remove_all(dir);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!std::freopen(out_file.c_str(), "w", stdout) || !std::freopen("/dev/null", "w", stderr)) _exit(99);
    const std::string engine = "f=gtp:'" + kFake + "' name=f seed={seed} sleep=5 tune={x}";
    execl(HANE_BINARY, HANE_BINARY, "tune", "-e", engine.c_str(), "--param", "x=0.2:0:1:0.1:0.05", "--games", "400",
          "--pairs", "2", "--size", "9", "--parallel", "1", "--no-plots", "--out", dir.c_str(), static_cast<char*>(nullptr));
    _exit(98);
  }
  for (int i = 0; i < 6000 && result_lines(dir) < 6; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(child, SIGINT);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  std::ifstream in(out_file);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_THAT(text, HasSubstr("stopped (interrupted) after"));
  EXPECT_THAT(text, HasSubstr("run the same command again to resume"));
  EXPECT_THAT(text, HasSubstr("not finished; theta so far"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("tuned:")));
  fs::remove_all(dir);
  fs::remove(out_file);
}

// The README's `tune` rows name exactly the options of `hane tune --help`.
TEST(TuneCommand, ReadmeOptionsTableEqualsHelp) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built";
  const std::string help_file = testing::temp_path("tune", "help.txt");
  ASSERT_EQ(std::system((std::string(HANE_BINARY) + " tune --help >" + help_file).c_str()), 0);
  std::ifstream h(help_file);
  const std::string help((std::istreambuf_iterator<char>(h)), {});
  fs::remove(help_file);
  const std::regex option("--[a-z][a-z-]+");
  std::set<std::string> in_help;
  for (std::sregex_iterator it(help.begin(), help.end(), option), end; it != end; ++it) {
    // Option names start their help line ("  -e,--engine TEXT ..."), not the descriptions.
    const size_t line_start = help.rfind('\n', it->position()) + 1;
    const std::string before = help.substr(line_start, it->position() - line_start);
    if (before.find_first_not_of(" -e,nop,q") == std::string::npos) in_help.insert(it->str());
  }
  in_help.erase("--help");
  std::ifstream r(std::string(HANE_TEST_DATA_DIR) + "/../../README.md");
  std::set<std::string> in_readme;
  bool in_tune = false;
  for (std::string line; std::getline(r, line);) {
    if (line.starts_with("| `tune` |")) in_tune = true;
    else if (!line.starts_with("| | ")) in_tune = false;
    if (!in_tune) continue;
    const size_t first = line.find('|', 2), second = line.find('|', first + 1);
    const std::string cell = line.substr(first + 1, second - first - 1);
    std::smatch m;
    if (std::regex_search(cell, m, option)) in_readme.insert(m.str());
  }
  EXPECT_EQ(in_readme, in_help);
  EXPECT_GE(in_help.size(), 15u);
}

}  // namespace
}  // namespace hane
