#include "playout/board_policy.h"

namespace hane {

void BoardPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  board_ = board;
  to_move_ = to_move;
  last_ = last;
  second_last_ = second_last;
}

void BoardPolicy::play(Vertex v) {
  if (v.is_pass()) {
    board_.play(v, to_move_);
  } else {
    board_.play_legal(v, to_move_);
  }
  to_move_ = opponent(to_move_);
  second_last_ = last_;
  last_ = v;
}

}  // namespace hane
