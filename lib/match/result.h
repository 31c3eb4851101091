// One played game of a match, as kept in the results file (one JSON object per line) and
// written as SGF.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "go/color.h"
#include "go/game.h"
#include "go/vertex.h"
#include "nlohmann/json.hpp"

namespace hane {

/// A match's time control (the referee's clocks; an engine's own clock is search/time_control.h):
/// Canadian byo-yomi: `main_s` seconds, then `stones` moves every `period_s` seconds
/// (stones = 0: absolute time). Disabled when main_s and period_s are both 0.
struct MatchTimeControl {
  double main_s = 0, period_s = 0;
  int stones = 0;
  bool enabled() const { return main_s > 0 || period_s > 0; }
  bool operator==(const MatchTimeControl&) const = default;
};

/// The grace of a match's clocks, seconds: a player loses on time only when its clock is more
/// than this far below zero (pipes and process start-up take some time).
inline constexpr double kTimeGraceSeconds = 1.0;

/// How a game ended.
enum class Ending : uint8_t {
  kScore,      // two passes, area score after dead stones were settled
  kResign,     // a player resigned
  kForfeit,    // a player crashed, hung, refused, replied garbage or played an illegal move
  kTime,       // a player overstepped its time
  kMaxMoves,   // max moves reached; adjudicated by the scorer when dead stones were agreed
  kVoid,       // no result: max moves without agreed dead stones; not counted in statistics
};
/// "score", "resign", "forfeit", "time", "max_moves", "void".
const char* ending_name(Ending e);

struct GameResult {
  int64_t index = 0;    // position in the schedule
  int pairing = 0;      // which pair of engines
  int64_t pair = 0;     // game pair within the pairing (same opening, colours swapped)
  int black = 0, white = 0;  // engine indices
  std::string black_name, white_name;
  std::string opening;       // name of the opening ("" if none)
  int opening_moves = 0;     // moves of the game that came from the opening
  uint64_t seed = 0;
  int size = 9;
  double komi = 7.5;
  int handicap = 0;
  std::string rules;         // SGF RU
  MatchTimeControl time;     // the clocks (none: disabled), SGF TM and OT
  std::vector<Vertex> handicap_stones;
  std::vector<Move> moves;          // opening moves included
  std::vector<double> move_seconds; // wall time per generated move (0 for opening moves)

  Ending ending = Ending::kScore;
  Color winner = Color::kEmpty;  // kEmpty: jigo or void
  double margin = 0;             // area score Black - White - komi (points), when scored
  std::string result;            // SGF RE: "B+3.5", "W+R", "B+F", "W+T", "0", "Void"
  std::string reason;            // human-readable: "two passes", "white forfeits: ..."
  int forfeit_engine = -1;       // engine that lost by fault, or -1
  std::vector<std::string> stderr_tail;  // last stderr lines of the faulty engine
  std::string dead_stones_from;  // "agreed" (final_status_list), "cleanup", "none"
  std::vector<Vertex> dead;
  std::vector<std::string> final_score;  // each engine's final_score answer: black's, white's
  bool score_disagreement = false;       // an answer other than `result`
  double seconds = 0;                     // wall time of the game
  std::string date;                       // UTC date the game ended, YYYY-MM-DD (SGF DT)

  /// True when the game counts in the statistics.
  bool counted() const { return ending != Ending::kVoid; }
  /// Points of engine `e` (1, 1/2 or 0); requires counted().
  double points(int e) const;
};

nlohmann::json to_json(const GameResult& g);
/// InvalidArgument naming the missing or bad key.
absl::StatusOr<GameResult> game_from_json(const nlohmann::json& j);

/// The SGF of a game: PB/PW (engine names), RE, KM, HA with AB for handicap stones, RU,
/// SZ, DT, with a clock TM (main time, seconds) and, with byo-yomi, OT ("5/30 Canadian": STONES
/// moves in PERIOD seconds, the form of SGF FF[4]'s OT examples and of KGS's files), the moves,
/// and a root comment with the reason and seed.
std::string game_sgf(const GameResult& g);

/// Standard handicap points as GTP `fixed_handicap` places them (GTP 2 section 4.1.1):
/// boards 7x7 and larger, 2..9 stones on odd sizes (2..4 on even sizes and 7x7), on the 3rd
/// line (4th from 13x13). Empty when the handicap is not allowed.
std::vector<Vertex> fixed_handicap_points(int size, int handicap);

}  // namespace hane
