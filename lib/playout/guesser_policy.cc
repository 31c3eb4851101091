#include "playout/guesser_policy.h"

#include <algorithm>

#include "predict/guesser.h"
#include "predict/softmax.h"

namespace hane {

GuesserPolicy::GuesserPolicy(std::unique_ptr<Guesser> guesser) : guesser_(std::move(guesser)) {}

std::unique_ptr<PlayoutPolicy> GuesserPolicy::clone() const {
  return std::make_unique<GuesserPolicy>(guesser_->clone());
}

void GuesserPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  BoardPolicy::reset(board, to_move, last, second_last);
  move_number_ = 1;
}

void GuesserPolicy::play(Vertex v) {
  BoardPolicy::play(v);
  ++move_number_;
}

void GuesserPolicy::guess() {
  candidates_.resize(board_.empty_points().size());
  const int n = legal_moves(board_, to_move_, candidates_);
  candidates_.resize(n);
  std::erase_if(candidates_, [&](Vertex v) { return board_.is_eye(v, to_move_); });
  probabilities_.resize(candidates_.size());
  if (candidates_.empty()) return;
  guesser_->score(Position{&board_, to_move_, last_, second_last_, move_number_}, candidates_, probabilities_);
  if (!guesser_->gives_probabilities()) softmax_in_place(probabilities_);
  double total = 0;
  for (float p : probabilities_) total += std::max(0.0f, p);
  for (float& p : probabilities_) {
    p = total > 0 ? static_cast<float>(std::max(0.0f, p) / total) : 1.0f / static_cast<float>(probabilities_.size());
  }
}

Vertex GuesserPolicy::sample(Rng& rng) {
  guess();
  if (candidates_.empty()) return Vertex::pass();
  double u = rng.uniform();
  size_t last = 0;  // the last candidate of positive probability, for rounding at the end
  for (size_t i = 0; i < candidates_.size(); ++i) {
    if (!(probabilities_[i] > 0)) continue;
    last = i;
    u -= probabilities_[i];
    if (u < 0) return candidates_[i];
  }
  return candidates_[last];
}

std::optional<double> GuesserPolicy::probability(Vertex v) {
  guess();
  if (candidates_.empty()) return v.is_pass() ? 1.0 : 0.0;
  for (size_t i = 0; i < candidates_.size(); ++i) {
    if (candidates_[i] == v) return probabilities_[i];
  }
  return 0.0;
}

}  // namespace hane
