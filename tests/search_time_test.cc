// Time controls: the clock's arithmetic, the time given to a move and the stop rule, against
// values worked out by hand (lag 0.5 s).
#include "search/time_control.h"

#include <gtest/gtest.h>

#include "search/search.h"

namespace hane {
namespace {

using Kind = TimeSettings::Kind;

TEST(TimeControl, NoLimitGivesNoTime) {
  EXPECT_FALSE(TimeControl().move_time(1, 81).has_value());
}

// 9x9 (81 points): C = 0.22 * 81 = 17.82, M = 0.44 * 81 = 35.64; 19x19: C = 79.42, M = 158.84.
TEST(TimeControl, AbsoluteSpreadsMainTimeByTheEnhancedFormula) {
  TimeControl clock({.kind = Kind::kAbsolute, .main_time = 300});
  auto t = clock.move_time(1, 81);  // the opening (before move 8.1): no time past desired
  EXPECT_DOUBLE_EQ(t->desired, 300.0 / (17.82 + 34.64));
  EXPECT_DOUBLE_EQ(t->worst, t->desired);
  EXPECT_DOUBLE_EQ(clock.move_time(9, 81)->worst, 3 * 300.0 / (17.82 + 26.64));
  // The middle game gets more than the opening, and past M a fixed share of what is left.
  EXPECT_DOUBLE_EQ(clock.move_time(30, 81)->desired, 300.0 / (17.82 + 5.64));
  EXPECT_DOUBLE_EQ(clock.move_time(60, 81)->desired, 300.0 / 17.82);
  EXPECT_DOUBLE_EQ(clock.move_time(60, 81)->worst, 30);  // a tenth of main time, not 3 * 16.8
  EXPECT_DOUBLE_EQ(TimeControl({.kind = Kind::kAbsolute, .main_time = 180}).move_time(1, 361)->desired,
                   180.0 / (0.22 * 361 + 0.44 * 361 - 1));
  clock.time_left(0.3, 0);
  t = clock.move_time(60, 81);
  EXPECT_DOUBLE_EQ(t->desired, TimeControl::kMinSeconds);  // 0.3 - 0.5 < minimum
  EXPECT_DOUBLE_EQ(t->worst, TimeControl::kMinSeconds);
}

TEST(TimeControl, ByoYomiAddsThePeriodInMainTimeAndUsesItAfterwards) {
  TimeControl clock({.kind = Kind::kByoYomi, .main_time = 60, .byo_yomi_time = 10, .byo_yomi_periods = 5});
  EXPECT_DOUBLE_EQ(clock.move_time(60, 81)->desired, 60.0 / 17.82 + 10);
  EXPECT_DOUBLE_EQ(clock.move_time(60, 81)->worst, 6 + 10);  // a tenth of main time + the period
  clock.time_left(1, 0);
  EXPECT_DOUBLE_EQ(clock.move_time(60, 81)->desired, 1.0 / 17.82 + 10);
  clock.time_left(0.2, 0);  // 0.2 / 17.82 + 10 would overrun the period: at most 0.2 + 10 - 0.5
  EXPECT_DOUBLE_EQ(clock.move_time(60, 81)->desired, 9.7);
  clock.time_left(10, 3);  // kgsGtp: 10 s in the period, 3 periods left
  EXPECT_TRUE(clock.in_byo_yomi());
  EXPECT_EQ(clock.periods_left(), 3);
  EXPECT_DOUBLE_EQ(clock.move_time(60, 81)->worst, 9.5);
  EXPECT_DOUBLE_EQ(clock.move_time(60, 81)->desired, 0.8 * 9.5);
}

TEST(TimeControl, CanadianDividesThePeriodByTheStonesLeft) {
  TimeControl clock({.kind = Kind::kCanadian, .main_time = 0, .byo_yomi_time = 300, .byo_yomi_stones = 25});
  EXPECT_TRUE(clock.in_byo_yomi());
  EXPECT_DOUBLE_EQ(clock.move_time(1, 81)->desired, 299.5 / 25);
  EXPECT_DOUBLE_EQ(clock.move_time(1, 81)->worst, 3 * 299.5 / 25);
  clock.time_left(120, 10);
  EXPECT_DOUBLE_EQ(clock.move_time(1, 81)->desired, 119.5 / 10);
  clock.time_left(3, 2);  // the last two stones: the worst leaves the minimum for the last
  EXPECT_DOUBLE_EQ(clock.move_time(1, 81)->worst, 2.5 - TimeControl::kMinSeconds);
  TimeControl with_main({.kind = Kind::kCanadian, .main_time = 270, .byo_yomi_time = 60, .byo_yomi_stones = 5});
  EXPECT_DOUBLE_EQ(with_main.move_time(60, 81)->desired, 270.0 / 17.82 + 60.0 / 5);
}

// should_stop: desired 1 s, worst 3 s.
TEST(TimeControl, StopsAtWorstAlways) {
  EXPECT_TRUE(should_stop({1, 3}, {.elapsed = 3, .playouts = 1000, .best_visits = 10, .second_visits = 9,
                                   .best_has_top_value = false}));
}

TEST(TimeControl, GoesPastDesiredOnlyWhileTheChoiceIsUnclear) {
  const TimeControl::MoveTime t{1, 3};
  const RootProgress clear{.elapsed = 1.5, .playouts = 1000, .best_visits = 600, .second_visits = 200};
  EXPECT_TRUE(should_stop(t, clear));
  RootProgress close = clear;
  close.second_visits = 301;  // 600 < 2 * 301
  EXPECT_FALSE(should_stop(t, close));
  RootProgress other_value = clear;
  other_value.best_has_top_value = false;
  EXPECT_FALSE(should_stop(t, other_value));
}

TEST(TimeControl, StopsBeforeDesiredOnceTheSecondCannotCatchUp) {
  const TimeControl::MoveTime t{1, 3};
  // 1000 playouts in 0.5 s: 1000 more to desired; a lead of 1000 could still be caught.
  EXPECT_FALSE(should_stop(t, {.elapsed = 0.5, .playouts = 1000, .best_visits = 1100, .second_visits = 100}));
  EXPECT_TRUE(should_stop(t, {.elapsed = 0.5, .playouts = 1000, .best_visits = 1101, .second_visits = 100}));
  // Not when the choice is unclear, nor before kMinPlayouts.
  EXPECT_FALSE(should_stop(t, {.elapsed = 0.5, .playouts = 1000, .best_visits = 1101, .second_visits = 100,
                                .best_has_top_value = false}));
  EXPECT_FALSE(should_stop(t, {.elapsed = 0.001, .playouts = 50, .best_visits = 5000, .second_visits = 1}));
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
  EXPECT_DOUBLE_EQ(both.desired_seconds, 270.0 / (17.82 + 34.64));
  EXPECT_DOUBLE_EQ(both.seconds, both.desired_seconds);  // the opening
  EXPECT_EQ(both.playouts, 1234);
  const SearchLimits time_only = (*search)->limits_for(game, clock, false);
  EXPECT_EQ(time_only.playouts, 0);
  const SearchLimits no_clock = (*search)->limits_for(game, TimeControl(), false);
  EXPECT_EQ(no_clock.seconds, 0);
  EXPECT_EQ(no_clock.desired_seconds, 0);
  EXPECT_EQ(no_clock.playouts, 1234);
}

}  // namespace
}  // namespace hane
