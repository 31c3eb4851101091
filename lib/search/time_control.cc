#include "search/time_control.h"

#include <algorithm>

namespace hane {

void TimeControl::set(const TimeSettings& settings) {
  settings_ = settings;
  main_left_ = settings.main_time;
  period_left_ = settings.byo_yomi_time;
  stones_left_ = settings.byo_yomi_stones;
  periods_left_ = settings.byo_yomi_periods;
  // No main time: the first move is already in byo-yomi.
  in_byo_yomi_ = settings.main_time <= 0 && (settings.kind == TimeSettings::Kind::kByoYomi ||
                                             settings.kind == TimeSettings::Kind::kCanadian);
}

void TimeControl::time_left(double seconds, int stones) {
  if (stones <= 0 || settings_.kind == TimeSettings::Kind::kAbsolute ||
      settings_.kind == TimeSettings::Kind::kNone) {
    main_left_ = std::max(0.0, seconds);
    in_byo_yomi_ = false;
    return;
  }
  main_left_ = 0;
  in_byo_yomi_ = true;
  period_left_ = std::max(0.0, seconds);
  if (settings_.kind == TimeSettings::Kind::kCanadian) {
    stones_left_ = stones;
  } else {
    periods_left_ = stones;
  }
}

void TimeControl::spend(double seconds) {
  double over = seconds;
  if (!in_byo_yomi_) {
    if (over <= main_left_ || settings_.kind == TimeSettings::Kind::kAbsolute ||
        settings_.kind == TimeSettings::Kind::kNone) {
      main_left_ = std::max(0.0, main_left_ - over);
      return;
    }
    over -= main_left_;
    main_left_ = 0;
    in_byo_yomi_ = true;
    period_left_ = settings_.byo_yomi_time;
    stones_left_ = settings_.byo_yomi_stones;
    periods_left_ = settings_.byo_yomi_periods;
  }
  if (settings_.kind == TimeSettings::Kind::kByoYomi) {
    // Each period used up entirely is lost; the next move starts a fresh period.
    if (settings_.byo_yomi_time > 0) {
      const int lost = static_cast<int>(over / settings_.byo_yomi_time);
      periods_left_ = std::max(0, periods_left_ - lost);
    }
    period_left_ = settings_.byo_yomi_time;
  } else {
    period_left_ = std::max(0.0, period_left_ - over);
    if (--stones_left_ <= 0) {
      period_left_ = settings_.byo_yomi_time;
      stones_left_ = settings_.byo_yomi_stones;
    }
  }
}

std::optional<double> TimeControl::time_for_move(int empty_points, double lag) const {
  using Kind = TimeSettings::Kind;
  if (settings_.kind == Kind::kNone) return std::nullopt;
  double t = 0;
  if (!in_byo_yomi_) {
    // Byo-yomi time per move that becomes available once main time is gone, and how far a move
    // may run past main time without losing a period or overrunning a Canadian period.
    double allowance = 0, overrun = 0;
    if (settings_.kind == Kind::kByoYomi && settings_.byo_yomi_periods > 0) {
      allowance = overrun = settings_.byo_yomi_time;
    } else if (settings_.kind == Kind::kCanadian && settings_.byo_yomi_stones > 0) {
      allowance = overrun = settings_.byo_yomi_time / settings_.byo_yomi_stones;
    }
    const int moves_left = std::max(kMinMovesLeft, empty_points / 3);
    t = main_left_ / moves_left + allowance;
    t = std::min(t, main_left_ + overrun - lag);
  } else if (settings_.kind == Kind::kByoYomi) {
    t = period_left_ - lag;
  } else {
    t = (period_left_ - lag) / std::max(1, stones_left_);
  }
  return std::max(t, kMinSeconds);
}

}  // namespace hane
