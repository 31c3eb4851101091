// The uniform playout policy and the run_playout driver.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "go/random.h"
#include "go_fixtures.h"
#include "playout/uniform.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;

TEST(Playout, IsDeterministicForASeed) {
  UniformPolicy a, b;
  a.reset(Board(9), Color::kBlack);
  b.reset(Board(9), Color::kBlack);
  Rng r1(42), r2(42);
  const PlayoutResult x = run_playout(a, r1);
  const PlayoutResult y = run_playout(b, r2);
  EXPECT_EQ(x.moves, y.moves);
  EXPECT_EQ(a.board().hash(), b.board().hash());
  EXPECT_EQ(x.score.black, y.score.black);
}

TEST(Playout, EndsWithTwoPassesAndNoMoveLeft) {
  Rng rng(7);
  for (int i = 0; i < 200; ++i) {
    UniformPolicy policy;
    policy.reset(Board(9), Color::kBlack);
    std::vector<Move> played;
    const PlayoutResult r = run_playout(policy, rng, -1, &played);
    ASSERT_LT(r.moves, 3 * 81);
    ASSERT_EQ(static_cast<int>(played.size()), r.moves);
    const Board& b = policy.board();
    EXPECT_TRUE(random_move(b, Color::kBlack, rng).is_pass());
    EXPECT_TRUE(random_move(b, Color::kWhite, rng).is_pass());
  }
}

TEST(Playout, RandomMoveNeverFillsOwnEyeAndIsLegal) {
  Rng rng(3);
  for (int i = 0; i < 100; ++i) {
    Board b(9);
    Color c = Color::kBlack;
    for (int m = 0; m < 150; ++m) {
      const Vertex v = random_move(b, c, rng);
      if (v.is_pass()) break;
      ASSERT_FALSE(b.is_eye(v, c));
      ASSERT_EQ(b.play(v, c), Legality::kLegal);
      c = opponent(c);
    }
  }
}

TEST(Playout, RandomMoveIsUniformOverLegalNonEyeMoves) {
  // Black: A5 is an own eye, D2 and E1 are suicide; every other point is equally likely.
  const Board b = board_from_ascii(R"(
    . X . . .
    X X . . .
    . . . O .
    . . O . O
    . . . O .)");
  std::map<int, int> counts;
  Rng rng(11);
  const int n = 100'000;
  for (int i = 0; i < n; ++i) ++counts[random_move(b, Color::kBlack, rng).index()];
  EXPECT_EQ(counts.count(gtp(b, "A5").index()), 0u);
  EXPECT_EQ(counts.count(gtp(b, "D2").index()), 0u);
  EXPECT_EQ(counts.count(gtp(b, "E1").index()), 0u);
  const int expected_moves = b.empty_points().size() - 3;
  ASSERT_EQ(static_cast<int>(counts.size()), expected_moves);
  for (const auto& [v, k] : counts) EXPECT_NEAR(k, n / expected_moves, n / expected_moves / 10) << to_gtp(Vertex(v), 5);
}

}  // namespace
}  // namespace hane
