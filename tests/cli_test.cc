// The `hane` command line as a user meets it: checks before any work, exit codes, typos,
// number ranges, model board sizes, eval rows and JSON, Ctrl-C, --quiet, progress counts.
// Runs the built binary.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "util/interrupt.h"

namespace hane {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

using Result = testing::CliResult;

class CliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("hane_cli_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "games9");
    fs::create_directories(dir_ / "games19");
    fs::create_directories(dir_ / "empty");
    // Short games on distinct points (7 is prime to 81 and 361), so no point is played twice.
    for (int g = 0; g < 60; ++g) {
      for (int size : {9, 19}) {
        std::string sgf = "(;GM[1]SZ[" + std::to_string(size) + "]";
        for (int k = 0; k < 8; ++k) {
          const int p = (g * 13 + k * 7) % (size * size);
          sgf += std::string(";") + (k % 2 ? "W[" : "B[") + char('a' + p % size) + char('a' + p / size) + "]";
        }
        std::ofstream(dir_ / ("games" + std::to_string(size)) / ("g" + std::to_string(g) + ".sgf")) << sgf << ")";
      }
    }
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  void SetUp() override {
    if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  }

  // Runs `hane args` (with `input` on stdin, else nothing) and collects its output.
  static Result hane(const std::string& args, const std::string& input = "") {
    return testing::run_hane(args, input, dir_);
  }
  static std::string path(const std::string& name) { return (dir_ / name).string(); }
  static inline fs::path dir_;
};

TEST_F(CliTest, MissingInputsAreUsageErrorsBeforeAnyWork) {
  for (const std::string& command : std::vector<std::string>{"dataset stats", "eval -m uniform", "train diamond --out " + path("m.model")}) {
    const Result r = hane(command + " " + path("games9") + " " + path("typo.tar.gz") + " --size 9");
    EXPECT_EQ(r.code, 2) << command;
    EXPECT_THAT(r.err, HasSubstr("typo.tar.gz: no such file or folder")) << command;
    EXPECT_THAT(r.err, Not(HasSubstr("games:"))) << command;  // nothing was read
  }
  const Result empty = hane("dataset stats " + path("empty"));
  EXPECT_EQ(empty.code, 2);
  EXPECT_THAT(empty.err, HasSubstr("empty: folder holds no game records"));
  EXPECT_EQ(hane("model info " + path("no.model")).code, 2);
  EXPECT_THAT(hane("eval " + path("games9") + " -m " + path("no.model")).err, HasSubstr("no such model file"));
}

TEST_F(CliTest, OutputsAreCheckedBeforeAnyWorkWithTheReason) {
  const Result out = hane("train diamond " + path("games9") + " --size 9 --out " + path("missing/x.model"));
  EXPECT_EQ(out.code, 2);
  EXPECT_THAT(out.err, HasSubstr("cannot write " + path("missing/x.model") + ": folder"));
  EXPECT_THAT(out.err, HasSubstr("does not exist"));
  EXPECT_THAT(out.err, Not(HasSubstr("games:")));
  const Result json = hane("dataset stats " + path("games9") + " --json " + path("empty"));
  EXPECT_EQ(json.code, 2);
  EXPECT_THAT(json.err, HasSubstr("is a folder"));
  // A folder where no file can be made, though access(2) says yes to root: /proc.
  if (fs::is_directory("/proc/self")) {
    const Result proc = hane("dataset stats " + path("games9") + " --json /proc/hane-stats.json");
    EXPECT_EQ(proc.code, 2);
    EXPECT_THAT(proc.err, HasSubstr("cannot write /proc/hane-stats.json: folder /proc:"));
    EXPECT_THAT(proc.err, Not(HasSubstr("games:")));
    const Result folder = hane("match -e a=gtp:true -e b=gtp:true --size 9 --games 2 --out /proc/hane-match");
    EXPECT_EQ(folder.code, 2);
    EXPECT_THAT(folder.err, HasSubstr("cannot make /proc/hane-match: /proc:"));
  }
}

TEST_F(CliTest, TyposGetDidYouMean) {
  const Result command = hane("trian diamond x");
  EXPECT_EQ(command.code, 2);
  EXPECT_THAT(command.err, HasSubstr("unknown command 'trian' for 'hane'; did you mean 'train'?"));
  const Result sub = hane("train diamnd x");
  EXPECT_THAT(sub.err, HasSubstr("unknown command 'diamnd' for 'hane train'; did you mean 'diamond'?"));
  const Result option = hane("train diamond " + path("games9") + " --output x.model");
  EXPECT_EQ(option.code, 2);
  EXPECT_THAT(option.err, HasSubstr("unknown option --output for 'hane train diamond'; did you mean --out?"));
  const Result dash = hane("train diamond " + path("games9") + " -out x.model");
  EXPECT_EQ(dash.code, 2);
  EXPECT_THAT(dash.err, HasSubstr("single-dash long option -out: write --out"));
  EXPECT_EQ(hane("--help").code, 0);
  EXPECT_EQ(hane("eval --help").code, 0);
}

TEST_F(CliTest, NumbersOutsideTheirRangeAreRefused) {
  const std::string games = path("games9");
  for (const std::string bad : {"--threads -1", "--max-games -5", "--min-moves -3", "--size -1", "--size 100",
                                "--size 1", "--threads x"}) {
    const Result r = hane("dataset stats " + games + " " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
  }
  EXPECT_EQ(hane("bench --seconds 0").code, 2);
  EXPECT_EQ(hane("bench --seconds 1e300").code, 2);
  const Result many = hane("dataset stats " + games + " --size 9 --quiet --threads 1000");
  EXPECT_EQ(many.code, 0) << many.err;
  EXPECT_THAT(many.err, HasSubstr("--threads 1000 is more than the"));
  // The cap reaches the work: the engine names the threads it uses (its own range is 1..256).
  const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
  const std::string cores = std::to_string(std::min(hardware, 256u));
  const Result engine = hane("gtp --policy uniform --prior none --threads 256", "quit\n");
  EXPECT_EQ(engine.code, 0) << engine.err;
  if (hardware >= 256) return;
  EXPECT_THAT(engine.err, HasSubstr("using " + cores + "\n"));
  EXPECT_THAT(engine.err, HasSubstr(" " + cores + " thread(s)"));
  EXPECT_EQ(hane("gtp --policy uniform --prior none --threads 1000", "quit\n").code, 2);
}

TEST_F(CliTest, QuietMeansOnlyResultsAndErrorsForEveryCommand) {
  const std::string games = path("games9") + " --size 9 --quiet";
  const std::string model = path("q.model");
  const std::string engine = " --quiet --policy uniform --prior none --playouts 20 --threads 1";
  // Each command with --quiet: its results on stdout (matched), nothing at all on stderr.
  const std::vector<std::pair<std::string, std::string>> commands = {
      {"dataset stats " + games, "games kept"},
      {"train diamond " + games + " --out " + model, "wrote"},
      {"train softmax " + games + " --epochs 2 --out " + path("q-softmax.model"), "wrote"},
      {"train tree " + games + " --leaves 10 --out " + path("q-tree.model"), "wrote"},
      {"eval " + games + " --split all -m uniform -m " + model, "top1"},
      {"model info --quiet " + model, "checksum ok"},
      {"bench --quiet --policy uniform --seconds 0.01", "playouts/s"},
      {"match --quiet --no-plots --size 5 --games 2 --out " + path("q-match") + " -e 'a=hane:" + engine +
           "' -e 'b=hane:" + engine + "'",
       "games"},
  };
  for (const auto& [command, result] : commands) {
    const Result r = hane(command);
    EXPECT_EQ(r.code, 0) << command << ": " << r.err;
    EXPECT_EQ(r.err, "") << command;
    EXPECT_THAT(r.out, HasSubstr(result)) << command;
  }
  // The engine commands read stdin: GTP answers, or the game in the terminal.
  const Result gtp = hane("gtp" + engine, "name\nquit\n");
  EXPECT_EQ(gtp.code, 0) << gtp.err;
  EXPECT_EQ(gtp.err, "");
  EXPECT_THAT(gtp.out, HasSubstr("= hane"));
  const Result play = hane("play --size 5 --sgf " + path("q.sgf") + engine, "quit\n");
  EXPECT_EQ(play.code, 0) << play.err;
  EXPECT_EQ(play.err, "");
  EXPECT_THAT(play.out, HasSubstr("Saved the game"));
  // Without --quiet the engine names itself on stderr.
  EXPECT_THAT(hane("gtp --policy uniform --prior none", "quit\n").err, HasSubstr("hane gtp: "));
}

TEST_F(CliTest, WorkFailuresExitOneAndUsageErrorsFoundLateExitTwo) {
  // 9x9 games, default --size 19: nothing to train on is a failure of the work.
  const Result none = hane("train diamond " + path("games9") + " --quiet --out " + path("none.model"));
  EXPECT_EQ(none.code, 1);
  EXPECT_THAT(none.err, HasSubstr("no training games"));
  // Values only the command can read are still usage errors.
  const Result rank = hane("dataset stats " + path("games9") + " --min-rank 7x");
  EXPECT_EQ(rank.code, 2);
  EXPECT_THAT(rank.err, HasSubstr("--min-rank: cannot read rank '7x'"));
  const std::string match = "match --out " + path("bad-match") + " -e a=gtp:true -e b=gtp:true";
  EXPECT_EQ(hane(match + " --sprt elo0").code, 2);
  EXPECT_EQ(hane(match + " --time 1/2").code, 2);
  EXPECT_EQ(hane("match --out " + path("bad-match") + " -e nospec -e b=gtp:true").code, 2);
  EXPECT_EQ(hane(match + " --openings " + path("typo")).code, 2);
  EXPECT_EQ(hane("dataset stats " + path("games9") + " --bots " + path("no-bots.txt")).code, 2);
  EXPECT_EQ(hane("gtp --threads 0").code, 2);
  EXPECT_EQ(hane("play --size 30").code, 2);
  // --help and --version succeed for every command.
  for (const std::string command : {"", "dataset stats", "train diamond", "train joseki", "train softmax", "train tree", "train boost", "eval",
                                    "model info", "bench", "gtp", "play", "match"}) {
    const Result help = hane(command + " --help");
    EXPECT_EQ(help.code, 0) << command;
    EXPECT_THAT(help.out, HasSubstr("--help")) << command;
  }
  EXPECT_EQ(hane("--version").code, 0);
}

// Issue 20, item 1: `match --out DIR` on a folder of someone else's files deleted them.
TEST_F(CliTest, MatchRefusesAFolderOfOtherFilesAndKeepsThem) {
  const std::string out = path("u");
  fs::create_directories(out + "/sgf");
  const std::string game = out + "/sgf/Hon-41-1.mgt";
  std::ofstream(game) << "(;GM[1]SZ[19]PB[Honinbo]PW[Other];B[pd];W[dp])";
  const std::string engine = "--playouts 20 --prior none --threads 1 --quiet";
  const Result r = hane("match -e a=hane:'" + engine + "' -e b=hane:'" + engine +
                        " --policy uniform' --games 2 --parallel 1 --size 5 --no-plots --out " + out);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(out + " holds files but no match of hane's"));
  EXPECT_TRUE(fs::exists(game));
  EXPECT_FALSE(fs::exists(out + "/match.json"));
}

TEST_F(CliTest, ProgressCountsEachGameOncePerPass) {
  const Result r = hane("train tree " + path("games9") + " --size 9 --leaves 10 --out " + path("p-tree.model"));
  ASSERT_EQ(r.code, 0) << r.err;
  // "grew a decision tree on N games": each sampling pass reads those N games once.
  const size_t on = r.out.find(" games (");
  ASSERT_NE(on, std::string::npos) << r.out;
  const std::string n = r.out.substr(r.out.rfind(' ', on - 1) + 1, on - r.out.rfind(' ', on - 1) - 1);
  EXPECT_THAT(r.err, HasSubstr("sampling positions (pass 1 of 2: counting): " + n + "/" + n + " games"));
  EXPECT_THAT(r.err, HasSubstr("sampling positions (pass 2 of 2): " + n + "/" + n + " games"));
}

TEST_F(CliTest, BoostsOnATreeAndTheModelIsListedAndMeasured) {
  const std::string tree = path("b-tree.model"), boost = path("b-boost.model");
  ASSERT_EQ(hane("train tree " + path("games9") + " --size 9 --leaves 10 --quiet --out " + tree).code, 0);
  const Result bad = hane("train boost " + path("games9") + " --size 9 --base " + path("games9") + " --out " + boost);
  EXPECT_EQ(bad.code, 2) << bad.err;  // a usage error, as every command's model option (issue 36)
  EXPECT_THAT(bad.err, HasSubstr("is a folder, not a model file"));
  const Result other_kind = hane("train boost " + path("games9") + " --size 9 --base " + path("games9") + "/g0.sgf --out " + boost);
  EXPECT_EQ(other_kind.code, 1) << other_kind.err;  // a file that does not load: the work failed
  const Result r = hane("train boost " + path("games9") + " --size 9 --base " + tree +
                        " --rounds 2 --leaves 4 --min-leaf 5 --no-early-stop --snapshots 1 --quiet --out " + boost);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("boosted 2 trees"));
  EXPECT_TRUE(fs::exists(path("b-boost-1.model")));
  const Result info = hane("model info " + boost);
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_THAT(info.out, HasSubstr("boosted trees (base "));
  EXPECT_THAT(info.out, HasSubstr("\"kind\": \"boosted-trees\""));
  const Result e = hane("eval " + path("games9") + " --size 9 --split all --quiet -m " + boost + " -m " + tree);
  EXPECT_EQ(e.code, 0) << e.err;
}

TEST_F(CliTest, ModelsRecordTheirBoardSizesAndEvalWarnsOnOthers) {
  const std::string model = path("d9.model");
  const Result train = hane("train diamond " + path("games9") + " --size 9 --split all --quiet --out " + model);
  ASSERT_EQ(train.code, 0) << train.err;
  std::ifstream in(model, std::ios::binary);
  std::string magic, header;
  std::getline(in, magic);
  std::getline(in, header);
  const nlohmann::json h = nlohmann::json::parse(header);
  EXPECT_EQ(h["board_size"], 9);
  ASSERT_TRUE(h.contains("board_sizes_seen"));
  EXPECT_EQ(h["board_sizes_seen"].size(), 1u);
  EXPECT_GT(h["board_sizes_seen"]["9"].get<int>(), 0);

  const Result other = hane("eval " + path("games19") + " --split all --quiet -m " + model);
  EXPECT_EQ(other.code, 0) << other.err;
  EXPECT_THAT(other.err, HasSubstr("was trained on 9x9 boards"));
  EXPECT_THAT(other.err, HasSubstr("are on 19x19"));
  const Result same = hane("eval " + path("games9") + " --size 9 --split all --quiet -m " + model);
  EXPECT_THAT(same.err, Not(HasSubstr("was trained on")));
}

TEST_F(CliTest, EvalRowsAreNamedAndTheJsonHasOneLayout) {
  const std::string model = path("d9b.model");
  ASSERT_EQ(hane("train diamond " + path("games9") + " --size 9 --split all --quiet --out " + model).code, 0);
  const std::string json = path("eval.json");
  // Two models of one kind (two files: one file twice is refused): rows named by label, then by
  // file name.
  fs::copy_file(model, path("d9c.model"), fs::copy_options::overwrite_existing);
  const Result r = hane("eval " + path("games9") + " --size 9 --split all --quiet -m " + model + " -m " + path("d9c.model") +
                        " -m uniform --label first --label second --json " + json);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("first "));
  EXPECT_THAT(r.out, HasSubstr("second "));
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j["models"].size(), 3u);
  EXPECT_EQ(j["models"][0]["label"], "first");
  EXPECT_EQ(j["models"][1]["label"], "second");
  EXPECT_EQ(j["models"][2]["label"], "uniform");
  // One model: the same layout, the row named by the file.
  const Result one_run = hane("eval " + path("games9") + " --size 9 --split all --quiet -m " + model + " --json " + json);
  ASSERT_EQ(one_run.code, 0) << one_run.err;
  EXPECT_THAT(one_run.out, HasSubstr("d9b.model "));
  std::ifstream in1(json);
  const nlohmann::json one = nlohmann::json::parse(in1);
  ASSERT_EQ(one["models"].size(), 1u);
  EXPECT_EQ(one["models"][0]["label"], "d9b.model");
  EXPECT_TRUE(one["models"][0].contains("top1"));
  EXPECT_EQ(hane("eval " + path("games9") + " -m uniform --label a --label b").code, 2);
}

TEST_F(CliTest, ModelInfoSummarisesAndDumpSaysWhenItCannot) {
  const std::string model = path("d9c.model");
  ASSERT_EQ(hane("train diamond " + path("games9") + " --size 9 --split all --quiet --out " + model).code, 0);
  const Result dump = hane("model info --dump " + model);
  EXPECT_EQ(dump.code, 1);
  EXPECT_THAT(dump.err, HasSubstr("--dump: this kind of model has no text form"));
  const Result info = hane("model info " + model + " --json " + path("info.json"));
  EXPECT_EQ(info.code, 0) << info.err;
  EXPECT_THAT(info.out, HasSubstr("board_sizes_seen"));
  EXPECT_TRUE(fs::exists(path("info.json")));
}

TEST_F(CliTest, SmallerThingsBotsRanksMaxGamesAndWrongBenchModels) {
  // Games between ranked players, one of them a bot.
  fs::create_directories(dir_ / "ranked");
  const std::vector<std::pair<std::string, std::string>> players = {
      {"alice", "10k"}, {"bob", "16k"}, {"carol", "1d"}, {"botty", "2k"}};
  for (size_t g = 0; g < players.size(); ++g) {
    std::ofstream(dir_ / "ranked" / ("r" + std::to_string(g) + ".sgf"))
        << "(;GM[1]SZ[9]PB[" << players[g].first << "]BR[" << players[g].second << "]PW[dave]WR[3k];B[" << char('a' + g)
        << "c];W[ee];B[" << char('a' + g) << "g])";
  }
  const std::string bots = path("bots.txt");
  std::ofstream(bots) << "botty\n";
  // --bots FILE alone leaves the bots' games out.
  const Result bot = hane("dataset stats " + path("ranked") + " --size 9 --quiet --bots " + bots);
  ASSERT_EQ(bot.code, 0) << bot.err;
  EXPECT_THAT(bot.out, HasSubstr("games kept                   3"));
  EXPECT_THAT(bot.out, HasSubstr("bot "));
  // Ranks listed by strength, weakest first.
  const Result all = hane("dataset stats " + path("ranked") + " --size 9 --quiet");
  ASSERT_EQ(all.code, 0) << all.err;
  const size_t k16 = all.out.find("16k:"), k10 = all.out.find("10k:"), k3 = all.out.find("3k:"), d1 = all.out.find("1d:");
  ASSERT_NE(d1, std::string::npos) << all.out;
  EXPECT_LT(k16, k10);
  EXPECT_LT(k10, k3);
  EXPECT_LT(k3, d1);
  // --max-games counts the same games whatever --split: the games read are the same.
  auto read = [&](const std::string& split) {
    const Result r = hane("dataset stats " + path("games9") + " --size 9 --quiet --max-games 20 --split " + split);
    return r.out.substr(0, r.out.find("games kept"));
  };
  EXPECT_EQ(read("all"), read("test"));
  EXPECT_THAT(read("all"), HasSubstr("20"));
  // A model file that is not there is a usage error before any benchmarking: nothing measured.
  const Result bench = hane("bench --policy uniform --policy softmax:" + path("no.model"));
  EXPECT_EQ(bench.code, 2);
  EXPECT_EQ(bench.out, "");
  EXPECT_THAT(bench.err, HasSubstr("no.model"));
}

// Ctrl-C during training: "interrupted" is said, the best epoch so far is written, exit 130.
TEST_F(CliTest, CtrlCDuringTrainingKeepsTheBestModelSoFar) {
  const std::string model = path("int-softmax.model");
  int err_pipe[2];
  ASSERT_EQ(::pipe(err_pipe), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::dup2(err_pipe[1], STDERR_FILENO);
    ::dup2(::open("/dev/null", O_WRONLY), STDOUT_FILENO);
    ::close(err_pipe[0]);
    ::close(err_pipe[1]);
    // More epochs than could ever end first: the run stops only by Ctrl-C.
    ::execl(HANE_BINARY, "hane", "train", "softmax", path("games9").c_str(), "--size", "9", "--epochs", "1000000",
            "--patience", "1000000", "--out", model.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(err_pipe[1]);
  std::string err;
  char buffer[4096];
  bool sent = false;
  for (ssize_t n; (n = ::read(err_pipe[0], buffer, sizeof buffer)) > 0;) {
    err.append(buffer, static_cast<size_t>(n));
    // The first epoch's line is printed inside the trainer, where Ctrl-C keeps the model.
    if (!sent && err.find("epoch 1: train loss") != std::string::npos) {
      ::kill(child, SIGINT);
      sent = true;
    }
  }
  ::close(err_pipe[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(sent) << err;
  ASSERT_TRUE(WIFEXITED(status)) << err;
  EXPECT_EQ(WEXITSTATUS(status), 130) << err;
  EXPECT_THAT(err, HasSubstr("interrupted: stopping after this epoch"));
  const Result info = hane("model info " + model);
  EXPECT_EQ(info.code, 0) << info.err;
  EXPECT_THAT(info.out, HasSubstr("checksum ok"));
}

// Ctrl-C: outside an InterruptScope the process ends with 130; inside, it only sets the flag.
TEST(Interrupt, EndsWith130OutsideAScopeAndSetsTheFlagInside) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    install_interrupt_handler();
    {
      InterruptScope scope("testing");
      std::raise(SIGINT);
      if (!interrupted()) ::_exit(3);
    }
    std::raise(SIGINT);  // outside the scope: ends the process
    ::_exit(4);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
}

}  // namespace
}  // namespace hane
