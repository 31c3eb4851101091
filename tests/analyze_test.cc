// hane analyze: a constructed game with a known blunder analysed at a tiny budget (library and
// command line): the annotated SGF reads back with one win rate per move, the JSON agrees with
// it, the blunder is marked, the plots' data files have their rows, a rerun resumes; and the
// README's table of analyze's options equals --help.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "analyze/analyze.h"
#include "analyze/report.h"
#include "sgf/parser.h"
#include "sgf/record.h"

namespace hane {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// 9x9, nearly full: Black owns columns A-E (45 points) with two one-point eyes at B8 and B2,
// White columns F-J (36 points) with eyes at H8 and H2; Black wins by 1.5 with komi 7.5. Then
// Black fills its own eye at B8 (the blunder: 43 stones left with one liberty), White captures
// them at B2, and both pass.
std::string blunder_game() {
  std::string ab, aw;
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 9; ++x) {
      const std::string p = {char('a' + x), char('a' + y)};
      if (x <= 4 && !(x == 1 && (y == 1 || y == 7))) ab += "[" + p + "]";
      if (x >= 5 && !(x == 7 && (y == 1 || y == 7))) aw += "[" + p + "]";
    }
  }
  return "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[Blunderer]PW[Punisher]AB" + ab + "AW" + aw +
         "PL[B];B[bb];W[bh];B[];W[])";
}

AnalyzeOptions tiny_options() {
  AnalyzeOptions o;
  o.search.policy = "rules";
  o.search.prior = "none";
  o.search.threads = 1;
  o.visits = 200;
  o.end_playouts = 100;
  o.guesser = std::string(HANE_TEST_DATA_DIR) + "/../../patterns/kgs-3x3.model";
  if (!fs::exists(o.guesser)) o.guesser = "uniform";
  return o;
}

// The SBKV values of the main line's nodes (root first) of an SGF text.
std::vector<double> sbkv_values(const std::string& sgf) {
  const ParseResult parsed = parse_sgf(sgf);
  EXPECT_TRUE(parsed.status.ok()) << parsed.status;
  std::vector<double> out;
  if (parsed.trees.empty()) return out;
  for (const SgfNode& node : parsed.trees[0].main_line()) {
    if (const SgfProperty* p = node.find("SBKV")) out.push_back(std::stod(std::string(p->values[0])));
  }
  return out;
}

TEST(Analyze, MarksTheBlunderAndTheSgfAndJsonAgree) {
  auto record = read_game(blunder_game());
  ASSERT_TRUE(record.ok()) << record.status();
  auto analyzer = Analyzer::create(tiny_options());
  ASSERT_TRUE(analyzer.ok()) << analyzer.status();
  int positions = 0;
  auto analysis = (*analyzer)->analyze(*record, [&](int n) { positions = n; });
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  ASSERT_EQ(analysis->moves.size(), 4u);
  EXPECT_EQ(positions, 5);  // every move's position and the final one
  const MoveAnalysis& blunder = analysis->moves[0];
  EXPECT_EQ(blunder.color, Color::kBlack);
  EXPECT_TRUE(blunder.mistake) << "before " << blunder.black_before << ", after " << blunder.black_after;
  EXPECT_GT(blunder.drop, 0.3);
  EXPECT_GT(blunder.black_before, 0.6);
  EXPECT_LT(blunder.black_after, 0.4);
  // White's capture only gains.
  EXPECT_FALSE(analysis->moves[1].mistake);
  for (size_t i = 0; i + 1 < analysis->moves.size(); ++i) {
    EXPECT_EQ(analysis->moves[i].black_after, analysis->moves[i + 1].black_before);
  }
  EXPECT_GE(analysis->moves[0].visits, 200);

  // The annotated copy reads back as the same game, with SBKV at the root and every move.
  const std::string sgf = annotated_sgf(*record, *analysis, 0.1);
  auto again = read_game(sgf);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->events, record->events);
  EXPECT_EQ(again->setup, record->setup);
  const std::vector<double> sbkv = sbkv_values(sgf);
  ASSERT_EQ(sbkv.size(), 5u);
  for (const double v : sbkv) {
    EXPECT_GE(v, 0);
    EXPECT_LE(v, 100);
  }
  EXPECT_THAT(sgf, HasSubstr("BM[1]"));
  EXPECT_THAT(sgf, HasSubstr("Mistake by Black"));
  EXPECT_THAT(sgf, HasSubstr("SBKS["));

  // The JSON says the same, to the SGF's two decimals.
  const nlohmann::json j = analysis_json(*record, *analysis, {{"visits", 200}});
  ASSERT_EQ(j["moves"].size(), 4u);
  EXPECT_NEAR(100 * j["black_start"].get<double>(), sbkv[0], 0.005);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(100 * j["moves"][i]["black_after"].get<double>(), sbkv[i + 1], 0.005) << i;
  }
  EXPECT_TRUE(j["moves"][0]["mistake"].get<bool>());
  EXPECT_EQ(j["moves"][0]["move"], "B8");
  EXPECT_EQ(j["players"]["B"]["mistakes"], 1);
  EXPECT_TRUE(j["moves"][2]["guesser_rank"].is_null());  // a pass
  EXPECT_EQ(j["final"]["ownership"].size(), 9u);

  // The win-rate graph's data: a row for the start and one per move, the blunder marked.
  const fs::path dir = fs::temp_directory_path() / ("hane_analyze_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  (void)write_winrate_plot(j, dir.string(), "g");
  std::ifstream data(dir / "g-winrate.dat");
  std::vector<std::string> rows;
  for (std::string line; std::getline(data, line);) {
    if (!line.starts_with("#")) rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_THAT(rows[1], ::testing::StartsWith("1 "));
  EXPECT_THAT(rows[1], ::testing::EndsWith(" 1"));  // a mistake by Black
  EXPECT_THAT(rows[2], ::testing::EndsWith(" 0"));
  fs::remove_all(dir);

  // The ownership map is an SVG with the board's stones.
  const std::string svg = ownership_svg(*record, *analysis);
  EXPECT_THAT(svg, HasSubstr("<svg"));
  EXPECT_THAT(svg, HasSubstr("</svg>"));
}

// A game's analysis does not depend on what the analyzer did before (the ranks of `mpirun`
// and --parallel share games in any order): after another game it is the same as alone.
TEST(Analyze, AGameIsAnalysedTheSameAfterAnotherGame) {
  auto record = read_game(blunder_game());
  auto other = read_game("(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gg];W[cg])");
  ASSERT_TRUE(record.ok() && other.ok());
  auto alone = Analyzer::create(tiny_options());
  auto after = Analyzer::create(tiny_options());
  ASSERT_TRUE(alone.ok() && after.ok());
  ASSERT_TRUE((*after)->analyze(*other).ok());
  auto a = (*alone)->analyze(*record);
  auto b = (*after)->analyze(*record);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->moves.size(), b->moves.size());
  EXPECT_EQ(a->black_start, b->black_start);
  for (size_t i = 0; i < a->moves.size(); ++i) {
    EXPECT_EQ(a->moves[i].black_after, b->moves[i].black_after) << "move " << i + 1;
    EXPECT_EQ(a->moves[i].best, b->moves[i].best) << "move " << i + 1;
    EXPECT_EQ(a->moves[i].visits, b->moves[i].visits) << "move " << i + 1;
  }
  EXPECT_EQ(a->final_position.estimate.ownership, b->final_position.estimate.ownership);
}

TEST(Analyze, RecordsThatDoNotReplayAreErrorsNamingTheMove) {
  auto record = read_game("(;GM[1]SZ[9];B[aa];W[aa])");
  ASSERT_TRUE(record.ok());
  auto analyzer = Analyzer::create(tiny_options());
  ASSERT_TRUE(analyzer.ok());
  auto analysis = (*analyzer)->analyze(*record);
  ASSERT_FALSE(analysis.ok());
  EXPECT_THAT(std::string(analysis.status().message()), HasSubstr("move 2 (W A9)"));
  // Stopping between positions is a Cancelled error.
  auto good = read_game(blunder_game());
  auto stopped = (*analyzer)->analyze(*good, {}, [] { return true; });
  EXPECT_TRUE(absl::IsCancelled(stopped.status()));
}

// --- the command ------------------------------------------------------------------------------

struct Outcome {
  int code = -1;
  std::string out, err;
};

Outcome hane(const std::string& args, const fs::path& dir) {
  const std::string err_file = (dir / "stderr.txt").string();
  const std::string command = std::string(HANE_BINARY) + " " + args + " </dev/null 2>" + err_file;
  Outcome r;
  FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
  const int status = ::pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), {});
  return r;
}

TEST(AnalyzeCommand, WritesEveryFileNamesBrokenRecordsAndResumes) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  const fs::path dir = fs::temp_directory_path() / ("hane_analyze_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir / "games");
  std::ofstream(dir / "games" / "blunder.sgf") << blunder_game();
  std::ofstream(dir / "games" / "broken.sgf") << "(;GM[1]SZ[9];B[aa];W[aa])";
  const std::string args = "analyze " + (dir / "games").string() + " --visits 50 --end-playouts 50 --policy rules " +
                           "--prior none --guesser uniform --no-plots --out " + (dir / "out").string();
  const Outcome r = hane(args, dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("illegal move"));   // the broken record, named and skipped
  EXPECT_THAT(r.err, HasSubstr("broken.sgf"));
  EXPECT_THAT(r.out, HasSubstr("Blunderer"));
  for (const char* file : {"blunder.sgf", "blunder.json", "blunder-ownership.svg", "summary.json"}) {
    EXPECT_TRUE(fs::exists(dir / "out" / file)) << file;
  }
  std::ifstream in(dir / "out" / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_EQ(summary["games_analysed"], 1);
  EXPECT_TRUE(summary["players"].contains("Blunderer"));
  // A rerun with the same settings finds the game done.
  const Outcome again = hane(args, dir);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("1 of 1 games already analysed"));
  fs::remove_all(dir);
}

// The README's rows for `analyze` name exactly the options of `hane analyze --help` beyond the
// corpus options, with the same defaults.
TEST(AnalyzeCommand, ReadmeTableEqualsHelp) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  std::ifstream readme(std::string(HANE_TEST_DATA_DIR) + "/../../README.md");
  ASSERT_TRUE(readme) << "README.md not found";
  std::set<std::string> documented;
  bool in_rows = false;
  for (std::string line; std::getline(readme, line);) {
    if (line.starts_with("| `analyze` |")) in_rows = true;
    else if (in_rows && !line.starts_with("| |")) break;
    if (!in_rows) continue;
    static const std::regex option("`(--[a-z-]+)");
    const std::string cell = line.substr(line.find('|', 2) + 1);
    std::smatch m;
    if (std::regex_search(cell, m, option)) documented.insert(m[1]);
  }
  const fs::path dir = fs::temp_directory_path();
  const Outcome help = hane("analyze --help", dir);
  ASSERT_EQ(help.code, 0);
  std::set<std::string> corpus = {"--size", "--min-rank", "--handicap", "--min-moves", "--exclude-bots", "--bots",
                                  "--split", "--strict", "--no-dedup", "--threads", "--max-games", "--quiet", "--help"};
  std::set<std::string> offered;
  static const std::regex option("^\\s+(?:-[a-z],)?(--[a-z-]+)");
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, option) && !corpus.count(m[1])) offered.insert(m[1]);
  }
  EXPECT_EQ(documented, offered);
}

}  // namespace
}  // namespace hane
