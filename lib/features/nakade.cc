// Nakade shapes and vital points (nakade.h).
#include "features/nakade.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>

#include "features/pattern.h"

namespace hane {

std::string_view eye_shape_name(EyeShape s) {
  switch (s) {
    case EyeShape::kNone: return "none";
    case EyeShape::kStraightThree: return "straight three";
    case EyeShape::kBentThree: return "bent three";
    case EyeShape::kPyramidFour: return "pyramid four";
    case EyeShape::kCrossedFive: return "crossed five";
    case EyeShape::kBulkyFive: return "bulky five";
    case EyeShape::kRabbitySix: return "rabbity six";
  }
  return "?";
}

std::optional<EyeSpace> nakade_shape(const Board& board, Vertex v) {
  if (!board.is_empty(v)) return std::nullopt;
  constexpr int kMax = 6;
  std::array<Vertex, kMax> pts;
  int n = 0;
  pts[n++] = v;
  Color owner = Color::kEmpty;
  for (int i = 0; i < n; ++i) {
    for (Vertex u : board.neighbours(pts[i])) {
      const Color cu = board.color(u);
      if (cu == Color::kEmpty) {
        if (std::find(pts.begin(), pts.begin() + n, u) != pts.begin() + n) continue;
        if (n == kMax) return std::nullopt;
        pts[n++] = u;
      } else if (cu != Color::kWall) {
        if (owner == Color::kEmpty) {
          owner = cu;
        } else if (owner != cu) {
          return std::nullopt;
        }
      }
    }
  }
  if (n < 3 || owner == Color::kEmpty) return std::nullopt;

  // Degrees inside the region and the number of adjacent pairs classify the shapes.
  std::array<int, kMax> degree{};
  int pairs2 = 0;
  for (int i = 0; i < n; ++i) {
    for (Vertex u : board.neighbours(pts[i])) {
      if (std::find(pts.begin(), pts.begin() + n, u) != pts.begin() + n) ++degree[i];
    }
    pairs2 += degree[i];
  }
  const int edges = pairs2 / 2;
  auto with_degree = [&](int d) {
    int found = -1;
    for (int i = 0; i < n; ++i) {
      if (degree[i] == d) {
        if (found >= 0) return -1;  // not unique
        found = i;
      }
    }
    return found;
  };
  EyeSpace eye;
  eye.size = n;
  eye.owner = owner;
  int vital = -1;
  if (n == 3) {
    vital = with_degree(2);  // every connected three is a path
    int ends[2], k = 0;
    for (int i = 0; i < n; ++i) {
      if (i != vital) ends[k++] = i;
    }
    const Geometry& g = board.geometry();
    const bool straight = g.x(pts[ends[0]]) == g.x(pts[ends[1]]) || g.y(pts[ends[0]]) == g.y(pts[ends[1]]);
    eye.shape = straight ? EyeShape::kStraightThree : EyeShape::kBentThree;
  } else if (n == 4) {
    vital = with_degree(3);  // only the T tetromino has a point of degree 3
    eye.shape = EyeShape::kPyramidFour;
  } else if (n == 5) {
    if (edges == 4 && (vital = with_degree(4)) >= 0) {
      eye.shape = EyeShape::kCrossedFive;
    } else if (edges == 5) {  // the P pentomino is the only one with a 2x2 block
      vital = with_degree(3);
      eye.shape = EyeShape::kBulkyFive;
    }
  } else if (n == 6) {
    // A plus with the sixth point on a diagonal of the centre touches two arms: 6 pairs.
    if (edges == 6 && (vital = with_degree(4)) >= 0) eye.shape = EyeShape::kRabbitySix;
  }
  if (vital < 0) return std::nullopt;
  eye.vital = pts[vital];
  return eye;
}

namespace {
// As move_facts(): a vital point has at least two empty neighbours, touches at most one
// colour, and each of its empty neighbours has at most two empty neighbours.
bool nakade_prefilter(const Board& board, Vertex v) {
  int empties = 0;
  bool black = false, white = false;
  for (Vertex n : board.neighbours(v)) {
    const Color c = board.color(n);
    if (c == Color::kEmpty) {
      ++empties;
      if (board.empty_neighbours(n) > 2) return false;
    }
    black |= c == Color::kBlack;
    white |= c == Color::kWhite;
  }
  return empties >= 2 && !(black && white);
}
}  // namespace

bool nakade_vital(const Board& board, Vertex v, int* size, Color* owner) {
  return nakade_prefilter(board, v) && nakade_vital_unfiltered(board, v, size, owner);
}

bool nakade_vital(const Board& board, Vertex v, uint64_t black_diamond, int* size, Color* owner) {
  return nakade_possible(black_diamond) && nakade_prefilter(board, v) && nakade_vital_unfiltered(board, v, size, owner);
}

bool nakade_vital_unfiltered(const Board& board, Vertex v, int* size, Color* owner) {
  const auto eye = nakade_shape(board, v);
  if (!eye || eye->vital != v) return false;
  *size = eye->size;
  *owner = eye->owner;
  return true;
}

namespace {
// Whether the centre is the vital point of the killing eye space made of the centre and the
// diamond points of `mask` (bit i: point i is empty), every other point within distance 3 a
// stone of one colour.
bool centre_is_vital(uint32_t mask) {
  const Geometry g(9);
  Board b(9);
  for (int dy = -3; dy <= 3; ++dy) {
    for (int dx = -3; dx <= 3; ++dx) {
      if (std::abs(dx) + std::abs(dy) > 3 || (dx == 0 && dy == 0)) continue;
      bool empty = false;
      for (int i = 0; i < kMaxPatternPoints; ++i) {
        if (kPatternOffsets[i].dx == dx && kPatternOffsets[i].dy == dy) empty = (mask >> i) & 1;
      }
      if (!empty) b.set_stone(g.at(4 + dx, 4 + dy), Color::kBlack);
    }
  }
  const auto eye = nakade_shape(b, g.at(4, 4));
  return eye && eye->vital == g.at(4, 4);
}
}  // namespace

bool nakade_possible(uint64_t diamond12) {
  // 0: not computed yet, 1: no, 2: yes. Filled in on first use of each mask (few masks
  // occur); threads that race compute the same value.
  static std::array<std::atomic<int8_t>, 4096> table{};
  // Bit 4i of `empty` is set iff nibble i is 0; then each 16-bit lane's 4 flags are packed.
  uint64_t t = diamond12 | (diamond12 >> 1);
  t |= t >> 2;
  const uint64_t empty = ~t & 0x1111'1111'1111ull;
  const uint64_t lanes = (empty | (empty >> 3) | (empty >> 6) | (empty >> 9)) & 0x000F'000F'000Full;
  const uint32_t mask = static_cast<uint32_t>((lanes & 0xF) | ((lanes >> 12) & 0xF0) | ((lanes >> 24) & 0xF00));
  int8_t known = table[mask].load(std::memory_order_relaxed);
  if (known == 0) {
    known = centre_is_vital(mask) ? 2 : 1;
    table[mask].store(known, std::memory_order_relaxed);
  }
  return known == 2;
}

}  // namespace hane
