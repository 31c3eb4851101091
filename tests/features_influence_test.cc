// Whole-board maps (features/influence.h) on boards worked out by hand.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "features/influence.h"
#include "go/board.h"
#include "go_fixtures.h"

namespace hane {
namespace {

using testing::board_from_ascii;

// Rows of characters, spaces and blank lines left out (the classes drawn in the tests).
std::string grid(std::string_view rows) {
  std::string out, line;
  for (const char ch : rows) {
    if (ch == '\n') {
      if (!line.empty()) out += line + '\n';
      line.clear();
    } else if (ch != ' ') {
      line += ch;
    }
  }
  if (!line.empty()) out += line + '\n';
  return out;
}

using testing::B;
using testing::W;

// The classes drawn as a board: X O living stones, x o dead ones, T t black / white territory,
// F f black / white framework, ? contested, . open.
std::string classes_drawn(const Board& b, const BoardMaps& m) {
  std::string out;
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      switch (m.at(b.at(x, y))) {
        case PointClass::kBlackStone: out += 'X'; break;
        case PointClass::kWhiteStone: out += 'O'; break;
        case PointClass::kDeadBlack: out += 'x'; break;
        case PointClass::kDeadWhite: out += 'o'; break;
        case PointClass::kBlackTerritory: out += 'T'; break;
        case PointClass::kWhiteTerritory: out += 't'; break;
        case PointClass::kBlackFramework: out += 'F'; break;
        case PointClass::kWhiteFramework: out += 'f'; break;
        case PointClass::kContested: out += '?'; break;
        case PointClass::kOpen: out += '.'; break;
      }
    }
    out += '\n';
  }
  return out;
}

// Rows of numbers with spaces ignored, as the expected fields are written below.
std::string field_drawn(const Board& b, const BouzyField& f) {
  std::string out;
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) out += (x ? " " : "") + std::to_string(f[static_cast<size_t>(b.at(x, y).index())]);
    out += '\n';
  }
  return out;
}

std::string numbers(std::string_view rows) {
  std::istringstream lines{std::string(rows)};
  std::string out;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string joined;
    for (std::string w; words >> w;) joined += (joined.empty() ? "" : " ") + w;
    if (!joined.empty()) out += joined + '\n';
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Distance-decay influence.

TEST(Influence, RadiusGrowsWithTheBoard) {
  EXPECT_EQ(influence_radius(2), 1);
  EXPECT_EQ(influence_radius(5), 1);
  EXPECT_EQ(influence_radius(9), 2);
  EXPECT_EQ(influence_radius(13), 3);
  EXPECT_EQ(influence_radius(19), 5);
  EXPECT_EQ(influence_radius(25), 6);
  EXPECT_FLOAT_EQ(influence_weight(0, 5), 12);
  EXPECT_FLOAT_EQ(influence_weight(1, 5), 2);
  EXPECT_FLOAT_EQ(influence_weight(2, 5), 1);
  EXPECT_FLOAT_EQ(influence_weight(4, 5), 0.5f);
  EXPECT_FLOAT_EQ(influence_weight(6, 5), 0);
}

TEST(Influence, LoneStoneRadiatesToTheRadius) {
  // 9x9: radius 2. The stone's point 12, its neighbours 2, two steps away (diagonals too) 1.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  InfluenceMap m;
  distance_influence(b, nullptr, m);
  EXPECT_FLOAT_EQ(m.value(b.at(4, 4)), 12);
  EXPECT_FLOAT_EQ(m.value(b.at(4, 3)), 2);
  EXPECT_FLOAT_EQ(m.value(b.at(5, 4)), 2);
  EXPECT_FLOAT_EQ(m.value(b.at(3, 3)), 1);
  EXPECT_FLOAT_EQ(m.value(b.at(4, 6)), 1);
  EXPECT_FLOAT_EQ(m.value(b.at(4, 7)), 0);
  EXPECT_FLOAT_EQ(m.value(b.at(2, 3)), 0);
  float total = 0;
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 9; ++x) {
      total += m.value(b.at(x, y));
      EXPECT_FLOAT_EQ(m.white[static_cast<size_t>(b.at(x, y).index())], 0);
    }
  }
  EXPECT_FLOAT_EQ(total, 12 + 4 * 2 + 8 * 1);
}

TEST(Influence, ColoursCancelAndTheEdgeCutsTheDiamond) {
  // D5 black and F5 white on 9x9: E5 between them gets 2 from each, so 0 in all.
  // A1 (a corner) only reaches its on-board points: 12 + 2 + 2 + 1 + 1 + 1.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X . O . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X . . . . . . . .)");
  InfluenceMap m;
  distance_influence(b, nullptr, m);
  const size_t e5 = static_cast<size_t>(b.at(4, 4).index());
  EXPECT_FLOAT_EQ(m.black[e5], 2);
  EXPECT_FLOAT_EQ(m.white[e5], 2);
  EXPECT_FLOAT_EQ(m.value(b.at(4, 4)), 0);
  EXPECT_FLOAT_EQ(m.value(b.at(3, 4)), 12 - 1);  // D5: its own 12, F5 two steps away
  float corner = 0;
  for (int y = 6; y < 9; ++y) {
    for (int x = 0; x < 3; ++x) corner += m.black[static_cast<size_t>(b.at(x, y).index())];
  }
  EXPECT_FLOAT_EQ(corner, 12 + 2 + 2 + 1 + 1 + 1);
}

TEST(Influence, DeadStonesDoNotRadiate) {
  const Board b = board_from_ascii(R"(
    . . . . .
    . . . . .
    . . X . .
    . . . . .
    . . . . .)");
  PointSet dead;
  dead.set(static_cast<size_t>(b.at(2, 2).index()));
  InfluenceMap m;
  distance_influence(b, &dead, m);
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 5; ++x) EXPECT_FLOAT_EQ(m.value(b.at(x, y)), 0);
  }
}

// ---------------------------------------------------------------------------------------------
// Bouzy's operators.

TEST(Bouzy, TobiDilatesAsTheGnuGoManualShows) {
  // The manual's example: a one-point jump (tobi), 128 _ 128, then one and two dilations.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X . X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  BouzyField f;
  bouzy_start(b, nullptr, f);
  bouzy_dilate(b, f);
  EXPECT_EQ(field_drawn(b, f), numbers(R"(
    0 0 0 0   0 0   0 0 0
    0 0 0 0   0 0   0 0 0
    0 0 0 0   0 0   0 0 0
    0 0 0 1   0 1   0 0 0
    0 0 1 128 2 128 1 0 0
    0 0 0 1   0 1   0 0 0
    0 0 0 0   0 0   0 0 0
    0 0 0 0   0 0   0 0 0
    0 0 0 0   0 0   0 0 0)"));
  bouzy_dilate(b, f);
  EXPECT_EQ(field_drawn(b, f), numbers(R"(
    0 0 0 0   0 0   0 0 0
    0 0 0 0   0 0   0 0 0
    0 0 0 1   0 1   0 0 0
    0 0 2 2   3 2   2 0 0
    0 1 2 132 4 132 2 1 0
    0 0 2 2   3 2   2 0 0
    0 0 0 1   0 1   0 0 0
    0 0 0 0   0 0   0 0 0
    0 0 0 0   0 0   0 0 0)"));
}

TEST(Bouzy, ErosionStopsAtZeroAndIgnoresTheEdge) {
  // One dilation then one erosion: each 1 around the stone has three neighbours <= 0 and
  // falls to 0 (not below); the stone, all of whose neighbours are > 0, keeps 128.
  const Board b = board_from_ascii(R"(
    . . . . .
    . . . . .
    . . X . .
    . . . . .
    . . . . .)");
  BouzyField f;
  bouzy_start(b, nullptr, f);
  bouzy_dilate(b, f);
  bouzy_erode(b, f);
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 5; ++x) EXPECT_EQ(f[static_cast<size_t>(b.at(x, y).index())], x == 2 && y == 2 ? 128 : 0);
  }
  // A corner stone after one dilation: B3 (1) has three on-board neighbours, two of them 0,
  // so it loses 2 and stops at 0; the stone's two on-board neighbours are > 0.
  const Board c = board_from_ascii(R"(
    X . .
    . . .
    . . .)");
  bouzy_start(c, nullptr, f);
  bouzy_dilate(c, f);
  EXPECT_EQ(f[static_cast<size_t>(c.at(1, 0).index())], 1);
  bouzy_erode(c, f);
  EXPECT_EQ(f[static_cast<size_t>(c.at(1, 0).index())], 0);  // 1 - 2, stopped at 0
  EXPECT_EQ(f[static_cast<size_t>(c.at(0, 0).index())], 128);  // the edge does not erode it
}

TEST(Bouzy, LoneStoneHasNoTerritory) {
  // 5/21: "an isolated stone gives no territory" (1 + n(n-1) erosions for n dilations).
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  BouzyMaps m;
  bouzy_maps(b, nullptr, m);
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 9; ++x) {
      const size_t i = static_cast<size_t>(b.at(x, y).index());
      EXPECT_EQ(m.territory[i] > 0, x == 4 && y == 4) << x << "," << y;
      EXPECT_GE(m.area[i], 0);
    }
  }
  // The 4/0 area reaches four steps; the 5/10 moyo keeps the stone's neighbours.
  EXPECT_GT(m.area[static_cast<size_t>(b.at(4, 0).index())], 0);
  EXPECT_EQ(m.area[static_cast<size_t>(b.at(0, 0).index())], 0);
  EXPECT_GT(m.moyo[static_cast<size_t>(b.at(4, 3).index())], 0);
}

TEST(Bouzy, TwoWallsShareTheBoard) {
  // Worked out by hand. Row 4 touches both colours after one dilation and stays 0. Row 3
  // climbs to 13 in five dilations (9 on the edge: 1, 3, 5, 7, 9), then loses 1 an erosion to
  // the 0 below it, 2 once a row neighbour is 0: 5/10 leaves 0 2 3 3 3 3 3 2 0, 5/21 nothing.
  // Rows 0-1 never touch a point <= 0: territory.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X X X X
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O O O O O
    . . . . . . . . .
    . . . . . . . . .)");
  BouzyMaps m;
  bouzy_maps(b, nullptr, m);
  std::string row3, row5;
  for (int x = 0; x < 9; ++x) {
    row3 += std::to_string(m.moyo[static_cast<size_t>(b.at(x, 3).index())]) + " ";
    row5 += std::to_string(m.moyo[static_cast<size_t>(b.at(x, 5).index())]) + " ";
    EXPECT_EQ(m.territory[static_cast<size_t>(b.at(x, 3).index())], 0);
    EXPECT_EQ(m.area[static_cast<size_t>(b.at(x, 4).index())], 0);
  }
  EXPECT_EQ(row3, "0 2 3 3 3 3 3 2 0 ");
  EXPECT_EQ(row5, "0 -2 -3 -3 -3 -3 -3 -2 0 ");

  BoardMaps maps;
  board_maps(b, nullptr, maps);
  // Row 3's ends: Black's influence only (White's wall is 3 steps away, past the radius 2): open.
  // Row 4: one step of each wall two steps away, 1 + 1: contested.
  EXPECT_EQ(classes_drawn(b, maps), grid(R"(
    T T T T T T T T T
    T T T T T T T T T
    X X X X X X X X X
    . F F F F F F F .
    ? ? ? ? ? ? ? ? ?
    . f f f f f f f .
    O O O O O O O O O
    t t t t t t t t t
    t t t t t t t t t)"));
  // 9 stones, 18 territory, 7 framework at 0.5 a side: even.
  EXPECT_DOUBLE_EQ(static_margin(b, maps, 0, false), 0);
  EXPECT_DOUBLE_EQ(static_margin(b, maps, 7.5, false), -7.5);
  EXPECT_DOUBLE_EQ(static_margin(b, maps, 0, false, 0), 0);
}

TEST(Classes, DeadStoneInsideTerritoryIsTheOpponents) {
  // The white stone at E9 sits in Black's territory. Alive, it radiates and holds its own
  // neighbourhood; dead, the maps are those of the board without it and it counts for Black.
  const Board b = board_from_ascii(R"(
    . . . . O . . . .
    . . . . . . . . .
    X X X X X X X X X
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O O O O O
    . . . . . . . . .
    . . . . . . . . .)");
  BoardMaps alive;
  board_maps(b, nullptr, alive);
  EXPECT_EQ(alive.at(b.at(4, 0)), PointClass::kWhiteStone);
  EXPECT_NE(alive.at(b.at(3, 0)), PointClass::kBlackTerritory);
  EXPECT_NE(alive.at(b.at(5, 0)), PointClass::kBlackTerritory);

  PointSet dead;
  dead.set(static_cast<size_t>(b.at(4, 0).index()));
  BoardMaps m;
  board_maps(b, &dead, m);
  EXPECT_EQ(classes_drawn(b, m), grid(R"(
    T T T T o T T T T
    T T T T T T T T T
    X X X X X X X X X
    . F F F F F F F .
    ? ? ? ? ? ? ? ? ?
    . f f f f f f f .
    O O O O O O O O O
    t t t t t t t t t
    t t t t t t t t t)"));
  EXPECT_EQ(point_owner(m.at(b.at(4, 0))), B);
  // Area counting: the dead stone's point is Black's, as it would be as territory (even, as
  // without the stone); territory counting: its point and the prisoner (one more for Black).
  EXPECT_DOUBLE_EQ(static_margin(b, m, 0, false), 0);
  EXPECT_DOUBLE_EQ(static_margin(b, m, 0, true), 1);
}

TEST(Classes, EmptyAndTinyBoardsAreOpen) {
  for (const int size : {2, 9, 19, 25}) {
    const Board b(size);
    BoardMaps m;
    board_maps(b, nullptr, m);
    for (int y = 0; y < size; ++y) {
      for (int x = 0; x < size; ++x) EXPECT_EQ(m.at(b.at(x, y)), PointClass::kOpen);
    }
    EXPECT_DOUBLE_EQ(static_margin(b, m, 7.5, false), -7.5);
    EXPECT_EQ(strategic_kind(b, m, b.at(0, 0), B), StrategicKind::kOpen);
  }
  // 2x2 with one stone: the whole board is Black's.
  const Board b = board_from_ascii(R"(
    X .
    . .)");
  BoardMaps m;
  board_maps(b, nullptr, m);
  EXPECT_EQ(m.at(b.at(1, 1)), PointClass::kBlackTerritory);
  EXPECT_DOUBLE_EQ(static_margin(b, m, 0.5, false), 3.5);
}

// ---------------------------------------------------------------------------------------------
// Dead stones by tactics.

TEST(Classes, TacticsFindChainsInAtariThatCannotEscape) {
  // C7: a white stone in atari, White to move, in a working ladder (D6 stops its run): dead.
  // G7: a white stone in atari, White to move, that runs out to three liberties: alive.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . X . . . X . .
    . X O X . X O X .
    . . . X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  const size_t c7 = static_cast<size_t>(b.at(2, 2).index()), g7 = static_cast<size_t>(b.at(6, 2).index());
  const PointSet dead = dead_stones_by_tactics(b, W);
  EXPECT_TRUE(dead.test(c7));
  EXPECT_FALSE(dead.test(g7));
  EXPECT_EQ(dead.count(), 1u);
  // Black to move: White left both in atari, so both are given up.
  const PointSet black_to_move = dead_stones_by_tactics(b, B);
  EXPECT_TRUE(black_to_move.test(c7));
  EXPECT_TRUE(black_to_move.test(g7));
  EXPECT_EQ(black_to_move.count(), 2u);
  // No chain in atari: nothing dead.
  EXPECT_EQ(dead_stones_by_tactics(Board(9), B).count(), 0u);
}

// ---------------------------------------------------------------------------------------------
// Strategic meaning.

TEST(Strategy, KindsAndWordsOnTheTwoWalls) {
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    X X X X X X X X X
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O O O O O
    . . . . . . . . .
    . . . . . . . . .)");
  BoardMaps m;
  board_maps(b, nullptr, m);
  EXPECT_EQ(strategic_kind(b, m, b.at(4, 1), B), StrategicKind::kSecure);
  EXPECT_EQ(strategic_kind(b, m, b.at(4, 3), B), StrategicKind::kExtend);
  EXPECT_EQ(strategic_kind(b, m, b.at(0, 3), B), StrategicKind::kExtend);  // open, next to its framework
  EXPECT_EQ(strategic_kind(b, m, b.at(4, 4), B), StrategicKind::kReduce);  // contested, next to White's framework
  EXPECT_EQ(strategic_kind(b, m, b.at(4, 5), B), StrategicKind::kInvade);  // White's framework, no black influence
  EXPECT_EQ(strategic_kind(b, m, b.at(4, 7), B), StrategicKind::kInvade);  // White's territory
  EXPECT_EQ(strategic_kind(b, m, b.at(4, 5), W), StrategicKind::kExtend);
  EXPECT_EQ(strategic_kind(b, m, b.at(4, 2), W), StrategicKind::kNone);  // occupied
  EXPECT_EQ(strategic_words(b, m, b.at(4, 5), B), "invades White's moyo in the centre");
  EXPECT_EQ(strategic_words(b, m, b.at(4, 7), B), "invades White's territory at the bottom");
  EXPECT_EQ(strategic_words(b, m, b.at(8, 3), W), "reduces Black's moyo on the right");
  EXPECT_EQ(strategic_words(b, m, b.at(1, 3), B), "extends its framework on the left");
  EXPECT_EQ(strategic_words(b, m, b.at(7, 0), B), "secures its territory at the upper right");
}

TEST(Strategy, RegionsInThirds) {
  const Geometry g(19);
  EXPECT_EQ(board_region_words(g, g.at(3, 3)), "at the upper left");
  EXPECT_EQ(board_region_words(g, g.at(9, 2)), "at the top");
  EXPECT_EQ(board_region_words(g, g.at(16, 9)), "on the right");
  EXPECT_EQ(board_region_words(g, g.at(9, 9)), "in the centre");
  EXPECT_EQ(board_region_words(g, g.at(15, 15)), "at the lower right");
  EXPECT_EQ(board_region_words(Geometry(2), Geometry(2).at(0, 0)), "at the upper left");
}

}  // namespace
}  // namespace hane
