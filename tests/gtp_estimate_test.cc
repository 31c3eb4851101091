// estimate_score (GNU Go's extension) and GoGui's drawings of the whole-board maps: an answer on
// every board (empty, finished, with setup stones, 2x2 to 25x25), never an error or a crash,
// with the static estimate (random player) and with playouts (the MCTS player); the replies of
// hane-gfx_influence and hane-gfx_classes in GoGui's gfx format.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "go/random.h"
#include "gtp/engine.h"
#include "gtp_ask.h"
#include "gtp/random_player.h"
#include "gtp/search_player.h"

namespace hane::gtp {
namespace {

using testing::ask;

std::unique_ptr<MoveGenerator> search_player() {
  EngineOptions o;
  o.search.policy = "uniform";
  o.search.prior = "none";
  o.search.seed = 1;
  o.playouts = 16;
  o.end_playouts = 32;
  o.estimate_playouts = 16;
  auto p = SearchPlayer::create(o);
  EXPECT_TRUE(p.ok()) << p.status();
  return std::move(*p);
}

const std::regex kScore("0|[BW]\\+[0-9]+(\\.5)?");

// A few dozen random legal moves, so that boards hold stones of both colours and chains in atari.
void play_random(Engine& engine, int size, uint64_t seed, int moves) {
  Rng rng(seed);
  Color c = Color::kBlack;
  for (int i = 0; i < moves; ++i) {
    const Board& b = engine.game().board();
    std::vector<Vertex> legal;
    for (const int16_t p : b.empty_points()) {
      if (engine.game().legal(Vertex(p), c) == Legality::kLegal && !b.is_eye(Vertex(p), c)) legal.push_back(Vertex(p));
    }
    const std::string mover = c == Color::kBlack ? "b " : "w ";
    ask(engine, "play " + mover + (legal.empty() ? "pass" : to_gtp(legal[rng.below(static_cast<uint32_t>(legal.size()))], size)));
    c = opponent(c);
  }
}

TEST(GtpEstimate, AnswersOnEveryBoardSize) {
  for (const bool playouts : {false, true}) {
    Engine engine(playouts ? search_player() : std::make_unique<RandomPlayer>(1));
    for (int size = 2; size <= 25; ++size) {
      SCOPED_TRACE("size " + std::to_string(size) + (playouts ? " with playouts" : " static"));
      ask(engine, "boardsize " + std::to_string(size));
      ask(engine, "clear_board");
      ask(engine, "komi 7.5");
      const std::string empty = ask(engine, "estimate_score");
      // The empty board: komi alone statically; with playouts their mean owners move it.
      if (!playouts) {
        EXPECT_EQ(empty, "W+7.5");
      }
      EXPECT_TRUE(std::regex_match(empty, kScore)) << empty;
      play_random(engine, size, static_cast<uint64_t>(size), size * size);
      const std::string score = ask(engine, "estimate_score");
      EXPECT_TRUE(std::regex_match(score, kScore)) << score;
      ask(engine, "kgs-rules japanese");
      EXPECT_TRUE(std::regex_match(ask(engine, "estimate_score"), kScore));
      ask(engine, "kgs-rules chinese");
    }
  }
}

TEST(GtpEstimate, SetupStonesAndFinishedGames) {
  Engine engine(std::make_unique<RandomPlayer>(1));
  ask(engine, "boardsize 9");
  ask(engine, "komi 0.5");
  ask(engine, "set_free_handicap C3 G7 G3 C7");
  // Four black stones on an empty board: the stones and their frameworks, against komi 0.5.
  const std::string handicap = ask(engine, "estimate_score");
  ASSERT_TRUE(std::regex_match(handicap, kScore)) << handicap;
  EXPECT_TRUE(handicap.starts_with("B+")) << handicap;
  // Both players pass at the end of a played-out game: still an answer.
  play_random(engine, 9, 7, 120);
  ask(engine, "play b pass");
  ask(engine, "play w pass");
  EXPECT_TRUE(std::regex_match(ask(engine, "estimate_score"), kScore));
  // Arguments are refused as for any command that takes none.
  std::ostringstream out;
  engine.execute("estimate_score b", out);
  EXPECT_TRUE(out.str().starts_with("?")) << out.str();
}

TEST(GtpEstimate, GoGuiListsAndDrawsTheMaps) {
  Engine engine(std::make_unique<RandomPlayer>(1));
  const std::string list = ask(engine, "gogui-analyze_commands");
  EXPECT_NE(list.find("gfx/Influence/hane-gfx_influence"), std::string::npos) << list;
  EXPECT_NE(list.find("gfx/Territory and frameworks/hane-gfx_classes"), std::string::npos) << list;
  EXPECT_NE(list.find("string/Score estimate/estimate_score"), std::string::npos) << list;
  ask(engine, "boardsize 9");
  play_random(engine, 9, 3, 50);

  // INFLUENCE followed by point / number pairs, every number in [-1, 1], each point once.
  const std::string influence = ask(engine, "hane-gfx_influence");
  std::istringstream words(influence);
  std::string word;
  words >> word;
  EXPECT_EQ(word, "INFLUENCE");
  std::set<std::string> seen;
  int pairs = 0;
  for (std::string point, number; words >> point >> number; ++pairs) {
    EXPECT_TRUE(from_gtp(point, 9).has_value() && from_gtp(point, 9)->is_point()) << point;
    EXPECT_TRUE(seen.insert(point).second) << point << " twice";
    const double x = std::stod(number);
    EXPECT_TRUE(x >= -1 && x <= 1 && std::abs(x) >= 0.05) << point << " " << number;
  }
  EXPECT_GT(pairs, 10);
  EXPECT_EQ(influence.find('\n'), std::string::npos);

  // COLOR lines (a colour GoGui knows, then points), MARK for dead stones, a TEXT line last.
  const std::string classes = ask(engine, "hane-gfx_classes");
  std::istringstream lines(classes);
  std::set<std::string> coloured;
  std::string last;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream w(line);
    std::string kind;
    w >> kind;
    last = kind;
    if (kind == "COLOR") {
      std::string color;
      w >> color;
      EXPECT_TRUE(std::regex_match(color, std::regex("#[0-9a-f]{6}|yellow"))) << line;
      int points = 0;
      for (std::string p; w >> p; ++points) {
        EXPECT_TRUE(from_gtp(p, 9).has_value() && from_gtp(p, 9)->is_point()) << line;
        EXPECT_TRUE(coloured.insert(p).second) << p << " coloured twice";
      }
      EXPECT_GT(points, 0) << line;
    } else if (kind == "MARK") {
      for (std::string p; w >> p;) {
        const auto v = from_gtp(p, 9);
        ASSERT_TRUE(v.has_value()) << line;
        EXPECT_TRUE(engine.game().board().is_stone(*v)) << p << " is no stone";
      }
    } else {
      EXPECT_EQ(kind, "TEXT") << line;
      EXPECT_TRUE(std::regex_search(line, std::regex("^TEXT (0|[BW]\\+[0-9.]+): Black territory [0-9]+, framework [0-9]+; "
                                                     "White territory [0-9]+, framework [0-9]+; contested [0-9]+; dead "
                                                     "stones [0-9]+$")))
          << line;
    }
  }
  EXPECT_EQ(last, "TEXT");
  EXPECT_FALSE(coloured.empty());
}

}  // namespace
}  // namespace hane::gtp
