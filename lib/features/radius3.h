// The 24-point pattern of Manhattan radius 3 (the diamond12 plus the 12 points at distance 3):
// point states of a whole board, the ring-3 code and the canonical radius-3 key. Used by the
// softmax tree feature set (predict/softmax_features.h) and, through kRadius3Offsets, by the
// decision tree's inputs (predict/tree_questions.h).
#pragma once

#include <array>
#include <cstdint>

#include "features/pattern.h"
#include "go/board.h"

namespace hane {

/// The point states of every index of a board for Black to move (point_state_for_black), so
/// that patterns of any radius up to Geometry::kPad read them without checks.
struct BoardStates {
  std::array<uint8_t, Board::kMaxVertices> at;
  void fill(const Board& board);
  /// The diamond12 code around on-board `v` for Black to move (as pattern_code / PatternTracker).
  uint64_t diamond_code(Vertex v, int stride) const;
  /// The 12 points at distance 3 around `v` for Black to move, as three 4-point lanes: the
  /// straight ring (0,-3) (3,0) (0,3) (-3,0), ring A (1,-2) (2,1) (-1,2) (-2,-1) and ring B
  /// (-1,-2) (2,-1) (1,2) (-2,1) (see features/pattern.h, "Extending to Manhattan radius 3").
  uint64_t ring3_code(Vertex v, int stride) const;
};

/// (dx, dy) of the 12 ring-3 points in ring3_code()'s order.
inline constexpr std::array<PatternOffset, 12> kRing3Offsets = {{
    {0, -3}, {3, 0}, {0, 3}, {-3, 0},
    {1, -2}, {2, 1}, {-1, 2}, {-2, -1},
    {-1, -2}, {2, -1}, {1, 2}, {-2, 1},
}};

/// The key of the radius-3 pattern (diamond12 code, ring-3 code), both for the same player:
/// the minimal (ring3, diamond12) pair over the 8 symmetries, mixed into 64 bits. Rotated and
/// mirrored copies share a key.
uint64_t radius3_key(uint64_t diamond12, uint64_t ring3);
/// The ring-3 code after symmetry s (0..7, as kPatternSymmetries): a reference implementation
/// for tests.
uint64_t ring3_apply_symmetry(uint64_t ring3, int s);

/// The 24 points within Manhattan distance 3: kPatternOffsets (distance 1, diagonals, distance 2
/// straight), then kRing3Offsets (distance 3 straight, then knight's-move rings A and B). In each
/// ring of four, rotating by 90 degrees moves point i to the next point of its ring.
inline constexpr int kRadius3Points = 24;
inline constexpr std::array<PatternOffset, kRadius3Points> kRadius3Offsets = [] {
  std::array<PatternOffset, kRadius3Points> a{};
  for (int i = 0; i < 12; ++i) a[i] = kPatternOffsets[i];
  for (int i = 0; i < 12; ++i) a[12 + i] = kRing3Offsets[i];
  return a;
}();

}  // namespace hane
