// The referee: plays one game between two GTP engines and owns the rules.
//
// Setup: boardsize, clear_board, komi, time_settings (when there is a time control), the
// handicap with fixed_handicap (the answer must be the standard points) or, for an engine
// that lacks it, set_free_handicap with those points; then the opening's moves with play.
// Play: genmove to the side to move (time_left first when there is a time control); every
// move is checked with hane's rules core (go/game.h: no suicide, positional superko) and
// forwarded with play; two passes in a row end the game.
// Dead stones: both engines are asked `final_status_list dead`; when both answer the same
// set, those stones are removed and the board is area-scored (go/score.h). Otherwise a
// cleanup phase follows, as on KGS: play resumes (kgs-genmove_cleanup for engines that have
// it, else genmove) until two more passes, and the final board is area-scored with every
// stone alive. Area scoring adds White's points for the handicap stones to komi
// (GameSettings::handicap_compensation). A cleanup phase that reaches its own move limit
// (size^2 moves) makes the game void. Each engine's `final_score` is asked as a cross-check; an answer that differs
// from the referee's result is recorded as a disagreement.
// Max moves: the game stops; when the engines agree on the dead stones it is adjudicated by
// the scorer as above, else it is void (no result, left out of the statistics).
// Faults lose the game for the engine at fault (result "B+F"/"W+F"), with the reason and
// its last stderr lines; the engine is stopped so that the next game restarts it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "go/area.h"
#include "go/game.h"
#include "match/engine.h"
#include "match/result.h"

namespace hane {

struct GameSettings {
  int size = 9;
  double komi = 7.5;
  std::string rules_name = "Chinese";  // SGF RU; area scoring, positional superko, no suicide
  int handicap = 0;
  /// White's points for the handicap stones, added to komi when the board is scored (the
  /// Chinese rules: one per stone; go/area.h).
  HandicapCompensation handicap_compensation = HandicapCompensation::kPerStone;
  int max_moves = 0;  // 0: 3 * size * size
  MatchTimeControl time;
  /// Wall-clock limit of one genmove without a time control, seconds.
  double move_timeout_s = 60;
  /// Limit for every other command (setup, play, scoring), seconds.
  double command_timeout_s = 30;
  /// Grace added to a player's remaining time before it loses on time, seconds (pipes and
  /// process start-up take some): a player loses on time when its clock is more than this
  /// far below zero (`hane match --time` says so in its help).
  double time_margin_s = kTimeGraceSeconds;
};

/// What the schedule says about one game.
struct GameAssignment {
  int64_t index = 0;
  int pairing = 0;
  int64_t pair = 0;
  int black = 0, white = 0;  // engine indices
  uint64_t seed = 0;
  std::string opening_name;
  std::vector<Move> opening;  // legal moves from the empty board (after any handicap)
};

/// Plays one game. `stderr_dir` (if not empty) receives "<index>-<engine name>.stderr"
/// files with what each engine wrote during the game. Returns Cancelled when `cancel`
/// became true (the game is then not recorded), or an engine's start-up error (the caller
/// decides; the game is forfeited by that engine unless it never started). Never throws.
absl::StatusOr<GameResult> play_game(const GameSettings& settings, const GameAssignment& game, EngineProcess& black,
                                     EngineProcess& white, const std::atomic<bool>* cancel,
                                     const std::string& stderr_dir);

/// Parses a GTP final_score answer ("B+3.5", "W+R", "0", "Jigo") into B - W - komi points;
/// nullopt when unreadable or not a number.
std::optional<double> parse_final_score(std::string_view text);
/// "B+3.5", "W+0.5", "0" for a margin (Black - White - komi).
std::string score_text(double margin);

}  // namespace hane
