#include "predict/gamma.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>

#include "features/pattern.h"
#include "features/tactics.h"

namespace hane {

namespace {

constexpr std::array<std::string_view, kNumGammaGroups> kGroupNames = {
    "capture", "escape", "self_atari", "atari", "distance", "distance2", "nakade"};

// True if `c` playing `v` saves (by extending or by capturing next to it) a chain of `c` in
// atari that touches `last`.
bool response_save(const Board& b, Vertex v, Color c, Vertex last) {
  const Color opp = opponent(c);
  for (Vertex n : b.neighbours(last)) {
    if (b.color(n) != c || b.liberties(n) != 1) continue;
    if (b.first_liberty(n) == v) return true;
    const Vertex head = b.chain_head(n);
    for (Vertex m : b.neighbours(v)) {
      if (b.color(m) != opp || b.liberties(m) != 1) continue;
      Vertex s = m;
      do {
        for (Vertex u : b.neighbours(s)) {
          if (b.color(u) == c && b.chain_head(u) == head) return true;
        }
        s = b.next_in_chain(s);
      } while (s != m);
    }
  }
  return false;
}

int distance_value(const Geometry& g, Vertex v, Vertex move) {
  if (!move.is_point()) return 0;
  const int d = move_distance(g, v, move);
  return d >= 2 && d <= 4 ? d - 1 : 0;
}

}  // namespace

std::string_view gamma_group_name(int group) { return kGroupNames[group]; }

GammaFeatures gamma_features(const Position& p, Vertex v, uint32_t raw3x3) {
  const Board& b = *p.board;
  const Color c = p.to_move;
  GammaFeatures f;
  f.pattern = static_cast<uint32_t>(canonical(raw3x3, PatternShape::k3x3));
  const MoveFacts m = move_facts(b, v, c);
  const Vertex last = p.last_move;
  const bool last_stone = last.is_point() && b.is_stone(last);
  if (m.capture_size > 0) {
    if (last_stone && b.color(last) == opponent(c) && b.liberties(last) == 1 && b.first_liberty(last) == v) {
      f.flag[kGammaCapture] = 3;
    } else {
      f.flag[kGammaCapture] = m.capture_size == 1 ? 1 : 2;
    }
  }
  if (m.saved_stones > 0) {
    if (last_stone && response_save(b, v, c, last)) {
      f.flag[kGammaEscape] = ladder_escape(b, v, c) ? 3 : 4;
    } else {
      f.flag[kGammaEscape] = m.liberties <= 2 ? 1 : 2;
    }
  }
  if (m.self_atari) f.flag[kGammaSelfAtari] = m.capture_size > 0 ? 3 : m.chain_size <= 2 ? 1 : 2;
  if (m.atari_chains > 0) f.flag[kGammaAtari] = m.atari_stones <= 2 ? 1 : 2;
  f.flag[kGammaDistance] = static_cast<uint8_t>(distance_value(b.geometry(), v, last));
  f.flag[kGammaDistance2] = static_cast<uint8_t>(distance_value(b.geometry(), v, p.second_last_move));
  if (m.nakade_size > 0) f.flag[kGammaNakade] = m.nakade_own ? 2 : 1;
  return f;
}

void gamma_context(const Position& p, std::vector<int16_t>& out) {
  const Board& b = *p.board;
  const int stride = b.stride();
  for (Vertex center : {p.last_move, p.second_last_move}) {
    if (!center.is_point()) continue;
    for (const PatternOffset& o : kPatternOffsets) {
      const int x = center.index() + o.dy * stride + o.dx;
      if (b.color(Vertex(x)) != Color::kWall) out.push_back(static_cast<int16_t>(x));
    }
  }
  gamma_response_points(p, out);
}

void gamma_response_points(const Position& p, std::vector<int16_t>& out) {
  const Board& b = *p.board;
  const Vertex last = p.last_move;
  if (!last.is_point() || !b.is_stone(last)) return;
  if (b.liberties(last) == 1) out.push_back(static_cast<int16_t>(b.first_liberty(last).index()));
  const Color c = p.to_move, opp = opponent(c);
  for (Vertex n : b.neighbours(last)) {
    if (b.color(n) != c || b.liberties(n) != 1) continue;
    out.push_back(static_cast<int16_t>(b.first_liberty(n).index()));
    Vertex s = n;
    do {
      for (Vertex u : b.neighbours(s)) {
        if (b.color(u) == opp && b.liberties(u) == 1) out.push_back(static_cast<int16_t>(b.first_liberty(u).index()));
      }
      s = b.next_in_chain(s);
    } while (s != n);
  }
}

int GammaModel::num_flag_weights() {
  int n = 0;
  for (int k : kGammaGroupValues) n += k - 1;
  return n;
}

GammaModel GammaModel::uniform(std::vector<uint32_t> codes) {
  GammaModel m;
  std::sort(codes.begin(), codes.end());
  codes.erase(std::unique(codes.begin(), codes.end()), codes.end());
  m.pattern_codes = std::move(codes);
  m.gammas.assign(m.pattern_codes.size() + 1 + num_flag_weights(), 1.0f);
  m.index();
  return m;
}

namespace {
size_t home(uint32_t key, uint32_t mask) { return (static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ull >> 32) & mask; }
}  // namespace

void GammaModel::index() {
  size_t capacity = 16;
  while (capacity < pattern_codes.size() * 2) capacity *= 2;
  mask_ = static_cast<uint32_t>(capacity - 1);
  slot_key_.assign(capacity, 0);
  slot_index_.assign(capacity, 0);
  for (size_t i = 0; i < pattern_codes.size(); ++i) {
    size_t s = home(pattern_codes[i], mask_);
    while (slot_key_[s]) s = (s + 1) & mask_;
    slot_key_[s] = pattern_codes[i] + 1;
    slot_index_[s] = static_cast<int32_t>(i);
  }
}

int GammaModel::pattern_index(uint32_t code) const {
  // Canonical 3x3 codes use 32 bits but never all ones (a wall ring), so key + 1 never wraps to 0.
  for (size_t s = home(code, mask_);; s = (s + 1) & mask_) {
    if (slot_key_[s] == code + 1) return slot_index_[s];
    if (slot_key_[s] == 0) return num_patterns();
  }
}

std::string GammaModel::weight_name(int i) const {
  if (i < num_patterns()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "pattern %08x", pattern_codes[i]);
    return buf;
  }
  if (i == num_patterns()) return "pattern other";
  int k = i - num_patterns() - 1;
  for (int g = 0; g < kNumGammaGroups; ++g) {
    if (k < kGammaGroupValues[g] - 1) return std::string(kGroupNames[g]) + "=" + std::to_string(k + 1);
    k -= kGammaGroupValues[g] - 1;
  }
  return "?";
}

absl::Status save_gamma_model(const GammaModel& model, const std::string& path) {
  PayloadWriter w;
  w.u32(static_cast<uint32_t>(model.pattern_codes.size()));
  for (uint32_t c : model.pattern_codes) w.u32(c);
  w.u32(static_cast<uint32_t>(model.gammas.size()));
  for (float g : model.gammas) w.f32(g);
  nlohmann::json flags = nlohmann::json::object();
  for (int i = model.num_patterns(); i < model.num_weights(); ++i) flags[model.weight_name(i)] = model.gammas[i];
  const nlohmann::json header = {
      {"kind", "gamma"},
      {"feature_version", kGammaFeatureVersion},
      {"pattern_version", kPatternVersion},
      {"board_size", 19},
      {"patterns", model.pattern_codes.size()},
      {"flag_gammas", flags},
      {"training", model.training},
  };
  return write_model_file(path, header, w.bytes());
}

absl::StatusOr<GammaModel> gamma_model_from_file(const ModelFile& file, const std::string& path) {
  const nlohmann::json& h = file.header;
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  if (h.value("kind", "") != "gamma") return fail("not a gamma model");
  const nlohmann::json fv = h.value("feature_version", nlohmann::json());
  const nlohmann::json pv = h.value("pattern_version", nlohmann::json());
  if (fv != nlohmann::json(kGammaFeatureVersion) || pv != nlohmann::json(kPatternVersion)) {
    return fail("gamma feature version " + fv.dump() + " / pattern version " + pv.dump() + " do not match this hane's " +
                std::to_string(kGammaFeatureVersion) + " / " + std::to_string(kPatternVersion) + ": retrain the model");
  }
  GammaModel m;
  m.training = h.value("training", nlohmann::json::object());
  PayloadReader r(file.payload);
  const uint32_t n = r.u32();
  if (!r.ok() || n > r.remaining() / 4) return fail("corrupt payload: bad pattern count at byte 0");
  m.pattern_codes.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    m.pattern_codes[i] = r.u32();
    if (i > 0 && m.pattern_codes[i] <= m.pattern_codes[i - 1]) {
      return fail("corrupt payload: pattern codes out of order at byte " + std::to_string(r.offset()));
    }
  }
  const uint32_t k = r.u32();
  if (!r.ok() || k != n + 1 + static_cast<uint32_t>(GammaModel::num_flag_weights())) {
    return fail("corrupt payload: " + std::to_string(k) + " gammas for " + std::to_string(n) + " patterns (expected " +
                std::to_string(n + 1 + GammaModel::num_flag_weights()) + ")");
  }
  m.gammas.resize(k);
  for (float& g : m.gammas) {
    g = r.f32();
    if (r.ok() && !(std::isfinite(g) && g > 0)) return fail("corrupt payload: a gamma not positive and finite at byte " + std::to_string(r.offset()));
  }
  if (!r.ok() || r.remaining() != 0) return fail("corrupt payload at byte " + std::to_string(r.offset()));
  m.index();
  return m;
}

void GammaGuesser::score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) {
  double sum = 0;
  std::vector<double> s(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    const Vertex v = candidates[i];
    const uint32_t raw = static_cast<uint32_t>(pattern_code(*position.board, v, position.to_move, PatternShape::k3x3));
    s[i] = model_->strength(gamma_features(position, v, raw));
    sum += s[i];
  }
  for (size_t i = 0; i < candidates.size(); ++i) out[i] = static_cast<float>(s[i] / sum);
}

nlohmann::json GammaGuesser::info() const {
  return {{"kind", "gamma"},
          {"feature_version", kGammaFeatureVersion},
          {"pattern_version", kPatternVersion},
          {"patterns", model_->pattern_codes.size()},
          {"training", model_->training}};
}

}  // namespace hane
