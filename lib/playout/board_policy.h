// The bookkeeping most playout policies share: their own copy of the board, the side to move
// and the last two moves, kept by reset() and play().
#pragma once

#include "playout/policy.h"

namespace hane {

/// A PlayoutPolicy that keeps the position itself; a policy adds sample() (and may extend
/// reset() and play(), calling these first).
class BoardPolicy : public PlayoutPolicy {
 public:
  void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
             Vertex second_last = Vertex::none()) override;
  const Board& board() const override { return board_; }
  Color to_move() const override { return to_move_; }
  /// Plays `v` (a legal move, or pass) for to_move(); then the opponent is to move, and `v` is
  /// the last move.
  void play(Vertex v) override;

 protected:
  Board board_;
  Color to_move_ = Color::kBlack;
  Vertex last_ = Vertex::none();
  Vertex second_last_ = Vertex::none();
};

}  // namespace hane
