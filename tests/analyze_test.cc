// hane analyze: a constructed game with a known blunder analysed at a tiny budget (library and
// command line): the annotated SGF reads back with one win rate per move, the JSON agrees with
// it, the blunder is marked, the plots' data files have their rows, a rerun resumes; and the
// README's table of analyze's options equals --help.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
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
  // From White's capture on the game is White's: Black's win rate stays low to the end, and the
  // final count (43 black stones captured) gives White the game.
  for (size_t i = 1; i < analysis->moves.size(); ++i) EXPECT_LT(analysis->moves[i].black_after, 0.3) << "move " << i + 1;
  EXPECT_TRUE(analysis->final_position.finished);
  EXPECT_LT(analysis->final_position.score, -20);
  EXPECT_GE(analysis->moves[0].visits, 200);
  // Both scores of the position after White's capture see White far ahead, and the JSON and the
  // mistake's comment carry them.
  EXPECT_LT(analysis->moves[2].search_score, -20);
  EXPECT_LT(analysis->moves[2].static_score, -20);

  // The annotated copy reads back as the same game, with SBKV at the root and every move.
  const std::string sgf = annotated_sgf(blunder_game(), *record, *analysis, 0.1);
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
  EXPECT_THAT(sgf, HasSubstr("(the static estimate)"));
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
  EXPECT_EQ(j["moves"][2]["static_score"].get<double>(), analysis->moves[2].static_score);
  EXPECT_EQ(j["moves"][2]["search_score"].get<double>(), analysis->moves[2].search_score);
  EXPECT_EQ(j["players"]["B"]["mistakes"], 1);
  EXPECT_TRUE(j["moves"][2]["guesser_rank"].is_null());  // a pass
  EXPECT_EQ(j["final"]["ownership"].size(), 9u);

  // The win-rate graph's data: a row for the start and one per move, the blunder marked.
  std::istringstream data(winrate_plot_data(j));
  std::vector<std::string> rows;
  for (std::string line; std::getline(data, line);) {
    if (!line.starts_with("#")) rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_THAT(rows[1], ::testing::StartsWith("1 "));
  EXPECT_THAT(rows[1], ::testing::EndsWith(" 1"));  // a mistake by Black
  EXPECT_THAT(rows[2], ::testing::EndsWith(" 0"));
  EXPECT_THAT(winrate_plot_script(j, "d.dat", "g.svg"), HasSubstr("set key below"));

  // The ownership map is an SVG with the board's stones.
  const std::string svg = ownership_svg(*record, *analysis);
  EXPECT_THAT(svg, HasSubstr("<svg"));
  EXPECT_THAT(svg, HasSubstr("</svg>"));
}

// The annotated SGF is the game as read with the analysis added: game information (GC, RO, TM,
// ID), the user's comments (appended to, not replaced) and every variation are kept, and it
// reads back as the same game.
TEST(Analyze, TheAnnotatedSgfKeepsEveryPropertyAndVariation) {
  const std::string game =
      "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[Kuro]PW[Shiro]GC[club game]RO[3]TM[600]ID[g42]C[root note]"
      ";B[ee]C[my comment: strong]LB[ee:A];W[cc]"
      "(;B[gg]C[main line];W[gc];B[]TR[aa];W[])"
      "(;B[cg]C[a variation];W[gg]))";
  auto record = read_game(game);
  ASSERT_TRUE(record.ok()) << record.status();
  auto analyzer = Analyzer::create(tiny_options());
  ASSERT_TRUE(analyzer.ok());
  auto analysis = (*analyzer)->analyze(*record);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  const std::string sgf = annotated_sgf(game, *record, *analysis, 0.1);
  for (const char* kept : {"GC[club game]", "RO[3]", "TM[600]", "ID[g42]", "LB[ee:A]", "TR[aa]",
                           "(;B[cg]C[a variation];W[gg])", "C[my comment: strong", "C[root note", "C[main line"}) {
    EXPECT_THAT(sgf, HasSubstr(kept)) << sgf;
  }
  auto again = read_game(sgf);
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << sgf;
  EXPECT_EQ(again->events, record->events);
  EXPECT_EQ(again->num_variations, record->num_variations);
  EXPECT_EQ(again->comment.substr(0, 9), "root note");
  EXPECT_EQ(sbkv_values(sgf).size(), record->num_moves() + 1);
  EXPECT_THAT(sgf, HasSubstr("SBKS["));
  EXPECT_THAT(sgf, HasSubstr("Estimated result"));
  // Analysed again, the figures are replaced, not repeated.
  const std::string twice = annotated_sgf(sgf, *record, *analysis, 0.1);
  EXPECT_EQ(sbkv_values(twice).size(), record->num_moves() + 1);
  size_t sbkv = 0;
  for (size_t at = twice.find("SBKV["); at != std::string::npos; at = twice.find("SBKV[", at + 1)) ++sbkv;
  EXPECT_EQ(sbkv, record->num_moves() + 1);
  // A file cut at the end is closed.
  const std::string cut = "(;GM[1]FF[4]SZ[9]KM[7.5]GC[cut];B[ee];W[cc]";
  auto short_record = read_game(cut);
  ASSERT_TRUE(short_record.ok());
  auto short_analysis = (*analyzer)->analyze(*short_record);
  ASSERT_TRUE(short_analysis.ok());
  const std::string closed = annotated_sgf(cut, *short_record, *short_analysis, 0.1);
  const ParseResult parsed = parse_sgf(closed);
  ASSERT_EQ(parsed.trees.size(), 1u) << closed;
  EXPECT_TRUE(parsed.trees[0].repairs().empty()) << closed;
  EXPECT_THAT(closed, HasSubstr("GC[cut]"));
}

// A resigned game has open areas that area counting gives to nobody: counted so, the score is
// little more than the stones (here 5 black against 4 white: "White leads by 6.5"). The open
// points go by ownership instead: Black's framework is Black's, and TB/TW say so.
TEST(Analyze, AResignedGameIsScoredFromTheOwnership) {
  const std::string game =
      "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]RE[B+R]PB[Framework]PW[Corner]"
      "AB[cc][cg][gc][gg][ee]AW[ag][bg][ch][ci]PL[W];W[bh];B[dh])";
  auto record = read_game(game);
  ASSERT_TRUE(record.ok()) << record.status();
  AnalyzeOptions o = tiny_options();
  o.visits = 50;
  o.end_playouts = 200;
  auto analyzer = Analyzer::create(o);
  ASSERT_TRUE(analyzer.ok());
  auto analysis = (*analyzer)->analyze(*record);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  const FinalAnalysis& f = analysis->final_position;
  EXPECT_FALSE(f.finished);
  int black_owned = 0;  // points the playouts give Black more often than White
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 9; ++x) black_owned += f.estimate.ownership[static_cast<size_t>(Geometry(9).at(x, y).index())] > 0;
  }
  EXPECT_GT(black_owned, 50);
  EXPECT_GT(f.black_area.size(), 40u);
  EXPECT_FALSE(f.white_area.empty());
  EXPECT_GT(f.score, 20) << "the score counts only the stones";
  EXPECT_EQ(f.score, f.estimate.area_margin);
  // Area counting: the points each side owns and its living stones, less komi.
  auto final_game = replay_game(*record);
  ASSERT_TRUE(final_game.ok());
  double stones[2] = {0, 0};
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 9; ++x) {
      const Vertex v = final_game->board().at(x, y);
      const Color c = final_game->board().color(v);
      if (c == Color::kEmpty || std::find(f.dead.begin(), f.dead.end(), v) != f.dead.end()) continue;
      stones[c == Color::kBlack ? 0 : 1] += 1;
    }
  }
  EXPECT_EQ(f.score, stones[0] + static_cast<double>(f.black_area.size()) - stones[1] -
                         static_cast<double>(f.white_area.size()) - 7.5);
  const std::string sgf = annotated_sgf(game, *record, *analysis, 0.1);
  EXPECT_THAT(sgf, HasSubstr("Estimated result: Black leads by"));
  EXPECT_THAT(sgf, HasSubstr("the game did not end"));
  EXPECT_THAT(sgf, HasSubstr("TB["));
  EXPECT_THAT(sgf, HasSubstr("TW["));
  EXPECT_FALSE(analysis_json(*record, *analysis, {})["final"]["finished"].get<bool>());
}

// On small boards the ownership map's title fits the picture (wrapped, the picture at least so
// wide), and every line of it stays inside.
TEST(Analyze, TheOwnershipMapsTitleFitsOnASmallBoard) {
  auto record = read_game("(;GM[1]FF[4]SZ[5]KM[0.5]RU[Japanese];B[cc];W[bb])");
  ASSERT_TRUE(record.ok());
  auto analyzer = Analyzer::create(tiny_options());
  ASSERT_TRUE(analyzer.ok());
  auto analysis = (*analyzer)->analyze(*record);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  const std::string svg = ownership_svg(*record, *analysis);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex("width=\"(\\d+)\"")));
  const int width = std::stoi(m[1]);
  int lines = 0;
  const std::regex title("font-size=\"14\"[^>]*>([^<]*)<");
  for (std::sregex_iterator it(svg.begin(), svg.end(), title), end; it != end; ++it) {
    ++lines;
    // About 7 pixels a character at 14 pixels in a sans-serif font; 8 to be safe.
    EXPECT_LE(8 * static_cast<int>((*it)[1].length()), width - 8) << (*it)[1];
  }
  EXPECT_GE(lines, 2);
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
  for (const char* file : {"blunder.sgf", "blunder.json", "blunder-ownership.svg", "summary.json", "analyze.json"}) {
    EXPECT_TRUE(fs::exists(dir / "out" / file)) << file;
  }
  std::ifstream in(dir / "out" / "summary.json");
  const nlohmann::json summary = nlohmann::json::parse(in);
  EXPECT_EQ(summary["games_analysed"], 1);
  EXPECT_TRUE(summary["players"].contains("Blunderer"));
  // Every file analyze wrote is listed in files.txt.
  std::set<std::string> listed;
  std::ifstream list(dir / "out" / "files.txt");
  for (std::string line; std::getline(list, line);) listed.insert(line);
  for (const auto& entry : fs::directory_iterator(dir / "out")) {
    if (entry.path().filename() == "files.txt") continue;
    EXPECT_TRUE(listed.contains(entry.path().filename().string())) << entry.path();
  }
  // A rerun with the same settings finds the game done.
  const Outcome again = hane(args, dir);
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_THAT(again.err, HasSubstr("1 of 1 games already analysed"));
  fs::remove_all(dir);
}

// --- the output folder: nothing of the user's is written over, nothing of earlier runs lost ----

std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A short game between two named players (its own moves, so its own hash).
std::string named_game(const std::string& black, const std::string& white, const std::string& moves) {
  return "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese]PB[" + black + "]PW[" + white + "]" + moves + ")";
}

std::string quick_analyze(const std::string& inputs, const fs::path& out) {
  return "analyze " + inputs + " --visits 50 --end-playouts 20 --policy rules --prior none --guesser uniform --no-plots --out " +
         out.string();
}

nlohmann::json read_json_file(const fs::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in, nullptr, false);
}

std::set<std::string> summary_players(const fs::path& out) {
  std::set<std::string> names;
  const nlohmann::json s = read_json_file(out / "summary.json");
  if (!s.is_object()) return names;
  for (const auto& g : s["games"]) names.insert(g["black"].get<std::string>());
  return names;
}

struct Scratch {
  fs::path dir;
  explicit Scratch(const std::string& name)
      : dir(fs::temp_directory_path() / ("hane_analyze_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
};

// --out naming a folder of the user's (here the one holding the game, and a summary.json of the
// user's) is refused as a usage error, and every file in it is left as it was.
TEST(AnalyzeFolder, RefusesAFolderThatIsNotAnalyzesOwn) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  Scratch s("foreign");
  const std::string game = named_game("Mine", "Yours", ";B[ee];W[cc]");
  std::ofstream(s.dir / "g.sgf") << game;
  std::ofstream(s.dir / "summary.json") << "{\"my\": \"notes\"}";
  const Outcome r = hane(quick_analyze((s.dir / "g.sgf").string(), s.dir), s.dir.parent_path());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no analyze.json"));
  EXPECT_EQ(file_text(s.dir / "g.sgf"), game);
  EXPECT_EQ(file_text(s.dir / "summary.json"), "{\"my\": \"notes\"}");
  EXPECT_FALSE(fs::exists(s.dir / "g.json"));
  EXPECT_FALSE(fs::exists(s.dir / "analyze.json"));
}

// In its own folder, analyze writes over no file it did not write: not a game analysed from
// the folder itself (an input), nor a file the user put there; such games get other names.
TEST(AnalyzeFolder, NeverWritesOverAnInputOrAUsersFileInItsOwnFolder) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  Scratch s("inputs");
  fs::create_directories(s.dir / "a");
  std::ofstream(s.dir / "a" / "g.sgf") << named_game("First", "Second", ";B[ee];W[cc]");
  const fs::path out = s.dir / "out";
  ASSERT_EQ(hane(quick_analyze((s.dir / "a" / "g.sgf").string(), out), s.dir).code, 0);
  const std::string annotated = file_text(out / "g.sgf");
  ASSERT_FALSE(annotated.empty());
  // The annotated copy reviewed again, from the folder: the same moves, so the same game, whose
  // files it is: it must not be written over, nor counted as a second game.
  const Outcome again = hane(quick_analyze((out / "g.sgf").string(), out), s.dir);
  EXPECT_EQ(again.code, 1) << again.err;
  EXPECT_THAT(again.err, HasSubstr("would overwrite an input file"));
  EXPECT_EQ(file_text(out / "g.sgf"), annotated);
  EXPECT_FALSE(fs::exists(out / "g-2.json"));
  EXPECT_EQ(read_json_file(out / "summary.json")["players"]["First"]["games"], 1);
  // A file of the user's in the folder, named as a new game's files would be.
  std::ofstream(out / "h.sgf") << "my own notes";
  fs::create_directories(s.dir / "b");
  std::ofstream(s.dir / "b" / "h.sgf") << named_game("Third", "Fourth", ";B[dd];W[ff]");
  const Outcome third = hane(quick_analyze((s.dir / "b" / "h.sgf").string(), out), s.dir);
  EXPECT_EQ(third.code, 0) << third.err;
  EXPECT_EQ(file_text(out / "h.sgf"), "my own notes");
  EXPECT_TRUE(fs::exists(out / "h-2.json"));
}

// Runs into one folder add up: summary.json holds every game of the folder, and a game keeps
// its name, so a rerun with one of two same-named games writes only that game's files.
TEST(AnalyzeFolder, RunsAddUpAndSameNamedGamesKeepTheirOwnFiles) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  Scratch s("runs");
  for (const char* d : {"a", "b"}) fs::create_directories(s.dir / d);
  std::ofstream(s.dir / "a" / "g.sgf") << named_game("Alpha", "Omega", ";B[ee];W[cc]");
  std::ofstream(s.dir / "b" / "g.sgf") << named_game("Beta", "Omega", ";B[dd];W[ff]");
  const fs::path out = s.dir / "out";
  ASSERT_EQ(hane(quick_analyze((s.dir / "a" / "g.sgf").string(), out), s.dir).code, 0);
  ASSERT_EQ(hane(quick_analyze((s.dir / "b" / "g.sgf").string(), out), s.dir).code, 0);
  EXPECT_EQ(summary_players(out), (std::set<std::string>{"Alpha", "Beta"}));
  EXPECT_EQ(read_json_file(out / "g.json")["black"], "Alpha");
  EXPECT_EQ(read_json_file(out / "g-2.json")["black"], "Beta");
  // B's game again, alone, with other settings (so it is analysed again): still g-2.
  const std::string a_files = file_text(out / "g.json") + file_text(out / "g.sgf");
  const Outcome r = hane(quick_analyze((s.dir / "b" / "g.sgf").string(), out) + " --seed 2", s.dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(file_text(out / "g.json") + file_text(out / "g.sgf"), a_files);
  EXPECT_EQ(read_json_file(out / "g-2.json")["settings"]["seed"], 2);
  EXPECT_EQ(summary_players(out), (std::set<std::string>{"Alpha", "Beta"}));
}

// Two runs at once into one new folder, with same-named games: both games are kept under their
// own names and the summary written last holds both (the register and the summary are
// rewritten under a lock).
TEST(AnalyzeFolder, TwoRunsAtOnceKeepBothGames) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  Scratch s("concurrent");
  for (const char* d : {"a", "b"}) fs::create_directories(s.dir / d);
  std::ofstream(s.dir / "a" / "g.sgf") << named_game("Alpha", "Omega", ";B[ee];W[cc];B[gg]");
  std::ofstream(s.dir / "b" / "g.sgf") << named_game("Beta", "Omega", ";B[dd];W[ff];B[cg]");
  const fs::path out = s.dir / "out";
  std::vector<FILE*> runs;
  for (const char* d : {"a", "b"}) {
    const std::string command = std::string(HANE_BINARY) + " " + quick_analyze((s.dir / d / "g.sgf").string(), out) +
                                " --quiet </dev/null 2>" + (s.dir / (std::string(d) + ".err")).string();
    runs.push_back(::popen(command.c_str(), "r"));
  }
  for (FILE* run : runs) {
    char buffer[4096];
    while (std::fread(buffer, 1, sizeof buffer, run) > 0) {
    }
    EXPECT_EQ(::pclose(run), 0);
  }
  EXPECT_EQ(summary_players(out), (std::set<std::string>{"Alpha", "Beta"}));
  std::set<std::string> blacks;
  for (const char* file : {"g.json", "g-2.json"}) blacks.insert(read_json_file(out / file).value("black", ""));
  EXPECT_EQ(blacks, (std::set<std::string>{"Alpha", "Beta"}));
}

// A file cut short is repaired and reviewed, but never silently: a warning names the file and
// what was wrong, and the game's JSON and the summary count it. Too few visits to mean anything
// is a usage error (exit 2), before any work.
TEST(AnalyzeCommand, WarnsAboutACutFileAndRefusesTooFewVisits) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  Scratch s("warnings");
  std::ofstream(s.dir / "cut.sgf") << "(;GM[1]FF[4]SZ[9]KM[7.5]PB[Cut]PW[Short];B[ee];W[cc]";
  const fs::path out = s.dir / "out";
  const Outcome r = hane(quick_analyze((s.dir / "cut.sgf").string(), out), s.dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warning: " + (s.dir / "cut.sgf").string()));
  EXPECT_THAT(r.err, HasSubstr("missing ')'"));
  const nlohmann::json game = read_json_file(out / "cut.json");
  ASSERT_EQ(game["warnings"].size(), 1u);
  EXPECT_EQ(read_json_file(out / "summary.json")["games_with_warnings"], 1);

  const Outcome few = hane("analyze " + (s.dir / "cut.sgf").string() + " --visits 1 --out " + (s.dir / "few").string(), s.dir);
  EXPECT_EQ(few.code, 2) << few.err;
  EXPECT_THAT(few.err, HasSubstr("--visits 1: at least 50"));
  EXPECT_FALSE(fs::exists(s.dir / "few"));
}

// Analyze takes the engine options of hane gtp (so settings a match or a tuning run chose review
// games: here a tuned --prior-weight and a --policy-set), kept in each game's settings; a bad
// engine setting is the usage error (exit 2) it is for hane gtp, before any work.
TEST(AnalyzeCommand, TakesTheEngineOptionsOfGtp) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  Scratch s("engine");
  std::ofstream(s.dir / "g.sgf") << named_game("Tuned", "Other", ";B[ee];W[cc]");
  const fs::path out = s.dir / "out";
  const Outcome r = hane(quick_analyze((s.dir / "g.sgf").string(), out) +
                             " --prior-weight 20 --rave-equiv 300 --policy-set rules.capture=0.8 --threads 1",
                         s.dir);
  EXPECT_EQ(r.code, 0) << r.err;
  const nlohmann::json settings = read_json_file(out / "g.json")["settings"];
  EXPECT_EQ(settings["engine"]["prior-weight"], nlohmann::json::array({"20"})) << settings.dump();
  EXPECT_EQ(settings["engine"]["policy-set"], nlohmann::json::array({"rules.capture=0.8"})) << settings.dump();
  for (const std::string bad : {"--policy bogus", "--policy softmax", "--prior no-such.model", "--guesser no-such.model",
                                "--policy-set rules.bogus=1", "--policy-set softmax.temperature=2", "--playouts 10"}) {
    const Outcome e = hane("analyze " + (s.dir / "g.sgf").string() + " " + bad + " --out " + (s.dir / "bad").string(), s.dir);
    EXPECT_EQ(e.code, 2) << bad << ": " << e.err;
  }
  EXPECT_FALSE(fs::exists(s.dir / "bad"));
}

// A game's settings name the prior its search used: on 19x19 the large-board default, on 9x9
// the small-board one (the analysis plays each size as `hane gtp` does).
TEST(AnalyzeCommand, RecordsThePriorOfTheGamesBoardSize) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  Scratch s("prior");
  std::ofstream(s.dir / "g9.sgf") << named_game("A", "B", ";B[ee];W[cc]");
  std::ofstream(s.dir / "g19.sgf") << "(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]PB[C]PW[D];B[pd];W[dp])";
  const fs::path out = s.dir / "out";
  const Outcome r = hane("analyze " + (s.dir / "g9.sgf").string() + " " + (s.dir / "g19.sgf").string() +
                             " --visits 50 --end-playouts 20 --guesser uniform --no-plots --threads 1 --out " + out.string(),
                         s.dir);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string small = read_json_file(out / "g9.json")["settings"]["prior"];
  const std::string large = read_json_file(out / "g19.json")["settings"]["prior"];
  EXPECT_THAT(small, HasSubstr("kgs-tree.model"));
  EXPECT_THAT(large, HasSubstr("kgs-leaf-all.model"));
  const nlohmann::json summary = read_json_file(out / "summary.json");
  EXPECT_EQ(summary["settings"]["19x19"]["prior"], large) << summary["settings"].dump();
}

// The options of a command's --help by group ("OPTIONS", "Engine"...), without --help.
std::map<std::string, std::set<std::string>> options_by_group(const std::string& help) {
  std::map<std::string, std::set<std::string>> out;
  std::string group;
  static const std::regex option("^\\s+(?:-[a-z],)?(--[a-z-]+)");
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] != ' ' && line.back() == ':') group = line.substr(0, line.size() - 1);
    std::smatch m;
    if (std::regex_search(line, m, option) && m[1] != "--help") out[group].insert(m[1]);
  }
  return out;
}

// The README's rows for `analyze` name exactly the options of `hane analyze --help` beyond the
// corpus options and the engine options, with the same defaults; the engine options are all
// of `hane gtp`'s (its --quiet is the corpus's).
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
    static const std::regex option("^ *`(--[a-z-]+)");
    const size_t first = line.find('|', 2);
    const std::string cell = line.substr(first + 1, line.find('|', first + 1) - first - 1);
    std::smatch m;
    if (std::regex_search(cell, m, option)) documented.insert(m[1]);
  }
  const fs::path dir = fs::temp_directory_path();
  const Outcome help = hane("analyze --help", dir);
  ASSERT_EQ(help.code, 0);
  const Outcome gtp_help = hane("gtp --help", dir);
  ASSERT_EQ(gtp_help.code, 0);
  std::map<std::string, std::set<std::string>> groups = options_by_group(help.out);
  std::set<std::string> engine = options_by_group(gtp_help.out)["Engine"];
  engine.erase("--quiet");
  EXPECT_EQ(groups["Engine"], engine);
  EXPECT_TRUE(groups["Engine"].contains("--prior-weight"));
  std::set<std::string> corpus = {"--size", "--min-rank", "--handicap", "--min-moves", "--exclude-bots", "--bots",
                                  "--split", "--strict", "--no-dedup", "--max-games", "--quiet"};
  std::set<std::string> offered;
  for (const auto& [group, options] : groups) {
    if (group == "Engine") continue;
    for (const std::string& o : options) {
      if (!corpus.contains(o)) offered.insert(o);
    }
  }
  EXPECT_EQ(documented, offered);
}

}  // namespace
}  // namespace hane
