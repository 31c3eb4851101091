// The referee's fault handling and the match runner (resume after a kill),
// driven by the fake engine in fake_gtp_engine.cc.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "match/match.h"
#include "match/report.h"
#include "match/referee.h"
#include "match/results_store.h"
#include "match/runner.h"
#include "sgf/record.h"
#include "test_files.h"
#include "util/plot.h"
#include "util/text.h"

namespace hane {
namespace {

namespace fs = std::filesystem;

const std::string kFake = HANE_FAKE_GTP_ENGINE;

EngineSpec fake(const std::string& name, const std::string& options = "") {
  auto e = parse_engine_spec(name + "=gtp:'" + kFake + "' name=" + name + " " + options, "hane", 0);
  EXPECT_TRUE(e.ok()) << e.status();
  return *e;
}

GameSettings small_board(int size = 5) {
  GameSettings s;
  s.size = size;
  s.komi = 0.5;
  s.move_timeout_s = 5;
  s.command_timeout_s = 5;
  return s;
}

GameResult play(const GameSettings& s, EngineProcess& black, EngineProcess& white, uint64_t seed = 1,
                std::vector<Move> opening = {}) {
  GameAssignment a;
  a.index = 0;
  a.black = 0;
  a.white = 1;
  a.seed = seed;
  a.opening = std::move(opening);
  auto r = play_game(s, a, black, white, nullptr, "");
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : GameResult{};
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

TEST(MatchReferee, RandomGameEndsByTwoPassesAndIsScored) {
  EngineProcess b(fake("b", "seed=1")), w(fake("w", "seed=2"));
  const GameResult r = play(small_board(), b, w);
  EXPECT_EQ(r.ending, Ending::kScore) << r.reason;
  EXPECT_EQ(r.dead_stones_from, "agreed");
  ASSERT_GE(r.moves.size(), 2u);
  EXPECT_TRUE(r.moves.back().vertex.is_pass());
  EXPECT_TRUE(r.moves[r.moves.size() - 2].vertex.is_pass());
  EXPECT_EQ(r.result, score_text(r.margin));
  EXPECT_NE(r.winner, Color::kEmpty);  // half-point komi
  EXPECT_FALSE(r.score_disagreement);
  ASSERT_EQ(r.final_score.size(), 2u);
  EXPECT_EQ(r.final_score[0], r.result);
  // Black moved first and colours alternate.
  for (size_t i = 0; i < r.moves.size(); ++i) EXPECT_EQ(r.moves[i].color, i % 2 ? Color::kWhite : Color::kBlack);
}

struct FaultCase {
  const char* options;
  Ending ending;
  const char* reason;
  const char* result;
};

TEST(MatchReferee, FaultsLoseTheGameWithReasonAndStderr) {
  const FaultCase cases[] = {
      {"crash=2", Ending::kForfeit, "exited with code 3", "B+F"},
      {"hang=2", Ending::kForfeit, "no reply to 'genmove w'", "B+F"},
      {"garbage=2", Ending::kForfeit, "malformed reply", "B+F"},
      {"refuse=2", Ending::kForfeit, "refused 'genmove w'", "B+F"},
      {"illegal=2", Ending::kForfeit, "illegal move", "B+F"},
      {"resign=2", Ending::kResign, "white resigned", "B+R"},
  };
  GameSettings s = small_board();
  s.move_timeout_s = 0.5;
  for (const FaultCase& c : cases) {
    SCOPED_TRACE(c.options);
    EngineProcess b(fake("b")), w(fake("w", c.options));
    const GameResult r = play(s, b, w);
    EXPECT_EQ(r.ending, c.ending);
    EXPECT_EQ(r.result, c.result);
    EXPECT_EQ(r.winner, Color::kBlack);
    EXPECT_NE(r.reason.find(c.reason), std::string::npos) << r.reason;
    if (c.ending == Ending::kForfeit) {
      EXPECT_EQ(r.forfeit_engine, 1);
      EXPECT_NE(joined(r.stderr_tail).find("fake w: genmove 2"), std::string::npos) << joined(r.stderr_tail);
      EXPECT_FALSE(w.client().running());  // stopped; the next game restarts it
      const GameResult again = play(s, b, w);
      EXPECT_EQ(again.ending, c.ending) << "restarted engine plays the next game: " << again.reason;
    }
  }
}

TEST(MatchReferee, SlowStartIsFineAndFailedStartForfeits) {
  EngineProcess b(fake("b", "slowstart=200")), w(fake("w"));
  EXPECT_EQ(play(small_board(), b, w).ending, Ending::kScore);
  EngineProcess dead(fake("dead", "nostart=1")), ok(fake("ok"));
  const GameResult r = play(small_board(), ok, dead);
  EXPECT_EQ(r.ending, Ending::kForfeit);
  EXPECT_EQ(r.result, "B+F");
  EXPECT_NE(r.reason.find("could not start"), std::string::npos) << r.reason;
  EXPECT_NE(joined(r.stderr_tail).find("refusing to start"), std::string::npos) << joined(r.stderr_tail);
}

TEST(MatchReferee, ScoreDisagreementIsRecorded) {
  EngineProcess b(fake("b")), w(fake("w", "badscore=1"));
  const GameResult r = play(small_board(), b, w);
  EXPECT_EQ(r.ending, Ending::kScore);
  EXPECT_TRUE(r.score_disagreement);
  ASSERT_EQ(r.final_score.size(), 2u);
  EXPECT_EQ(r.final_score[0], r.result);
  EXPECT_NE(r.final_score[1], r.result);
}

TEST(MatchReferee, DeadStoneDisagreementGoesToCleanup) {
  // Black says White's lone A1 stone is dead, White does not: play resumes (cleanup) and the
  // final board is scored with every stone alive.
  EngineProcess b(fake("b", "dead=white moves=C3")), w(fake("w", "moves=A1"));
  const GameResult r = play(small_board(), b, w);
  EXPECT_EQ(r.ending, Ending::kScore) << r.reason;
  EXPECT_EQ(r.dead_stones_from, "cleanup");
  EXPECT_TRUE(r.dead.empty());
  EXPECT_EQ(r.moves.size(), 6u);  // C3 A1 pass pass, then two cleanup passes
  EXPECT_EQ(r.margin, 1 - 1 - 0.5);  // the empty points touch both colours: neutral
}

TEST(MatchReferee, IllegalOpponentRejectionAndPlayedOpening) {
  // The opening's moves are played for both engines and recorded.
  EngineProcess b(fake("b")), w(fake("w"));
  const Geometry g(5);
  const std::vector<Move> opening = {{Color::kBlack, g.at(2, 2)}, {Color::kWhite, g.at(1, 1)}};
  const GameResult r = play(small_board(), b, w, 1, opening);
  ASSERT_GE(r.moves.size(), 2u);
  EXPECT_EQ(r.moves[0], opening[0]);
  EXPECT_EQ(r.moves[1], opening[1]);
  EXPECT_EQ(r.opening_moves, 2);
}

TEST(MatchReferee, HandicapWithFixedOrFreeHandicap) {
  GameSettings s = small_board(7);
  s.handicap = 2;
  for (const char* options : {"", "nohandicap=1"}) {
    SCOPED_TRACE(options);
    const std::string log = testing::temp_path("match", "handicap.log");
    fs::remove(log);
    EngineProcess b(fake("b", std::string(options) + " log=" + log)), w(fake("w"));
    const GameResult r = play(s, b, w);
    EXPECT_EQ(r.ending, Ending::kScore) << r.reason;
    EXPECT_EQ(r.handicap_stones.size(), 2u);
    ASSERT_FALSE(r.moves.empty());
    EXPECT_EQ(r.moves[0].color, Color::kWhite);  // White moves first after handicap
    std::ifstream f(log);
    std::stringstream all;
    all << f.rdbuf();
    EXPECT_NE(all.str().find(*options ? "set_free_handicap C3 E5" : "fixed_handicap 2"), std::string::npos) << all.str();
    EXPECT_EQ(all.str().find("play b C3"), std::string::npos);  // never as a move
    fs::remove(log);
  }
}

TEST(MatchReferee, HandicapStonesAreCompensatedUnderAreaScoring) {
  // 7x7, two handicap stones (C3, E5), komi 0.5; White E3, Black C5, two passes. The board
  // counts Black 3 stones, White 1, the empty points neutral: 3 - 1 - 0.5 = B+1.5 without
  // compensation; the Chinese rules give White 2 points (W+0.5), the AGA rules 1 (B+0.5).
  for (const auto& [rule, result] : {std::pair{HandicapCompensation::kPerStone, "W+0.5"},
                                     {HandicapCompensation::kPerStoneButOne, "B+0.5"},
                                     {HandicapCompensation::kNone, "B+1.5"}}) {
    GameSettings s = small_board(7);
    s.handicap = 2;
    s.handicap_compensation = rule;
    EngineProcess b(fake("b", "moves=C5")), w(fake("w", "moves=E3"));
    const GameResult r = play(s, b, w);
    EXPECT_EQ(r.ending, Ending::kScore) << r.reason;
    ASSERT_EQ(r.handicap_stones.size(), 2u);
    EXPECT_EQ(r.result, result);
  }
}

TEST(MatchReferee, TimeControlIsSentAndOverstepLoses) {
  GameSettings s = small_board();
  s.time = {0.2, 0, 0};  // 0.2 s absolute
  s.time_margin_s = 0.05;
  const std::string log = testing::temp_path("match", "time.log");
  fs::remove(log);
  EngineProcess b(fake("b", "log=" + log)), w(fake("w", "sleep=150"));
  const GameResult r = play(s, b, w);
  EXPECT_EQ(r.ending, Ending::kTime) << r.reason;
  EXPECT_EQ(r.result, "B+T");
  EXPECT_EQ(r.time, s.time);  // for the SGF's TM
  std::ifstream f(log);
  std::stringstream all;
  all << f.rdbuf();
  EXPECT_NE(all.str().find("time_settings 0 0 0"), std::string::npos) << all.str();
  EXPECT_NE(all.str().find("time_left b 0 0"), std::string::npos) << all.str();
  fs::remove(log);
}

// The clock goes into the SGF (FF[4] TM: main time in seconds; OT: the overtime, as
// "STONES/PERIOD Canadian") and through the results line.
TEST(MatchResult, TheSgfRecordsTheClock) {
  GameResult g;
  g.black_name = "a";
  g.white_name = "b";
  g.result = "B+T";
  g.date = "2024-01-01";
  g.time = {60, 10, 5};
  const std::string sgf = game_sgf(g);
  EXPECT_NE(sgf.find("TM[60]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("OT[5/10 Canadian]"), std::string::npos) << sgf;
  auto back = game_from_json(to_json(g));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->time, g.time);
  g.time = {90, 0, 0};  // absolute time: no overtime
  EXPECT_NE(game_sgf(g).find("TM[90]"), std::string::npos);
  EXPECT_EQ(game_sgf(g).find("OT["), std::string::npos);
  g.time = {};
  EXPECT_EQ(game_sgf(g).find("TM["), std::string::npos);
  nlohmann::json old = to_json(g);
  EXPECT_FALSE(old.contains("time"));  // results lines without a clock stay as they were
  EXPECT_TRUE(game_from_json(old).ok());
}

// Names in any script line up: a CJK character takes two columns on a terminal, so the table
// pads by display width, not by bytes.
TEST(MatchReport, WideNamesKeepTheColumnsAligned) {
  ReportContext ctx;
  ctx.names = {"黒番", "b", "ünï"};
  ctx.gtp_names = {"囲碁エンジン", "fake", "x"};
  ctx.gtp_versions = {"1.0", "1.0", "2"};
  ctx.pairings = {{0, 1}, {0, 2}, {1, 2}};
  const std::string text = match_report_text(match_report_json({}, ctx));
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<std::string> table, ratings;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].starts_with("engine ")) table.assign(lines.begin() + i, lines.begin() + std::min(lines.size(), i + 4));
    if (lines[i].starts_with("joint ratings")) {
      ratings.assign(lines.begin() + i + 1, lines.begin() + std::min(lines.size(), i + 4));
    }
  }
  ASSERT_EQ(table.size(), 4u) << text;
  for (const std::string& line : table) EXPECT_EQ(display_width(line), display_width(table[0])) << text;
  ASSERT_EQ(ratings.size(), 3u) << text;
  for (const std::string& line : ratings) EXPECT_EQ(display_width(line), display_width(ratings[0])) << text;
  EXPECT_EQ(display_width("黒番"), 4);
  EXPECT_EQ(display_width("ünï"), 3);
  EXPECT_EQ(pad_right("黒番", 6), "黒番  ");
  EXPECT_EQ(truncate_to_width("黒番x", 3), "黒");
}

// Each engine's seconds a move and a game, worked out by hand: the opening's moves are left
// out, a resignation's time counts for the side that resigned, an engine without moves has none.
TEST(MatchReport, TimeAMoveAndAGamePerEngine) {
  const Vertex p = Vertex::pass();
  GameResult g1;
  g1.black = 0, g1.white = 1, g1.opening_moves = 1;
  g1.moves = {{Color::kBlack, p}, {Color::kWhite, p}, {Color::kBlack, p}, {Color::kWhite, p}};
  g1.move_seconds = {0, 1.0, 2.0, 3.0};
  g1.winner = Color::kBlack;
  GameResult g2;
  g2.index = 1, g2.black = 1, g2.white = 0;
  g2.moves = {{Color::kBlack, p}, {Color::kWhite, p}};
  g2.move_seconds = {0.5, 5.0, 1.5};  // Black (engine 1) resigns after 1.5 s
  g2.ending = Ending::kResign, g2.winner = Color::kWhite;
  ReportContext ctx;
  ctx.names = {"a", "b", "c"};
  ctx.pairings = {{0, 1}};
  const nlohmann::json r = match_report_json({g1, g2}, ctx);
  const nlohmann::json& a = r["engines"][0]["time"];
  EXPECT_EQ(a["moves"], 2);              // 2.0 and 5.0
  EXPECT_DOUBLE_EQ(a["median_s"], 3.5);
  EXPECT_DOUBLE_EQ(a["mean_s"], 3.5);
  EXPECT_DOUBLE_EQ(a["longest_s"], 5.0);
  EXPECT_DOUBLE_EQ(a["game_median_s"], 3.5);  // games of 2.0 and 5.0 s
  const nlohmann::json& b = r["engines"][1]["time"];
  EXPECT_EQ(b["moves"], 4);              // 1.0, 3.0, 0.5, 1.5
  EXPECT_DOUBLE_EQ(b["median_s"], 1.25);
  EXPECT_DOUBLE_EQ(b["mean_s"], 1.5);
  EXPECT_DOUBLE_EQ(b["longest_s"], 3.0);
  EXPECT_DOUBLE_EQ(b["game_median_s"], 3.0);  // games of 4.0 and 2.0 s
  EXPECT_TRUE(r["engines"][2]["time"].is_null());
  const std::string text = match_report_text(r);
  EXPECT_NE(text.find("seconds a move"), std::string::npos) << text;
  EXPECT_NE(text.find("     1.25      1.50      3.00             3.0         4"), std::string::npos) << text;
}

// The plots are drawn through util/plot.h, which quotes: a folder or engine name with a quote
// or a space is no problem (the shell's hand quoting broke on it).
TEST(MatchReport, PlotsWhateverTheFolderAndNamesHold) {
  if (!gnuplot_available()) GTEST_SKIP() << "gnuplot is not installed";
  const std::string dir = testing::temp_path("match", "it's plots");
  fs::remove_all(dir);
  fs::create_directories(dir);
  ReportContext ctx;
  ctx.names = {"a'b", "c \"d\""};
  ctx.pairings = {{0, 1}};
  ctx.sprt = parse_sprt("elo0=0,elo1=50");
  std::vector<GameResult> games;
  for (int i = 0; i < 6; ++i) {
    GameResult g;
    g.index = i;
    g.pair = i / 2;
    g.black = i % 2;
    g.white = 1 - i % 2;
    g.winner = i % 3 ? Color::kBlack : Color::kWhite;
    games.push_back(g);
  }
  const std::string said = write_plots(games, ctx, dir);
  EXPECT_EQ(said, "plots: " + dir + "/elo.svg, " + dir + "/llr.svg");
  EXPECT_GT(fs::file_size(dir + "/elo.svg"), 0u);
  EXPECT_GT(fs::file_size(dir + "/llr.svg"), 0u);
  fs::remove_all(dir);
}

// Reads results.jsonl; with `strict` a bad line fails the test, else (while a run may be
// writing the file) it is skipped.
std::vector<GameResult> read_results(const std::string& dir, bool strict = true) {
  std::vector<GameResult> out;
  std::ifstream f(dir + "/results.jsonl");
  for (std::string line; std::getline(f, line);) {
    nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!strict && j.is_discarded()) continue;
    EXPECT_FALSE(j.is_discarded()) << line;
    if (j.is_discarded()) continue;
    auto g = game_from_json(j);
    EXPECT_TRUE(g.ok()) << g.status();
    if (g.ok()) out.push_back(*g);
  }
  return out;
}

void expect_results_and_sgf_agree(const std::string& dir, size_t games) {
  const std::vector<GameResult> results = read_results(dir);
  std::set<int64_t> indices;
  for (const GameResult& g : results) {
    EXPECT_TRUE(indices.insert(g.index).second) << "game " << g.index << " twice";
    std::ifstream f(dir + "/sgf/" + [&] {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%06ld.sgf", static_cast<long>(g.index));
      return std::string(buf);
    }());
    std::stringstream sgf;
    sgf << f.rdbuf();
    auto rec = read_game(sgf.str());
    ASSERT_TRUE(rec.ok()) << "game " << g.index << ": " << rec.status();
    EXPECT_EQ(rec->result, g.result);
    EXPECT_EQ(rec->black_name, g.black_name);
    EXPECT_EQ(rec->white_name, g.white_name);
    EXPECT_EQ(rec->komi, g.komi);
    EXPECT_EQ(rec->num_moves(), g.moves.size());
  }
  EXPECT_EQ(results.size(), games);
  size_t sgfs = 0;
  for (const auto& e : fs::directory_iterator(dir + "/sgf")) {
    ++sgfs;
    EXPECT_EQ(e.path().extension(), ".sgf") << e.path();
  }
  EXPECT_EQ(sgfs, results.size());
}

MatchOptions small_match(const std::string& dir, int64_t games) {
  MatchOptions o;
  o.engines = {fake("a", "seed={seed} sleep=2"), fake("b", "crash=9")};
  o.games = games;
  o.game = small_board();
  o.parallel = 2;
  o.out_dir = dir;
  o.progress = false;
  o.plots = false;
  return o;
}

TEST(MatchRun, TournamentGoesOnAfterFaultsAndReports) {
  const std::string dir = testing::temp_path("match", "run");
  fs::remove_all(dir);
  MatchOptions o = small_match(dir, 6);
  o.sprt = parse_sprt("elo0=0,elo1=50");
  auto out = run_match(o, nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  const nlohmann::json& j = out->report;
  EXPECT_EQ(j["games"], 6);
  EXPECT_EQ(j["engines"][0]["name"], "a");
  EXPECT_EQ(j["engines"][0]["version"], "1.0");
  // b crashes at its 9th genmove of each process: some games are forfeits, all are played.
  const int64_t forfeits = j["engines"][1]["forfeits"];
  EXPECT_GT(forfeits, 0);
  const int64_t wins = j["engines"][0]["wins"], losses = j["engines"][0]["losses"];
  EXPECT_EQ(wins + losses, 6);
  EXPECT_EQ(j["engines"][0]["wins_as_black"].get<int64_t>() + j["engines"][0]["wins_as_white"].get<int64_t>(), wins);
  EXPECT_EQ(j["score"], j["pairings"][0]["score"]);
  EXPECT_NEAR(j["score"].get<double>(), wins / 6.0, 1e-12);
  EXPECT_EQ(j["score_ci95"].size(), 2u);
  EXPECT_EQ(j["elo_ci95"].size(), 2u);
  EXPECT_EQ(j["pairings"][0]["pairs"], 3);
  ASSERT_TRUE(j.contains("sprt"));
  EXPECT_EQ(j["sprt"]["elo_model"], "logistic");
  EXPECT_NEAR(j["sprt"]["upper"].get<double>(), 2.944439, 1e-6);
  // Three pairs cannot decide (23 won pairs would): every game is played and the test ended
  // undecided, which the text says so, not "continue".
  EXPECT_EQ(j["sprt"]["decision"], "continue");
  EXPECT_NE(out->text.find("-> undecided: every scheduled game was played"), std::string::npos) << out->text;
  for (const char* k : {"cores", "load_average_start", "started"}) EXPECT_TRUE(j["provenance"].contains(k)) << k;
  expect_results_and_sgf_agree(dir, 6);
  // Seeds reach engines whose command holds {seed}: a's games all differ.
  std::set<uint64_t> seeds;
  for (const GameResult& g : read_results(dir)) seeds.insert(g.seed);
  EXPECT_EQ(seeds.size(), 6u);
  // Running again with the same options plays nothing new; other options are refused.
  auto again = run_match(o, nullptr);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->report["provenance"]["games_this_run"], 0);
  MatchOptions other = o;
  other.game.komi = 6.5;
  EXPECT_EQ(run_match(other, nullptr).status().code(), absl::StatusCode::kInvalidArgument);
  fs::remove_all(dir);
}

TEST(MatchRun, RoundRobinOfThreeHasJointRatings) {
  const std::string dir = testing::temp_path("match", "robin");
  fs::remove_all(dir);
  MatchOptions o = small_match(dir, 2);
  o.engines = {fake("a", "seed={seed}"), fake("b", "seed={seed}"), fake("c", "resign_each=1")};
  auto out = run_match(o, nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  const nlohmann::json& j = out->report;
  EXPECT_EQ(j["games"], 6);
  ASSERT_EQ(j["pairings"].size(), 3u);
  EXPECT_EQ(j["pairings"][1]["second"], "c");
  EXPECT_EQ(j["pairings"][1]["score"], 1.0);  // c resigns every game
  EXPECT_TRUE(j["pairings"][1]["elo"].is_null());
  EXPECT_FALSE(j["pairings"][1]["elo_ci95"][0].is_null());
  EXPECT_TRUE(j["pairings"][1]["elo_ci95"][1].is_null());
  EXPECT_FALSE(j.contains("score"));  // top-level score only for two engines
  ASSERT_EQ(j["ratings"].size(), 3u);
  EXPECT_LT(j["ratings"][2]["elo"].get<double>(), j["ratings"][0]["elo"].get<double>());
  EXPECT_LT(j["ratings"][2]["elo"].get<double>(), j["ratings"][1]["elo"].get<double>());
  fs::remove_all(dir);
}

TEST(MatchRun, EngineThatFailsToStartIsAnErrorBeforeAnyGame) {
  const std::string dir = testing::temp_path("match", "nostart");
  fs::remove_all(dir);
  MatchOptions o = small_match(dir, 4);
  o.engines[1] = fake("b", "nostart=1");
  auto out = run_match(o, nullptr);
  EXPECT_EQ(out.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(out.status().message()).find("engine b"), std::string::npos) << out.status();
  EXPECT_NE(std::string(out.status().message()).find("refusing to start"), std::string::npos) << out.status();
  EXPECT_TRUE(read_results(dir).empty());
  fs::remove_all(dir);
}

TEST(MatchRun, IdenticalGamesAreCounted) {
  const std::string dir = testing::temp_path("match", "unique");
  fs::remove_all(dir);
  MatchOptions o = small_match(dir, 6);
  o.engines = {fake("a", "moves=C3,B2"), fake("b", "moves=D4,B4")};
  auto out = run_match(o, nullptr);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->report["pairings"][0]["unique_games"], 2);  // one per colour assignment
  fs::remove_all(dir);
}

TEST(MatchRun, NeverRemovesFilesItDidNotWrite) {
  const std::string dir = testing::temp_path("match", "foreign");
  fs::remove_all(dir);
  fs::create_directories(dir + "/sgf");
  std::ofstream(dir + "/sgf/mine.mgt") << "(;GM[1]SZ[19])";
  MatchOptions o = small_match(dir, 2);
  o.engines = {fake("a"), fake("b")};
  // Files but no match: refused, nothing touched.
  auto refused = run_match(o, nullptr);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(refused.status().message()).find("holds files but no match"), std::string::npos)
      << refused.status();
  EXPECT_TRUE(fs::exists(dir + "/sgf/mine.mgt"));
  EXPECT_FALSE(fs::exists(dir + "/match.json"));
  // A match of its own: other files stay through a resume; its own stray SGF goes.
  fs::remove(dir + "/sgf/mine.mgt");
  ASSERT_TRUE(run_match(o, nullptr).ok());
  std::ofstream(dir + "/sgf/mine.mgt") << "(;GM[1]SZ[19])";
  std::ofstream(dir + "/sgf/000001.sgf.bak") << "(;GM[1]SZ[19])";
  std::ofstream(dir + "/sgf/000009.sgf") << "(;GM[1]SZ[5])";  // beyond --games 2
  o.games = 6;                                                // games 2..5 to play
  std::ofstream(dir + "/files.txt", std::ios::app) << "sgf/000004.sgf\n";
  std::ofstream(dir + "/sgf/000004.sgf") << "(;GM[1]SZ[5])";  // written, result lost
  auto resumed = run_match(o, nullptr);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  for (const char* f : {"mine.mgt", "000001.sgf.bak", "000009.sgf", "000004.sgf", "000000.sgf", "000005.sgf"}) {
    EXPECT_TRUE(fs::exists(dir + "/sgf/" + f)) << f;
  }
  std::stringstream replayed;
  replayed << std::ifstream(dir + "/sgf/000004.sgf").rdbuf();
  EXPECT_NE(replayed.str().find("hane match"), std::string::npos) << replayed.str();
  EXPECT_EQ(read_results(dir).size(), 6u);
  // A file named as the SGF of a game to play, not written by the match: refused, kept.
  o.games = 8;
  std::ofstream(dir + "/sgf/000007.sgf") << "(;GM[1]SZ[5])";
  auto clash = run_match(o, nullptr);
  EXPECT_EQ(clash.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(clash.status().message()).find("000007.sgf was not written by this match"), std::string::npos)
      << clash.status();
  EXPECT_TRUE(fs::exists(dir + "/sgf/000007.sgf"));
  fs::remove_all(dir);
}

TEST(MatchRun, SettingsOfAFolderWithoutGamesAreReplacedAndMismatchesNamed) {
  const std::string dir = testing::temp_path("match", "settings");
  fs::remove_all(dir);
  MatchOptions o = small_match(dir, 2);
  o.engines = {fake("a"), fake("b", "nostart=1")};
  EXPECT_EQ(run_match(o, nullptr).status().code(), absl::StatusCode::kFailedPrecondition);
  // No game was recorded: the corrected rerun is no other match.
  o.engines = {fake("a"), fake("b")};
  ASSERT_TRUE(run_match(o, nullptr).ok());
  MatchOptions other = o;
  other.game.komi = 6.5;
  auto refused = run_match(other, nullptr);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(refused.status().message()).find("komi: 6.5 now, 0.5 before"), std::string::npos)
      << refused.status();
  fs::remove_all(dir);
}

// The runner and the store without run_match, as `hane tune` uses them.
TEST(MatchRunner, PlaysScheduledGamesIntoAStore) {
  const std::string dir = testing::temp_path("match", "runner");
  fs::remove_all(dir);
  const std::vector<GameAssignment> schedule = make_schedule(make_pairings(2, false), 4, {}, 7);
  auto store = ResultsStore::open(dir, {{"what", "runner test"}}, schedule);
  ASSERT_TRUE(store.ok()) << store.status();
  RunnerOptions run;
  run.engines = {fake("a", "seed={seed}"), fake("b")};
  run.game = small_board();
  run.parallel = 2;
  run.stderr_dir = (*store)->stderr_dir();
  run.progress = false;
  std::vector<const GameAssignment*> games;
  for (const GameAssignment& a : schedule) games.push_back(&a);
  int64_t recorded = 0;
  GameSink sink;
  sink.record = [&](GameResult&& g) {
    ++recorded;
    return (*store)->record(g);
  };
  sink.done = [&] { return recorded >= 3; };  // e.g. an SPRT that decides after 3 games
  auto played = play_games(run, games, sink, nullptr);
  ASSERT_TRUE(played.ok()) << played.status();
  EXPECT_GE(*played, 3);  // (a game in progress when it decided is recorded too)
  EXPECT_EQ(*played, recorded);
  store->reset();
  auto reopened = ResultsStore::open(dir, {{"what", "runner test"}}, schedule);
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  EXPECT_EQ(static_cast<int64_t>((*reopened)->loaded().size()), recorded);
  expect_results_and_sgf_agree(dir, static_cast<size_t>(recorded));
  fs::remove_all(dir);
}

TEST(MatchRun, ResumesAfterKillAndInterrupt) {
  const std::string dir = testing::temp_path("match", "resume");
  fs::remove_all(dir);
  MatchOptions o = small_match(dir, 16);
  o.engines = {fake("a", "seed={seed} sleep=10"), fake("b", "seed={seed}")};
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto out = run_match(o, nullptr);
    _exit(out.ok() ? 0 : 1);
  }
  // Kill the run once a few games are in.
  for (int i = 0; i < 3000 && read_results(dir, false).size() < 3; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  const size_t before = read_results(dir, false).size();
  ASSERT_GE(before, 3u);
  ASSERT_LT(before, 16u) << "the run ended before it was killed";
  // A line cut by the kill, and an SGF written just before it (noted in files.txt first, as
  // the match does).
  {
    std::ofstream f(dir + "/results.jsonl", std::ios::app);
    f << "{\"game\": 15, \"pairing\": 0, \"bla";
    std::ofstream(dir + "/files.txt", std::ios::app) << "sgf/000015.sgf\n";
    std::ofstream(dir + "/sgf/000015.sgf") << "(;GM[1]SZ[5])";
  }
  // Interrupt the resumed run after a game or two, then resume again to the end.
  std::atomic<bool> interrupt{false};
  std::jthread stopper([&] {
    for (int i = 0; i < 3000 && read_results(dir, false).size() < before + 1; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    interrupt = true;
  });
  auto part = run_match(o, &interrupt);
  stopper.join();
  ASSERT_TRUE(part.ok()) << part.status();
  if (part->interrupted) {
    EXPECT_GT(part->games_left, 0);
    expect_results_and_sgf_agree(dir, read_results(dir).size());
  }
  auto done = run_match(o, nullptr);
  ASSERT_TRUE(done.ok()) << done.status();
  EXPECT_FALSE(done->interrupted);
  EXPECT_EQ(done->games_left, 0);
  EXPECT_EQ(done->report["games"], 16);
  expect_results_and_sgf_agree(dir, 16);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hane
