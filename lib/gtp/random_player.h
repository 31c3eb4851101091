// The cheap move generator: a uniformly random legal move that keeps the mover's own eyes
// (playout/uniform.h's rule, plus superko), passing when there is none or when the opponent
// has passed and passing wins. Scoring comes from the search's playout estimate with the
// uniform policy. Deterministic for a seed; the protocol tests play whole games with it.
#pragma once

#include <cstdint>
#include <memory>

#include "go/random.h"
#include "gtp/player.h"

namespace hane::gtp {

class RandomPlayer final : public MoveGenerator {
 public:
  /// `end_playouts`: playouts behind estimate_end() (dead stones, final score).
  explicit RandomPlayer(uint64_t seed = 1, int end_playouts = 200);
  ~RandomPlayer() override;

  std::string name() const override { return "random"; }
  SearchResult genmove(const Game& game, const Request& request) override;
  EndEstimate estimate_end(const Game& game) override;
  /// Every candidate move equally likely.
  std::vector<float> priors(const Game& game, Color color) override;
  void new_game() override { rng_.reseed(seed_); }

 private:
  uint64_t seed_;
  int end_playouts_;
  Rng rng_;
  std::unique_ptr<Search> estimator_;
};

}  // namespace hane::gtp
