// The leaf-softmax guesser: a linear softmax over the legal moves whose features are the leaf a
// move reaches in a decision tree (tree.h), one weight per leaf, together with the softmax
// feature set (softmax_features.h: tactics, distances, 3x3, diamond and radius-3 patterns),
//
//   score(m) = w_leaf(leaf of m) + sum of the weights of m's softmax features,
//   P(m) = exp score(m) / sum over the legal moves of exp score.
//
// Each leaf is one indicator feature: the tree contributes the interactions it found, the
// softmax the large patterns the tree cannot spell out and a fit of every weight under the
// move-choice loss (the leaves' played/seen ratios are fitted one candidate at a time). This is
// the stacking of trees under a linear model of X. He et al., "Practical Lessons from
// Predicting Clicks on Ads at Facebook" (ADKDD 2014), with the multinomial loss of the softmax
// guesser (softmax.h). Training (train/softmax_train.h, `hane train softmax --tree MODEL`)
// starts every leaf's weight at ln p of its tree probability, so that the untrained model
// guesses as the tree does, and pulls the weights towards that start (L2).
//
// A guess costs the tree's inputs and walk plus the softmax's features of every legal move.
//
// Factorised pairs (optional, `hane train softmax --tree T --factors D`): every fixed feature,
// pattern key and leaf also has a latent vector of D floats, and a move's score adds the dot
// products of its features' vectors taken in pairs,
//
//   score(m) += sum over pairs i < j of m's features of <v_i, v_j> = (|sum v|^2 - sum |v|^2) / 2,
//
// so that a pattern can weigh differently with each distance, line or leaf without a weight
// per combination: the factorisation machine of S. Rendle ("Factorization Machines", ICDM 2010)
// as the LFR move model uses it (M. Wistuba and L. Schmidt-Thieme, "Move Prediction in Go -
// Modelling Feature Interactions Using Latent Factors", KI 2013). A move's D-float sum costs
// about D additions per feature.
//
// Model file (kind "leaf-softmax", see model_file.h). Header: feature_version
// (kLeafSoftmaxVersion; version 1 files, without pairs, are read too), tree_feature_version
// (kTreeFeatureVersion), softmax_feature_version (kSoftmaxFeatureVersion), pattern_version
// (kPatternVersion), board_size, feature_set, tree {leaves, internal_nodes, depth, features
// {orientation, ladders}, from: the decision tree's file and payload hash}, dictionaries,
// fixed_weights, factor_dim (0: no pairs), training. Payload, little-endian:
//
//   the decision tree's payload (tree.h: nodes, then leaves with their probabilities)
//   u32 leaves (as the tree's), then that many f32 leaf weights (nats)
//   the softmax weights' payload (softmax.h: fixed weights, then each pattern dictionary)
//   with factor_dim D > 0: D f32 per fixed feature, then for each pattern kind D f32 per key
//   of its dictionary in increasing key order, then D f32 per leaf
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "predict/guesser.h"
#include "predict/model_file.h"
#include "predict/softmax.h"
#include "predict/tree.h"

namespace hane {

/// Bump when the way leaves and softmax features combine, or the payload's layout, changes
/// (the tree's and the softmax's own versions are checked as well). 2 added the factorised
/// pairs; files of version 1 have none and are still read.
inline constexpr int kLeafSoftmaxVersion = 2;

/// Most floats in a latent vector of the factorised pairs.
inline constexpr int kMaxFactorDim = 32;

/// The latent vectors of the factorised pairs (see above); dim 0: none.
struct PairFactors {
  int dim = 0;
  /// dim floats per fixed feature (num_fixed_features of the softmax's set).
  std::vector<float> fixed;
  /// Pattern key -> its row of pattern_data, per PatternKind: every key of the softmax's
  /// dictionaries has one.
  std::array<absl::flat_hash_map<uint64_t, uint32_t>, kNumPatternKinds> pattern_rows;
  std::vector<float> pattern_data;
  /// dim floats per leaf.
  std::vector<float> leaves;
};

struct LeafSoftmaxModel {
  DecisionTree tree;
  /// One weight per leaf of `tree` (nats), finite.
  std::vector<float> leaf_weights;
  SoftmaxModel softmax;
  PairFactors factors;
  /// Where the tree came from ({file, payload_fnv64}), free form.
  nlohmann::json tree_from = nlohmann::json::object();
  nlohmann::json training = nlohmann::json::object();

  /// The model that guesses as `tree` does: leaf weights ln p, every softmax weight 0 (no
  /// pattern keys) for feature set `set`.
  static LeafSoftmaxModel from_tree(DecisionTree tree, FeatureSet set,
                                    StrategicFamilies families = kAllStrategicFamilies);
};

/// Model file I/O (kind "leaf-softmax"). Errors (InvalidArgument, naming the path): another
/// kind; any of the four versions not this hane's ("retrain"); unknown tree options or feature
/// set; a tree part or softmax part that is not one (the reasons of tree.h and softmax.h); a
/// leaf count that is not the tree's; a leaf weight that is not finite; a factor_dim out of
/// 0..kMaxFactorDim, or latent vectors missing, truncated or not finite; bytes after the end.
/// Saving fails when the factors do not fit the model (a row per fixed feature, key and leaf).
absl::Status save_leaf_softmax(const LeafSoftmaxModel& model, const std::string& path);
absl::StatusOr<LeafSoftmaxModel> leaf_softmax_from_file(const ModelFile& file, const std::string& path);

class LeafSoftmaxGuesser final : public Guesser {
 public:
  explicit LeafSoftmaxGuesser(std::shared_ptr<const LeafSoftmaxModel> model)
      : model_(std::move(model)),
        maker_(model_->tree.features),
        scorer_(&model_->softmax),
        strategic_(model_->softmax.strategic_families),
        row_cache_(model_->factors.dim > 0 ? size_t{1} << kRowCacheBits : 0) {}
  /// "leaf softmax tree (127,630 leaves)"; with factorised pairs "(127,630 leaves, pairs of 4 factors)"
  std::string name() const override;
  /// Probabilities: the softmax of the scores over the candidates.
  void score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) override;
  bool gives_probabilities() const override { return true; }
  std::unique_ptr<Guesser> clone() const override { return std::make_unique<LeafSoftmaxGuesser>(model_); }
  nlohmann::json info() const override;
  /// The move's probability, its leaf's weight and its softmax features of largest weight,
  /// e.g. "p = 12.0%: leaf 812 -2.31, response pattern +0.40, radius3 pattern -0.21", and with
  /// factorised pairs their term last (", pairs +0.12").
  std::string explain(const Position& position, Vertex move) override;
  std::string dump() const override { return model_->tree.dump(); }

 private:
  std::shared_ptr<const LeafSoftmaxModel> model_;
  TreeInputMaker maker_;
  SoftmaxScorer scorer_;
  BoardStates states_;
  StrategicContext strategic_;  // scratch (strategic set)
  std::vector<TreeInputs> inputs_;
  std::vector<int32_t> leaves_;
  // With factorised pairs: the pair term of a move, its pattern rows found through a
  // direct-mapped cache (as SoftmaxScorer's weights).
  float pair_term(const CandidateFeatures& f, int leaf);
  struct RowEntry {
    uint64_t key = 0;
    const float* row = nullptr;
    int32_t kind = -1;  // -1: empty
  };
  static constexpr int kRowCacheBits = 14;
  std::vector<RowEntry> row_cache_;
};

}  // namespace hane
