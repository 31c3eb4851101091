#include "playout/uniform.h"

#include <algorithm>
#include <array>

namespace hane {

namespace {
bool acceptable(const Board& board, Vertex v, Color c) {
  return !board.is_eye(v, c) && board.legal(v, c) == Legality::kLegal;
}
}  // namespace

Vertex random_move(const Board& board, Color c, Rng& rng) {
  const std::span<const int16_t> empties = board.empty_points();
  if (empties.empty()) return Vertex::pass();
  // A few uniform draws from all empty points first: each accepted draw is uniform over the
  // acceptable moves, and most positions accept the first draw.
  for (int tries = 0; tries < 4; ++tries) {
    const Vertex v(empties[rng.below(static_cast<uint32_t>(empties.size()))]);
    if (acceptable(board, v, c)) return v;
  }
  std::array<int16_t, Board::kMaxVertices> candidates;
  std::copy(empties.begin(), empties.end(), candidates.begin());
  // Rejection without replacement: a refused point is swapped out of the candidate range, so
  // every acceptable move is equally likely.
  for (uint32_t left = static_cast<uint32_t>(empties.size()); left > 0; --left) {
    const uint32_t i = rng.below(left);
    const Vertex v(candidates[i]);
    if (acceptable(board, v, c)) return v;
    candidates[i] = candidates[left - 1];
  }
  return Vertex::pass();
}

std::optional<double> UniformPolicy::probability(Vertex v) {
  int candidates = 0;
  for (int16_t p : board_.empty_points()) candidates += acceptable(board_, Vertex(p), to_move_);
  if (candidates == 0) return v.is_pass() ? 1.0 : 0.0;
  if (!v.is_point() || !board_.is_empty(v) || !acceptable(board_, v, to_move_)) return 0.0;
  return 1.0 / candidates;
}

}  // namespace hane
