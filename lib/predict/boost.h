// The boosted-trees guesser: a sum of regression trees over the decision tree's question
// inputs (tree_questions.h), turned into a softmax over the legal moves,
//
//   margin(m) = sum over trees t of value_t(leaf of m in t),   P(m) = exp margin(m) / sum exp,
//
// as in gradient boosting with a softmax (multinomial) loss over each position's candidates
// (J. H. Friedman, "Greedy function approximation: a gradient boosting machine", 2001; the
// leaf values are Newton steps as in XGBoost, T. Chen and C. Guestrin, 2016). The first tree may
// be a decision tree (tree.h) taken as the base margin, its leaves' values ln p: alone it
// gives that tree's own guess (p normalised over the legal moves); the trees after it correct
// it. The inputs are computed once per candidate and every tree walks them: a guess costs the
// inputs (as the decision tree's) plus about 5-10 ns per candidate and small tree.
// Training: train/boost_train.h.
//
// Model file (kind "boosted-trees", see model_file.h). Header: feature_version
// (kBoostFeatureVersion), tree_feature_version (kTreeFeatureVersion), board_size, trees,
// base {leaves, from: the decision tree's file and header} or null, leaves (total), features
// {orientation, ladders}, training, validation_curve [{rounds, top1, log_likelihood, ...}].
// Payload, little-endian:
//
//   u32 trees
//   per tree: u32 internal nodes (n), u32 leaves (n + 1),
//             n x { u8 input, u32 values, i32 no, i32 yes }   children as in tree.h: >= 0 an
//                                                            internal node (a larger index), < 0 the leaf ~child
//             (n + 1) x f32 value                             margin added at the leaf (finite)
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "predict/guesser.h"
#include "predict/model_file.h"
#include "predict/tree.h"
#include "predict/tree_questions.h"

namespace hane {

/// Bump when the inputs the boosted trees read, or their meaning, change (besides
/// kTreeFeatureVersion, which the header records too): stale models are refused.
inline constexpr int kBoostFeatureVersion = 1;

/// One regression tree: questions as in DecisionTree, a margin at each leaf.
struct RegressionTree {
  std::vector<TreeNode> nodes;  // nodes[0] is the root (if any); children after their parent
  std::vector<float> values;    // nodes.size() + 1 leaf values
  int num_leaves() const { return static_cast<int>(values.size()); }
  int leaf_of(const TreeInputs& in) const {
    int32_t n = nodes.empty() ? ~0 : 0;
    while (n >= 0) {
      const TreeNode& node = nodes[n];
      n = node.child[answer(in, node.question)];
    }
    return ~n;
  }
  /// out[i] += value of in[i]'s leaf, for every i (eight walks in flight, as DecisionTree).
  void add_values(std::span<const TreeInputs> in, std::span<float> out) const;
  int depth() const;
};

/// The decision tree as a regression tree of ln p (its guess, once normalised by the softmax).
RegressionTree log_tree(const DecisionTree& tree);

struct BoostedTrees {
  std::vector<RegressionTree> trees;  // trees[0] is the base if has_base
  bool has_base = false;
  nlohmann::json base = nullptr;      // where the base came from (its file, kind, leaves), or null
  TreeFeatureOptions features;
  nlohmann::json training = nlohmann::json::object();
  nlohmann::json validation_curve = nlohmann::json::array();

  int boosted_trees() const { return static_cast<int>(trees.size()) - (has_base ? 1 : 0); }
  int total_leaves() const;
  /// The model of the base and the first `rounds` boosted trees (without either, one tree of
  /// one leaf: the uniform guess).
  BoostedTrees first(int rounds) const;
};

/// Model file I/O (kind "boosted-trees"). Errors (InvalidArgument, naming the path): another
/// kind, feature version or tree feature version ("retrain"), unknown options, a payload that
/// is truncated, too long, or not trees (bad question, children out of range or not after
/// their parent, a node or leaf reached twice or never, a value that is not finite).
absl::Status save_boosted_trees(const BoostedTrees& model, const std::string& path);
absl::StatusOr<BoostedTrees> boosted_trees_from_file(const ModelFile& file, const std::string& path);

class BoostGuesser final : public Guesser {
 public:
  explicit BoostGuesser(std::shared_ptr<const BoostedTrees> model)
      : model_(std::move(model)), maker_(model_->features) {}
  /// "boosted trees (base 127,630 leaves + 20 trees)"
  std::string name() const override;
  /// Probabilities: the softmax of the margins over the candidates.
  void score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) override;
  bool gives_probabilities() const override { return true; }
  std::unique_ptr<Guesser> clone() const override { return std::make_unique<BoostGuesser>(model_); }
  nlohmann::json info() const override;

 private:
  std::shared_ptr<const BoostedTrees> model_;
  TreeInputMaker maker_;
  std::vector<TreeInputs> inputs_;
};

}  // namespace hane
