// Scoring and unconditional life.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "go/board.h"

namespace hane {

/// Points of each colour; margin() is Black minus White minus komi, in points.
struct Score {
  int black = 0;
  int white = 0;
  double margin(double komi) const { return black - white - komi; }
};

/// Area scoring as in the Tromp-Taylor rules: a player's stones plus the empty points that
/// reach only that player's stones. All stones on the board count as alive.
Score area_score(const Board& board);

/// Territory scoring (Japanese-style counting): empty regions bordered by one colour only,
/// once `dead` stones are removed, plus prisoners (stones captured during the game and the dead
/// stones). Dead stones' points count as territory of the surrounding colour. Seki is not
/// detected: an eye shared by both colours is neutral, an eye of one chain in seki counts.
Score territory_score(const Board& board, std::span<const Vertex> dead);

/// Benson's algorithm (D. B. Benson, "Life in the Game of Go", Information Sciences 10, 1976):
/// for each vertex index, true where a stone belongs to a chain of its colour that is
/// unconditionally alive (cannot be captured even if its owner always passes). Indexed by
/// Vertex::index(), size Geometry::num_vertices().
std::vector<bool> benson_alive(const Board& board);

}  // namespace hane
