// Time controls as GTP and KGS describe them (absolute, Japanese byo-yomi, Canadian) and the
// time to spend on the next move.
#pragma once

#include <cstdint>
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
///     kgs-time_settings none): move_time() returns nullopt.
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

  /// The time for the next move, seconds: `desired` is what the move normally gets, `worst` the
  /// most it may take. The search (search.h, "Time management") stops before `desired` once its
  /// choice cannot change, and goes on past it, up to `worst`, while the choice is unclear.
  /// nullopt when there is no limit. `move_number` is the game's move number (1 for the first
  /// move), `board_points` size², `lag` a safety margin (seconds, for network and process
  /// delays). The rule:
  ///   - main time, spread by the "enhanced formula" of S.-C. Huang, R. Coulom and S.-S. Lin,
  ///     "Time Management for Monte-Carlo Tree Search Applied to the Game of Go" (TAAI 2010):
  ///     desired = main_left / (C + max(M − move_number, 0)), with C = 0.22 · board_points and
  ///     M = 0.44 · board_points (80 and 160 on 19×19, their constants; 18 and 36 on 9×9), so the
  ///     opening gets less than the middle game, and the end a geometric share of what is left;
  ///     plus, when byo-yomi follows, the byo-yomi time per move (`allowance`: the period for
  ///     Japanese byo-yomi, period / stones for Canadian), which stays available after main time;
  ///     worst = min(kWorstRatio · desired, kWorstShare · main_left + allowance), but worst =
  ///     desired in the opening (move_number < kOpeningShare · board_points: 36 on 19×19);
  ///   - Japanese byo-yomi (one move per period): desired = 0.8 · (period − lag), worst =
  ///     period − lag;
  ///   - Canadian byo-yomi: desired = (time left in the period − lag) / stones left, worst =
  ///     min(kWorstRatio · desired, time left − lag − kMinSeconds · (stones left − 1));
  ///   - never past what the clock holds: at most main_left + (the period, or its share a
  ///     move) − lag, and never less than kMinSeconds (desired <= worst).
  struct MoveTime {
    double desired = 0;
    double worst = 0;
  };
  std::optional<MoveTime> move_time(int move_number, int board_points, double lag = 0.5) const;

  static constexpr double kMinSeconds = 0.05;
  static constexpr double kWorstRatio = 3;
  static constexpr double kWorstShare = 0.1;
  static constexpr double kOpeningShare = 0.1;

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

/// What a search under a clock knows of its root when it asks whether to stop.
struct RootProgress {
  double elapsed = 0;           // seconds since the search started
  int64_t playouts = 0;         // new simulations of this search so far
  int64_t best_visits = 0;      // visits of the most visited root move (the reused ones too)
  int64_t second_visits = 0;    // visits of the second most visited
  /// No root move with at least a quarter of the best's visits has a higher value (the value
  /// the tree selects by) than the most visited one.
  bool best_has_top_value = true;
};

/// Whether a search given `t` (TimeControl::move_time) should stop now, as strong programs
/// manage a clock (Pachi's uct/search.c stop conditions; KataGo's futile-visits stop; the
/// "UNST" rule of Huang, Coulom and Lin 2010, which measured it worth about +60 Elo):
///   - at `worst`: always;
///   - between `desired` and `worst`: unless the choice is unclear: the two most visited moves
///     are close (best < kCloseRatio · second), or the most visited has not the top value;
///   - before `desired`, once kMinPlayouts simulations ran: when the second most visited move
///     could not catch up with the first in the time left to `desired` at the rate so far, and
///     the choice is clear (as above), so that going on to `desired` would change nothing.
bool should_stop(const TimeControl::MoveTime& t, const RootProgress& p);

inline constexpr double kCloseRatio = 2.0;
inline constexpr int64_t kMinPlayouts = 100;

}  // namespace hane
