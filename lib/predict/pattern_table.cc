#include "predict/pattern_table.h"

#include <cstdio>

namespace hane {

float PatternTable::score(uint64_t raw) const {
  if (shape == PatternShape::kDiamond12) {
    if (auto it = ratio_diamond.find(canonical(raw, PatternShape::kDiamond12)); it != ratio_diamond.end()) {
      return it->second;
    }
  }
  const auto it = ratio3x3.find(canonical(shrink(raw, PatternShape::k3x3), PatternShape::k3x3));
  return it != ratio3x3.end() ? it->second : static_cast<float>(overall_ratio);
}

absl::Status save_pattern_table(const PatternTable& table, const std::string& path) {
  PayloadWriter w;
  w.f64(table.overall_ratio);
  w.u64(table.ratio3x3.size());
  for (const auto& [code, r] : table.ratio3x3) {
    w.u64(code);
    w.f32(r);
  }
  w.u64(table.ratio_diamond.size());
  for (const auto& [code, r] : table.ratio_diamond) {
    w.u64(code);
    w.f32(r);
  }
  nlohmann::json header = {
      {"kind", "pattern-table"},
      {"feature_version", kPatternVersion},
      {"board_size", 19},
      {"pattern_shape", std::string(pattern_shape_name(table.shape))},
      {"prior_strength", table.prior_strength},
      {"training", table.training},
  };
  return write_model_file(path, header, w.bytes());
}

absl::StatusOr<PatternTable> pattern_table_from_file(const ModelFile& file, const std::string& path) {
  const nlohmann::json& h = file.header;
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  if (h.value("kind", "") != "pattern-table") return fail("not a pattern-table model");
  if (h.value("feature_version", -1) != kPatternVersion) {
    return fail("pattern version " + h.value("feature_version", nlohmann::json()).dump() +
                " does not match this hane's version " + std::to_string(kPatternVersion) + ": retrain the model");
  }
  PatternTable t;
  const std::string shape = h.value("pattern_shape", "");
  if (shape == "3x3") {
    t.shape = PatternShape::k3x3;
  } else if (shape == "diamond12") {
    t.shape = PatternShape::kDiamond12;
  } else {
    return fail("unknown pattern shape '" + shape + "'");
  }
  t.prior_strength = h.value("prior_strength", 0.0);
  t.training = h.value("training", nlohmann::json::object());
  PayloadReader r(file.payload);
  t.overall_ratio = r.f64();
  for (auto* map : {&t.ratio3x3, &t.ratio_diamond}) {
    const uint64_t n = r.u64();
    if (!r.ok() || n > r.remaining() / 12) return fail("corrupt payload: bad table size at byte " + std::to_string(r.offset()));
    map->reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t code = r.u64();
      (*map)[code] = r.f32();
    }
  }
  if (!r.ok() || r.remaining() != 0) return fail("corrupt payload at byte " + std::to_string(r.offset()));
  return t;
}

std::string PatternTableGuesser::name() const {
  return std::string(pattern_shape_name(table_->shape)) + " table";
}

void PatternTableGuesser::score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) {
  const Board& b = *position.board;
  float sum = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const uint64_t raw = pattern_code(b, candidates[i], position.to_move,
                                      table_->shape == PatternShape::k3x3 ? PatternShape::k3x3 : PatternShape::kDiamond12);
    out[i] = table_->score(raw);
    sum += out[i];
  }
  if (sum > 0) {
    for (float& s : out) s /= sum;
  }
}

std::string PatternTableGuesser::explain(const Position& position, Vertex move) {
  const uint64_t raw = pattern_code(*position.board, move, position.to_move, PatternShape::kDiamond12);
  std::string which = "unseen pattern, all patterns";
  float ratio = static_cast<float>(table_->overall_ratio);
  const auto d = table_->shape == PatternShape::kDiamond12 ? table_->ratio_diamond.find(canonical(raw, PatternShape::kDiamond12))
                                                           : table_->ratio_diamond.end();
  if (d != table_->ratio_diamond.end()) {
    which = "diamond12 pattern,";
    ratio = d->second;
  } else if (auto t = table_->ratio3x3.find(canonical(shrink(raw, PatternShape::k3x3), PatternShape::k3x3));
             t != table_->ratio3x3.end()) {
    which = table_->shape == PatternShape::kDiamond12 ? "3x3 pattern (its diamond12 is rare)," : "3x3 pattern,";
    ratio = t->second;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, " played %.0f%% when seen", 100.0 * ratio);
  return which + buf;
}

nlohmann::json PatternTableGuesser::info() const {
  return {{"kind", "pattern-table"},
          {"pattern_shape", std::string(pattern_shape_name(table_->shape))},
          {"feature_version", kPatternVersion},
          {"patterns_3x3", table_->ratio3x3.size()},
          {"patterns_diamond12", table_->ratio_diamond.size()},
          {"training", table_->training}};
}

}  // namespace hane
