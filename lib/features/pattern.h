// Local patterns: the contents of the points around a candidate move, as a 64-bit code.
//
// Point state (4 bits, "nibble"), relative to the player to move:
//
//   bits 0-1  what is there: 0 empty, 1 own stone, 2 opponent stone, 3 off-board (wall)
//   bits 2-3  for stones, the liberties of the chain bucketed: 1, 2 or 3 (= 3 or more);
//             0 for empty points and walls
//
//   empty 0x0  wall 0x3  own 0x5 / 0x9 / 0xD  opponent 0x6 / 0xA / 0xE  (1 / 2 / 3+ liberties)
//
// With Black to move the low bits equal the Color enum value (kEmpty 0, kBlack 1, kWhite 2,
// kWall 3). Swapping the colours swaps bits 0 and 1 of every nibble (walls and empty points
// are unchanged), so White-to-move codes are swap_colors() of Black-to-move codes: three
// masks and two shifts on the whole code. (A chain with no liberty, which only SGF setup can
// leave, has bucket 0: nibble 0x1 / 0x2.)
//
// Shapes and point order. Offsets are (dx, dy): dx to the right, dy downwards (towards larger
// row numbers y, i.e. away from the top edge). Point i of a pattern is nibble i of the code
// (bits 4i..4i+3). The points come in rings of four, each ring a 16-bit "lane" ordered
// clockwise as drawn (north, east, south, west):
//
//   lane 0 (points 0-3):  N (0,-1)   E (1,0)    S (0,1)    W (-1,0)     distance 1
//   lane 1 (points 4-7):  NE (1,-1)  SE (1,1)   SW (-1,1)  NW (-1,-1)   diagonals
//   lane 2 (points 8-11): NN (0,-2)  EE (2,0)   SS (0,2)   WW (-2,0)    distance 2, straight
//
//   k3x3       = points 0-7  (the 8 neighbours; 32 bits)
//   kDiamond12 = points 0-11 (Manhattan distance 1..2; 48 bits)
//
// The smaller shape is a prefix of the larger: the 3x3 code is the low 32 bits of the
// diamond code (see shrink()). Rotating a pattern by 90 degrees rotates every lane by one
// nibble, and a mirror image permutes nibbles within lanes, so canonical() is a few dozen
// register operations.
//
// Extending to Manhattan radius 3 (24 points, 96 bits): the 12 points at distance 3 form three
// more rings of four under rotation: the straight points (0,-3), (3,0), (0,3), (-3,0), and the
// knight's-move points in two rings, A = (1,-2), (2,1), (-1,2), (-2,-1) and
// B = (-1,-2), (2,-1), (1,2), (-2,1) (each clockwise; the mirror x -> -x maps ring A onto ring B,
// reversed). Give them lanes 3, 4, 5 (points 12-23) and store the code as two 64-bit words:
// the diamond12 code as now and the ring-3 code in a second word. Rotation stays a per-lane
// nibble rotation on both words; the mirror additionally exchanges lanes 4 and 5. canonical()
// takes the minimum of the (high word, low word) pair over the 8 symmetries, and a 64-bit code
// (for tables) is a hash of the minimal pair (e.g. splitmix64 of one word xor the other,
// collisions measured and negligible), with kPatternVersion bumped. Because the point order is
// by rings, every smaller shape stays a prefix, and the incremental tracker's patch step (one
// xor per changed point and offset) extends unchanged to 24 offsets.
//
// The centre point itself, ko, and whether the move would be legal are not part of a pattern
// (tactical features cover them).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "go/board.h"
#include "go/color.h"
#include "go/vertex.h"

namespace hane {

/// Version of the pattern encoding. Model files record it; bump it whenever point states,
/// point order, shapes or canonical() change, so that stale tables are refused.
inline constexpr int kPatternVersion = 1;

enum class PatternShape : uint8_t {
  k3x3,        // the 8 neighbours (points 0-7)
  kDiamond12,  // the 12 points within Manhattan distance 2 (points 0-11)
};

/// "3x3" or "diamond12".
std::string_view pattern_shape_name(PatternShape shape);

/// Number of points in `shape` (8 or 12); the code uses 4 bits per point.
constexpr int pattern_points(PatternShape shape) { return shape == PatternShape::k3x3 ? 8 : 12; }
/// The bits `shape`'s codes may use: 0xFFFFFFFF (3x3) or 0xFFFFFFFFFFFF (diamond12).
constexpr uint64_t pattern_mask(PatternShape shape) {
  return shape == PatternShape::k3x3 ? 0xFFFF'FFFFull : 0xFFFF'FFFF'FFFFull;
}
/// The largest shape's number of points (all shapes are prefixes of it).
inline constexpr int kMaxPatternPoints = 12;

/// Point states (nibbles), see the top of this file.
namespace point_state {
inline constexpr uint8_t kEmpty = 0x0;
inline constexpr uint8_t kOwn = 0x1;       // | (liberty bucket << 2)
inline constexpr uint8_t kOpponent = 0x2;  // | (liberty bucket << 2)
inline constexpr uint8_t kWall = 0x3;
/// The state of a stone of `own` (true) or the opponent's with `liberties` liberties.
constexpr uint8_t stone(bool own, int liberties) {
  return static_cast<uint8_t>((own ? kOwn : kOpponent) | ((liberties < 3 ? liberties : 3) << 2));
}
}  // namespace point_state

/// (dx, dy) of pattern point i (dx right, dy down), in code order.
struct PatternOffset {
  int8_t dx;
  int8_t dy;
};
inline constexpr std::array<PatternOffset, kMaxPatternPoints> kPatternOffsets = {{
    {0, -1}, {1, 0}, {0, 1}, {-1, 0},    // N E S W
    {1, -1}, {1, 1}, {-1, 1}, {-1, -1},  // NE SE SW NW
    {0, -2}, {2, 0}, {0, 2}, {-2, 0},    // NN EE SS WW
}};

/// The 8 symmetries of the square as permutations of the pattern points:
/// kPatternSymmetries[s][i] = j means the symmetry moves the content of point i to point j.
/// s = 4 * m + r: first mirror (x -> -x) if m == 1, then rotate r times by 90 degrees
/// clockwise as drawn ((x, y) -> (-y, x)). s = 0 is the identity. Each permutation maps points
/// 0-7 onto 0-7, so its first 8 entries are the symmetry of the 3x3 shape.
inline constexpr std::array<std::array<uint8_t, kMaxPatternPoints>, 8> kPatternSymmetries = {{
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},   // identity
    {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8},   // rotate 90
    {2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9},   // rotate 180
    {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10},   // rotate 270
    {0, 3, 2, 1, 7, 6, 5, 4, 8, 11, 10, 9},   // mirror x -> -x
    {1, 0, 3, 2, 4, 7, 6, 5, 9, 8, 11, 10},   // mirror, rotate 90 (reflect in the NE-SW line)
    {2, 1, 0, 3, 5, 4, 7, 6, 10, 9, 8, 11},   // mirror, rotate 180 (mirror y -> -y)
    {3, 2, 1, 0, 6, 5, 4, 7, 11, 10, 9, 8},   // mirror, rotate 270 (reflect in the NW-SE line)
}};

/// The state (nibble) of point `v` for Black to move; `v` may be any index within distance
/// kPad of the board (off-board points read kWall).
inline uint8_t point_state_for_black(const Board& board, Vertex v) {
  const Color c = board.color(v);
  if (!is_player(c)) return static_cast<uint8_t>(c);
  const int libs = board.liberties(v);
  return static_cast<uint8_t>(static_cast<uint8_t>(c) | ((libs < 3 ? libs : 3) << 2));
}

/// Swaps own and opponent stones in a code of any shape: a Black-to-move code becomes the
/// White-to-move code of the same points and back.
constexpr uint64_t swap_colors(uint64_t code) {
  constexpr uint64_t kBit0 = 0x1111'1111'1111'1111ull;
  constexpr uint64_t kBit1 = kBit0 << 1;
  return (code & ~(kBit0 | kBit1)) | ((code & kBit0) << 1) | ((code & kBit1) >> 1);
}

/// The code of the smaller shape `shape` from a diamond12 code (its prefix).
constexpr uint64_t shrink(uint64_t diamond12_code, PatternShape shape) {
  return diamond12_code & pattern_mask(shape);
}

/// The raw code of `shape` around `v` for `to_move` (kBlack or kWhite) to play. `v` must be a
/// point on the board (it may be occupied: the centre is not part of the pattern).
uint64_t pattern_code(const Board& board, Vertex v, Color to_move, PatternShape shape);

/// The raw codes of `shape` for `to_move` at every empty point: out[i] is the code of
/// board.empty_points()[i]. `out.size()` must be at least board.empty_points().size().
/// One pass over the board's states, then 8 or 12 loads per empty point.
void pattern_codes(const Board& board, Color to_move, PatternShape shape, std::span<uint64_t> out);

/// The code of the same points after symmetry `s` (0..7) of kPatternSymmetries: nibble i
/// moves to nibble kPatternSymmetries[s][i]. A reference implementation (a loop over points).
uint64_t apply_symmetry(uint64_t code, PatternShape shape, int s);

namespace pattern_detail {
// Rotate 90 degrees clockwise: nibble i -> i + 1 within each 4-nibble lane.
constexpr uint64_t rotate(uint64_t x) {
  return ((x << 4) & 0xFFF0'FFF0'FFF0ull) | ((x >> 12) & 0x000F'000F'000Full);
}
// Mirror x -> -x: lanes 0 and 2 swap nibbles 1 and 3; lane 1 reverses its nibbles.
constexpr uint64_t mirror(uint64_t x) {
  return (x & 0x0F0F'0000'0F0Full) | ((x & 0x00F0'0000'00F0ull) << 8) |
         ((x & 0xF000'0000'F000ull) >> 8) | ((x & 0x000F'0000ull) << 12) |
         ((x & 0xF000'0000ull) >> 12) | ((x & 0x00F0'0000ull) << 4) | ((x & 0x0F00'0000ull) >> 4);
}
constexpr uint64_t min(uint64_t a, uint64_t b) { return a < b ? a : b; }
}  // namespace pattern_detail

/// The canonical code: the minimum of the raw code over the 8 symmetries of the square, so
/// that rotated and mirrored copies of a pattern share one code. Bits of `code` outside
/// pattern_mask(shape) are ignored, so canonical(diamond12_code, k3x3) is the canonical 3x3
/// code. Canonical codes keep the colour relativity of raw codes (colours are not swapped).
/// About 40 register operations (8 images by lane rotations and one mirror, then a minimum).
constexpr uint64_t canonical(uint64_t code, PatternShape shape) {
  using namespace pattern_detail;
  // Both shapes use the same lanes; a 3x3 code has lane 2 zero in every image.
  code &= pattern_mask(shape);
  const uint64_t r1 = rotate(code), r2 = rotate(r1), r3 = rotate(r2);
  const uint64_t m0 = mirror(code), m1 = rotate(m0), m2 = rotate(m1), m3 = rotate(m2);
  return min(min(min(code, r1), min(r2, r3)), min(min(m0, m1), min(m2, m3)));
}

/// The pattern drawn as rows around the centre `*` (for tests and debugging): `X` own, `O`
/// opponent, `.` empty, `#` wall, `?` not in the shape; stones followed by their liberty
/// bucket (`X1`, `O3`). Five rows of five cells for both shapes.
std::string pattern_to_string(uint64_t code, PatternShape shape);

/// The diamond12 code `code` (relative to the player to move) with the point at offset (dx, dy)
/// marked as the previous move: its nibble gets bits 0-1 set (0x7 / 0xB / 0xF by liberties), a
/// value no other point state uses. (dx, dy) must be within Manhattan distance 1..2.
uint64_t mark_previous_move(uint64_t code, int dx, int dy);

}  // namespace hane
