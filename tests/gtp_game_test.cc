// Whole games over GTP between two engines, the way a match runner drives them: every move of
// one is played into the other (so none may be illegal), the game ends by two passes, and the
// final score agrees with the board once the engine's dead stones are removed.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "go/score.h"
#include "gtp/engine.h"
#include "gtp_ask.h"
#include "gtp/random_player.h"
#include "gtp/search_player.h"

namespace hane::gtp {
namespace {

using testing::ask;

std::unique_ptr<MoveGenerator> tiny_search(uint64_t seed) {
  EngineOptions o;
  o.search.policy = "uniform";
  o.search.prior = "none";
  o.search.seed = seed;
  o.playouts = 64;
  o.end_playouts = 200;
  auto p = SearchPlayer::create(o);
  EXPECT_TRUE(p.ok()) << p.status();
  return std::move(*p);
}

void play_game(Engine& black, Engine& white, int size) {
  for (Engine* e : {&black, &white}) {
    ask(*e, "boardsize " + std::to_string(size));
    ask(*e, "komi 2.5");
  }
  int passes = 0, moves = 0;
  Color to_move = Color::kBlack;
  while (passes < 2 && moves < 4 * size * size) {
    Engine& mover = to_move == Color::kBlack ? black : white;
    Engine& other = to_move == Color::kBlack ? white : black;
    const std::string c = to_move == Color::kBlack ? "b" : "w";
    const std::string move = ask(mover, "genmove " + c);
    ASSERT_NE(move, "resign");
    ask(other, "play " + c + " " + move);  // fails the test if illegal for the other engine
    passes = move == "pass" ? passes + 1 : 0;
    ++moves;
    to_move = opponent(to_move);
  }
  ASSERT_EQ(passes, 2) << "no end after " << moves << " moves";
  for (Engine* e : {&black, &white}) {
    const std::string score = ask(*e, "final_score");
    ASSERT_TRUE(score == "0" || score.starts_with("B+") || score.starts_with("W+")) << score;
    // The score is the area count of the board without the stones called dead.
    Board board = e->game().board();
    std::istringstream dead(ask(*e, "final_status_list dead"));
    for (std::string v; dead >> v;) board.set_stone(*from_gtp(v, size), Color::kEmpty);
    EXPECT_EQ(score, result_text(area_score(board).margin(2.5)));
  }
}

TEST(GtpGame, RandomPlayersPlayToTheEnd) {
  Engine black(std::make_unique<RandomPlayer>(1));
  Engine white(std::make_unique<RandomPlayer>(2));
  play_game(black, white, 7);
}

TEST(GtpGame, SearchAgainstRandomPlaysToTheEnd) {
  Engine black(tiny_search(1));
  Engine white(std::make_unique<RandomPlayer>(2));
  play_game(black, white, 5);
}

// Per board size: the large-board search plays on 15x15 and more, the other one below, in one
// engine whose boardsize changes; the budget given applies to both.
TEST(GtpGame, LargeBoardsPlayWithTheLargeBoardSearch) {
  EngineOptions o;
  o.search.policy = "uniform";
  o.search.prior = "none";
  o.large_board_search = o.search;
  o.large_board_search->policy = "rules";
  o.large_board_search->rave_equiv = 250;
  o.playouts = 32;
  o.end_playouts = 50;
  auto p = SearchPlayer::create(o);
  ASSERT_TRUE(p.ok()) << p.status();
  const SearchPlayer& player = **p;
  EXPECT_EQ(player.search_options(9).policy, "uniform");
  EXPECT_EQ(player.search_options(14).policy, "uniform");
  EXPECT_EQ(player.search_options(kLargeBoard).policy, "rules");
  EXPECT_EQ(player.search_options(19).policy, "rules");
  EXPECT_EQ(player.search_options(19).playouts, 32);
  EXPECT_EQ(player.search_options(9).rave_equiv, 500);
  EXPECT_EQ(player.search_options(19).rave_equiv, 250);
  EXPECT_NE(player.name().find("on boards of 15 and more: policy rules"), std::string::npos) << player.name();
  EXPECT_NE(player.name().find(", RAVE equivalence 250"), std::string::npos) << player.name();
  Engine engine(std::move(*p));
  for (int size : {19, 9, 19}) {
    ask(engine, "boardsize " + std::to_string(size));
    ask(engine, "clear_board");
    EXPECT_FALSE(ask(engine, "genmove b").empty());
    EXPECT_FALSE(ask(engine, "final_score").empty());
  }
  // A large-board policy that cannot load is an error naming the board size.
  EngineOptions bad = o;
  bad.large_board_search->policy = "softmax:/no/such.model";
  const auto failed = SearchPlayer::create(bad);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("on large boards"), std::string::npos) << failed.status();
}

}  // namespace
}  // namespace hane::gtp
