// Dynamic komi (search/dynamic_komi.h): the rule against values worked out by hand, and the
// search playing for the extra komi. 9x9: 81 points, end 0.8 -> the goal is 0 from move 64.8,
// f = 1 - move / 64.8.
#include "search/dynamic_komi.h"

#include <gtest/gtest.h>

#include "search/search.h"

namespace hane {
namespace {

TEST(DynamicKomi, OffGivesNothing) {
  DynamicKomi dk;
  dk.update(0.99, 40, 11, 81);
  EXPECT_EQ(dk.extra(), 0);
  EXPECT_EQ(dk.for_move(13, 81), 0);
}

TEST(DynamicKomi, RisesOnlyWhileFarAheadAndFallsOnlyWhileFarBehind) {
  DynamicKomi dk({.enabled = true});
  dk.update(0.9, 20, 1, 81);  // far ahead: 0.5 * 20 * (1 - 1 / 64.8)
  const double first = 0.5 * 20 * (1 - 1 / 64.8);
  EXPECT_DOUBLE_EQ(dk.extra(), first);
  EXPECT_DOUBLE_EQ(dk.for_move(3, 81), first);
  dk.update(0.6, 2, 3, 81);  // in between: kept, scaled by f(3) / f(1)
  const double kept = first * (1 - 3 / 64.8) / (1 - 1 / 64.8);
  EXPECT_DOUBLE_EQ(dk.extra(), kept);
  dk.update(0.85, 4, 5, 81);  // ahead but the target is lower: the ratchet keeps the goal
  EXPECT_DOUBLE_EQ(dk.extra(), kept * (1 - 5 / 64.8) / (1 - 3 / 64.8));

  DynamicKomi behind({.enabled = true});
  behind.update(0.1, -8, 1, 81);
  EXPECT_DOUBLE_EQ(behind.extra(), 0.5 * -8 * (1 - 1 / 64.8));
  behind.update(0.05, -60, 3, 81);  // at most max_losing (10) below the real komi
  EXPECT_DOUBLE_EQ(behind.extra(), -10);
  behind.update(0.15, 10, 5, 81);  // behind with a positive margin: the goal does not rise
  EXPECT_LT(behind.extra(), 0);
}

TEST(DynamicKomi, IsTheRealKomiByTheEnd) {
  DynamicKomi dk({.enabled = true});
  dk.update(0.95, 30, 41, 81);
  EXPECT_GT(dk.extra(), 0);
  EXPECT_GT(dk.for_move(43, 81), 0);
  EXPECT_EQ(dk.for_move(65, 81), 0);
  dk.update(0.95, 30, 65, 81);
  EXPECT_EQ(dk.extra(), 0);
  dk.reset();
  EXPECT_EQ(dk.extra(), 0);
}

// The search plays for the extra komi: on an empty 5x5 board at komi 0.5, Black's playouts win
// most of the time; with 30 points more to beat, none can (25 points in all).
TEST(DynamicKomi, TheSearchPlaysForTheExtraKomi) {
  auto search = Search::create({.policy = "rules", .playouts = 300});
  ASSERT_TRUE(search.ok()) << search.status();
  Game game(5, Rules{false, Superko::kPositional, 0.5});
  const SearchResult plain = (*search)->search(game, Color::kBlack);
  (*search)->clear();
  (*search)->set_extra_komi(30);
  const SearchResult harder = (*search)->search(game, Color::kBlack);
  EXPECT_GT(plain.winrate, 0.5);
  EXPECT_EQ(harder.winrate, 0);
  // The mean margin is reported at the real komi: not 30 points lower (the lost playouts of
  // the second search are played less well, so it may be lower by some points).
  EXPECT_GT(harder.score_mean, plain.score_mean - 25);
}

}  // namespace
}  // namespace hane
