#include "predict/softmax.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace hane {

int64_t SoftmaxModel::num_weights() const {
  int64_t n = static_cast<int64_t>(fixed.size());
  for (const auto& p : patterns) n += static_cast<int64_t>(p.size());
  return n;
}

nlohmann::json write_softmax_payload(const SoftmaxModel& model, PayloadWriter& w) {
  w.u32(static_cast<uint32_t>(model.fixed.size()));
  for (float f : model.fixed) w.f32(f);
  nlohmann::json dictionaries = nlohmann::json::object();
  for (int k = 0; k < kNumPatternKinds; ++k) {
    std::vector<std::pair<uint64_t, float>> entries(model.patterns[k].begin(), model.patterns[k].end());
    std::sort(entries.begin(), entries.end());
    w.u64(entries.size());
    for (const auto& [key, weight] : entries) {
      w.u64(key);
      w.f32(weight);
    }
    if (uses_pattern_kind(model.feature_set, static_cast<PatternKind>(k))) {
      dictionaries[std::string(pattern_kind_name(static_cast<PatternKind>(k)))] = entries.size();
    }
  }
  return dictionaries;
}

nlohmann::json fixed_weights_json(const SoftmaxModel& model) {
  nlohmann::json fixed_weights = nlohmann::json::object();
  for (size_t i = 0; i < model.fixed.size(); ++i) fixed_weights[fixed_feature_name(static_cast<int>(i))] = model.fixed[i];
  return fixed_weights;
}

void write_feature_set_header(const SoftmaxModel& model, nlohmann::json& header) {
  header["feature_set"] = std::string(feature_set_name(model.feature_set));
  if (model.feature_set == FeatureSet::kStrategic) {
    header["strategic_families"] = strategic_families_string(model.strategic_families);
  }
}

std::string read_feature_set_header(const nlohmann::json& h, SoftmaxModel& m) {
  const std::string set = h.value("feature_set", "");
  const auto parsed = parse_feature_set(set);
  if (!parsed) return "unknown feature set '" + set + "'";
  m.feature_set = *parsed;
  if (m.feature_set == FeatureSet::kStrategic) {
    const nlohmann::json fam = h.value("strategic_families", nlohmann::json());
    const auto families = fam.is_string() ? parse_strategic_families(fam.get<std::string>()) : std::nullopt;
    if (!families) return "strategic_families " + fam.dump() + " is not a list of strategic families";
    m.strategic_families = *families;
  }
  return "";
}

absl::Status save_softmax_model(const SoftmaxModel& model, const std::string& path) {
  PayloadWriter w;
  const nlohmann::json dictionaries = write_softmax_payload(model, w);
  nlohmann::json header = {
      {"kind", "softmax"},
      {"feature_version", kSoftmaxFeatureVersion},
      {"pattern_version", kPatternVersion},
      {"board_size", 19},
      {"dictionaries", dictionaries},
      {"fixed_weights", fixed_weights_json(model)},
      {"training", model.training},
  };
  write_feature_set_header(model, header);
  return write_model_file(path, header, w.bytes());
}

std::string read_softmax_payload(PayloadReader& r, SoftmaxModel& m) {
  const std::string set(feature_set_name(m.feature_set));
  const uint32_t num_fixed = r.u32();
  // A strategic model from before the opponent family has its 157 weights and no such family
  // (its "all" meant the five before it): read as it was trained.
  const bool before_opponent =
      m.feature_set == FeatureSet::kStrategic && num_fixed == fixed_feature::kNumStrategicBeforeOpponent;
  if (!r.ok() || (static_cast<int>(num_fixed) != num_fixed_features(m.feature_set) && !before_opponent)) {
    return "corrupt payload: " + std::to_string(num_fixed) + " fixed weights, the " + set + " feature set has " +
           std::to_string(num_fixed_features(m.feature_set));
  }
  if (before_opponent) {
    m.strategic_families &= static_cast<StrategicFamilies>(~(1u << static_cast<int>(StrategicFamily::kOpponent)));
  }
  m.fixed.resize(num_fixed);
  for (float& f : m.fixed) f = r.f32();
  for (int k = 0; k < kNumPatternKinds; ++k) {
    const uint64_t n = r.u64();
    if (!r.ok() || n > r.remaining() / 12) return "corrupt payload: bad dictionary size at byte " + std::to_string(r.offset());
    if (n > 0 && !uses_pattern_kind(m.feature_set, static_cast<PatternKind>(k))) {
      return "corrupt payload: " + std::string(pattern_kind_name(static_cast<PatternKind>(k))) + " patterns in a " +
             set + " model";
    }
    auto& map = m.patterns[k];
    map.reserve(n);
    uint64_t previous = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t key = r.u64();
      const float weight = r.f32();
      if (i > 0 && key <= previous) return "corrupt payload: keys out of order at byte " + std::to_string(r.offset());
      if (!std::isfinite(weight)) return "corrupt payload: weight not finite at byte " + std::to_string(r.offset());
      previous = key;
      map.emplace(key, weight);
    }
  }
  if (!r.ok()) return "corrupt payload at byte " + std::to_string(r.offset());
  for (float f : m.fixed) {
    if (!std::isfinite(f)) return "corrupt payload: a fixed weight is not finite";
  }
  return "";
}

absl::StatusOr<SoftmaxModel> softmax_model_from_file(const ModelFile& file, const std::string& path) {
  const nlohmann::json& h = file.header;
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  if (h.value("kind", "") != "softmax") return fail("not a softmax model");
  const nlohmann::json fv = h.value("feature_version", nlohmann::json());
  const nlohmann::json pv = h.value("pattern_version", nlohmann::json());
  if (fv != nlohmann::json(kSoftmaxFeatureVersion) || pv != nlohmann::json(kPatternVersion)) {
    return fail("softmax feature version " + fv.dump() + " / pattern version " + pv.dump() +
                " do not match this hane's " + std::to_string(kSoftmaxFeatureVersion) + " / " +
                std::to_string(kPatternVersion) + ": retrain the model");
  }
  SoftmaxModel m;
  if (std::string why = read_feature_set_header(h, m); !why.empty()) return fail(why);
  m.training = h.value("training", nlohmann::json::object());
  PayloadReader r(file.payload);
  if (std::string why = read_softmax_payload(r, m); !why.empty()) return fail(why);
  if (r.remaining() != 0) return fail("corrupt payload at byte " + std::to_string(r.offset()));
  return m;
}

void softmax_in_place(std::span<float> scores) {
  if (scores.empty()) return;
  const float max = *std::max_element(scores.begin(), scores.end());
  float sum = 0;
  for (float& s : scores) {
    s = std::exp(s - max);
    sum += s;
  }
  const float inv = 1.0f / sum;
  for (float& s : scores) s *= inv;
}

std::string SoftmaxGuesser::name() const { return "softmax " + std::string(feature_set_name(model_->feature_set)); }

void SoftmaxGuesser::score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) {
  const Board& b = *position.board;
  states_.fill(b);
  if (model_->feature_set == FeatureSet::kStrategic) strategic_.set_position(position);
  CandidateFeatures f;
  const int stride = b.stride();
  for (size_t i = 0; i < candidates.size(); ++i) {
    candidate_features(model_->feature_set, position, candidates[i], states_.diamond_code(candidates[i], stride), &states_, &f,
                       &strategic_);
    out[i] = scorer_.score(f);
  }
  softmax_in_place(out);
}

std::string SoftmaxGuesser::explain(const Position& position, Vertex move) {
  const Board& b = *position.board;
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, position.to_move, moves));
  std::vector<float> p(moves.size());
  score(position, moves, p);  // fills states_ and strategic_
  const auto it = std::find(moves.begin(), moves.end(), move);
  if (it == moves.end()) return "not a legal move";
  CandidateFeatures f;
  candidate_features(model_->feature_set, position, move, states_.diamond_code(move, b.stride()), &states_, &f,
                     &strategic_);
  std::vector<std::pair<float, std::string>> parts;
  for (int i = 0; i < f.num_fixed; ++i) parts.emplace_back(model_->fixed[f.fixed[i]], fixed_feature_name(f.fixed[i]));
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (!f.has_key(static_cast<PatternKind>(k))) continue;
    const auto w = model_->patterns[k].find(f.keys[k]);
    parts.emplace_back(w != model_->patterns[k].end() ? w->second : 0.0f,
                       std::string(pattern_kind_name(static_cast<PatternKind>(k))) + " pattern" +
                           (w != model_->patterns[k].end() ? "" : " (unseen)"));
  }
  std::sort(parts.begin(), parts.end(), [](const auto& x, const auto& y) { return std::abs(x.first) > std::abs(y.first); });
  char buf[64];
  std::snprintf(buf, sizeof buf, "p = %.1f%%", 100.0 * p[it - moves.begin()]);
  std::string out = buf;
  for (size_t i = 0; i < parts.size() && i < 3; ++i) {
    std::snprintf(buf, sizeof buf, " %+.2f", parts[i].first);
    out += (i == 0 ? ": " : ", ") + parts[i].second + buf;
  }
  return out;
}

nlohmann::json SoftmaxGuesser::info() const {
  nlohmann::json dictionaries = nlohmann::json::object();
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (uses_pattern_kind(model_->feature_set, static_cast<PatternKind>(k))) {
      dictionaries[std::string(pattern_kind_name(static_cast<PatternKind>(k)))] = model_->patterns[k].size();
    }
  }
  nlohmann::json info = {{"kind", "softmax"},
                         {"feature_version", kSoftmaxFeatureVersion},
                         {"pattern_version", kPatternVersion},
                         {"dictionaries", dictionaries},
                         {"training", model_->training}};
  write_feature_set_header(*model_, info);
  return info;
}

}  // namespace hane
