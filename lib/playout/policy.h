// The playout-policy interface: what the search (and `hane bench`) drives to play a game out.
//
// A policy owns a copy of the position it plays on. reset() starts it from a board; play()
// applies a move; sample() draws the policy's next move for the side to move. A learned policy
// keeps its move scores up to date incrementally, and its probabilities equal its guesser's full
// recomputation on the same position.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "go/board.h"
#include "go/game.h"
#include "go/random.h"
#include "go/score.h"

namespace hane {

class PlayoutPolicy {
 public:
  virtual ~PlayoutPolicy() = default;

  /// Short name for reports, e.g. "uniform" or "softmax".
  virtual std::string name() const = 0;

  /// Starts from `board` with `to_move` to play after the moves `last` and `second_last` (pass,
  /// or none where there were none).
  virtual void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
                     Vertex second_last = Vertex::none()) = 0;

  virtual const Board& board() const = 0;
  virtual Color to_move() const = 0;

  /// Plays `v` for to_move(): a legal move (Board::legal) or pass. Then the opponent is to move.
  virtual void play(Vertex v) = 0;

  /// Called by run_playout when the playout proper starts, after the moves the search's tree
  /// chose: from reset() to here play() applied tree moves (the search plays its selected
  /// moves through the policy, so that its board follows), after it the policy's own playout
  /// moves. A policy that treats playout moves by their number (switch.h) counts from here, as
  /// Pachi's playout policies are told each playout's start by its `setboard` callback. Called
  /// once per playout; the default does nothing.
  virtual void start_playout() {}

  /// A move for to_move(), never one that fills the mover's own eye (Board::is_eye); pass when
  /// the policy has no candidate.
  virtual Vertex sample(Rng& rng) = 0;

  /// The probability that sample() returns `v` now, where the policy has one in closed form
  /// (std::nullopt otherwise, e.g. for a rule-based policy).
  virtual std::optional<double> probability(Vertex /*v*/) { return std::nullopt; }

  /// An independent policy with the same settings, for another thread (read-only model data may
  /// be shared). Its position is unspecified until reset().
  virtual std::unique_ptr<PlayoutPolicy> clone() const = 0;
};

struct PlayoutResult {
  Score score;     // Tromp-Taylor area score of the final position (score.h)
  int moves = 0;   // moves played, passes included
};

/// Calls policy.start_playout(), then plays policy.sample() moves for alternating colours from
/// the policy's position until two passes in a row or `max_moves` moves (default 3 * size^2,
/// which covers every ordinary playout, capturing races included), then returns the area score
/// of the final board. When `played` is given, every move is appended to it (for AMAF/RAVE
/// statistics); when `ko_captures` is given too, one flag per move: 1 if the move took a simple
/// ko (the board then has a ko point).
PlayoutResult run_playout(PlayoutPolicy& policy, Rng& rng, int max_moves = -1,
                          std::vector<Move>* played = nullptr, std::vector<uint8_t>* ko_captures = nullptr);

/// The board's points numbered 0..n·n−1 row by row, for the sum trees over points that
/// incremental policies sample from: `slot_of[v.index()]` is v's number (−1 off the board) and
/// `vertex_of[s]` the index of point s.
void number_points(const Board& board, std::array<int16_t, Board::kMaxVertices>& slot_of,
                   std::vector<int16_t>& vertex_of);

}  // namespace hane
