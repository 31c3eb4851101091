#include "predict/boost.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "util/progress.h"

namespace hane {
namespace {

constexpr std::string_view kKind = "boosted-trees";

void write_tree(const RegressionTree& t, PayloadWriter& w) {
  write_tree_questions(t.nodes, w);
  for (float v : t.values) w.f32(v);
}

// Reads and checks one tree (its questions as a decision tree's, tree.h); "" or why it is not one.
std::string read_tree(PayloadReader& r, RegressionTree& t) {
  if (std::string why = read_tree_questions(r, 4, t.nodes); !why.empty()) return why;
  t.values.resize(t.nodes.size() + 1);
  for (size_t i = 0; i < t.values.size(); ++i) {
    t.values[i] = r.f32();
    if (!std::isfinite(t.values[i])) return "corrupt tree: leaf " + std::to_string(i) + " has a value that is not finite";
  }
  return "";
}

}  // namespace

void RegressionTree::add_values(std::span<const TreeInputs> in, std::span<float> out) const {
  const size_t n = in.size();
  if (nodes.empty()) {
    for (size_t i = 0; i < n; ++i) out[i] += values[0];
    return;
  }
  constexpr size_t kLanes = 8;
  if (n < kLanes) {
    for (size_t i = 0; i < n; ++i) out[i] += values[leaf_of(in[i])];
    return;
  }
  // Eight walks in flight; a lane whose walk reaches a leaf takes the next candidate at once.
  const TreeNode* node = nodes.data();
  std::array<int32_t, kLanes> at{};
  std::array<size_t, kLanes> who;
  for (size_t j = 0; j < kLanes; ++j) who[j] = j;
  size_t next = kLanes, done = 0;
  while (done < n) {
    for (size_t j = 0; j < kLanes; ++j) {
      if (at[j] < 0) continue;
      const TreeNode& q = node[at[j]];
      at[j] = q.child[answer(in[who[j]], q.question)];
      if (at[j] < 0) {
        out[who[j]] += values[~at[j]];
        ++done;
        if (next < n) {
          who[j] = next++;
          at[j] = 0;
        }
      }
    }
  }
}

int RegressionTree::depth() const {
  if (nodes.empty()) return 0;
  std::vector<int> d(nodes.size(), 0);
  int deepest = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    deepest = std::max(deepest, d[i] + 1);
    for (int32_t c : nodes[i].child) {
      if (c >= 0) d[c] = d[i] + 1;
    }
  }
  return deepest;
}

RegressionTree log_tree(const DecisionTree& tree) {
  RegressionTree t;
  t.nodes = tree.nodes;
  t.values.reserve(tree.leaves.size());
  for (const TreeLeaf& l : tree.leaves) t.values.push_back(std::log(l.probability));
  return t;
}

int BoostedTrees::total_leaves() const {
  int n = 0;
  for (const RegressionTree& t : trees) n += t.num_leaves();
  return n;
}

BoostedTrees BoostedTrees::first(int rounds) const {
  BoostedTrees m = *this;
  const size_t keep = std::min(trees.size(), static_cast<size_t>(std::max(0, rounds)) + (has_base ? 1 : 0));
  m.trees.resize(keep);
  if (m.trees.empty()) m.trees.push_back(RegressionTree{{}, {0.0f}});  // no base, no round: uniform
  return m;
}

absl::Status save_boosted_trees(const BoostedTrees& model, const std::string& path) {
  PayloadWriter w;
  w.u32(static_cast<uint32_t>(model.trees.size()));
  for (const RegressionTree& t : model.trees) write_tree(t, w);
  int max_depth = 0;
  for (size_t i = model.has_base ? 1 : 0; i < model.trees.size(); ++i) max_depth = std::max(max_depth, model.trees[i].depth());
  const nlohmann::json header = {
      {"kind", kKind},
      {"feature_version", kBoostFeatureVersion},
      {"tree_feature_version", kTreeFeatureVersion},
      {"board_size", 19},
      {"trees", model.trees.size()},
      {"boosted_trees", model.boosted_trees()},
      {"boosted_depth", max_depth},
      {"base", model.has_base ? model.base : nlohmann::json()},
      {"leaves", model.total_leaves()},
      {"features", tree_features_json(model.features)},
      {"training", model.training},
      {"validation_curve", model.validation_curve},
  };
  return write_model_file(path, header, w.bytes());
}

absl::StatusOr<BoostedTrees> boosted_trees_from_file(const ModelFile& file, const std::string& path) {
  const nlohmann::json& h = file.header;
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  if (h.value("kind", "") != kKind) return fail("not a boosted-trees model");
  if (h.value("feature_version", -1) != kBoostFeatureVersion) {
    return fail("boosted-trees feature version " + h.value("feature_version", nlohmann::json()).dump() +
                " does not match this hane's version " + std::to_string(kBoostFeatureVersion) + ": retrain the model");
  }
  if (h.value("tree_feature_version", -1) != kTreeFeatureVersion) {
    return fail("tree feature version " + h.value("tree_feature_version", nlohmann::json()).dump() +
                " does not match this hane's version " + std::to_string(kTreeFeatureVersion) + ": retrain the model");
  }
  BoostedTrees m;
  if (std::string why = tree_features_from_json(h.value("features", nlohmann::json::object()), m.features); !why.empty()) {
    return fail(why);
  }
  m.base = h.value("base", nlohmann::json());
  m.has_base = m.base.is_object();
  m.training = h.value("training", nlohmann::json::object());
  m.validation_curve = h.value("validation_curve", nlohmann::json::array());

  PayloadReader r(file.payload);
  const uint32_t num_trees = r.u32();
  if (!r.ok()) return fail("corrupt payload: truncated before the number of trees");
  if (num_trees == 0 || num_trees > (1u << 20)) return fail("corrupt payload: " + std::to_string(num_trees) + " trees");
  m.trees.resize(num_trees);
  for (uint32_t i = 0; i < num_trees; ++i) {
    const size_t at = r.offset();
    if (std::string why = read_tree(r, m.trees[i]); !why.empty()) {
      return fail("tree " + std::to_string(i) + " (at byte " + std::to_string(at) + "): " + why);
    }
  }
  if (!r.ok() || r.remaining() != 0) {
    return fail("corrupt payload: " + std::to_string(r.remaining()) + " bytes after the last tree");
  }
  return m;
}

std::string BoostGuesser::name() const {
  std::string out = "boosted trees (";
  if (model_->has_base) out += "base " + with_thousands(model_->trees[0].num_leaves()) + " leaves + ";
  return out + std::to_string(model_->boosted_trees()) + " trees)";
}

void BoostGuesser::score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) {
  maker_.set_position(position);
  const size_t n = candidates.size();
  if (inputs_.size() < n) inputs_.resize(n);
  for (size_t i = 0; i < n; ++i) maker_.inputs(candidates[i], inputs_[i]);
  std::fill(out.begin(), out.begin() + n, 0.0f);
  const std::span<const TreeInputs> in(inputs_.data(), n);
  for (const RegressionTree& t : model_->trees) t.add_values(in, out);
  float top = -INFINITY;
  for (size_t i = 0; i < n; ++i) top = std::max(top, out[i]);
  float sum = 0;
  for (size_t i = 0; i < n; ++i) {
    out[i] = std::exp(out[i] - top);
    sum += out[i];
  }
  if (sum > 0) {
    const float inv = 1.0f / sum;
    for (size_t i = 0; i < n; ++i) out[i] *= inv;
  }
}

nlohmann::json BoostGuesser::info() const {
  return {{"kind", kKind},
          {"feature_version", kBoostFeatureVersion},
          {"tree_feature_version", kTreeFeatureVersion},
          {"trees", model_->trees.size()},
          {"base", model_->has_base ? model_->base : nlohmann::json()},
          {"leaves", model_->total_leaves()},
          {"features", tree_features_json(model_->features)},
          {"training", model_->training}};
}

}  // namespace hane
