// MoGo's 3x3 patterns (S. Gelly, Y. Wang, R. Munos, O. Teytaud, "Modification of UCT with
// Patterns in Monte-Carlo Go", INRIA RR-6062, 2006, figures 2-4: hane, cut and edge shapes), as
// Pachi's moggy writes them but without its atari refinements: a table over the colours of a
// point's 8 neighbours, in all 8 symmetries and for both colours to move. The `rules` playout
// policy plays them around the last move (playout/rules.h).
#pragma once

#include <array>
#include <cstdint>

#include "go/board.h"

namespace hane {

/// The colours (Color values, wall included) of the 8 neighbours of `v` in reading order (NW N
/// NE W E SW S SE), 2 bits each, neighbour i at bits 2i: a key of mogo3x3_table().
inline uint32_t neighbour_colours(const Board& board, Vertex v) {
  const int i = v.index(), s = board.stride();
  const int offsets[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
  uint32_t key = 0;
  for (int k = 0; k < 8; ++k) key |= static_cast<uint32_t>(board.color(Vertex(i + offsets[k]))) << (2 * k);
  return key;
}

/// Per neighbour_colours() key: bit 0 set if the empty centre is a MoGo pattern move for Black,
/// bit 1 for White. Built on first use; thread-safe.
using Mogo3x3Table = std::array<uint8_t, 1 << 16>;
const Mogo3x3Table& mogo3x3_table();

/// True if `c` to move at the empty point `v` matches one of the patterns.
bool mogo3x3_matches(const Board& board, Vertex v, Color c);

}  // namespace hane
