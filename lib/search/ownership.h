// Dead stones, seki and the final score from ownership over playouts. Internal to lib/search
// (Search::estimate_end is the public entry); exposed for tests.
#pragma once

#include <span>
#include <vector>

#include "go/board.h"
#include "search/search.h"

namespace hane {

/// The colour that owns `v` at the end of a playout: a stone's colour, or the colour of an empty
/// point whose four neighbours are that colour or wall; kEmpty otherwise (neutral).
inline Color area_owner(const Board& board, Vertex v) {
  const Color c = board.color(v);
  if (c != Color::kEmpty) return c;
  if (board.neighbours_or_wall(v, Color::kBlack) == 4) return Color::kBlack;
  if (board.neighbours_or_wall(v, Color::kWhite) == 4) return Color::kWhite;
  return Color::kEmpty;
}

/// Adds the owner of every board point at the end of a playout to `sum` (per Vertex::index()):
/// +1 for a Black stone or an empty point whose four neighbours are Black or wall, −1 likewise
/// for White, 0 otherwise (after a playout to two passes, the empty points are eyes or dame).
void add_ownership(const Board& board, std::span<int32_t> sum);

/// The status of every stone from the mean `ownership` (+1 Black .. −1 White, per
/// Vertex::index()), by the rule documented at EndEstimate::status.
std::vector<PointStatus> classify_stones(const Board& board, std::span<const float> ownership);

/// Fills area_margin and territory_margin of `estimate` (whose status is set) for `board`.
void score_end(const Board& board, double komi, EndEstimate& estimate);

}  // namespace hane
