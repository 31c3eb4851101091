// Any move guesser as a playout policy (`guesser:MODEL`): every move rescores the whole board
// with the guesser and draws a move in proportion to its probabilities. Slow (one full-board
// guess per move, e.g. tens of µs for a decision tree on 19x19) but exact for every guesser;
// for experiments, not for search.
#pragma once

#include <memory>
#include <vector>

#include "playout/board_policy.h"
#include "predict/guesser.h"

namespace hane {

class GuesserPolicy final : public BoardPolicy {
 public:
  /// Plays by `guesser`'s scores. A guesser that gives probabilities (Guesser::
  /// gives_probabilities) is sampled by them; other scores are turned into probabilities by a
  /// softmax.
  explicit GuesserPolicy(std::unique_ptr<Guesser> guesser);

  std::string name() const override { return "guesser"; }
  void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
             Vertex second_last = Vertex::none()) override;
  void play(Vertex v) override;
  /// A legal move that does not fill the mover's own eye, drawn with the probability the
  /// guesser gives it among those moves (renormalised); pass when there is none.
  Vertex sample(Rng& rng) override;
  /// The probability that sample() returns `v` now (one full-board guess).
  std::optional<double> probability(Vertex v) override;
  std::unique_ptr<PlayoutPolicy> clone() const override;

  const Guesser& guesser() const { return *guesser_; }

 private:
  // Fills candidates_ and probabilities_ for the current position (they sum to 1).
  void guess();

  std::unique_ptr<Guesser> guesser_;
  int move_number_ = 1;
  std::vector<Vertex> candidates_;
  std::vector<float> probabilities_;
};

}  // namespace hane
