// Time controls as GTP and KGS describe them (absolute, Japanese byo-yomi, Canadian) and the
// time to spend on the next move.
#pragma once

#include <optional>

namespace hane {

/// The clock of one player, in seconds. Set from `time_settings` / `kgs-time_settings`, then
/// updated by `time_left` (GTP 2, section 6.3.4).
///
///   - absolute:  main_time, no byo-yomi (byo_yomi_time == 0);
///   - Japanese byo-yomi: byo_yomi_periods periods of byo_yomi_time each, one move per period
///     (kgs-time_settings byoyomi);
///   - Canadian:  byo_yomi_stones moves in each byo_yomi_time period (GTP time_settings with
///     stones > 0, kgs-time_settings canadian).
///   - none: no limit (GTP time_settings with byo_yomi_time > 0 and stones == 0, or
///     kgs-time_settings none): time_for_move() returns nullopt.
struct TimeSettings {
  enum class Kind { kNone, kAbsolute, kByoYomi, kCanadian };
  Kind kind = Kind::kNone;
  double main_time = 0;       // seconds
  double byo_yomi_time = 0;   // seconds per period
  int byo_yomi_stones = 0;    // Canadian: moves per period
  int byo_yomi_periods = 0;   // Japanese: number of periods
};

class TimeControl {
 public:
  TimeControl() = default;
  explicit TimeControl(const TimeSettings& settings) { set(settings); }

  /// Starts the clock with full main time (and all periods).
  void set(const TimeSettings& settings);
  const TimeSettings& settings() const { return settings_; }

  /// GTP time_left: `seconds` left in the current period; `stones` == 0 means still in main
  /// time. In byo-yomi, `stones` counts the moves left in the Canadian period, or (as kgsGtp
  /// sends it for Japanese byo-yomi) the periods left.
  void time_left(double seconds, int stones);

  /// Charges `seconds` spent on a move to the clock, for when no time_left follows (tests,
  /// terminal play): main time first, then the period (a Japanese period is lost when
  /// overrun, a Canadian period restarts after its stones are played).
  void spend(double seconds);

  /// Seconds to think about the next move, given `empty_points` on the board (an estimate of
  /// the game's remaining length) and a safety margin `lag` (seconds, for network and
  /// process delays). nullopt when there is no limit. The rule:
  ///   - in main time: main_left / max(kMinMovesLeft, empty_points / 3), plus the byo-yomi
  ///     allowance below when byo-yomi follows (it is not spent before main time runs out);
  ///   - Japanese byo-yomi: period - lag (one move per period; at least kMinSeconds);
  ///   - Canadian byo-yomi: (time left in period - lag) / stones left in period;
  ///   - never more than (main_left + allowance) - lag, never less than kMinSeconds.
  std::optional<double> time_for_move(int empty_points, double lag = 0.5) const;

  static constexpr int kMinMovesLeft = 20;
  static constexpr double kMinSeconds = 0.05;

  // The clock as it stands.
  double main_left() const { return main_left_; }
  double period_left() const { return period_left_; }
  int stones_left() const { return stones_left_; }    // Canadian moves left in the period
  int periods_left() const { return periods_left_; }  // Japanese periods left
  bool in_byo_yomi() const { return in_byo_yomi_; }

 private:
  TimeSettings settings_;
  double main_left_ = 0;
  double period_left_ = 0;
  int stones_left_ = 0;
  int periods_left_ = 0;
  bool in_byo_yomi_ = false;
};

}  // namespace hane
