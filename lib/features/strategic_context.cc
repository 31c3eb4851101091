#include "features/strategic_context.h"

#include <algorithm>
#include <array>

#include "absl/strings/str_split.h"

namespace hane {

std::string_view strategic_family_name(StrategicFamily f) {
  switch (f) {
    case StrategicFamily::kClass: return "class";
    case StrategicFamily::kInfluence: return "influence";
    case StrategicFamily::kKind: return "kind";
    case StrategicFamily::kNearest: return "nearest";
    case StrategicFamily::kPhase: return "phase";
    case StrategicFamily::kOpponent: return "opponent";
  }
  return "?";
}

std::optional<StrategicFamilies> parse_strategic_families(std::string_view text) {
  if (text == "all") return kAllStrategicFamilies;
  if (text == "none") return StrategicFamilies{0};
  StrategicFamilies set = 0;
  // Every piece must name a family: an empty one ("", "class,", "a,,b") is refused.
  for (const absl::string_view piece : absl::StrSplit(absl::string_view(text.data(), text.size()), ',')) {
    const std::string_view name(piece.data(), piece.size());
    int found = -1;
    for (int f = 0; f < kNumStrategicFamilies; ++f) {
      if (name == strategic_family_name(static_cast<StrategicFamily>(f))) found = f;
    }
    if (found < 0) return std::nullopt;
    set |= static_cast<StrategicFamilies>(1u << found);
  }
  return set;
}

std::string strategic_families_string(StrategicFamilies set) {
  if (set == kAllStrategicFamilies) return "all";
  if (set == 0) return "none";
  std::string out;
  for (int f = 0; f < kNumStrategicFamilies; ++f) {
    if (!has_family(set, static_cast<StrategicFamily>(f))) continue;
    if (!out.empty()) out += ',';
    out += strategic_family_name(static_cast<StrategicFamily>(f));
  }
  return out;
}

int influence_bin(float influence) {
  if (influence <= 0.0f) return 0;
  if (influence < 1.0f) return 1;
  if (influence < 2.0f) return 2;
  if (influence < 4.0f) return 3;
  if (influence < 8.0f) return 4;
  return 5;
}

int nearest_bin(int distance) {
  if (distance >= kNearestNone) return kNearestBins - 1;
  return std::clamp(distance, 1, 8) - 1;
}

int phase_bin(int move_number) { return std::clamp((move_number - 1) / 30, 0, kPhaseBins - 1); }

void nearest_stone_distances(const Board& board, Color c, std::array<uint8_t, Board::kMaxVertices>& out) {
  const Geometry& g = board.geometry();
  const int n = g.size;
  constexpr int kFar = kNearestNone;
  out.fill(kFar);
  bool any = false;
  // Forward pass: from the stones above and to the left; backward: below and to the right.
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const Vertex v = g.at(x, y);
      int d = kFar;
      if (board.color(v) == c) {
        d = 0;
        any = true;
      } else {
        if (x > 0) d = std::min(d, out[static_cast<size_t>(g.at(x - 1, y).index())] + 1);
        if (y > 0) d = std::min(d, out[static_cast<size_t>(g.at(x, y - 1).index())] + 1);
      }
      out[static_cast<size_t>(v.index())] = static_cast<uint8_t>(std::min(d, kFar));
    }
  }
  if (!any) return;  // every point stays kNearestNone
  for (int y = n - 1; y >= 0; --y) {
    for (int x = n - 1; x >= 0; --x) {
      const size_t i = static_cast<size_t>(g.at(x, y).index());
      int d = out[i];
      if (x + 1 < n) d = std::min(d, out[static_cast<size_t>(g.at(x + 1, y).index())] + 1);
      if (y + 1 < n) d = std::min(d, out[static_cast<size_t>(g.at(x, y + 1).index())] + 1);
      out[i] = static_cast<uint8_t>(d);
    }
  }
}

void StrategicContext::set_position(const Position& p) {
  const Board& b = *p.board;
  move_number_ = p.move_number;
  const bool classes = has_family(families_, StrategicFamily::kClass) || has_family(families_, StrategicFamily::kKind);
  if (classes || has_family(families_, StrategicFamily::kInfluence)) {
    const PointSet dead = dead_stones_by_tactics(b, p.to_move);
    if (classes) {
      board_maps(b, &dead, maps_);
    } else {
      distance_influence(b, &dead, maps_.influence);  // the influence alone: no Bouzy operators
    }
  }
  if (has_family(families_, StrategicFamily::kNearest)) {
    nearest_stone_distances(b, Color::kBlack, nearest_black_);
    nearest_stone_distances(b, Color::kWhite, nearest_white_);
  }
}

}  // namespace hane
