#include "predict/leaf_softmax.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include "util/progress.h"

namespace hane {
namespace {

constexpr std::string_view kKind = "leaf-softmax";

// "" if `f` fits `m` (a row per fixed feature, pattern key and leaf), else why not.
std::string factors_misfit(const LeafSoftmaxModel& m) {
  const PairFactors& f = m.factors;
  if (f.dim == 0) return "";
  if (f.dim < 0 || f.dim > kMaxFactorDim) return "factor_dim " + std::to_string(f.dim) + " is not in 0.." + std::to_string(kMaxFactorDim);
  const size_t d = static_cast<size_t>(f.dim);
  if (f.fixed.size() != m.softmax.fixed.size() * d) return "the fixed features' latent vectors do not match their weights";
  if (f.leaves.size() != m.leaf_weights.size() * d) return "the leaves' latent vectors do not match the leaves";
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (f.pattern_rows[k].size() != m.softmax.patterns[k].size()) return "a pattern dictionary's latent vectors do not match its keys";
    for (const auto& [key, row] : f.pattern_rows[k]) {
      if (!m.softmax.patterns[k].contains(key) || (size_t{row} + 1) * d > f.pattern_data.size()) {
        return "a pattern key's latent vector is missing";
      }
    }
  }
  return "";
}

}  // namespace

LeafSoftmaxModel LeafSoftmaxModel::from_tree(DecisionTree tree, FeatureSet set, StrategicFamilies families) {
  LeafSoftmaxModel m;
  m.leaf_weights.reserve(tree.leaves.size());
  for (const TreeLeaf& l : tree.leaves) m.leaf_weights.push_back(std::log(l.probability));
  m.tree = std::move(tree);
  m.softmax.feature_set = set;
  m.softmax.strategic_families = families;
  m.softmax.fixed.assign(num_fixed_features(set), 0.0f);
  return m;
}

absl::Status save_leaf_softmax(const LeafSoftmaxModel& model, const std::string& path) {
  if (model.leaf_weights.size() != model.tree.leaves.size()) {
    return absl::InvalidArgumentError(path + ": " + std::to_string(model.leaf_weights.size()) + " leaf weights for " +
                                      std::to_string(model.tree.leaves.size()) + " leaves");
  }
  if (std::string why = factors_misfit(model); !why.empty()) return absl::InvalidArgumentError(path + ": " + why);
  PayloadWriter w;
  write_tree_payload(model.tree, w);
  w.u32(static_cast<uint32_t>(model.leaf_weights.size()));
  for (float x : model.leaf_weights) w.f32(x);
  const nlohmann::json dictionaries = write_softmax_payload(model.softmax, w);
  const PairFactors& f = model.factors;
  if (f.dim > 0) {
    for (float x : f.fixed) w.f32(x);
    for (int k = 0; k < kNumPatternKinds; ++k) {
      std::vector<std::pair<uint64_t, uint32_t>> rows(f.pattern_rows[k].begin(), f.pattern_rows[k].end());
      std::sort(rows.begin(), rows.end());
      for (const auto& [key, row] : rows) {
        for (int c = 0; c < f.dim; ++c) w.f32(f.pattern_data[size_t{row} * f.dim + c]);
      }
    }
    for (float x : f.leaves) w.f32(x);
  }
  nlohmann::json header = {
      {"kind", kKind},
      {"feature_version", kLeafSoftmaxVersion},
      {"tree_feature_version", kTreeFeatureVersion},
      {"softmax_feature_version", kSoftmaxFeatureVersion},
      {"pattern_version", kPatternVersion},
      {"board_size", 19},
      {"tree",
       {{"leaves", model.tree.leaves.size()},
        {"internal_nodes", model.tree.nodes.size()},
        {"depth", model.tree.depth()},
        {"features", tree_features_json(model.tree.features)},
        {"from", model.tree_from}}},
      {"dictionaries", dictionaries},
      {"fixed_weights", fixed_weights_json(model.softmax)},
      {"factor_dim", f.dim},
      {"training", model.training},
  };
  write_feature_set_header(model.softmax, header);
  return write_model_file(path, header, w.bytes());
}

absl::StatusOr<LeafSoftmaxModel> leaf_softmax_from_file(const ModelFile& file, const std::string& path) {
  const nlohmann::json& h = file.header;
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  if (h.value("kind", "") != kKind) return fail("not a leaf-softmax model");
  // Version 1 is version 2 without factorised pairs.
  const bool version1 = h.value("feature_version", nlohmann::json()) == nlohmann::json(1);
  const std::pair<const char*, int> versions[] = {{"feature_version", version1 ? 1 : kLeafSoftmaxVersion},
                                                  {"tree_feature_version", kTreeFeatureVersion},
                                                  {"softmax_feature_version", kSoftmaxFeatureVersion},
                                                  {"pattern_version", kPatternVersion}};
  for (const auto& [key, mine] : versions) {
    if (h.value(key, nlohmann::json()) != nlohmann::json(mine)) {
      return fail(std::string(key) + " " + h.value(key, nlohmann::json()).dump() + " does not match this hane's " +
                  std::to_string(mine) + ": retrain the model");
    }
  }
  LeafSoftmaxModel m;
  if (std::string why = read_feature_set_header(h, m.softmax); !why.empty()) return fail(why);
  const nlohmann::json tree = h.value("tree", nlohmann::json::object());
  if (!tree.is_object()) return fail("the header's tree is not an object");
  if (std::string why = tree_features_from_json(tree.value("features", nlohmann::json::object()), m.tree.features);
      !why.empty()) {
    return fail(why);
  }
  m.tree_from = tree.value("from", nlohmann::json::object());
  m.training = h.value("training", nlohmann::json::object());

  PayloadReader r(file.payload);
  if (std::string why = read_tree_payload(r, m.tree); !why.empty()) return fail(why + " (the tree's part)");
  const uint32_t n = r.u32();
  if (!r.ok() || n != m.tree.leaves.size()) {
    return fail("corrupt payload: " + std::to_string(n) + " leaf weights for a tree of " +
                std::to_string(m.tree.leaves.size()) + " leaves");
  }
  if (r.remaining() < 4 * size_t{n}) return fail("corrupt payload: truncated in the leaf weights");
  m.leaf_weights.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    m.leaf_weights[i] = r.f32();
    if (!std::isfinite(m.leaf_weights[i])) return fail("corrupt payload: leaf " + std::to_string(i) + "'s weight is not finite");
  }
  if (std::string why = read_softmax_payload(r, m.softmax); !why.empty()) return fail(why + " (the softmax's part)");
  const nlohmann::json dim = h.value("factor_dim", nlohmann::json(0));
  if (!dim.is_number_integer() || dim.get<int64_t>() < 0 || dim.get<int64_t>() > kMaxFactorDim ||
      (version1 && dim.get<int64_t>() != 0)) {
    return fail("factor_dim " + dim.dump() + " is not in 0.." + std::to_string(kMaxFactorDim) +
                (version1 ? " (version 1 files have none)" : ""));
  }
  if (const int d = static_cast<int>(dim.get<int64_t>()); d > 0) {
    PairFactors& f = m.factors;
    f.dim = d;
    size_t rows = m.softmax.fixed.size() + m.leaf_weights.size();
    for (const auto& table : m.softmax.patterns) rows += table.size();
    if (r.remaining() < rows * d * 4) return fail("corrupt payload: truncated in the latent vectors");
    auto read_rows = [&](size_t count, std::vector<float>& out) {
      const size_t first = out.size();
      out.resize(first + count * d);
      for (size_t i = first; i < out.size(); ++i) {
        out[i] = r.f32();
        if (!std::isfinite(out[i])) return false;
      }
      return true;
    };
    bool finite = read_rows(m.softmax.fixed.size(), f.fixed);
    for (int k = 0; k < kNumPatternKinds && finite; ++k) {
      std::vector<uint64_t> keys;
      keys.reserve(m.softmax.patterns[k].size());
      for (const auto& [key, weight] : m.softmax.patterns[k]) keys.push_back(key);
      std::sort(keys.begin(), keys.end());
      f.pattern_rows[k].reserve(keys.size());
      const size_t base = f.pattern_data.size() / d;
      for (size_t j = 0; j < keys.size(); ++j) f.pattern_rows[k].emplace(keys[j], static_cast<uint32_t>(base + j));
      finite = read_rows(keys.size(), f.pattern_data);
    }
    finite = finite && read_rows(m.leaf_weights.size(), f.leaves);
    if (!finite) return fail("corrupt payload: a latent vector is not finite at byte " + std::to_string(r.offset()));
  }
  if (r.remaining() != 0) return fail("corrupt payload: " + std::to_string(r.remaining()) + " bytes after the end");
  return m;
}

std::string LeafSoftmaxGuesser::name() const {
  const int d = model_->factors.dim;
  return "leaf softmax " + std::string(feature_set_name(model_->softmax.feature_set)) + " (" +
         with_thousands(model_->tree.num_leaves()) + " leaves" +
         (d > 0 ? ", pairs of " + std::to_string(d) + " factors" : std::string()) + ")";
}

void LeafSoftmaxGuesser::score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) {
  const size_t n = candidates.size();
  if (inputs_.size() < n) {
    inputs_.resize(n);
    leaves_.resize(n);
  }
  maker_.set_position(position);
  for (size_t i = 0; i < n; ++i) maker_.inputs(candidates[i], inputs_[i]);
  model_->tree.leaves_of(std::span(inputs_.data(), n), std::span(leaves_.data(), n));
  const Board& b = *position.board;
  states_.fill(b);
  if (model_->softmax.feature_set == FeatureSet::kStrategic) strategic_.set_position(position);
  const int stride = b.stride();
  CandidateFeatures f;
  for (size_t i = 0; i < n; ++i) {
    candidate_features(model_->softmax.feature_set, position, candidates[i], states_.diamond_code(candidates[i], stride),
                       &states_, &f, &strategic_);
    out[i] = model_->leaf_weights[leaves_[i]] + scorer_.score(f);
    if (!row_cache_.empty()) out[i] += pair_term(f, leaves_[i]);
  }
  softmax_in_place(out.first(n));
}

float LeafSoftmaxGuesser::pair_term(const CandidateFeatures& f, int leaf) {
  const PairFactors& fac = model_->factors;
  const int d = fac.dim;
  std::array<float, kMaxFactorDim> sum{};
  float squares = 0;
  auto add = [&](const float* v) {
    for (int c = 0; c < d; ++c) {
      sum[c] += v[c];
      squares += v[c] * v[c];
    }
  };
  for (int i = 0; i < f.num_fixed; ++i) add(fac.fixed.data() + size_t{f.fixed[i]} * d);
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (!f.has_key(static_cast<PatternKind>(k))) continue;
    const uint64_t key = f.keys[k];
    RowEntry& e = row_cache_[((key + static_cast<uint64_t>(k)) * 0x9E3779B97F4A7C15ull) >> (64 - kRowCacheBits)];
    if (e.kind != k || e.key != key) {
      const auto it = fac.pattern_rows[k].find(key);
      e = {key, it != fac.pattern_rows[k].end() ? fac.pattern_data.data() + size_t{it->second} * d : nullptr, k};
    }
    if (e.row) add(e.row);
  }
  add(fac.leaves.data() + static_cast<size_t>(leaf) * d);
  float total = 0;
  for (int c = 0; c < d; ++c) total += sum[c] * sum[c];
  return 0.5f * (total - squares);
}

std::string LeafSoftmaxGuesser::explain(const Position& position, Vertex move) {
  const Board& b = *position.board;
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, position.to_move, moves));
  const auto it = std::find(moves.begin(), moves.end(), move);
  if (it == moves.end()) return "not a legal move";
  std::vector<float> p(moves.size());
  score(position, moves, p);  // fills states_ and the leaves
  const int leaf = leaves_[it - moves.begin()];
  CandidateFeatures f;
  candidate_features(model_->softmax.feature_set, position, move, states_.diamond_code(move, b.stride()), &states_, &f,
                     &strategic_);
  const SoftmaxModel& s = model_->softmax;
  std::vector<std::pair<float, std::string>> parts;
  for (int i = 0; i < f.num_fixed; ++i) parts.emplace_back(s.fixed[f.fixed[i]], fixed_feature_name(f.fixed[i]));
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (!f.has_key(static_cast<PatternKind>(k))) continue;
    const auto w = s.patterns[k].find(f.keys[k]);
    if (w != s.patterns[k].end()) {
      parts.emplace_back(w->second, std::string(pattern_kind_name(static_cast<PatternKind>(k))) + " pattern");
    }
  }
  std::sort(parts.begin(), parts.end(), [](const auto& x, const auto& y) { return std::abs(x.first) > std::abs(y.first); });
  char buf[96];
  std::snprintf(buf, sizeof buf, "p = %.1f%%: leaf %d %+.2f", 100.0 * p[it - moves.begin()], leaf,
                model_->leaf_weights[leaf]);
  std::string out = buf;
  for (size_t i = 0; i < parts.size() && i < 3; ++i) {
    std::snprintf(buf, sizeof buf, ", %s %+.2f", parts[i].second.c_str(), parts[i].first);
    out += buf;
  }
  if (!row_cache_.empty()) {
    std::snprintf(buf, sizeof buf, ", pairs %+.2f", pair_term(f, leaf));
    out += buf;
  }
  return out;
}

nlohmann::json LeafSoftmaxGuesser::info() const {
  nlohmann::json dictionaries = nlohmann::json::object();
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (uses_pattern_kind(model_->softmax.feature_set, static_cast<PatternKind>(k))) {
      dictionaries[std::string(pattern_kind_name(static_cast<PatternKind>(k)))] = model_->softmax.patterns[k].size();
    }
  }
  nlohmann::json info = {{"kind", kKind},
          {"feature_version", kLeafSoftmaxVersion},
          {"tree_feature_version", kTreeFeatureVersion},
          {"softmax_feature_version", kSoftmaxFeatureVersion},
          {"pattern_version", kPatternVersion},
          {"tree",
           {{"leaves", model_->tree.num_leaves()},
            {"features", tree_features_json(model_->tree.features)},
            {"from", model_->tree_from}}},
          {"dictionaries", dictionaries},
          {"factor_dim", model_->factors.dim},
          {"training", model_->training}};
  write_feature_set_header(model_->softmax, info);
  return info;
}

}  // namespace hane
