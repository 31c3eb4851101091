// The decision-tree guesser: a binary tree that asks one question about a candidate move per
// node (tree_questions.h) and holds at each leaf the probability that a candidate reaching it
// is the played move (smoothed played / seen over the training sample).
//
// A guess walks every legal move down the tree and ranks the moves by their leaf's
// probability; the probabilities normalised over the legal moves are the guess's distribution
// (so log-likelihoods are reported). Training: train/tree_train.h.
//
// Model file (kind "decision-tree", see model_file.h). Header: feature_version
// (kTreeFeatureVersion), board_size, leaves, internal_nodes, depth, features {orientation
// "canonical" | "board", ladders}, prior_strength, training (corpus summary, sample sizes,
// times), validation_curve [{leaves, top1, log_likelihood}, ...]. Payload, little-endian:
//
//   u32 internal nodes (n), u32 leaves (n + 1)
//   n x { u8 input, u32 values, i32 no, i32 yes }   children: >= 0 an internal node (always a
//                                                     larger index), < 0 the leaf ~child
//   (n + 1) x { f32 probability, f32 played, f32 seen }
//
// Node 0 is the root when n > 0; with n = 0 the tree is the single leaf 0.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "predict/guesser.h"
#include "predict/model_file.h"
#include "predict/tree_questions.h"

namespace hane {

struct TreeNode {
  TreeQuestion question;
  /// child[0] for "no", child[1] for "yes": an internal node's index, or ~leaf.
  std::array<int32_t, 2> child{};
};

struct TreeLeaf {
  float probability = 0;  // smoothed played / seen, in (0, 1)
  float played = 0;       // training counts (seen weighted for the sampled non-played moves)
  float seen = 0;
};

struct DecisionTree {
  std::vector<TreeNode> nodes;  // internal nodes; nodes[0] is the root (if any)
  std::vector<TreeLeaf> leaves; // nodes.size() + 1 leaves
  TreeFeatureOptions features;
  double prior_strength = 0;
  nlohmann::json training = nlohmann::json::object();  // corpus summary, sample, options
  nlohmann::json validation_curve = nlohmann::json::array();

  /// The leaf `in` reaches (about one cached load per level).
  int leaf_of(const TreeInputs& in) const {
    int32_t n = nodes.empty() ? ~0 : 0;
    while (n >= 0) {
      const TreeNode& node = nodes[n];
      n = node.child[answer(in, node.question)];
    }
    return ~n;
  }
  /// The leaves of many candidates: out[i] = leaf_of(in[i]). Walks eight candidates at once
  /// so that their node loads overlap (faster than one at a time on deep trees).
  void leaves_of(std::span<const TreeInputs> in, std::span<int32_t> out) const;
  int num_leaves() const { return static_cast<int>(leaves.size()); }
  /// Questions on the longest path from the root to a leaf (0 for a single leaf).
  int depth() const;
  /// The tree as indented text: one line per node, "[node] question" then its "yes:" and "no:"
  /// branches, and "leaf k: p=... played=... seen=..." at the leaves; a first line with the
  /// size, depth and feature options.
  std::string dump() const;
};

/// Model file I/O (kind "decision-tree"). Errors (InvalidArgument, naming the path): another
/// kind or feature version ("retrain"), unknown options, a payload that is truncated, too
/// long, or not a tree (bad input or value set, child indices out of range or not after their
/// parent, a node or leaf reached twice or never, probabilities outside (0, 1]).
absl::Status save_tree(const DecisionTree& tree, const std::string& path);
absl::StatusOr<DecisionTree> tree_from_file(const ModelFile& file, const std::string& path);

/// The tree's part of the payload (the layout above), for models that hold a decision tree
/// (leaf_softmax.h): appended to `w`, and read back from `r` into `tree`'s nodes and leaves,
/// returning "" or why the bytes are not a tree (the reasons of tree_from_file, without the
/// path); bytes after the tree are left to the caller.
void write_tree_payload(const DecisionTree& tree, PayloadWriter& w);
std::string read_tree_payload(PayloadReader& r, DecisionTree& tree);

/// The questions of a tree, the part every tree in a payload shares (decision trees, boosted
/// regression trees, the leaf softmax's tree): u32 questions n, u32 leaves n + 1, then each
/// question as u8 input, u32 value set, u32 child "no", u32 child "yes" (a node index, or ~leaf).
/// The leaves' own bytes follow, written and read by the caller. read_tree_questions checks the
/// shape (n + 1 leaves, `leaf_bytes` for each still there, valid questions, children after their
/// parent, every question and leaf reached exactly once) and returns "" or why not, as
/// tree_from_file words it ("corrupt tree: question 0 has a bad child 0").
void write_tree_questions(std::span<const TreeNode> nodes, PayloadWriter& w);
std::string read_tree_questions(PayloadReader& r, size_t leaf_bytes, std::vector<TreeNode>& nodes);
/// The header's "features" object, {"orientation": "canonical" | "board", "ladders": bool}, and
/// back ("" or what is wrong with it).
nlohmann::json tree_features_json(const TreeFeatureOptions& features);
std::string tree_features_from_json(const nlohmann::json& features, TreeFeatureOptions& out);

class TreeGuesser final : public Guesser {
 public:
  explicit TreeGuesser(std::shared_ptr<const DecisionTree> tree)
      : tree_(std::move(tree)), maker_(tree_->features) {}
  /// "tree (12,345 leaves)"
  std::string name() const override;
  void score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) override;
  bool gives_probabilities() const override { return true; }
  std::unique_ptr<Guesser> clone() const override { return std::make_unique<TreeGuesser>(tree_); }
  nlohmann::json info() const override;
  /// The leaf's probability and the answers on the way to it, last question first, e.g.
  /// "leaf 812, p = 0.04 (played 31 of 790 seen): yes: the move captures; no: ...".
  std::string explain(const Position& position, Vertex move) override;
  std::string dump() const override { return tree_->dump(); }

 private:
  std::shared_ptr<const DecisionTree> tree_;
  TreeInputMaker maker_;
  std::vector<TreeInputs> inputs_;
  std::vector<int32_t> leaves_;
};

}  // namespace hane
