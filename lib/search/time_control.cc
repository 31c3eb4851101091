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

std::optional<TimeControl::MoveTime> TimeControl::move_time(int move_number, int board_points, double lag) const {
  using Kind = TimeSettings::Kind;
  if (settings_.kind == Kind::kNone) return std::nullopt;
  MoveTime t;
  if (!in_byo_yomi_) {
    // Byo-yomi time per move that stays available once main time is gone, and how far a move
    // may run past main time without losing a period or overrunning a Canadian period.
    double allowance = 0;
    if (settings_.kind == Kind::kByoYomi && settings_.byo_yomi_periods > 0) {
      allowance = settings_.byo_yomi_time;
    } else if (settings_.kind == Kind::kCanadian && settings_.byo_yomi_stones > 0) {
      allowance = settings_.byo_yomi_time / settings_.byo_yomi_stones;
    }
    const double c = 0.22 * board_points, max_ply = 0.44 * board_points;
    const double divisor = c + std::max(0.0, max_ply - move_number);
    t.desired = main_left_ / divisor + allowance;
    t.worst = std::min(kWorstRatio * t.desired, kWorstShare * main_left_ + allowance);
    // No time past `desired` in the opening, whose close choices more time seldom separates.
    if (move_number < kOpeningShare * board_points) t.worst = t.desired;
    const double cap = main_left_ + allowance - lag;
    t.desired = std::min(t.desired, cap);
    t.worst = std::min(t.worst, cap);
  } else if (settings_.kind == Kind::kByoYomi) {
    t.worst = period_left_ - lag;
    t.desired = 0.8 * t.worst;
  } else {
    const int stones = std::max(1, stones_left_);
    t.desired = (period_left_ - lag) / stones;
    t.worst = std::min(kWorstRatio * t.desired, period_left_ - lag - kMinSeconds * (stones - 1));
  }
  t.worst = std::max(t.worst, kMinSeconds);
  t.desired = std::clamp(t.desired, kMinSeconds, t.worst);
  return t;
}

bool should_stop(const TimeControl::MoveTime& t, const RootProgress& p) {
  if (p.elapsed >= t.worst) return true;
  const bool clear = p.best_visits >= kCloseRatio * static_cast<double>(p.second_visits) && p.best_has_top_value;
  if (p.elapsed >= t.desired) return clear;
  if (!clear || p.playouts < kMinPlayouts || p.elapsed <= 0) return false;
  const double rate = static_cast<double>(p.playouts) / p.elapsed;
  return static_cast<double>(p.best_visits - p.second_visits) > rate * (t.desired - p.elapsed);
}

}  // namespace hane
