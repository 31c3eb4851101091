// The pattern-table guesser: how often was each local pattern played when it could have been?
//
// Training (train/pattern_train.h) counts, over every position of the training games, every legal move's pattern as
// "seen" and the played move's pattern also as "played" (canonical codes, colours relative to
// the player to move; see features/pattern.h). A move's score is its pattern's smoothed
// played/seen ratio, backed off hierarchically (the diamond12 ratio shrinks towards its 3x3
// sub-pattern's ratio, which shrinks towards the overall ratio):
//
//   r0      = played / seen over all patterns
//   r3(c)   = (played3(c) + k r0)    / (seen3(c) + k)
//   rd(c)   = (playedd(c) + k r3(c3)) / (seend(c) + k)       c3 = the 3x3 part of c
//
// with k = prior_strength. Scores normalised over the legal moves are the guess's
// probabilities. Pattern tables of this kind: Stern, Herbrich and Graepel, "Bayesian Pattern
// Ranking for Move Prediction in the Game of Go", ICML 2006; Araki et al., "Move Prediction in
// Go with the Maximum Entropy Method", 2007 (diamond patterns).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "features/pattern.h"
#include "predict/guesser.h"
#include "predict/model_file.h"

namespace hane {

/// The trained table: canonical code -> smoothed ratio.
struct PatternTable {
  PatternShape shape = PatternShape::kDiamond12;
  double prior_strength = 4.0;
  double overall_ratio = 0;
  absl::flat_hash_map<uint64_t, float> ratio3x3;
  absl::flat_hash_map<uint64_t, float> ratio_diamond;  // empty for a 3x3 table
  nlohmann::json training;  // corpus summary and counts, for the model header

  /// The smoothed ratio of the move whose raw (not canonical) pattern code is `raw`.
  float score(uint64_t raw) const;
};

/// Model file I/O (kind "pattern-table").
absl::Status save_pattern_table(const PatternTable& table, const std::string& path);
absl::StatusOr<PatternTable> pattern_table_from_file(const ModelFile& file, const std::string& path);

class PatternTableGuesser final : public Guesser {
 public:
  explicit PatternTableGuesser(std::shared_ptr<const PatternTable> table) : table_(std::move(table)) {}
  std::string name() const override;
  void score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) override;
  bool gives_probabilities() const override { return true; }
  std::unique_ptr<Guesser> clone() const override { return std::make_unique<PatternTableGuesser>(table_); }
  nlohmann::json info() const override;
  /// "diamond12 pattern, played 31% when seen" (or the 3x3 back-off when the diamond was rare).
  std::string explain(const Position& position, Vertex move) override;

 private:
  std::shared_ptr<const PatternTable> table_;
};

}  // namespace hane
