#include "go/playout.h"

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

PlayoutResult random_playout(Board& board, Color to_move, Rng& rng, int max_moves) {
  if (max_moves < 0) max_moves = 3 * board.size() * board.size();
  PlayoutResult result;
  int passes = 0;
  Color c = to_move;
  while (passes < 2 && result.moves < max_moves) {
    const Vertex v = random_move(board, c, rng);
    if (v.is_pass()) {
      ++passes;
      board.play(v, c);
    } else {
      passes = 0;
      board.play_legal(v, c);
    }
    ++result.moves;
    c = opponent(c);
  }
  result.score = area_score(board);
  return result;
}

}  // namespace hane
