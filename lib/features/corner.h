// The corners of the board as a joseki dictionary sees them (predict/joseki.h): the local
// position in a square box at each corner, keyed the same in every corner and orientation, and
// the points of the box in a frame shared by all of them.
//
// Corner k of a size × size board (0 top left, 1 top right, 2 bottom left, 3 bottom right)
// reads the board in local coordinates (i, j): i the point's distance in lines from the
// corner's left or right edge, j from its top or bottom edge, both from 0. Its box is the
// points with i, j < region. Two of the 8 board symmetries map a corner onto any given corner,
// one the other's reflection in the corner's diagonal, which swaps i and j; so a local
// position has two readings, (i, j) and its transpose (j, i), and its key is the smaller of
// their Zobrist hashes. Colours are seen from the side to move: its stones are "mine", the
// others "theirs", so a position with Black to move and its colour-swapped twin with White to
// move have one key (joseki have no colour). Nothing outside the box, and no ko, is in a key.
//
// A point of the box has a local index a · region + b, (a, b) its local coordinates in the
// key's reading (transposed when the transposed hash was the smaller). When both readings hash
// the same, the position is symmetric in the diagonal and (a, b), (b, a) are the same move:
// the index is then the smaller of the two.
#pragma once

#include <array>
#include <cstdint>

#include "go/board.h"

namespace hane {

/// Changes whenever keys or local indices would come out differently (the Zobrist numbers,
/// the frame): dictionaries of another version must be retrained.
inline constexpr int kCornerKeyVersion = 1;
inline constexpr int kNumCorners = 4;
/// Box sides a key can have.
inline constexpr int kMinCornerRegion = 3;
inline constexpr int kMaxCornerRegion = 13;
/// The local index of a move outside the box (or a pass): a tenuki.
inline constexpr uint16_t kTenuki = 0xFFFF;

/// How a key reads its box.
enum class CornerReading : uint8_t {
  kAsIs,        // (i, j)
  kTransposed,  // (j, i)
  kSymmetric,   // both hash the same: either, a move and its mirror image are one
};

/// One corner's local position, for each side to move.
struct CornerPosition {
  /// Canonical key with Black (index 0) or White (index 1) to move.
  std::array<uint64_t, 2> key{};
  std::array<CornerReading, 2> reading{};
  /// Stones in the box.
  int stones = 0;
};

/// The index of `c` (Black or White) in CornerPosition's arrays.
constexpr int side_index(Color c) { return c == Color::kWhite ? 1 : 0; }

/// The local position of corner `corner` (0..3) of `board` in a box of `region` points a side
/// (kMinCornerRegion..kMaxCornerRegion, at most the board size; boxes overlap when region is
/// more than half the board). Reads region² points.
CornerPosition read_corner(const Board& board, int corner, int region);

/// The local index of `move` in corner `corner` under `reading` (see the top of this file), or
/// kTenuki when `move` is a pass or outside the box.
uint16_t corner_index(const Geometry& geometry, int corner, int region, CornerReading reading, Vertex move);

/// The board points of local index `index` (< region²) in corner `corner` under `reading`:
/// one point, or two for an off-diagonal index of a symmetric reading (the move and its mirror
/// image). Returns how many were written to `out`.
int corner_points(const Geometry& geometry, int corner, int region, CornerReading reading, uint16_t index,
                  std::array<Vertex, 2>& out);

}  // namespace hane
