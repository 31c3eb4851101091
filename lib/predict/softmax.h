// The linear-softmax guesser: P(move) = exp(score(move)) / sum over legal moves of exp(score),
// where a move's score is the sum of the weights of its active features (softmax_features.h).
//
// This is the move model of the AlphaGo rollout and tree policies (Silver et al. 2016,
// "Methods: rollout policy") and a log-linear form of Coulom's Bradley-Terry move model
// ("Computing Elo Ratings of Move Patterns in the Game of Go", 2007): a weight w is the log of
// Coulom's gamma. Trained by train/softmax_train.h; played incrementally by playout/softmax.h.
//
// Model file (kind "softmax", see model_file.h). Header: feature_set (and for the strategic
// set, strategic_families: "all" or names separated by commas), feature_version
// (kSoftmaxFeatureVersion), pattern_version (kPatternVersion), board_size, dictionaries (pattern
// kind -> number of keys), fixed_weights (feature name -> weight, for reading), training (corpus,
// options, epochs with validation figures, the best epoch). Payload, little-endian:
//   u32 number of fixed features, then that many f32 weights;
//   for each pattern kind in PatternKind order: u64 number of keys, then (u64 key, f32 weight)
//   pairs in increasing key order.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "predict/guesser.h"
#include "predict/model_file.h"
#include "predict/softmax_features.h"

namespace hane {

struct SoftmaxModel {
  FeatureSet feature_set = FeatureSet::kRollout;
  /// The strategic families the model uses (strategic set only).
  StrategicFamilies strategic_families = kAllStrategicFamilies;
  /// Weights of the fixed features, num_fixed_features(feature_set) of them (nats); a strategic
  /// model written before the opponent family has fixed_feature::kNumStrategicBeforeOpponent.
  std::vector<float> fixed;
  /// Pattern key -> weight, per PatternKind; keys not listed weigh 0.
  std::array<absl::flat_hash_map<uint64_t, float>, kNumPatternKinds> patterns;
  /// How the model was made (recorded in the model file's header).
  nlohmann::json training = nlohmann::json::object();

  /// The score of a candidate: the sum of its features' weights (nats).
  float score(const CandidateFeatures& f) const {
    float s = 0;
    for (int i = 0; i < f.num_fixed; ++i) s += fixed[f.fixed[i]];
    for (int k = 0; k < kNumPatternKinds; ++k) {
      if (!f.has_key(static_cast<PatternKind>(k))) continue;
      const auto it = patterns[k].find(f.keys[k]);
      if (it != patterns[k].end()) s += it->second;
    }
    return s;
  }
  /// Number of weights (fixed plus pattern keys).
  int64_t num_weights() const;
};

/// Scores candidates like SoftmaxModel::score, through a small direct-mapped cache of pattern
/// weights (16384 entries, 256 KB): the patterns met most often stay in L1/L2 instead of being
/// looked up in the model's large hash maps. Not thread-safe: one per thread.
class SoftmaxScorer {
 public:
  explicit SoftmaxScorer(const SoftmaxModel* model) : model_(model), cache_(kEntries) {}
  float score(const CandidateFeatures& f) {
    float s = 0;
    for (int i = 0; i < f.num_fixed; ++i) s += model_->fixed[f.fixed[i]];
    for (int k = 0; k < kNumPatternKinds; ++k) {
      if (f.has_key(static_cast<PatternKind>(k))) s += pattern_weight(k, f.keys[k]);
    }
    return s;
  }
  const SoftmaxModel& model() const { return *model_; }

 private:
  static constexpr int kBits = 14;
  static constexpr int kEntries = 1 << kBits;
  struct Entry {
    uint64_t key = 0;
    float weight = 0;
    int32_t kind = -1;  // -1: empty
  };
  static size_t slot(int kind, uint64_t key) {
    return ((key + static_cast<uint64_t>(kind)) * 0x9E3779B97F4A7C15ull) >> (64 - kBits);
  }
  float pattern_weight(int kind, uint64_t key) {
    Entry& e = cache_[slot(kind, key)];
    if (e.kind != kind || e.key != key) {
      const auto it = model_->patterns[kind].find(key);
      e = {key, it != model_->patterns[kind].end() ? it->second : 0.0f, kind};
    }
    return e.weight;
  }
  const SoftmaxModel* model_;
  std::vector<Entry> cache_;
};

/// Model file I/O (kind "softmax"). Errors name the path: not a softmax model; feature or
/// pattern version mismatch ("retrain"); unknown feature set; wrong number of fixed weights;
/// corrupt payload (bad sizes, keys out of order, trailing bytes).
absl::Status save_softmax_model(const SoftmaxModel& model, const std::string& path);
absl::StatusOr<SoftmaxModel> softmax_model_from_file(const ModelFile& file, const std::string& path);

/// The weights' part of the payload (the layout above), for models that hold a softmax
/// (leaf_softmax.h): appended to `w`, returning the header's "dictionaries" (pattern kind ->
/// keys); read back from `r` into `model` (whose feature_set and strategic_families must be
/// set: a strategic model of kNumStrategicBeforeOpponent weights loses the opponent family),
/// returning "" or why the bytes are not such weights (the reasons of softmax_model_from_file, without the path);
/// bytes after the weights are left to the caller.
nlohmann::json write_softmax_payload(const SoftmaxModel& model, PayloadWriter& w);
std::string read_softmax_payload(PayloadReader& r, SoftmaxModel& model);
/// The header's "fixed_weights": fixed feature name -> weight.
nlohmann::json fixed_weights_json(const SoftmaxModel& model);
/// The header's "feature_set" (and "strategic_families" for the strategic set) written into
/// `header`, and read back into `model`, returning "" or why not (an unknown set or family).
void write_feature_set_header(const SoftmaxModel& model, nlohmann::json& header);
std::string read_feature_set_header(const nlohmann::json& header, SoftmaxModel& model);

/// Full-board guesses with a softmax model: score() ranks all candidates and gives their
/// probabilities (the softmax over the candidates given).
class SoftmaxGuesser final : public Guesser {
 public:
  explicit SoftmaxGuesser(std::shared_ptr<const SoftmaxModel> model)
      : model_(std::move(model)), scorer_(model_.get()), strategic_(model_->strategic_families) {}
  std::string name() const override;
  void score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) override;
  bool gives_probabilities() const override { return true; }
  std::unique_ptr<Guesser> clone() const override { return std::make_unique<SoftmaxGuesser>(model_); }
  nlohmann::json info() const override;
  /// The move's probability and its features with the largest weights, e.g. "p = 12.0%:
  /// response pattern +2.31, save atari +1.20, 3x3 pattern -0.40".
  std::string explain(const Position& position, Vertex move) override;
  const std::shared_ptr<const SoftmaxModel>& model() const { return model_; }

 private:
  std::shared_ptr<const SoftmaxModel> model_;
  SoftmaxScorer scorer_;
  BoardStates states_;             // scratch
  StrategicContext strategic_;     // scratch (strategic set)
};

/// Turns scores (nats) into probabilities in place: exp(s - max) / sum. Empty spans are fine.
void softmax_in_place(std::span<float> scores);

}  // namespace hane
