// Local pattern codes: encoding on drawn boards, symmetries, canonical codes, full-board pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <vector>

#include "features/pattern.h"
#include "playout/uniform.h"
#include "go_fixtures.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;

constexpr PatternShape k3x3 = PatternShape::k3x3;
constexpr PatternShape kDiamond = PatternShape::kDiamond12;

// A pattern drawn as pattern_to_string() prints it: 5 rows of 5 whitespace-separated cells
// around the centre `*`; `#` wall, `.` empty, `X1`..`X3` own stone, `O1`..`O3` opponent stone
// (with the liberty bucket), `?` outside the shape.
uint64_t drawn_pattern(std::string_view text, PatternShape shape) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> cells;
  for (std::string cell; in >> cell;) cells.push_back(cell);
  if (cells.size() != 25) throw std::invalid_argument("a drawn pattern has 5 rows of 5 cells");
  std::vector<bool> in_shape(25, false);
  uint64_t code = 0;
  for (int i = 0; i < pattern_points(shape); ++i) {
    const int at = (2 + kPatternOffsets[i].dy) * 5 + 2 + kPatternOffsets[i].dx;
    in_shape[at] = true;
    const std::string& c = cells[at];
    uint64_t nib;
    if (c == "#") {
      nib = point_state::kWall;
    } else if (c == ".") {
      nib = point_state::kEmpty;
    } else if (c.size() == 2 && (c[0] == 'X' || c[0] == 'O') && c[1] >= '1' && c[1] <= '3') {
      nib = point_state::stone(c[0] == 'X', c[1] - '0');
    } else {
      throw std::invalid_argument("bad cell '" + c + "'");
    }
    code |= nib << (4 * i);
  }
  for (int at = 0; at < 25; ++at) {
    if (at == 12 ? cells[at] != "*" : !in_shape[at] && cells[at] != "?") {
      throw std::invalid_argument("cell " + std::to_string(at) + " should be * or ?");
    }
  }
  return code;
}

// A random board of `size` after `moves` random moves.
Board random_board(int size, int moves, uint64_t seed, bool allow_suicide = false) {
  Board b(size, allow_suicide);
  Rng rng(seed);
  Color c = Color::kBlack;
  for (int i = 0; i < moves; ++i) {
    b.play(random_move(b, c, rng), c);
    c = opponent(c);
  }
  return b;
}

// The point of symmetry s (kPatternSymmetries numbering) applied to offset (dx, dy).
PatternOffset transform(int s, PatternOffset d) {
  int x = d.dx, y = d.dy;
  if (s >= 4) x = -x;
  for (int r = 0; r < s % 4; ++r) {
    const int t = x;
    x = -y;
    y = t;
  }
  return {static_cast<int8_t>(x), static_cast<int8_t>(y)};
}

// The same symmetry on a board's coordinates.
std::pair<int, int> transform_point(int s, int size, int x, int y) {
  if (s >= 4) x = size - 1 - x;
  for (int r = 0; r < s % 4; ++r) {
    const int t = x;
    x = size - 1 - y;
    y = t;
  }
  return {x, y};
}

Board transform_board(int s, const Board& b) {
  Board out(b.size());
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      const Color c = b.color(b.at(x, y));
      if (c == Color::kEmpty) continue;
      const auto [tx, ty] = transform_point(s, b.size(), x, y);
      out.set_stone(out.at(tx, ty), c);
    }
  }
  return out;
}

Board swap_board_colors(const Board& b) {
  Board out(b.size());
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      const Color c = b.color(b.at(x, y));
      if (is_player(c)) out.set_stone(out.at(x, y), opponent(c));
    }
  }
  return out;
}

uint64_t nibble(uint64_t code, int i) { return (code >> (4 * i)) & 0xF; }

// Random codes made of valid point states.
uint64_t random_code(Rng& rng, PatternShape shape) {
  static constexpr uint8_t kStates[] = {0x0, 0x3, 0x5, 0x9, 0xD, 0x6, 0xA, 0xE};
  uint64_t code = 0;
  for (int i = 0; i < pattern_points(shape); ++i) code |= uint64_t{kStates[rng.below(8)]} << (4 * i);
  return code;
}

// ---------------------------------------------------------------------------------------------
// Encoding on drawn boards.

TEST(Pattern, PointStatesSwapColoursByBitSwap) {
  EXPECT_EQ(point_state::stone(true, 1), 0x5);
  EXPECT_EQ(point_state::stone(false, 2), 0xA);
  EXPECT_EQ(point_state::stone(true, 7), 0xD);
  for (int libs = 1; libs <= 3; ++libs) {
    EXPECT_EQ(swap_colors(point_state::stone(true, libs)), point_state::stone(false, libs));
    EXPECT_EQ(swap_colors(point_state::stone(false, libs)), point_state::stone(true, libs));
  }
  EXPECT_EQ(swap_colors(point_state::kEmpty), point_state::kEmpty);
  EXPECT_EQ(swap_colors(point_state::kWall), point_state::kWall);
  Rng rng(5);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t code = random_code(rng, kDiamond);
    EXPECT_EQ(swap_colors(swap_colors(code)), code);
  }
}

TEST(Pattern, Corner) {
  const Board b = board_from_ascii(R"(
    . X . . .
    X . . . .
    . . . . .
    . . . . .
    . . . . .)");
  const Vertex a5 = gtp(b, "A5");
  EXPECT_EQ(pattern_code(b, a5, Color::kBlack, kDiamond), drawn_pattern(R"(
     ?  ?  #  ?  ?
     ?  #  #  #  ?
     #  #  *  X3 .
     ?  #  X3 .  ?
     ?  ?  .  ?  ?)", kDiamond));
  EXPECT_EQ(pattern_code(b, a5, Color::kWhite, k3x3), drawn_pattern(R"(
     ?  ?  ?  ?  ?
     ?  #  #  #  ?
     ?  #  *  O3 ?
     ?  #  O3 .  ?
     ?  ?  ?  ?  ?)", k3x3));
  // The 3x3 code is the diamond code's prefix.
  EXPECT_EQ(pattern_code(b, a5, Color::kBlack, k3x3),
            shrink(pattern_code(b, a5, Color::kBlack, kDiamond), k3x3));
  // The four corners of an empty board: one canonical code, four raw codes.
  const Board empty(9);
  std::set<uint64_t> raw, canon;
  for (const char* corner : {"A1", "A9", "J1", "J9"}) {
    const uint64_t code = pattern_code(empty, gtp(empty, corner), Color::kBlack, kDiamond);
    raw.insert(code);
    canon.insert(canonical(code, kDiamond));
  }
  EXPECT_EQ(raw.size(), 4u);
  EXPECT_EQ(canon.size(), 1u);
}

TEST(Pattern, Edge) {
  const Board b = board_from_ascii(R"(
    . . O X . . . . .
    . . . X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  // E9: on the top edge next to the black stones; C8: on the second line, below the white one.
  EXPECT_EQ(pattern_code(b, gtp(b, "E9"), Color::kBlack, kDiamond), drawn_pattern(R"(
     ?  ?  #  ?  ?
     ?  #  #  #  ?
     O2 X3 *  .  .
     ?  X3 .  .  ?
     ?  ?  .  ?  ?)", kDiamond));
  EXPECT_EQ(pattern_code(b, gtp(b, "C8"), Color::kWhite, kDiamond), drawn_pattern(R"(
     ?  ?  #  ?  ?
     ?  .  X2 O3 ?
     .  .  *  O3 .
     ?  .  .  .  ?
     ?  ?  .  ?  ?)", kDiamond));
  // Second line: one row of wall two points away.
  const Board empty(9);
  EXPECT_EQ(pattern_code(empty, gtp(empty, "E8"), Color::kBlack, kDiamond), drawn_pattern(R"(
     ?  ?  #  ?  ?
     ?  .  .  .  ?
     .  .  *  .  .
     ?  .  .  .  ?
     ?  ?  .  ?  ?)", kDiamond));
  EXPECT_EQ(pattern_code(empty, gtp(empty, "E8"), Color::kBlack, k3x3), 0u);
}

TEST(Pattern, StoneInAtariNextToThePoint) {
  const Board b = board_from_ascii(R"(
    . . . . .
    . . O . .
    . O X . .
    . . O . .
    . . . . .)");
  const Vertex d3 = gtp(b, "D3");  // the last liberty of the black stone
  EXPECT_EQ(pattern_code(b, d3, Color::kBlack, k3x3), drawn_pattern(R"(
     ?  ?  ?  ?  ?
     ?  O3 .  .  ?
     ?  X1 *  .  ?
     ?  O3 .  .  ?
     ?  ?  ?  ?  ?)", k3x3));
  // To White the atari stone is the opponent's: capturing it is what the pattern shows.
  EXPECT_EQ(nibble(pattern_code(b, d3, Color::kWhite, k3x3), 3), point_state::stone(false, 1));
  // Once the stone has two liberties the code differs.
  Board extended = b;
  extended.play(gtp(b, "D4"), Color::kWhite);
  extended.play(gtp(b, "D3"), Color::kBlack);
  EXPECT_EQ(nibble(pattern_code(extended, gtp(b, "E3"), Color::kBlack, k3x3), 3), point_state::stone(true, 2));
}

TEST(Pattern, LibertiesOneTwoThreeAndMoreAreDistinguished) {
  // Black stones with 1 (B6), 2 (E5), 3 (G3) and 4 (C2) liberties.
  const Board b = board_from_ascii(R"(
    . O . . . . .
    O X O . O . .
    . . . O X . .
    . . . . . . .
    . . . . . . X
    . . X . . . .
    . . . . . . .)");
  ASSERT_EQ(b.liberties(gtp(b, "B6")), 1);
  ASSERT_EQ(b.liberties(gtp(b, "E5")), 2);
  ASSERT_EQ(b.liberties(gtp(b, "G3")), 3);
  ASSERT_EQ(b.liberties(gtp(b, "C2")), 4);
  struct Case {
    const char* point;  // empty point next to the stone
    int nibble;         // where the stone is in the point's pattern
    int bucket;
  };
  for (const Case& c : {Case{"B5", 0, 1}, Case{"E4", 0, 2}, Case{"F3", 1, 3}, Case{"C3", 2, 3}}) {
    const Vertex v = gtp(b, c.point);
    EXPECT_EQ(nibble(pattern_code(b, v, Color::kBlack, k3x3), c.nibble), point_state::stone(true, c.bucket)) << c.point;
    EXPECT_EQ(nibble(pattern_code(b, v, Color::kWhite, k3x3), c.nibble), point_state::stone(false, c.bucket)) << c.point;
  }
  EXPECT_EQ(pattern_code(b, gtp(b, "B5"), Color::kBlack, kDiamond), drawn_pattern(R"(
     ?  ?  O2 ?  ?
     ?  O2 X1 O3 ?
     #  .  *  .  O3
     ?  .  .  .  ?
     ?  ?  .  ?  ?)", kDiamond));
  // The same stones with different liberties: different codes.
  const Board free = board_from_ascii(R"(
    . . . . .
    . . . . .
    . . X . .
    . . . . .
    . . . . .)");
  const Board surrounded = board_from_ascii(R"(
    . . . . .
    . . O . .
    . O X O .
    . . . . .
    . . . . .)");
  const Board half = board_from_ascii(R"(
    . . . . .
    . . O . .
    . . X O .
    . . . . .
    . . . . .)");
  const uint64_t c4 = pattern_code(free, gtp(free, "C2"), Color::kBlack, k3x3);
  const uint64_t c1 = pattern_code(surrounded, gtp(free, "C2"), Color::kBlack, k3x3);
  const uint64_t c2 = pattern_code(half, gtp(free, "C2"), Color::kBlack, k3x3);
  EXPECT_EQ(nibble(c4, 0), point_state::stone(true, 3));
  EXPECT_EQ(nibble(c2, 0), point_state::stone(true, 2));
  EXPECT_EQ(nibble(c1, 0), point_state::stone(true, 1));
  EXPECT_EQ(std::set<uint64_t>({c1, c2, c4}).size(), 3u);
}

TEST(Pattern, ColourRelativity) {
  const Board b = board_from_ascii(R"(
    . . . . . . .
    . X O . . . .
    . O X X . . .
    . . O . . . .
    . . . . . X .
    . . . . O . .
    . . . . . . .)");
  const Board swapped = swap_board_colors(b);
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      for (PatternShape shape : {k3x3, kDiamond}) {
        const Vertex v = b.at(x, y);
        EXPECT_EQ(pattern_code(b, v, Color::kBlack, shape), pattern_code(swapped, v, Color::kWhite, shape));
        EXPECT_EQ(pattern_code(b, v, Color::kWhite, shape), pattern_code(swapped, v, Color::kBlack, shape));
        EXPECT_EQ(pattern_code(b, v, Color::kWhite, shape), swap_colors(pattern_code(b, v, Color::kBlack, shape)));
      }
    }
  }
  // A point next to stones of both colours sees them differently depending on who is to move.
  const Vertex c4 = b.at(2, 3);
  EXPECT_NE(pattern_code(b, c4, Color::kBlack, k3x3), pattern_code(b, c4, Color::kWhite, k3x3));
}

TEST(Pattern, SymmetricShapesShareTheCanonicalCode) {
  // A hane and its mirror image (centres C10 and L10), and one shape twice (centres C4, L4).
  const Board b = board_from_ascii(R"(
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . X O . . . . . O X . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . X . . . . . . . X . .
    . . O . . . . . . . O . .
    . . . . . . . . . . . . .)");
  const uint64_t hane = pattern_code(b, gtp(b, "C10"), Color::kBlack, k3x3);
  const uint64_t mirrored = pattern_code(b, gtp(b, "L10"), Color::kBlack, k3x3);
  const uint64_t left = pattern_code(b, gtp(b, "C4"), Color::kBlack, kDiamond);
  const uint64_t right = pattern_code(b, gtp(b, "L4"), Color::kBlack, kDiamond);
  EXPECT_EQ(hane, drawn_pattern(R"(
     ?  ?  ?  ?  ?
     ?  .  X3 O3 ?
     ?  .  *  .  ?
     ?  .  .  .  ?
     ?  ?  ?  ?  ?)", k3x3));
  EXPECT_NE(hane, mirrored);
  EXPECT_EQ(canonical(hane, k3x3), canonical(mirrored, k3x3));
  EXPECT_EQ(left, right);
  EXPECT_NE(canonical(hane, k3x3), canonical(shrink(left, k3x3), k3x3));

  // The same local shape in all 8 orientations (transformed boards): raw codes differ,
  // canonical codes are equal.
  const Board shape = board_from_ascii(R"(
    . . . . . . .
    . . . . . . .
    . . X O . . .
    . . . . O . .
    . . X . . . .
    . . . . . . .
    . . . . . . .)");
  std::set<uint64_t> raw3, raw12, canon3, canon12;
  for (int s = 0; s < 8; ++s) {
    const Board t = transform_board(s, shape);
    const auto [x, y] = transform_point(s, 7, 3, 3);
    const Vertex v = t.at(x, y);
    raw3.insert(pattern_code(t, v, Color::kBlack, k3x3));
    raw12.insert(pattern_code(t, v, Color::kBlack, kDiamond));
    canon3.insert(canonical(pattern_code(t, v, Color::kBlack, k3x3), k3x3));
    canon12.insert(canonical(pattern_code(t, v, Color::kBlack, kDiamond), kDiamond));
  }
  EXPECT_EQ(raw3.size(), 8u);  // no symmetry of its own
  EXPECT_EQ(raw12.size(), 8u);
  EXPECT_EQ(canon3.size(), 1u);
  EXPECT_EQ(canon12.size(), 1u);
}

TEST(Pattern, DistinctShapesGetDistinctCodes) {
  // Shapes that differ in one point (colour, liberties, wall) all get distinct canonical codes.
  const std::vector<std::string> drawings = {
      R"(?  ?  ?  ?  ?
         ?  X3 O3 .  ?
         ?  .  *  .  ?
         ?  .  .  .  ?
         ?  ?  ?  ?  ?)",
      R"(?  ?  ?  ?  ?
         ?  O3 X3 .  ?
         ?  .  *  .  ?
         ?  .  .  .  ?
         ?  ?  ?  ?  ?)",
      R"(?  ?  ?  ?  ?
         ?  .  X3 .  ?
         ?  .  *  .  ?
         ?  .  .  O3 ?
         ?  ?  ?  ?  ?)",
      R"(?  ?  ?  ?  ?
         ?  .  X3 .  ?
         ?  .  *  O3 ?
         ?  .  .  .  ?
         ?  ?  ?  ?  ?)",
      R"(?  ?  ?  ?  ?
         ?  .  X1 .  ?
         ?  .  *  O3 ?
         ?  .  .  .  ?
         ?  ?  ?  ?  ?)",
      R"(?  ?  ?  ?  ?
         ?  .  X2 .  ?
         ?  .  *  O3 ?
         ?  .  .  .  ?
         ?  ?  ?  ?  ?)",
      R"(?  ?  ?  ?  ?
         ?  #  #  #  ?
         ?  .  *  O3 ?
         ?  .  .  .  ?
         ?  ?  ?  ?  ?)",
  };
  std::set<uint64_t> canon;
  for (const std::string& d : drawings) canon.insert(canonical(drawn_pattern(d, k3x3), k3x3));
  EXPECT_EQ(canon.size(), drawings.size());

  // On random positions: two codes share a canonical code exactly when one is a symmetric
  // image of the other.
  Rng rng(11);
  std::vector<uint64_t> codes;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    const Board b = random_board(9, 40, seed);
    for (int16_t v : b.empty_points()) codes.push_back(pattern_code(b, Vertex(v), Color::kBlack, k3x3));
  }
  for (size_t i = 0; i < codes.size(); ++i) {
    for (size_t j = i + 1; j < codes.size(); ++j) {
      bool image = false;
      for (int s = 0; s < 8; ++s) image |= apply_symmetry(codes[i], k3x3, s) == codes[j];
      ASSERT_EQ(canonical(codes[i], k3x3) == canonical(codes[j], k3x3), image);
    }
  }
}

TEST(Pattern, ToStringRoundTrips) {
  const Board b = random_board(9, 60, 3);
  for (int16_t v : b.empty_points()) {
    for (PatternShape shape : {k3x3, kDiamond}) {
      const uint64_t code = pattern_code(b, Vertex(v), Color::kWhite, shape);
      ASSERT_EQ(drawn_pattern(pattern_to_string(code, shape), shape), code) << pattern_to_string(code, shape);
    }
  }
  EXPECT_EQ(pattern_to_string(pattern_code(Board(5), Board(5).at(0, 0), Color::kBlack, k3x3), k3x3),
            " ?  ?  ?  ?  ?\n"
            " ?  #  #  #  ?\n"
            " ?  #  *  .  ?\n"
            " ?  #  .  .  ?\n"
            " ?  ?  ?  ?  ?\n");
}

// ---------------------------------------------------------------------------------------------
// Symmetries.

using Perm = std::array<uint8_t, kMaxPatternPoints>;

Perm compose(const Perm& a, const Perm& b) {  // first b, then a
  Perm out;
  for (int i = 0; i < kMaxPatternPoints; ++i) out[i] = a[b[i]];
  return out;
}

TEST(PatternSymmetry, PermutationsFormTheGroupOfTheSquare) {
  std::set<Perm> group(kPatternSymmetries.begin(), kPatternSymmetries.end());
  ASSERT_EQ(group.size(), 8u);
  Perm identity;
  for (int i = 0; i < kMaxPatternPoints; ++i) identity[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(kPatternSymmetries[0], identity);
  for (const Perm& p : kPatternSymmetries) {
    // A bijection that keeps the 3x3 points among themselves.
    std::set<uint8_t> image(p.begin(), p.end());
    EXPECT_EQ(image.size(), size_t{kMaxPatternPoints});
    for (int i = 0; i < 8; ++i) EXPECT_LT(p[i], 8);
    bool has_inverse = false;
    for (const Perm& q : kPatternSymmetries) {
      EXPECT_TRUE(group.count(compose(p, q))) << "not closed";
      has_inverse |= compose(p, q) == identity;
    }
    EXPECT_TRUE(has_inverse);
  }
  // Not abelian (the dihedral group D4, not Z8 or Z4 x Z2 ...): rotation and mirror do not
  // commute.
  EXPECT_NE(compose(kPatternSymmetries[1], kPatternSymmetries[4]), compose(kPatternSymmetries[4], kPatternSymmetries[1]));
}

TEST(PatternSymmetry, PermutationsMatchTheGeometry) {
  for (int s = 0; s < 8; ++s) {
    for (int i = 0; i < kMaxPatternPoints; ++i) {
      const PatternOffset t = transform(s, kPatternOffsets[i]);
      const PatternOffset j = kPatternOffsets[kPatternSymmetries[s][i]];
      EXPECT_EQ(t.dx, j.dx) << s << " " << i;
      EXPECT_EQ(t.dy, j.dy) << s << " " << i;
    }
  }
  // On whole boards: the pattern at the image of a point on the image board is the image of
  // the pattern.
  for (int size : {5, 9, 19}) {
    const Board b = random_board(size, size * size / 2, 100 + size);
    for (int s = 0; s < 8; ++s) {
      const Board t = transform_board(s, b);
      for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
          const auto [tx, ty] = transform_point(s, size, x, y);
          for (PatternShape shape : {k3x3, kDiamond}) {
            const uint64_t code = pattern_code(b, b.at(x, y), Color::kBlack, shape);
            ASSERT_EQ(pattern_code(t, t.at(tx, ty), Color::kBlack, shape), apply_symmetry(code, shape, s));
          }
        }
      }
    }
  }
}

TEST(PatternSymmetry, CanonicalIsInvariantAndMinimal) {
  Rng rng(7);
  for (PatternShape shape : {k3x3, kDiamond}) {
    for (int n = 0; n < 20000; ++n) {
      const uint64_t code = random_code(rng, shape);
      const uint64_t c = canonical(code, shape);
      uint64_t smallest = code;
      for (int s = 0; s < 8; ++s) {
        const uint64_t image = apply_symmetry(code, shape, s);
        ASSERT_EQ(canonical(image, shape), c);
        ASSERT_EQ(image & ~pattern_mask(shape), 0u);
        smallest = std::min(smallest, image);
      }
      ASSERT_EQ(c, smallest);
      ASSERT_EQ(canonical(c, shape), c);
    }
  }
  // The fast lane operations are the table's rotation and mirror.
  for (int n = 0; n < 1000; ++n) {
    const uint64_t code = random_code(rng, kDiamond);
    EXPECT_EQ(pattern_detail::rotate(code), apply_symmetry(code, kDiamond, 1));
    EXPECT_EQ(pattern_detail::mirror(code), apply_symmetry(code, kDiamond, 4));
  }
  // Canonical codes of the empty 9x9 board's points: centre, edges, corners and lines.
  const Board empty(9);
  std::set<uint64_t> classes;
  for (int16_t v : empty.empty_points()) classes.insert(canonical(pattern_code(empty, Vertex(v), Color::kBlack, kDiamond), kDiamond));
  // Distance to the nearest two edges (first line / second line / beyond) up to swapping:
  // (1,1) (1,2) (1,3+) (2,2) (2,3+) (3+,3+).
  EXPECT_EQ(classes.size(), 6u);
  static_assert(canonical(0, PatternShape::k3x3) == 0);
  // A diamond code gives its 3x3 prefix's canonical code.
  for (int n = 0; n < 1000; ++n) {
    const uint64_t code = random_code(rng, kDiamond);
    EXPECT_EQ(canonical(code, k3x3), canonical(shrink(code, k3x3), k3x3));
  }
}

// ---------------------------------------------------------------------------------------------
// The full-board pass.

TEST(Pattern, FullBoardPassMatchesPointByPoint) {
  std::vector<uint64_t> codes(Board::kMaxVertices);
  for (int size : {2, 5, 9, 13, 19, 25}) {
    for (int moves : {0, size * size / 3, size * size}) {
      const Board b = random_board(size, moves, 1000 + size * 7 + moves);
      for (Color c : {Color::kBlack, Color::kWhite}) {
        for (PatternShape shape : {k3x3, kDiamond}) {
          pattern_codes(b, c, shape, codes);
          const auto empties = b.empty_points();
          for (size_t i = 0; i < empties.size(); ++i) {
            ASSERT_EQ(codes[i], pattern_code(b, Vertex(empties[i]), c, shape)) << size << " " << moves;
          }
        }
      }
    }
  }
}

TEST(Pattern, Names) {
  EXPECT_EQ(pattern_shape_name(k3x3), "3x3");
  EXPECT_EQ(pattern_shape_name(kDiamond), "diamond12");
  EXPECT_EQ(pattern_points(k3x3), 8);
  EXPECT_EQ(pattern_points(kDiamond), 12);
  EXPECT_GE(kPatternVersion, 1);
}

}  // namespace
}  // namespace hane
