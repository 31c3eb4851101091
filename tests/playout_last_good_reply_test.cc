// Last-good-reply with forgetting (playout/last_good_reply.h): the winner's replies are stored
// after one and two moves, the loser's forgotten; a stored reply is played only in the playout
// proper and only when it is playable; the search runs with it.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "go/random.h"
#include "go_fixtures.h"
#include "playout/board_policy.h"
#include "playout/last_good_reply.h"
#include "search/search.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;

// Always passes: whatever the wrapper plays that is not a pass is its own stored reply.
class PassingPolicy final : public BoardPolicy {
 public:
  std::string name() const override { return "pass"; }
  Vertex sample(Rng&) override { return Vertex::pass(); }
  std::unique_ptr<PlayoutPolicy> clone() const override { return std::make_unique<PassingPolicy>(); }
};

TEST(LastGoodReply, StoresTheWinnersRepliesAndForgetsTheLosers) {
  LastGoodReplyPolicy p(std::make_unique<PassingPolicy>());
  const Board b(9);
  const Vertex c3 = gtp(b, "C3"), d4 = gtp(b, "D4"), e5 = gtp(b, "E5"), f6 = gtp(b, "F6");
  // Black C3, White D4, Black E5, White F6; Black wins.
  const std::vector<Move> game{{Color::kBlack, c3}, {Color::kWhite, d4}, {Color::kBlack, e5}, {Color::kWhite, f6}};
  p.learn(Vertex::none(), Vertex::none(), game, Color::kBlack);
  EXPECT_EQ(p.reply(Color::kBlack, Vertex::none(), d4), e5);  // after one move
  EXPECT_EQ(p.reply(Color::kBlack, c3, d4), e5);              // after two
  EXPECT_TRUE(p.reply(Color::kWhite, Vertex::none(), c3).is_none());  // the loser's moves are not stored
  EXPECT_TRUE(p.reply(Color::kWhite, d4, e5).is_none());
  // The same Black reply in a game White wins is forgotten, in both tables; White's is stored.
  p.learn(Vertex::none(), Vertex::none(), game, Color::kWhite);
  EXPECT_TRUE(p.reply(Color::kBlack, Vertex::none(), d4).is_none());
  EXPECT_TRUE(p.reply(Color::kBlack, c3, d4).is_none());
  EXPECT_EQ(p.reply(Color::kWhite, d4, e5), f6);
  // The moves before the simulation are the context of its first moves; a jigo learns nothing.
  p.learn(e5, f6, std::vector<Move>{{Color::kBlack, c3}}, Color::kBlack);
  EXPECT_EQ(p.reply(Color::kBlack, e5, f6), c3);
  p.learn(e5, f6, std::vector<Move>{{Color::kBlack, d4}}, Color::kEmpty);
  EXPECT_EQ(p.reply(Color::kBlack, e5, f6), c3);
  // A loser's move is forgotten only where it is the stored reply: Black's F6 after D4 in a lost
  // game leaves a stored E5 as it is.
  p.learn(Vertex::none(), Vertex::none(), std::vector<Move>{{Color::kWhite, d4}, {Color::kBlack, e5}}, Color::kBlack);
  p.learn(Vertex::none(), Vertex::none(), std::vector<Move>{{Color::kWhite, d4}, {Color::kBlack, f6}}, Color::kWhite);
  EXPECT_EQ(p.reply(Color::kBlack, Vertex::none(), d4), e5);
  // A pass is not stored as a reply: White's pass after G7 in a game White wins.
  const Vertex g7 = gtp(b, "G7");
  p.learn(Vertex::none(), Vertex::none(), std::vector<Move>{{Color::kBlack, g7}, {Color::kWhite, Vertex::pass()}},
          Color::kWhite);
  EXPECT_TRUE(p.reply(Color::kWhite, Vertex::none(), g7).is_none());
  // forget() empties both tables; so does a reset on another board size.
  p.forget();
  EXPECT_TRUE(p.reply(Color::kBlack, Vertex::none(), d4).is_none());
  EXPECT_TRUE(p.reply(Color::kBlack, e5, f6).is_none());
  p.learn(Vertex::none(), Vertex::none(), game, Color::kBlack);
  p.reset(b, Color::kBlack);
  EXPECT_EQ(p.reply(Color::kBlack, c3, d4), e5);  // the same size keeps them
  p.reset(Board(13), Color::kBlack);
  EXPECT_TRUE(p.reply(Color::kBlack, c3, d4).is_none());
}

TEST(LastGoodReply, PlaysAStoredReplyOnlyInThePlayoutAndOnlyWhenPlayable) {
  // Black's group in the corner has its eye at B2: a reply there would fill it and is never played.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X . . . . . .
    X . X . . . . . .
    X X X . . . . . .)");
  const Vertex d4 = gtp(b, "D4"), e5 = gtp(b, "E5"), g7 = gtp(b, "G7"), b2 = gtp(b, "B2");
  LastGoodReplyPolicy p(std::make_unique<PassingPolicy>());
  p.learn(Vertex::none(), Vertex::none(), std::vector<Move>{{Color::kWhite, d4}, {Color::kBlack, e5}}, Color::kBlack);
  p.learn(Vertex::none(), Vertex::none(), std::vector<Move>{{Color::kWhite, g7}, {Color::kBlack, b2}}, Color::kBlack);
  Rng rng(1);
  // White's D4 was the last move: in the tree (before start_playout) the wrapped policy moves.
  p.reset(b, Color::kBlack, d4);
  EXPECT_TRUE(p.sample(rng).is_pass());
  p.start_playout();
  EXPECT_EQ(p.sample(rng), e5);
  // Once E5 is taken the stored reply cannot be played.
  Board taken = b;
  taken.play(e5, Color::kWhite);
  p.reset(taken, Color::kBlack, d4);
  p.start_playout();
  EXPECT_TRUE(p.sample(rng).is_pass());
  // B2 is Black's own eye: never played, though stored.
  EXPECT_EQ(p.reply(Color::kBlack, Vertex::none(), g7), b2);
  p.reset(b, Color::kBlack, g7);
  p.start_playout();
  EXPECT_TRUE(p.sample(rng).is_pass());
  // play() follows the moves: after White's D4 in the playout, Black's reply to it.
  p.reset(b, Color::kWhite);
  p.start_playout();
  p.play(d4);
  EXPECT_EQ(p.sample(rng), e5);
}

TEST(LastGoodReply, TheSearchLearnsAndPlaysWithIt) {
  SearchOptions o;
  o.policy = "rules";
  o.seed = 5;
  o.threads = 1;
  Game game(9);
  SearchLimits l;
  l.playouts = 400;
  auto plain = Search::create(o);
  ASSERT_TRUE(plain.ok()) << plain.status();
  const SearchResult without = (*plain)->search(game, Color::kBlack, l);
  const EndEstimate end_without = (*plain)->estimate_end(game, 50);
  o.last_good_reply = true;
  for (const int threads : {1, 2}) {
    o.threads = threads;
    auto search = Search::create(o);
    ASSERT_TRUE(search.ok()) << search.status();
    const SearchResult r = (*search)->search(game, Color::kBlack, l);
    EXPECT_GE(r.playouts, 400);
    EXPECT_TRUE(r.move.is_point());
    EXPECT_EQ(game.board().legal(r.move, Color::kBlack), Legality::kLegal);
    if (threads == 1) {
      // The same seed and budget: the playouts learnt replies and played them, so the search's
      // figures differ; the end-of-game estimate plays the policy without them, as before.
      EXPECT_NE(r.score_mean, without.score_mean);
      EXPECT_EQ((*search)->estimate_end(game, 50).ownership, end_without.ownership);
    }
  }
}

}  // namespace
}  // namespace hane
