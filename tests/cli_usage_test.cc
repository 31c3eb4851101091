// The command line as a newcomer meets it (issue 20): exit codes by the README's rule (2 for
// usage, 130 for Ctrl-C), checks before any work, `play` and `match` on interrupts, help texts
// that work as shown. Runs the built binary.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace hane {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using testing::CliResult;

// A hane engine for matches: fast and deterministic.
using testing::kEngine;

class CliUsageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("hane_cli_usage_test_" + std::to_string(::getpid()));
    testing::write_9x9_games(dir_ / "games9", 30, 8);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  void SetUp() override {
    if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  }
  static CliResult hane(const std::string& args, const std::string& input = "") {
    return testing::run_hane(args, input, dir_);
  }
  static std::string path(const std::string& name) { return (dir_ / name).string(); }
  static std::string read(const std::string& file) {
    std::stringstream s;
    s << std::ifstream(file).rdbuf();
    return s.str();
  }
  static std::string match(const std::string& out, const std::string& more = "") {
    return "match --no-plots --size 5 --games 2 --parallel 1 --out " + out + " -e 'a=hane:" + kEngine +
           "' -e 'b=hane:" + kEngine + " --policy uniform' " + more;
  }

  // Starts `hane args...` in a process group of its own, stdout and stderr to files; returns its pid.
  static pid_t spawn(const std::vector<std::string>& args, const std::string& out, const std::string& err,
                     int stdin_fd = -1) {
    const pid_t child = ::fork();
    if (child == 0) {
      ::setpgid(0, 0);
      ::dup2(stdin_fd >= 0 ? stdin_fd : ::open("/dev/null", O_RDONLY), STDIN_FILENO);
      ::dup2(::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), STDOUT_FILENO);
      ::dup2(::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), STDERR_FILENO);
      std::vector<char*> argv = {const_cast<char*>("hane")};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(HANE_BINARY, argv.data());
      ::_exit(127);
    }
    ::setpgid(child, child);  // (also here, so that the group exists before any signal)
    return child;
  }
  // Waits up to `seconds` for `done`, polling.
  template <class F>
  static bool wait_for(F done, double seconds) {
    for (int i = 0; i < seconds * 100; ++i) {
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
  }
  static int exit_code(pid_t child) {
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }
  static inline fs::path dir_;
};

// Item 2: the SGF path is checked before the first move; Ctrl-C saves the game so far.
TEST_F(CliUsageTest, PlayChecksTheSgfPathFirstAndSavesOnCtrlC) {
  const CliResult bad = hane("play --size 5 --sgf " + path("nofolder/x.sgf") + " " + kEngine, "D4\n");
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_THAT(bad.err, HasSubstr("nofolder"));
  EXPECT_THAT(bad.out, Not(HasSubstr("to play")));  // no game began

  const std::string sgf = path("int.sgf");
  int in[2];
  ASSERT_EQ(::pipe(in), 0);
  const pid_t child = spawn({"play", "--size", "5", "--sgf", sgf, "--playouts", "20", "--prior", "none", "--quiet"},
                            path("play.out"), path("play.err"), in[0]);
  ::close(in[0]);
  const std::string move = "C3\n";
  ASSERT_EQ(::write(in[1], move.data(), move.size()), static_cast<ssize_t>(move.size()));
  // After the reply to C3 the program waits for the next line: interrupt it there.
  ASSERT_TRUE(wait_for([&] { return read(path("play.out")).find("hane plays") != std::string::npos; }, 30));
  ASSERT_TRUE(wait_for([&] {
    const std::string out = read(path("play.out"));
    return out.rfind("to play>") > out.find("hane plays");
  }, 30));
  ::kill(child, SIGINT);
  EXPECT_EQ(exit_code(child), 130) << read(path("play.err"));
  ::close(in[1]);
  EXPECT_THAT(read(path("play.out")), HasSubstr("Saved the game so far (no result) to " + sgf));
  const std::string saved = read(sgf);
  EXPECT_THAT(saved, HasSubstr(";B[cc]"));
  EXPECT_THAT(saved, Not(HasSubstr("RE[")));
}

// Item 6: undo before the user's first move takes nothing back (the engine's move stays).
TEST_F(CliUsageTest, PlayUndoBeforeTheFirstMoveTakesNothingBack) {
  const CliResult r = hane("play --size 5 --color white --sgf " + path("undo.sgf") + " " + kEngine, "undo\nquit\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Nothing to take back."));
  size_t plays = 0;
  for (size_t at = r.out.find("hane plays"); at != std::string::npos; at = r.out.find("hane plays", at + 1)) ++plays;
  EXPECT_EQ(plays, 1u) << r.out;
}

// Item 3: --json is checked before any game.
TEST_F(CliUsageTest, MatchJsonIsCheckedBeforeAnyGame) {
  const CliResult missing = hane(match(path("j1"), "--json " + path("nofolder/x.json")));
  EXPECT_EQ(missing.code, 2) << missing.err;
  EXPECT_THAT(missing.err, HasSubstr("does not exist"));
  EXPECT_FALSE(fs::exists(path("nofolder")));
  EXPECT_FALSE(fs::exists(path("j1/results.jsonl")));
  fs::create_directories(path("jdir"));
  const CliResult folder = hane(match(path("j2"), "--json " + path("jdir")));
  EXPECT_EQ(folder.code, 2) << folder.err;
  EXPECT_THAT(folder.err, HasSubstr("is a folder"));
  const CliResult same = hane(match(path("j3"), "--json " + path("j3")));
  EXPECT_EQ(same.code, 2) << same.err;
  // Inside the --out folder, which the match makes: fine.
  const CliResult inside = hane(match(path("j4"), "--quiet --json " + path("j4/r.json")));
  EXPECT_EQ(inside.code, 0) << inside.err;
  EXPECT_TRUE(fs::exists(path("j4/r.json")));
}

// Item 4: a match that played no game takes corrected settings; a mismatch names the setting.
TEST_F(CliUsageTest, MatchSettingsAfterAFailedStartAndMismatchMessages) {
  const std::string out = path("m4");
  const CliResult failed = hane("match --no-plots --size 5 --games 2 --out " + out + " -e 'a=hane:" + kEngine +
                                " --playout 20' -e 'b=hane:" + kEngine + "'");
  EXPECT_EQ(failed.code, 1) << failed.err;  // an engine that does not start
  const CliResult fixed = hane(match(out, "--quiet"));
  EXPECT_EQ(fixed.code, 0) << fixed.err;
  const CliResult other = hane(match(out, "--quiet --komi 6.5"));
  EXPECT_EQ(other.code, 2) << other.err;
  EXPECT_THAT(other.err, HasSubstr("komi: 6.5 now, 7.5 before"));
}

// Item 5.
TEST_F(CliUsageTest, ModelInfoUniform) {
  const CliResult r = hane("model info uniform");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("uniform"));
  EXPECT_EQ(hane("model info uniform --dump").code, 1);
}

// Item 7: usage errors exit 2, also those found late.
TEST_F(CliUsageTest, UsageErrorsExitTwo) {
  const std::string missing = path("missing.model");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"bench --seconds 0.01 --policy rule", "did you mean rules?"},
      {"bench --seconds 0.01 --policy softmax", "needs a model"},
      {"bench --seconds 0.01 --policy softmax:" + missing, "no such model file"},
      {"bench --seconds 0.01 --policy rules --policy-set rules.bogus=1", "rules.bogus"},
      {"bench --seconds 0.01 --policy rules --policy-set rules.capture=2", "rules.capture=2"},
      {"gtp --prior " + missing, "no such model file"},
      {"gtp --policy softmax:" + missing, "no such model file"},
      {"gtp --policy rule", "did you mean rules?"},
      {"gtp --policy-set rules.capture=x", "rules.capture=x"},
      {"play --handicap 1", "--handicap 1"},
      {"play --size 5 --handicap 9", "--handicap 9"},
      {"match --out " + path("m7a") + " -e a=gtp:true", "at least two engines"},
      {"match --out " + path("m7b") + " -e a=gtp:true -e a=gtp:true", "'a' given twice"},
      {"match --out " + path("m7c") + " --size 5 --handicap 9 -e a=gtp:true -e b=gtp:true", "handicap 9"},
      {"match --out " + path("m7e") + " --handicap 1 -e a=gtp:true -e b=gtp:true", "handicap 1"},
      {"gtp --seed -1", "--seed: a whole number from 0, not -1"},
      {"gtp --threads 300", "--threads: 1 to 256"},
      {"match --out " + path("m7f") + " --time 0 -e a=gtp:true -e b=gtp:true", "--time 0: a clock with no time"},
      {"dataset", "a command is needed"},
      {"train tree " + path("games9") + " --size 9 --out " + path("s.model") + " --seed x", "not x"},
      {"match --out " + path("m7d") + " --time 10/x -e a=gtp:true -e b=gtp:true", "--time"},
  };
  for (const auto& [command, message] : cases) {
    const CliResult r = hane(command, "quit\n");
    EXPECT_EQ(r.code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(message)) << command;
    EXPECT_THAT(r.err, StartsWith("hane: ")) << command;  // CLI11's own messages too
  }
}

// No command writes over a file it reads, or two outputs into one file: refused before any work,
// the inputs untouched (a model's rename would replace even a read-only file).
TEST_F(CliUsageTest, OutputsNeverOverwriteInputs) {
  const std::string game = path("games9/g0.sgf");
  const std::string before = read(game);
  ASSERT_FALSE(before.empty());
  const std::string model = path("apart.model");
  ASSERT_EQ(hane("train diamond " + path("games9") + " --size 9 --split all --quiet --out " + model).code, 0);
  const std::string model_before = read(model);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"train diamond " + game + " --size 9 --split all --out " + game, "the same file as the input"},
      {"train tree " + game + " --size 9 --split all -o" + game, "the same file as the input"},
      {"train tree " + path("games9") + " --size 9 --split all --out " + game, "inside the folder read as the input"},
      {"dataset stats " + path("games9") + " --size 9 --json " + game, "inside the folder read as the input"},
      {"eval " + game + " --size 9 --split all -m " + model + " --json " + model, "the same file as --model"},
      {"train softmax " + game + " --size 9 --split all --features tree --tree " + model + " --out " + model,
       "the same file as --tree"},
  };
  for (const auto& [command, message] : cases) {
    const CliResult r = hane(command);
    EXPECT_EQ(r.code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(message)) << command;
    EXPECT_THAT(r.err, HasSubstr("never writes over what it reads")) << command;
  }
  // Files written besides the named outputs: snapshots, a learning curve, plots.
  const std::string base = path("b-1.model");
  fs::copy_file(model, base, fs::copy_options::overwrite_existing);
  const std::string base_before = read(base);
  const std::vector<std::pair<std::string, std::string>> extra = {
      {"train boost " + game + " --size 9 --split all --base " + base + " --snapshots 1 --out " + path("b.model"),
       "--snapshots would write " + base + ", the same file as --base"},
      {"train tree " + game + " --size 9 --split all --out " + path("c.model") + " --json " + path("c-curve.dat"),
       "--out would write " + path("c-curve.dat") + ", the file of --json"},
      {"eval " + game + " --size 9 --split all -m uniform --plot " + path("") + " --json " + path("topk.dat"),
       "the file of --json"},
  };
  for (const auto& [command, message] : extra) {
    const CliResult r = hane(command);
    EXPECT_EQ(r.code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(message)) << command;
  }
  EXPECT_EQ(read(base), base_before);
  // Files named inside a hane: engine's options are inputs too.
  const CliResult engine = hane("match --size 9 --games 2 --out " + path("m-apart") + " -e 'a=hane:--playouts 5 --prior " +
                                model + "' -e 'b=hane:--playouts 5' --json " + model);
  EXPECT_EQ(engine.code, 2) << engine.err;
  EXPECT_THAT(engine.err, HasSubstr("the same file as --engine " + model));
  // A named output replaces only a file of its own kind: --json does not replace a model, a
  // game record or an archive that the command does not read.
  const CliResult kind = hane("eval " + game + " --size 9 --split all -m uniform --json " + model);
  EXPECT_EQ(kind.code, 2) << kind.err;
  EXPECT_THAT(kind.err, HasSubstr("holds a hane model, not JSON"));
  const std::string other = path("other.sgf");
  fs::copy_file(game, other, fs::copy_options::overwrite_existing);
  const CliResult model_over_game = hane("train diamond " + game + " --size 9 --split all --out " + other);
  EXPECT_EQ(model_over_game.code, 2) << model_over_game.err;
  EXPECT_THAT(model_over_game.err, HasSubstr("holds a game record, not a hane model"));
  EXPECT_EQ(read(other), before);
  const CliResult rerun_json = hane("eval " + game + " --size 9 --split all -m uniform --quiet --json " + path("e.json"));
  EXPECT_EQ(rerun_json.code, 0) << rerun_json.err;
  EXPECT_EQ(hane("eval " + game + " --size 9 --split all -m uniform --quiet --json " + path("e.json")).code, 0)
      << "JSON replaces JSON";
  EXPECT_EQ(read(model), model_before);
  // eval's rows each have their own name.
  const CliResult rows = hane("eval " + game + " --size 9 --split all -m uniform -m " + model + " --label apart.model");
  EXPECT_EQ(rows.code, 2) << rows.err;
  EXPECT_THAT(rows.err, HasSubstr("two rows named apart.model"));
  fs::create_directories(path("sub"));
  fs::copy_file(model, path("sub/apart.model"), fs::copy_options::overwrite_existing);
  const CliResult same_file_name = hane("eval " + game + " --size 9 --split all --quiet -m " + model + " -m " + path("sub/apart.model"));
  EXPECT_EQ(same_file_name.code, 0) << same_file_name.err;
  EXPECT_THAT(same_file_name.out, HasSubstr(path("sub/apart.model")));
  const CliResult twice =
      hane("train tree " + game + " --size 9 --split all --out " + path("x.model") + " --json " + path("x.model"));
  EXPECT_EQ(twice.code, 2) << twice.err;
  EXPECT_THAT(twice.err, HasSubstr("also the file of --out"));
  EXPECT_EQ(read(game), before);
  EXPECT_EQ(read(model), model_before);
  EXPECT_FALSE(fs::exists(path("x.model")));
}

// Item 9: a --policy-set key no policy in use reads is refused, naming it and the policies.
TEST_F(CliUsageTest, UnusedPolicySettingsAreRefused) {
  const CliResult bare = hane("gtp --prior none --policy-set capture=0.5", "quit\n");
  EXPECT_EQ(bare.code, 2);
  EXPECT_THAT(bare.err, HasSubstr("capture=0.5: no playout policy in use reads capture (policies in use: rules"));
  const CliResult other = hane("gtp --prior none --policy rules --policy-set softmax.temperature=2", "quit\n");
  EXPECT_EQ(other.code, 2);
  EXPECT_THAT(other.err, HasSubstr("softmax.temperature"));
  const CliResult bench = hane("bench --seconds 0.01 --policy uniform --policy-set rules.capture=0.5");
  EXPECT_EQ(bench.code, 2);
  EXPECT_THAT(bench.err, HasSubstr("policies in use: uniform"));
  // A key the policy reads is fine.
  EXPECT_EQ(hane("gtp --prior none --policy-set rules.capture=0.5", "quit\n").code, 0);
}

// Item 7, Ctrl-C while the engines start; item 8, a double Ctrl-C to the whole process group.
TEST_F(CliUsageTest, MatchCtrlCWhileStartingAndTwiceQuickly) {
  const pid_t starting = spawn({"match", "--no-plots", "--out", path("c1"), "-e", "a=gtp:sleep 30", "-e", "b=gtp:sleep 30"},
                               path("c1.out"), path("c1.err"));
  // match.json is written after the handler is installed, while the engines start (a fixed
  // sleep raced the start-up of a sanitizer build on a loaded machine).
  ASSERT_TRUE(wait_for([&] { return fs::exists(path("c1") + "/match.json"); }, 60)) << read(path("c1.err"));
  ::kill(-starting, SIGINT);
  EXPECT_EQ(exit_code(starting), 130) << read(path("c1.err"));

  const std::string out = path("c2");
  const pid_t child = spawn({"match", "--no-plots", "--size", "5", "--games", "200", "--parallel", "1", "--out", out,
                             "-e", "a=hane:" + kEngine, "-e", "b=hane:" + kEngine + " --policy uniform"},
                            path("c2.out"), path("c2.err"));
  ASSERT_TRUE(wait_for([&] { return !read(out + "/results.jsonl").empty(); }, 60)) << read(path("c2.err"));
  ::kill(-child, SIGINT);
  ::kill(-child, SIGINT);
  EXPECT_EQ(exit_code(child), 130) << read(path("c2.err"));
  EXPECT_THAT(read(path("c2.out")), HasSubstr("interrupted:"));
  EXPECT_TRUE(fs::exists(out + "/report.txt"));
  // The engines died of the same Ctrl-C: no game is recorded as their fault.
  EXPECT_THAT(read(out + "/results.jsonl"), Not(HasSubstr("\"forfeit\"")));
}

// Item 10: the help shows model paths that work as typed.
TEST_F(CliUsageTest, HelpShowsRealModelPaths) {
  for (const std::string command : {"gtp", "play"}) {
    const CliResult r = hane(command + " --help");
    EXPECT_THAT(r.out, Not(HasSubstr("PATTERNS/"))) << command;
    EXPECT_THAT(r.out, HasSubstr("kgs-softmax-rollout.model")) << command;
    EXPECT_THAT(r.out, Not(HasSubstr("{false}"))) << command;  // --no-reuse-tree
    EXPECT_THAT(r.out, HasSubstr("guesser:MODEL")) << command;  // the registry's list
  }
}

// Item 11: a corpus of another board size says which sizes it holds.
TEST_F(CliUsageTest, TrainingOnAnotherSizeSuggestsSize) {
  const CliResult r = hane("train diamond " + path("games9") + " --quiet --out " + path("x.model"));
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("the games are on 9x9 (30)"));
  EXPECT_THAT(r.err, HasSubstr("try --size 9, or --size 0"));
}

// Item 12: ranges said plainly.
TEST_F(CliUsageTest, RangeErrorsSayTheRange) {
  for (const std::string& bad : {std::string("gtp --playouts 0"), std::string("gtp --time-per-move 0"),
                                std::string("bench --seconds 0"), "dataset stats " + path("games9") + " --max-games -5"}) {
    const CliResult r = hane(bad, "quit\n");
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_THAT(r.err, Not(HasSubstr("1797"))) << bad << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("must be")) << bad << ": " << r.err;
  }
}

// The small items.
TEST_F(CliUsageTest, SmallThings) {
  // Unknown short options are refused, with a guess.
  const CliResult m = hane("train diamond " + path("games9") + " --size 9 -m x --out " + path("y.model"));
  EXPECT_EQ(m.code, 2);
  EXPECT_THAT(m.err, HasSubstr("unknown option -m for 'hane train diamond'"));
  const CliResult q = hane("eval " + path("games9") + " -q -m uniform");
  EXPECT_EQ(q.code, 2);
  EXPECT_THAT(q.err, HasSubstr("did you mean --quiet?"));
  // `hane` alone lists the commands.
  const CliResult alone = hane("");
  EXPECT_EQ(alone.code, 2);
  EXPECT_THAT(alone.err, HasSubstr("match"));
  EXPECT_THAT(alone.err, HasSubstr("dataset"));
  // bench says the time it was given; a missing --search-prior fails before measuring.
  EXPECT_THAT(hane("bench --policy uniform --seconds 0.05").out, HasSubstr("0.05 s each"));
  const CliResult prior = hane("bench --policy uniform --seconds 0.01 --search --search-prior " + path("no.model"));
  EXPECT_EQ(prior.code, 2);
  EXPECT_EQ(prior.out, "");
  // Komi must be a number.
  EXPECT_EQ(hane("gtp --komi nan", "quit\n").code, 2);
  // Duplicate labels.
  const CliResult labels = hane("eval " + path("games9") + " --size 9 --split all -m uniform -m " + path("games9/g0.sgf") +
                                " --label u --label u");
  EXPECT_EQ(labels.code, 2);
  EXPECT_THAT(labels.err, HasSubstr("--label u given twice"));
  // train softmax's --split says it takes only train.
  EXPECT_THAT(hane("train softmax --help").out, HasSubstr("train only"));
}

// train gamma --balance-search: the balancing targets are search values, and the model says so.
TEST_F(CliUsageTest, TrainGammaBalancesOnSearchValues) {
  const fs::path games = dir_ / "games9-results";
  fs::create_directories(games);
  for (int g = 0; g < 12; ++g) {
    std::string sgf = "(;GM[1]SZ[9]KM[7.5]RE[" + std::string(g % 2 ? "W+R" : "B+R") + "]";
    for (int k = 0; k < 24; ++k) {
      const int p = (g * 5 + k * 23) % 81;  // 23 is prime to 81: 24 distinct points
      sgf += std::string(";") + (k % 2 ? "W[" : "B[") + char('a' + p % 9) + char('a' + p / 9) + "]";
    }
    std::ofstream(games / ("g" + std::to_string(g) + ".sgf")) << sgf << ")";
  }
  const CliResult r = hane("train gamma " + games.string() + " --size 9 --min-moves 1 --sweeps 1 --balance "
                           "--balance-positions 3 --balance-from 0 --balance-playouts 2 --balance-search 20 --json " +
                           path("g.json") + " --out " + path("g.model"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("3 of 3 targets from searches of 20 visits"));
  const nlohmann::json report = nlohmann::json::parse(read(path("g.json")));
  EXPECT_EQ(report["balance"]["targets"], "search of 20 root visits");
  EXPECT_EQ(report["balance"]["positions"], 3);
}

}  // namespace
}  // namespace hane
