// The uniform playout policy: every legal move that does not fill the mover's own eye is equally
// likely (the classic light playout of MoGo and Pachi's `playout=light`).
#pragma once

#include "go/playout.h"  // random_move
#include "playout/policy.h"

namespace hane {

class UniformPolicy final : public PlayoutPolicy {
 public:
  std::string name() const override { return "uniform"; }
  void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
             Vertex second_last = Vertex::none()) override;
  const Board& board() const override { return board_; }
  Color to_move() const override { return to_move_; }
  void play(Vertex v) override;
  Vertex sample(Rng& rng) override { return random_move(board_, to_move_, rng); }
  /// 1 / (number of candidates) for a candidate, 0 otherwise; costs one pass over the empty
  /// points.
  std::optional<double> probability(Vertex v) override;
  std::unique_ptr<PlayoutPolicy> clone() const override { return std::make_unique<UniformPolicy>(); }

 private:
  Board board_;
  Color to_move_ = Color::kBlack;
};

}  // namespace hane
