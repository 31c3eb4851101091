#include "features/radius3.h"

#include "util/hash.h"

namespace hane {

void BoardStates::fill(const Board& board) {
  const int n = board.geometry().num_vertices();
  for (int i = 0; i < n; ++i) at[i] = point_state_for_black(board, Vertex(i));
}

uint64_t BoardStates::diamond_code(Vertex v, int stride) const {
  uint64_t code = 0;
  for (int i = 0; i < kMaxPatternPoints; ++i) {
    code |= uint64_t{at[v.index() + kPatternOffsets[i].dy * stride + kPatternOffsets[i].dx]} << (4 * i);
  }
  return code;
}

uint64_t BoardStates::ring3_code(Vertex v, int stride) const {
  uint64_t code = 0;
  for (int i = 0; i < 12; ++i) {
    code |= uint64_t{at[v.index() + kRing3Offsets[i].dy * stride + kRing3Offsets[i].dx]} << (4 * i);
  }
  return code;
}

namespace {

// Mirror x -> -x of a ring-3 code: every lane swaps its nibbles 1 and 3 (the straight ring
// like lane 0 of the diamond; ring A point i goes to ring B point sigma(i) with sigma the same
// swap), then rings A and B (lanes 1 and 2) exchange.
constexpr uint64_t mirror_ring3(uint64_t x) {
  const uint64_t swapped = (x & 0x0F0F'0F0F'0F0Full) | ((x & 0x00F0'00F0'00F0ull) << 8) | ((x & 0xF000'F000'F000ull) >> 8);
  return (swapped & 0xFFFFull) | ((swapped & 0xFFFF'0000ull) << 16) | ((swapped & 0xFFFF'0000'0000ull) >> 16);
}

}  // namespace

uint64_t ring3_apply_symmetry(uint64_t ring3, int s) {
  // Rotation by 90 degrees clockwise as drawn, (x, y) -> (-y, x), and the mirror x -> -x,
  // applied to the offsets themselves.
  uint64_t out = 0;
  for (int i = 0; i < 12; ++i) {
    int x = kRing3Offsets[i].dx, y = kRing3Offsets[i].dy;
    if (s >= 4) x = -x;
    for (int r = 0; r < s % 4; ++r) {
      const int nx = -y, ny = x;
      x = nx;
      y = ny;
    }
    for (int j = 0; j < 12; ++j) {
      if (kRing3Offsets[j].dx == x && kRing3Offsets[j].dy == y) out |= ((ring3 >> (4 * i)) & 0xF) << (4 * j);
    }
  }
  return out;
}

uint64_t radius3_key(uint64_t diamond12, uint64_t ring3) {
  using pattern_detail::mirror;
  using pattern_detail::rotate;
  uint64_t a = diamond12 & 0xFFFF'FFFF'FFFFull, b = ring3 & 0xFFFF'FFFF'FFFFull;
  uint64_t best_a = a, best_b = b;
  auto consider = [&](uint64_t ca, uint64_t cb) {
    if (cb < best_b || (cb == best_b && ca < best_a)) best_a = ca, best_b = cb;
  };
  for (int m = 0; m < 2; ++m) {
    for (int r = 0; r < 4; ++r) {
      if (m || r) consider(a, b);
      a = rotate(a);
      b = rotate(b);
    }
    a = mirror(a);
    b = mirror_ring3(b);
  }
  return splitmix64(best_a ^ splitmix64(best_b));
}

}  // namespace hane
