#include "playout/uniform.h"

namespace hane {

namespace {
bool acceptable(const Board& board, Vertex v, Color c) {
  return !board.is_eye(v, c) && board.legal(v, c) == Legality::kLegal;
}
}  // namespace

void UniformPolicy::reset(const Board& board, Color to_move, Vertex, Vertex) {
  board_ = board;
  to_move_ = to_move;
}

void UniformPolicy::play(Vertex v) {
  if (v.is_pass()) {
    board_.play(v, to_move_);
  } else {
    board_.play_legal(v, to_move_);
  }
  to_move_ = opponent(to_move_);
}

std::optional<double> UniformPolicy::probability(Vertex v) {
  int candidates = 0;
  for (int16_t p : board_.empty_points()) candidates += acceptable(board_, Vertex(p), to_move_);
  if (candidates == 0) return v.is_pass() ? 1.0 : 0.0;
  if (!v.is_point() || !board_.is_empty(v) || !acceptable(board_, v, to_move_)) return 0.0;
  return 1.0 / candidates;
}

}  // namespace hane
