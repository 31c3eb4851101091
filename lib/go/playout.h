// Uniform-random playouts: the baseline playout policy and the board's speed benchmark.
#pragma once

#include "go/board.h"
#include "go/random.h"
#include "go/score.h"

namespace hane {

struct PlayoutResult {
  Score score;     // area score of the final position (see score.h)
  int moves = 0;   // moves played, passes included
};

/// A uniformly random legal move for `c` that does not fill one of its own eyes (see
/// Board::is_eye), or pass if there is none. Each such move has the same probability.
Vertex random_move(const Board& board, Color c, Rng& rng);

/// Plays random_move() for alternating colours from `to_move` until two passes in a row or
/// `max_moves` moves, then returns the Tromp-Taylor area score. `board` is modified.
/// A default cap of 3 * size^2 covers every ordinary playout (capturing races included).
PlayoutResult random_playout(Board& board, Color to_move, Rng& rng, int max_moves = -1);

}  // namespace hane
