// The baseline: every legal move equally likely.
#pragma once

#include "predict/guesser.h"

namespace hane {

class UniformGuesser final : public Guesser {
 public:
  std::string name() const override { return "uniform"; }
  void score(const Position&, std::span<const Vertex> candidates, std::span<float> out) override {
    const float p = candidates.empty() ? 0.0f : 1.0f / static_cast<float>(candidates.size());
    for (float& s : out) s = p;
  }
  bool gives_probabilities() const override { return true; }
  std::unique_ptr<Guesser> clone() const override { return std::make_unique<UniformGuesser>(); }
  nlohmann::json info() const override { return {{"kind", "uniform"}}; }
};

}  // namespace hane
