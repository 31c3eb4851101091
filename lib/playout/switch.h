// A learned policy near the tree, a fast one beyond: `head` plays the first N moves of each
// playout, `tail` every move after them (settings `softmax.moves` and `gamma.moves`, with the
// `rules` policy as the tail). The moves closest to the tree decide most of what a playout says
// about the position it starts from, and a learned policy's moves cost 8-15 times a rule move
// (docs/strength.md, section 7), so the learned policy is spent where it counts.
//
// The N moves are counted from the playout's start (start_playout(), which run_playout calls
// where the tree's moves end), not from reset(): the search resets the policy at the root and
// plays the tree's moves through it, and those are not playout moves.
#pragma once

#include <memory>
#include <string>

#include "playout/policy.h"

namespace hane {

class SwitchPolicy final : public PlayoutPolicy {
 public:
  /// `head` follows the tree's moves and plays moves 1..`head_moves` of each playout (>= 1),
  /// `tail` the rest; the tail is started from the head's position when the head's last move
  /// has been played.
  SwitchPolicy(std::unique_ptr<PlayoutPolicy> head, std::unique_ptr<PlayoutPolicy> tail, int head_moves);

  std::string name() const override { return head_->name() + "+" + tail_->name(); }
  void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
             Vertex second_last = Vertex::none()) override;
  const Board& board() const override { return active().board(); }
  Color to_move() const override { return active().to_move(); }
  void play(Vertex v) override;
  void start_playout() override;
  Vertex sample(Rng& rng) override { return active().sample(rng); }
  std::optional<double> probability(Vertex v) override { return active().probability(v); }
  std::unique_ptr<PlayoutPolicy> clone() const override;

  int head_moves() const { return head_moves_; }
  /// Playout moves played since start_playout(); -1 before it (since reset(), only tree moves).
  int moves() const { return playout_moves_; }

 private:
  PlayoutPolicy& active() const { return playout_moves_ < head_moves_ ? *head_ : *tail_; }

  std::unique_ptr<PlayoutPolicy> head_, tail_;
  int head_moves_;
  int playout_moves_ = -1;
  Vertex last_ = Vertex::none(), second_last_ = Vertex::none();
};

}  // namespace hane
