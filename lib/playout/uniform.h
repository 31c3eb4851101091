// The uniform playout policy: every legal move that does not fill the mover's own eye is equally
// likely (the classic light playout of MoGo and Pachi's `playout=light`).
#pragma once

#include "playout/board_policy.h"

namespace hane {

/// A uniformly random legal move for `c` that does not fill one of its own eyes (see
/// Board::is_eye), or pass if there is none. Each such move has the same probability.
Vertex random_move(const Board& board, Color c, Rng& rng);

class UniformPolicy final : public BoardPolicy {
 public:
  std::string name() const override { return "uniform"; }
  Vertex sample(Rng& rng) override { return random_move(board_, to_move_, rng); }
  /// 1 / (number of candidates) for a candidate, 0 otherwise; costs one pass over the empty
  /// points.
  std::optional<double> probability(Vertex v) override;
  std::unique_ptr<PlayoutPolicy> clone() const override { return std::make_unique<UniformPolicy>(); }
};

}  // namespace hane
