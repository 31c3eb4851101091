// Time controls: the clock's arithmetic and the time given to a move, against values worked out
// by hand (9x9 empty board: 81 empty points, so max(20, 81 / 3) = 27 moves left; lag 0.5 s).
#include "search/time_control.h"

#include <gtest/gtest.h>

#include "search/search.h"

namespace hane {
namespace {

using Kind = TimeSettings::Kind;

TEST(TimeControl, NoLimitGivesNoTime) {
  EXPECT_FALSE(TimeControl().time_for_move(81).has_value());
}

TEST(TimeControl, AbsoluteSpreadsMainTimeOverTheMovesLeft) {
  TimeControl clock({.kind = Kind::kAbsolute, .main_time = 300});
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), 300.0 / 27);
  EXPECT_DOUBLE_EQ(*clock.time_for_move(30), 300.0 / 20);  // at least 20 moves left
  clock.time_left(4, 0);
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), 4.0 / 27);
  clock.time_left(0.3, 0);
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), TimeControl::kMinSeconds);  // 0.3 - 0.5 < minimum
}

TEST(TimeControl, ByoYomiAddsThePeriodInMainTimeAndUsesItAfterwards) {
  TimeControl clock({.kind = Kind::kByoYomi, .main_time = 60, .byo_yomi_time = 10, .byo_yomi_periods = 5});
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), 60.0 / 27 + 10);
  clock.time_left(1, 0);
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), 1.0 / 27 + 10);
  clock.time_left(0.2, 0);  // 0.2 / 27 + 10 would overrun the period: at most 0.2 + 10 - 0.5
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), 9.7);
  clock.time_left(10, 3);  // kgsGtp: 10 s in the period, 3 periods left
  EXPECT_TRUE(clock.in_byo_yomi());
  EXPECT_EQ(clock.periods_left(), 3);
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), 9.5);
}

TEST(TimeControl, CanadianDividesThePeriodByTheStonesLeft) {
  TimeControl clock({.kind = Kind::kCanadian, .main_time = 0, .byo_yomi_time = 300, .byo_yomi_stones = 25});
  EXPECT_TRUE(clock.in_byo_yomi());
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), 299.5 / 25);
  clock.time_left(120, 10);
  EXPECT_DOUBLE_EQ(*clock.time_for_move(81), 119.5 / 10);
  TimeControl with_main({.kind = Kind::kCanadian, .main_time = 270, .byo_yomi_time = 60, .byo_yomi_stones = 5});
  EXPECT_DOUBLE_EQ(*with_main.time_for_move(81), 270.0 / 27 + 60.0 / 5);
}

TEST(TimeControl, SpendingRunsMainTimeThenPeriods) {
  TimeControl canadian({.kind = Kind::kCanadian, .main_time = 10, .byo_yomi_time = 60, .byo_yomi_stones = 5});
  canadian.spend(4);
  EXPECT_DOUBLE_EQ(canadian.main_left(), 6);
  EXPECT_FALSE(canadian.in_byo_yomi());
  canadian.spend(11);  // 6 s of main time, then 5 s of the first move of the period
  EXPECT_TRUE(canadian.in_byo_yomi());
  EXPECT_DOUBLE_EQ(canadian.period_left(), 55);
  EXPECT_EQ(canadian.stones_left(), 4);
  for (int i = 0; i < 3; ++i) canadian.spend(10);
  EXPECT_DOUBLE_EQ(canadian.period_left(), 25);
  EXPECT_EQ(canadian.stones_left(), 1);
  canadian.spend(10);  // the fifth stone: a fresh period
  EXPECT_DOUBLE_EQ(canadian.period_left(), 60);
  EXPECT_EQ(canadian.stones_left(), 5);

  TimeControl japanese({.kind = Kind::kByoYomi, .main_time = 10, .byo_yomi_time = 30, .byo_yomi_periods = 3});
  japanese.spend(15);  // 5 s into the first period: no period lost
  EXPECT_TRUE(japanese.in_byo_yomi());
  EXPECT_EQ(japanese.periods_left(), 3);
  japanese.spend(65);  // two whole periods used up
  EXPECT_EQ(japanese.periods_left(), 1);
  EXPECT_DOUBLE_EQ(japanese.period_left(), 30);
}

TEST(TimeControl, SearchLimitsTakeTheSmallerOfTimeAndPlayouts) {
  auto search = Search::create({.playouts = 1234});
  ASSERT_TRUE(search.ok()) << search.status();
  Game game(9);
  TimeControl clock({.kind = Kind::kAbsolute, .main_time = 270});
  const SearchLimits both = (*search)->limits_for(game, clock, true);
  EXPECT_DOUBLE_EQ(both.seconds, 10);
  EXPECT_EQ(both.playouts, 1234);
  const SearchLimits time_only = (*search)->limits_for(game, clock, false);
  EXPECT_EQ(time_only.playouts, 0);
  const SearchLimits no_clock = (*search)->limits_for(game, TimeControl(), false);
  EXPECT_EQ(no_clock.seconds, 0);
  EXPECT_EQ(no_clock.playouts, 1234);
}

}  // namespace
}  // namespace hane
