// The command line as issue 36 found it: one rule for options of several values, usage errors
// that exit 2 in every command, plain range messages, hints that name only accepted values,
// warnings in order, output folders made with their parents, the trainers' ends. Runs the built
// binary.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli_run.h"

namespace hane {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::CliResult;

using testing::kEngine;

class CliOptionsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("hane_cli_options_test_" + std::to_string(::getpid()));
    testing::write_9x9_games(dir_ / "games9", 40, 12);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  void SetUp() override {
    if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  }
  static CliResult hane(const std::string& args, const std::string& input = "") {
    return testing::run_hane(args, input, dir_);
  }
  static std::string path(const std::string& name) { return (dir_ / name).string(); }
  static std::string games() { return path("games9") + " --size 9"; }
  // A shipped model, in the source tree.
  static std::string shipped(const std::string& name) {
    return (fs::path(HANE_TEST_DATA_DIR) / ".." / ".." / "patterns" / name).lexically_normal().string();
  }
  static inline fs::path dir_;
};

// Item 1: every option of several values takes one value per occurrence and repeats; a word
// after it is a PATH, and a model file among the PATHs is named as such; a value, or a
// setting's key, given twice is refused; the help says so instead of CLI11's "TEXT ...".
TEST_F(CliOptionsTest, OptionsTakeOneValueEachAndRepeat) {
  const std::string model = shipped("kgs-3x3.model");
  ASSERT_TRUE(fs::exists(model)) << model;
  const CliResult two = hane("eval " + games() + " --split all -m uniform " + model);
  EXPECT_EQ(two.code, 2) << two.err;
  EXPECT_THAT(two.err, HasSubstr(model + ": a model file, not games"));
  EXPECT_THAT(two.err, HasSubstr("-m a.model -m b.model"));
  EXPECT_EQ(two.out, "");
  std::ofstream(path("notes.txt")) << "not a game\n";
  const CliResult text = hane("dataset stats " + path("games9") + " " + path("notes.txt"));
  EXPECT_EQ(text.code, 2) << text.err;
  EXPECT_THAT(text.err, HasSubstr("notes.txt: not a game record or archive"));

  const CliResult same = hane("eval " + games() + " --split all -m uniform -m uniform");
  EXPECT_EQ(same.code, 2) << same.err;
  EXPECT_THAT(same.err, HasSubstr("--model uniform given twice"));
  fs::create_symlink(model, path("link.model"));
  const CliResult same_file = hane("eval " + games() + " --split all -m " + model + " -m " + path("link.model"));
  EXPECT_EQ(same_file.code, 2) << same_file.err;
  EXPECT_THAT(same_file.err, HasSubstr("--model " + path("link.model") + " given twice (as " + model + ")"));
  const CliResult both = hane("eval " + games() + " --split all -m uniform -m " + model + " --label u --label t");
  EXPECT_EQ(both.code, 0) << both.err;
  EXPECT_THAT(both.out, HasSubstr("\nu "));
  EXPECT_THAT(both.out, HasSubstr("\nt "));

  const CliResult key = hane("gtp --prior none --policy-set rules.capture=1 --policy-set rules.capture=0.5", "quit\n");
  EXPECT_EQ(key.code, 2) << key.err;
  EXPECT_THAT(key.err, HasSubstr("--policy-set rules.capture given twice (rules.capture=1, rules.capture=0.5)"));
  const CliResult bench = hane("bench --seconds 0.01 --policy rules --policy-set rules.save=1 --policy-set rules.save=0");
  EXPECT_EQ(bench.code, 2) << bench.err;
  EXPECT_THAT(bench.err, HasSubstr("rules.save given twice"));
  EXPECT_EQ(hane("bench --seconds 0.01 --policy rules --policy rules").code, 2);
  const CliResult openings = hane("match --out " + path("o1") + " -e a=gtp:true -e b=gtp:true --openings " +
                                  path("games9") + " --openings " + path("games9"));
  EXPECT_EQ(openings.code, 2) << openings.err;
  EXPECT_THAT(openings.err, HasSubstr("--openings " + path("games9") + " given twice"));
  EXPECT_EQ(hane("gtp --prior none --policy-set rules.ko=1 --policy-set rules.save=1", "quit\n").code, 0);

  for (const std::string command : {"eval", "bench", "gtp", "match", "train gamma", "train tree"}) {
    const CliResult help = hane(command + " --help");
    EXPECT_EQ(help.code, 0) << command;
    std::istringstream lines(help.out);
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("  -")) {
        EXPECT_THAT(line, Not(HasSubstr(" ..."))) << command;
      }
    }
  }
  const CliResult help = hane("eval --help");
  EXPECT_THAT(help.out, HasSubstr("MODEL"));
  EXPECT_THAT(help.out, HasSubstr("repeatable: --model A --model B"));
  EXPECT_THAT(hane("gtp --help").out, HasSubstr("repeatable: --policy-set A --policy-set B"));
}

// Item 4: the same usage mistake exits 2 in every command: an unknown option, and a model file
// named by an option that is not there.
TEST_F(CliOptionsTest, UsageMistakesExitTwoInEveryCommand) {
  // Every command and subcommand, as `hane --help` and the groups' help list them.
  auto subcommands = [&](const std::string& group) {
    std::vector<std::string> names;
    const CliResult r = hane(group + " --help");
    const size_t at = r.out.find("Subcommands:");
    EXPECT_NE(at, std::string::npos) << group << ": " << r.out;
    std::istringstream lines(r.out.substr(at == std::string::npos ? r.out.size() : at));
    std::string line;
    std::getline(lines, line);
    while (std::getline(lines, line)) {
      if (!line.starts_with("  ") || line.size() < 3 || line[2] == ' ') break;
      names.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
    return names;
  };
  std::vector<std::string> commands;
  for (const std::string& c : subcommands("")) {
    if (c == "train" || c == "model" || c == "dataset") {
      for (const std::string& s : subcommands(c)) commands.push_back(c + " " + s);
    } else {
      commands.push_back(c);
    }
  }
  EXPECT_GE(commands.size(), 15u);
  for (const std::string& command : commands) {
    const CliResult r = hane(command + " --no-such-option 1", "quit\n");
    EXPECT_EQ(r.code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("unknown option --no-such-option")) << command;
  }
  const std::string missing = path("missing.model");
  for (const std::string& command :
       {"train boost " + games() + " --base " + missing + " --out " + path("b.model"),
        "train softmax " + games() + " --tree " + missing + " --out " + path("s.model"),
        "train gamma " + games() + " --balance --init " + missing + " --out " + path("g.model"),
        "analyze " + path("games9") + " --guesser " + missing + " --out " + path("an"),
        "bench --seconds 0.01 --policy uniform --search --search-prior " + missing,
        "gtp --joseki " + missing, "play --prior " + missing, "gtp --prior " + missing}) {
    const CliResult r = hane(command, "quit\n");
    EXPECT_EQ(r.code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr("missing.model")) << command;
  }
}

// Item 8: range messages name their bounds plainly, never DBL_MAX's 309 digits nor "0.000000".
TEST_F(CliOptionsTest, RangeMessagesAreReadable) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"train gamma " + games() + " --positions 0 --out " + path("g.model"), "must be > 0, not 0"},
      {"train gamma " + games() + " --prior -1 --out " + path("g.model"), "must be >= 0, not -1"},
      {"train boost " + games() + " --learning-rate 2 --out " + path("b.model"), "must be 0.0001..1, not 2"},
      {"train joseki " + games() + " --min-games 0 --out " + path("j.model"), "must be > 0, not 0"},
      {"train tree " + games() + " --leaves 0 --out " + path("t.model"), "must be 1..1073741824, not 0"},
      {"play --handicap 10", "must be 0..9, not 10"},
      {"gtp --resign 2", "must be 0..1, not 2"},
      {"gtp --threads 1.5", "not a whole number: 1.5"},
      {"tune -e h=hane:x --param prior-weight=40:0:200 --pairs 0 --out " + path("t"), "must be > 0, not 0"},
  };
  for (const auto& [command, message] : cases) {
    const CliResult r = hane(command, "quit\n");
    EXPECT_EQ(r.code, 2) << command << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(message)) << command;
    EXPECT_THAT(r.err, Not(HasSubstr("1797"))) << command;
    EXPECT_THAT(r.err, Not(HasSubstr("000000"))) << command;
  }
}

// Item 7: hints name only values that are accepted, and each is accepted when used.
TEST_F(CliOptionsTest, HintsSuggestOnlyAcceptedValues) {
  const std::string joseki = shipped("kgs-joseki.model"), tree = shipped("kgs-tree.model"), gamma = shipped("kgs-gamma.model");
  // A joseki dictionary is no guesser: no "use guesser:" for it.
  const CliResult j = hane("gtp --prior none --policy softmax:" + joseki, "quit\n");
  EXPECT_NE(j.code, 0);
  EXPECT_THAT(j.err, Not(HasSubstr("guesser:")));
  EXPECT_THAT(j.err, HasSubstr("hane gtp --joseki"));
  EXPECT_THAT(hane("gtp --prior none --policy guesser:" + joseki, "quit\n").code, 1);  // what the old hint said
  // A guesser is: the hint is taken.
  const CliResult t = hane("gtp --prior none --policy gamma:" + tree, "quit\n");
  EXPECT_NE(t.code, 0);
  EXPECT_THAT(t.err, HasSubstr("use guesser:" + tree));
  EXPECT_EQ(hane("gtp --prior none --playouts 10 --policy guesser:" + tree, "genmove b\nquit\n").code, 0);
  // A rules key with rules-gamma: its own key, which it reads.
  const CliResult r = hane("gtp --prior none --policy rules-gamma:" + gamma + " --policy-set rules.capture=0.5", "quit\n");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("did you mean rules-gamma.capture?"));
  EXPECT_THAT(r.err, Not(HasSubstr("e.g. rules.capture")));
  EXPECT_EQ(hane("gtp --prior none --policy rules-gamma:" + gamma + " --policy-set rules-gamma.capture=0.5", "quit\n").code, 0);
  // No hint that would be refused: uniform reads no setting.
  const CliResult u = hane("gtp --prior none --policy uniform --policy-set rules.capture=0.5", "quit\n");
  EXPECT_EQ(u.code, 2);
  EXPECT_THAT(u.err, Not(HasSubstr("did you mean")));
}

// Item 11: the warning about a joseki dictionary of another board size reads in order.
TEST_F(CliOptionsTest, TheJosekiSizeWarningReadsInOrder) {
  const CliResult r = hane("gtp --size 9 --prior none --joseki " + shipped("kgs-joseki.model"), "quit\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kgs-joseki.model was trained on 19x19 boards; the engine starts on 9x9 (--size): "
                               "no joseki prior there\n"));
}

// Item 3: a joseki dictionary that keeps nothing is an error, and no file is written.
TEST_F(CliOptionsTest, TrainJosekiThatKeepsNothingFails) {
  const std::string out = path("empty-joseki.model");
  const CliResult r = hane("train joseki " + games() + " --quiet --min-games 100 --out " + out);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no corner position was seen in at least --min-games 100 games"));
  EXPECT_THAT(r.err, HasSubstr("not written"));
  EXPECT_FALSE(fs::exists(out));
  // With a low enough --min-games it keeps positions and writes the file.
  const CliResult some = hane("train joseki " + games() + " --quiet --out " + out);
  EXPECT_EQ(some.code, 0) << some.err;
  EXPECT_TRUE(fs::exists(out));
}

// Item 10: the extraction's progress counts every game, not the last multiple of 256.
TEST_F(CliOptionsTest, TrainGammaProgressCountsEveryGame) {
  const CliResult r = hane("train gamma " + games() + " --sweeps 1 --out " + path("gp.model"));
  ASSERT_EQ(r.code, 0) << r.err;
  const std::regex line("extracting training positions: ([0-9,]+)/([0-9,]+) games");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, line)) << r.err;
  EXPECT_EQ(m[1].str(), m[2].str()) << r.err;
  EXPECT_NE(m[1].str(), "0");
}

// Item 12: output folders are made with the folders above them.
TEST_F(CliOptionsTest, OutputFoldersAreMadeWithTheirParents) {
  const std::string deep = path("deep/a/b/c");
  const CliResult m = hane("match --no-plots --size 5 --games 2 --parallel 1 --out " + deep + " -e 'a=hane:" + kEngine +
                           "' -e 'b=hane:" + kEngine + " --policy uniform' --quiet");
  EXPECT_EQ(m.code, 0) << m.err;
  EXPECT_TRUE(fs::exists(deep + "/results.jsonl"));
  const std::string plots = path("plots/x/y");
  const CliResult e = hane("eval " + games() + " --split all -m uniform --quiet --plot " + plots);
  EXPECT_EQ(e.code, 0) << e.err;
  EXPECT_TRUE(fs::exists(plots + "/topk.dat"));
  // Under a file there is no folder to make.
  std::ofstream(path("a-file")) << "x";
  const CliResult under_file = hane("eval " + games() + " --split all -m uniform --plot " + path("a-file/x"));
  EXPECT_EQ(under_file.code, 2);
  EXPECT_THAT(under_file.err, HasSubstr("is not a folder"));
}

// Item 5: one pass does not end the game; the engine answers an early pass with a move, and
// the game ends after two passes in a row (PlayTerminal.BothPassScoresAndShowsDeadStones).
TEST_F(CliOptionsTest, PlayGoesOnAfterOnePass) {
  const CliResult r = hane("play --size 9 --sgf " + path("pass.sgf") + " " + kEngine, "pass\nquit\n");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("Both passed")));
  EXPECT_THAT(r.out, HasSubstr("hane plays "));
  EXPECT_THAT(r.out, Not(HasSubstr("hane plays pass")));
}

// Item 6: the clocks' grace is said in the help.
TEST_F(CliOptionsTest, MatchHelpSaysTheGraceOfTheClocks) {
  const CliResult r = hane("match --help");
  EXPECT_THAT(r.out, HasSubstr("more than 1 s below zero"));
  EXPECT_THAT(r.out, HasSubstr("(TM, OT)"));
}

// The shipped engine's settings by board size (docs/strength.md, "The defaults shipped"): the
// large-board search has its own RAVE equivalence; one given on the command line holds on
// every board size.
TEST_F(CliOptionsTest, TheRaveEquivalenceIsTheLargeBoardsOwnUnlessGiven) {
  const CliResult shipped = hane("gtp", "quit\n");
  EXPECT_EQ(shipped.code, 0) << shipped.err;
  EXPECT_THAT(shipped.err, HasSubstr("and more: policy rules"));
  EXPECT_THAT(shipped.err, HasSubstr(", RAVE equivalence 250"));
  const CliResult given = hane("gtp --rave-equiv 700", "quit\n");
  EXPECT_EQ(given.code, 0) << given.err;
  EXPECT_THAT(given.err, HasSubstr("and more: policy rules"));
  EXPECT_THAT(given.err, Not(HasSubstr("RAVE equivalence")));
}

}  // namespace
}  // namespace hane
