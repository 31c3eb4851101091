// The switch policy: a head policy plays the first moves of a playout, a tail policy the rest,
// from the same position and with the same last two moves.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "go/random.h"
#include "go_fixtures.h"
#include "playout/board_policy.h"
#include "playout/rules.h"
#include "playout/switch.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;

// Plays a fixed list of moves, then passes.
class ScriptedPolicy final : public BoardPolicy {
 public:
  explicit ScriptedPolicy(std::vector<Vertex> moves) : moves_(std::move(moves)) {}
  std::string name() const override { return "scripted"; }
  void reset(const Board& board, Color to_move, Vertex last, Vertex second_last) override {
    BoardPolicy::reset(board, to_move, last, second_last);
    next_ = 0;
  }
  Vertex sample(Rng&) override { return next_ < moves_.size() ? moves_[next_++] : Vertex::pass(); }
  std::unique_ptr<PlayoutPolicy> clone() const override { return std::make_unique<ScriptedPolicy>(moves_); }

 private:
  std::vector<Vertex> moves_;
  size_t next_ = 0;
};

RulesOptions capture_only() {
  RulesOptions o;
  o.capture = 1;
  o.save = o.ladder = o.nakade = o.two_liberty = o.pattern = o.self_atari = 0;
  return o;
}

// White D5 has two liberties (D4, E5). The head plays Black E5 (atari) and White A1 elsewhere;
// the tail, whose capture rule looks at the stones next to the mover's previous move, must then
// capture at D4: it sees the head's board and its last two moves.
TEST(SwitchPolicy, TheTailContinuesFromTheHeadsPositionAndLastMoves) {
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X . . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  std::map<std::string, int> third;
  for (int seed = 0; seed < 50; ++seed) {
    SwitchPolicy policy(std::make_unique<ScriptedPolicy>(std::vector<Vertex>{gtp(b, "E5"), gtp(b, "A1")}),
                        std::make_unique<RulesPolicy>(capture_only()), 2);
    EXPECT_EQ(policy.name(), "scripted+rules");
    policy.reset(b, Color::kBlack);
    policy.start_playout();
    Rng rng(seed);
    Board expected = b;
    for (const char* move : {"E5", "A1"}) {
      const Color c = policy.to_move();
      const Vertex v = policy.sample(rng);
      ASSERT_EQ(to_gtp(v, 9), move);
      policy.play(v);
      expected.play(v, c);
    }
    EXPECT_EQ(policy.moves(), 2);
    EXPECT_EQ(policy.board().hash(), expected.hash());
    EXPECT_EQ(policy.to_move(), Color::kBlack);
    const Vertex v = policy.sample(rng);
    ++third[to_gtp(v, 9)];
    policy.play(v);
    EXPECT_EQ(policy.board().color(gtp(b, "D5")), Color::kEmpty);
  }
  EXPECT_EQ(third, (std::map<std::string, int>{{"D4", 50}}));
}

// A reset starts the head again: the same two scripted moves every playout.
TEST(SwitchPolicy, EveryResetStartsWithTheHeadAgain) {
  const Board b(9);
  SwitchPolicy policy(std::make_unique<ScriptedPolicy>(std::vector<Vertex>{gtp(b, "C3"), gtp(b, "G7")}),
                      std::make_unique<RulesPolicy>(), 2);
  Rng rng(1);
  for (int playout = 0; playout < 3; ++playout) {
    policy.reset(b, Color::kBlack);
    const PlayoutResult r = run_playout(policy, rng);
    EXPECT_GT(r.moves, 20);
    policy.reset(b, Color::kBlack);
    EXPECT_EQ(to_gtp(policy.sample(rng), 9), "C3");
    auto copy = policy.clone();
    copy->reset(b, Color::kWhite);
    EXPECT_EQ(to_gtp(copy->sample(rng), 9), "C3");
  }
}

// The search resets the policy at the root and plays the tree's moves through it: those are
// not playout moves. The head plays the first moves after start_playout(), however deep the
// tree went (before the hook, three tree moves used up a head of two and the learned policy
// played nothing at depth 2 and more).
TEST(SwitchPolicy, TheHeadsMovesAreCountedFromThePlayoutsStartNotFromTheRoot) {
  const Board b(9);
  for (int seed = 0; seed < 20; ++seed) {
    SwitchPolicy policy(std::make_unique<ScriptedPolicy>(std::vector<Vertex>{gtp(b, "C3"), gtp(b, "G7")}),
                        std::make_unique<RulesPolicy>(), 2);
    policy.reset(b, Color::kBlack);
    for (const char* tree_move : {"D4", "F6", "E5"}) policy.play(gtp(b, tree_move));
    EXPECT_EQ(policy.moves(), -1);
    EXPECT_EQ(policy.board().color(gtp(b, "E5")), Color::kBlack);
    EXPECT_EQ(policy.to_move(), Color::kWhite);
    Rng rng(seed);
    std::vector<Move> played;
    const PlayoutResult r = run_playout(policy, rng, -1, &played);
    ASSERT_GE(r.moves, 3);
    EXPECT_EQ(to_gtp(played[0].vertex, 9), "C3");
    EXPECT_EQ(played[0].color, Color::kWhite);
    EXPECT_EQ(to_gtp(played[1].vertex, 9), "G7");
    EXPECT_NE(to_gtp(played[2].vertex, 9), "PASS");  // the tail (rules), not the exhausted script
    EXPECT_EQ(policy.moves(), r.moves);
  }
}

}  // namespace
}  // namespace hane
