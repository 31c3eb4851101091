#include "features/corner.h"

#include <algorithm>

#include "util/hash.h"

namespace hane {
namespace {

constexpr int kSide = kMaxCornerRegion;

// Zobrist numbers of the local points: [0] the side to move's stones, [1] the other side's,
// each indexed a · kSide + b. Fixed (a constant seed): dictionaries store the keys.
struct CornerZobrist {
  std::array<std::array<uint64_t, kSide * kSide>, 2> z{};
  constexpr CornerZobrist() {
    uint64_t state = 0x6A6F73656B69ull;  // any constant; another one needs a new kCornerKeyVersion
    for (auto& table : z) {
      for (uint64_t& v : table) v = splitmix64_next(state);
    }
  }
};
constexpr CornerZobrist kZobrist;

// Board coordinates of local (i, j) in `corner`.
constexpr int board_x(int size, int corner, int i) { return (corner & 1) ? size - 1 - i : i; }
constexpr int board_y(int size, int corner, int j) { return (corner & 2) ? size - 1 - j : j; }

CornerReading reading_of(uint64_t as_is, uint64_t transposed) {
  return as_is < transposed ? CornerReading::kAsIs : transposed < as_is ? CornerReading::kTransposed
                                                                         : CornerReading::kSymmetric;
}

}  // namespace

CornerPosition read_corner(const Board& board, int corner, int region) {
  const int size = board.size();
  // Hashes with Black to move (b) and White to move (w), as read (0) and transposed (1).
  uint64_t b0 = 0, b1 = 0, w0 = 0, w1 = 0;
  CornerPosition out;
  for (int j = 0; j < region; ++j) {
    const int y = board_y(size, corner, j);
    for (int i = 0; i < region; ++i) {
      const Color c = board.color(board.at(board_x(size, corner, i), y));
      if (!is_player(c)) continue;
      ++out.stones;
      const int mine = c == Color::kBlack ? 0 : 1;  // with Black to move
      const int ij = i * kSide + j, ji = j * kSide + i;
      b0 ^= kZobrist.z[mine][ij];
      b1 ^= kZobrist.z[mine][ji];
      w0 ^= kZobrist.z[1 - mine][ij];
      w1 ^= kZobrist.z[1 - mine][ji];
    }
  }
  out.key = {std::min(b0, b1), std::min(w0, w1)};
  out.reading = {reading_of(b0, b1), reading_of(w0, w1)};
  return out;
}

uint16_t corner_index(const Geometry& geometry, int corner, int region, CornerReading reading, Vertex move) {
  if (!geometry.on_board(move)) return kTenuki;
  const int size = geometry.size;
  const int i = board_x(size, corner, geometry.x(move));  // the map is its own inverse
  const int j = board_y(size, corner, geometry.y(move));
  if (i >= region || j >= region) return kTenuki;
  const int as_is = i * region + j, transposed = j * region + i;
  switch (reading) {
    case CornerReading::kAsIs: return static_cast<uint16_t>(as_is);
    case CornerReading::kTransposed: return static_cast<uint16_t>(transposed);
    case CornerReading::kSymmetric: break;
  }
  return static_cast<uint16_t>(std::min(as_is, transposed));
}

int corner_points(const Geometry& geometry, int corner, int region, CornerReading reading, uint16_t index,
                  std::array<Vertex, 2>& out) {
  const int a = index / region, b = index % region;
  const int size = geometry.size;
  auto point = [&](int i, int j) { return geometry.at(board_x(size, corner, i), board_y(size, corner, j)); };
  if (reading == CornerReading::kTransposed) {
    out[0] = point(b, a);
    return 1;
  }
  out[0] = point(a, b);
  if (reading == CornerReading::kAsIs || a == b) return 1;
  out[1] = point(b, a);
  return 2;
}

}  // namespace hane
