#include "predict/tree.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "util/progress.h"

namespace hane {
namespace {

constexpr std::string_view kKind = "decision-tree";

std::string orientation_name(const TreeFeatureOptions& f) { return f.canonical ? "canonical" : "board"; }

}  // namespace

int DecisionTree::depth() const {
  if (nodes.empty()) return 0;
  // Children always have larger indices than their parents: one pass in index order.
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

std::string DecisionTree::dump() const {
  std::string out = "decision tree: " + with_thousands(num_leaves()) + " leaves, " +
                    with_thousands(static_cast<int64_t>(nodes.size())) + " questions, depth " +
                    std::to_string(depth()) + ", feature version " + std::to_string(kTreeFeatureVersion) +
                    ", orientation " + orientation_name(features) + ", ladders " +
                    (features.ladders ? "read" : "not read") + "\n";
  struct Item {
    int32_t ref;
    int indent;
    const char* label;
  };
  std::vector<Item> stack = {{nodes.empty() ? ~0 : 0, 0, ""}};
  char buf[160];
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    out.append(2 * it.indent, ' ');
    out += it.label;
    if (it.ref >= 0) {
      const TreeNode& n = nodes[it.ref];
      out += '[';
      out += std::to_string(it.ref);
      out += "] ";
      out += describe(n.question);
      out += '\n';
      stack.push_back({n.child[0], it.indent + 1, "no: "});
      stack.push_back({n.child[1], it.indent + 1, "yes: "});
    } else {
      const TreeLeaf& l = leaves[~it.ref];
      std::snprintf(buf, sizeof buf, "leaf %d: p=%.6g played=%.0f seen=%.1f\n", ~it.ref, l.probability, l.played,
                    l.seen);
      out += buf;
    }
  }
  return out;
}

void write_tree_questions(std::span<const TreeNode> nodes, PayloadWriter& w) {
  w.u32(static_cast<uint32_t>(nodes.size()));
  w.u32(static_cast<uint32_t>(nodes.size() + 1));
  for (const TreeNode& n : nodes) {
    w.u8(n.question.input);
    w.u32(n.question.values);
    w.u32(static_cast<uint32_t>(n.child[0]));
    w.u32(static_cast<uint32_t>(n.child[1]));
  }
}

void write_tree_payload(const DecisionTree& tree, PayloadWriter& w) {
  write_tree_questions(tree.nodes, w);
  for (const TreeLeaf& l : tree.leaves) {
    w.f32(l.probability);
    w.f32(l.played);
    w.f32(l.seen);
  }
}

nlohmann::json tree_features_json(const TreeFeatureOptions& features) {
  return {{"orientation", orientation_name(features)}, {"ladders", features.ladders}};
}

std::string tree_features_from_json(const nlohmann::json& features, TreeFeatureOptions& out) {
  const std::string orientation = features.is_object() ? features.value("orientation", "") : "";
  if (orientation != "canonical" && orientation != "board") {
    return "unknown orientation '" + orientation + "' in the header's features";
  }
  if (!features.contains("ladders") || !features["ladders"].is_boolean()) return "header features lack \"ladders\"";
  out.canonical = orientation == "canonical";
  out.ladders = features["ladders"].get<bool>();
  return "";
}

absl::Status save_tree(const DecisionTree& tree, const std::string& path) {
  PayloadWriter w;
  write_tree_payload(tree, w);
  const nlohmann::json header = {
      {"kind", kKind},
      {"feature_version", kTreeFeatureVersion},
      {"board_size", 19},
      {"leaves", tree.leaves.size()},
      {"internal_nodes", tree.nodes.size()},
      {"depth", tree.depth()},
      {"features", tree_features_json(tree.features)},
      {"prior_strength", tree.prior_strength},
      {"training", tree.training},
      {"validation_curve", tree.validation_curve},
  };
  return write_model_file(path, header, w.bytes());
}

std::string read_tree_questions(PayloadReader& r, size_t leaf_bytes, std::vector<TreeNode>& nodes) {
  const uint32_t n = r.u32(), num_leaves = r.u32();
  if (!r.ok()) return "corrupt payload: truncated before the tree's size";
  constexpr size_t kNodeBytes = 13;
  if (static_cast<uint64_t>(num_leaves) != uint64_t{n} + 1) {
    return "corrupt payload: " + std::to_string(num_leaves) + " leaves for " + std::to_string(n) +
           " questions (a binary tree has one more leaf than questions)";
  }
  if (r.remaining() < n * kNodeBytes + num_leaves * leaf_bytes) {
    return "corrupt payload: " + std::to_string(r.remaining()) + " bytes for " + std::to_string(n) +
           " questions and " + std::to_string(num_leaves) + " leaves (expected " +
           std::to_string(n * kNodeBytes + num_leaves * leaf_bytes) + ")";
  }
  nodes.resize(n);
  std::vector<uint8_t> node_refs(n, 0), leaf_refs(num_leaves, 0);
  for (uint32_t i = 0; i < n; ++i) {
    TreeNode& node = nodes[i];
    node.question.input = r.u8();
    node.question.values = r.u32();
    node.child[0] = static_cast<int32_t>(r.u32());
    node.child[1] = static_cast<int32_t>(r.u32());
    if (!valid_question(node.question)) {
      return "corrupt tree: question " + std::to_string(i) + " asks input " + std::to_string(node.question.input) +
             " about the value set " + std::to_string(node.question.values);
    }
    for (int32_t c : node.child) {
      if (c >= 0) {
        if (static_cast<uint32_t>(c) <= i || static_cast<uint32_t>(c) >= n || node_refs[c]++) {
          return "corrupt tree: question " + std::to_string(i) + " has a bad child " + std::to_string(c);
        }
      } else if (static_cast<uint32_t>(~c) >= num_leaves || leaf_refs[~c]++) {
        return "corrupt tree: question " + std::to_string(i) + " has a bad leaf " + std::to_string(~c);
      }
    }
  }
  for (uint32_t i = 1; i < n; ++i) {
    if (!node_refs[i]) return "corrupt tree: question " + std::to_string(i) + " is never reached";
  }
  for (uint32_t i = 0; i < num_leaves; ++i) {
    if (n > 0 && !leaf_refs[i]) return "corrupt tree: leaf " + std::to_string(i) + " is never reached";
  }
  return "";
}

std::string read_tree_payload(PayloadReader& r, DecisionTree& t) {
  if (std::string why = read_tree_questions(r, 12, t.nodes); !why.empty()) return why;
  t.leaves.resize(t.nodes.size() + 1);
  for (size_t i = 0; i < t.leaves.size(); ++i) {
    TreeLeaf& l = t.leaves[i];
    l.probability = r.f32();
    l.played = r.f32();
    l.seen = r.f32();
    if (!(l.probability > 0 && l.probability <= 1) || !std::isfinite(l.played) || !std::isfinite(l.seen) ||
        l.played < 0 || l.seen < 0) {
      return "corrupt tree: leaf " + std::to_string(i) + " has probability " + std::to_string(l.probability);
    }
  }
  return "";
}

absl::StatusOr<DecisionTree> tree_from_file(const ModelFile& file, const std::string& path) {
  const nlohmann::json& h = file.header;
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  if (h.value("kind", "") != kKind) return fail("not a decision-tree model");
  if (h.value("feature_version", -1) != kTreeFeatureVersion) {
    return fail("tree feature version " + h.value("feature_version", nlohmann::json()).dump() +
                " does not match this hane's version " + std::to_string(kTreeFeatureVersion) + ": retrain the model");
  }
  DecisionTree t;
  if (std::string why = tree_features_from_json(h.value("features", nlohmann::json::object()), t.features); !why.empty()) {
    return fail(why);
  }
  t.prior_strength = h.value("prior_strength", 0.0);
  t.training = h.value("training", nlohmann::json::object());
  t.validation_curve = h.value("validation_curve", nlohmann::json::array());

  PayloadReader r(file.payload);
  if (std::string why = read_tree_payload(r, t); !why.empty()) return fail(why);
  if (!r.ok() || r.remaining() != 0) {
    return fail("corrupt payload: " + std::to_string(r.remaining()) + " bytes after the tree's " +
                std::to_string(t.leaves.size()) + " leaves");
  }
  return t;
}

std::string TreeGuesser::name() const { return "tree (" + with_thousands(tree_->num_leaves()) + " leaves)"; }

void DecisionTree::leaves_of(std::span<const TreeInputs> in, std::span<int32_t> out) const {
  const size_t n = in.size();
  if (nodes.empty()) {
    std::fill(out.begin(), out.begin() + n, 0);
    return;
  }
  // Eight walks in flight; a lane whose walk reaches a leaf takes the next candidate at once.
  constexpr size_t kLanes = 8;
  const TreeNode* node = nodes.data();
  if (n < kLanes) {
    for (size_t i = 0; i < n; ++i) out[i] = leaf_of(in[i]);
    return;
  }
  std::array<int32_t, kLanes> at{};  // all at the root
  std::array<size_t, kLanes> who;
  for (size_t j = 0; j < kLanes; ++j) who[j] = j;
  size_t next = kLanes, done = 0;
  while (done < n) {
    for (size_t j = 0; j < kLanes; ++j) {
      if (at[j] < 0) continue;
      const TreeNode& q = node[at[j]];
      at[j] = q.child[answer(in[who[j]], q.question)];
      if (at[j] < 0) {
        out[who[j]] = ~at[j];
        ++done;
        if (next < n) {
          who[j] = next++;
          at[j] = 0;
        }
      }
    }
  }
}

void TreeGuesser::score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) {
  maker_.set_position(position);
  const size_t n = candidates.size();
  if (inputs_.size() < n) {
    inputs_.resize(n);
    leaves_.resize(n);
  }
  for (size_t i = 0; i < n; ++i) maker_.inputs(candidates[i], inputs_[i]);
  tree_->leaves_of(std::span(inputs_.data(), n), std::span(leaves_.data(), n));
  float sum = 0;
  for (size_t i = 0; i < n; ++i) {
    out[i] = tree_->leaves[leaves_[i]].probability;
    sum += out[i];
  }
  if (sum > 0) {
    const float inv = 1.0f / sum;
    for (float& s : out) s *= inv;
  }
}

std::string TreeGuesser::explain(const Position& position, Vertex move) {
  maker_.set_position(position);
  TreeInputs in;
  maker_.inputs(move, in);
  std::vector<std::string> path;
  int32_t n = tree_->nodes.empty() ? ~0 : 0;
  while (n >= 0) {
    const TreeNode& node = tree_->nodes[n];
    const int a = answer(in, node.question);
    path.push_back(std::string(a ? "yes: " : "no: ") + describe(node.question));
    n = node.child[a];
  }
  const TreeLeaf& l = tree_->leaves[~n];
  char buf[96];
  std::snprintf(buf, sizeof buf, "leaf %d, p = %.3f (played %.0f of %.0f seen)", ~n, l.probability, l.played, l.seen);
  std::string out = buf;
  // The last questions decide the leaf; a few of them say enough.
  for (size_t i = 0; i < path.size() && i < 4; ++i) out += (i == 0 ? ": " : "; ") + path[path.size() - 1 - i];
  return out;
}

nlohmann::json TreeGuesser::info() const {
  return {{"kind", kKind},
          {"feature_version", kTreeFeatureVersion},
          {"leaves", tree_->num_leaves()},
          {"depth", tree_->depth()},
          {"features", tree_features_json(tree_->features)},
          {"training", tree_->training}};
}

}  // namespace hane
