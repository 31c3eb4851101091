#include <gtest/gtest.h>

#include <map>

#include "go/game.h"
#include "go/score.h"
#include "go_fixtures.h"

namespace hane {
namespace {

using testing::ascii;
using testing::board_from_ascii;
using testing::game_from_ascii;
using testing::gtp;

// Three kos: K1 (Black takes at C7, White retakes at B7) and K2 (H7 / G7) wait for Black;
// K3 (White takes at B3, Black retakes at C3) waits for White.
constexpr std::string_view kTripleKo = R"(
  . . . . . . . . .
  . X O . . . X O .
  X O . O . X O . O
  . X O . . . X O .
  . . . . . . . . .
  . X O . . . . . .
  X . X O . . . . .
  . X O . . . . . .
  . . . . . . . . .)";

Legality play_all(Game& g, std::initializer_list<std::string_view> moves) {
  for (std::string_view m : moves) {
    const Legality l = g.play(gtp(g.board(), m));
    if (l != Legality::kLegal) return l;
  }
  return Legality::kLegal;
}

TEST(Game, TripleKoCycleIsRefusedByPositionalSuperko) {
  Game g = game_from_ascii(kTripleKo, {.superko = Superko::kPositional});
  ASSERT_EQ(play_all(g, {"C7", "B3", "H7", "B7", "C3"}), Legality::kLegal);
  const std::string before = ascii(g.board());
  EXPECT_EQ(g.legal(gtp(g.board(), "G7"), Color::kWhite), Legality::kSuperko);
  EXPECT_EQ(g.board().legal(gtp(g.board(), "G7"), Color::kWhite), Legality::kLegal);  // simple ko allows it
  EXPECT_EQ(g.play(gtp(g.board(), "G7")), Legality::kSuperko);
  EXPECT_EQ(ascii(g.board()), before);
  EXPECT_EQ(g.to_move(), Color::kWhite);
}

TEST(Game, TripleKoCycleIsAllowedWithoutSuperko) {
  Game g = game_from_ascii(kTripleKo, {.superko = Superko::kNone});
  ASSERT_EQ(play_all(g, {"C7", "B3", "H7", "B7", "C3", "G7"}), Legality::kLegal);
  EXPECT_EQ(ascii(g.board()), testing::drawn(kTripleKo));
}

TEST(Game, SituationalSuperkoLooksAtTheSideToMove) {
  // After a pass the same board comes back with the other side to move.
  for (Superko rule : {Superko::kPositional, Superko::kSituational}) {
    Game g = game_from_ascii(kTripleKo, {.superko = rule});
    ASSERT_EQ(play_all(g, {"C7", "B3", "H7", "B7", "C3", "pass", "C7"}), Legality::kLegal);
    // G7 recreates the board seen after move 1, when White was to move; now Black would be.
    EXPECT_EQ(g.legal(gtp(g.board(), "G7"), Color::kWhite),
              rule == Superko::kPositional ? Legality::kSuperko : Legality::kLegal);
  }
}

TEST(Game, UndoRestoresBoardHashAndSideToMove) {
  Game g(9);
  const Board empty = g.board();
  ASSERT_EQ(play_all(g, {"E5", "D5", "pass"}), Legality::kLegal);
  g.set_stone(gtp(g.board(), "A1"), Color::kWhite);
  const uint64_t hash = g.board().hash();
  ASSERT_EQ(g.play(gtp(g.board(), "B1")), Legality::kLegal);
  EXPECT_EQ(g.consecutive_passes(), 0);
  ASSERT_TRUE(g.undo());
  EXPECT_EQ(g.board().hash(), hash);
  EXPECT_EQ(g.to_move(), Color::kWhite);
  ASSERT_TRUE(g.undo());  // the setup stone
  EXPECT_EQ(g.board().color(gtp(g.board(), "A1")), Color::kEmpty);
  EXPECT_EQ(g.consecutive_passes(), 1);
  while (g.undo()) {}
  EXPECT_EQ(g.board().hash(), empty.hash());
  EXPECT_EQ(g.to_move(), Color::kBlack);
  EXPECT_TRUE(g.moves().empty());
  EXPECT_FALSE(g.undo());
}

TEST(Game, UndoBringsBackCapturedStonesAndKo) {
  Game g = game_from_ascii(kTripleKo, {.superko = Superko::kNone});
  ASSERT_EQ(g.play(gtp(g.board(), "C7")), Legality::kLegal);
  ASSERT_EQ(g.play(gtp(g.board(), "B3")), Legality::kLegal);
  ASSERT_TRUE(g.undo());
  EXPECT_EQ(g.board().ko_point(), gtp(g.board(), "B7"));
  EXPECT_EQ(g.legal(gtp(g.board(), "B7"), Color::kWhite), Legality::kKo);
  ASSERT_TRUE(g.undo());
  EXPECT_EQ(ascii(g.board()), testing::drawn(kTripleKo));
}

TEST(Score, AreaScoreCountsStonesAndSurroundedPoints) {
  const Board b = board_from_ascii(R"(
    . X O . .
    X X O . .
    . X O O O
    X X O . .
    . X O . O)");
  const Score s = area_score(b);
  EXPECT_EQ(s.black, 10);
  EXPECT_EQ(s.white, 15);
  EXPECT_DOUBLE_EQ(s.margin(0.5), -5.5);
}

TEST(Score, NeutralPointsCountForNobody) {
  const Board b = board_from_ascii(R"(
    X . O
    X . O
    X . O)");
  const Score s = area_score(b);
  EXPECT_EQ(s.black, 3);
  EXPECT_EQ(s.white, 3);
}

TEST(Score, TerritoryWithDeadStones) {
  const Board b = board_from_ascii(R"(
    . . . X O
    . O . X O
    . . . X O
    . . . X O
    . . . X O)");
  const Score area = area_score(b);
  EXPECT_EQ(area.black, 5);
  EXPECT_EQ(area.white, 6);
  const Vertex dead[] = {gtp(b, "B4")};
  const Score territory = territory_score(b, dead);
  EXPECT_EQ(territory.black, 15 + 1);  // 15 points of territory, one prisoner
  EXPECT_EQ(territory.white, 0);
  EXPECT_EQ(territory_score(b, {}).black, 0);  // without the dead stone, the area is neutral
}

bool alive_at(const Board& b, std::string_view v) { return benson_alive(b)[gtp(b, v).index()]; }

TEST(Benson, TwoOnePointEyesAreUnconditionallyAlive) {
  const Board b = board_from_ascii(R"(
    . X . X .
    X X X X X
    . . . . .
    . . . . .
    . . . . .)");
  EXPECT_TRUE(alive_at(b, "B5"));
  EXPECT_TRUE(alive_at(b, "E4"));
}

TEST(Benson, OneTwoPointEyeIsNotUnconditionallyAlive) {
  const Board b = board_from_ascii(R"(
    . . X . .
    X X X . .
    . . . . .
    . . . . .
    . . . . .)");
  EXPECT_FALSE(alive_at(b, "C5"));
}

TEST(Benson, AnEyeHoldingAnOpponentStoneStillCounts) {
  const Board b = board_from_ascii(R"(
    . O X . X
    X X X X X
    . . . . .
    . . . . .
    . . . . .)");
  EXPECT_TRUE(alive_at(b, "C5"));
  EXPECT_FALSE(alive_at(b, "B5"));
}

TEST(Benson, TwoChainsCanLiveOnSharedEyes) {
  // The right-hand chain's only vital regions, C5 and D4, are shared with the left chain.
  const Board b = board_from_ascii(R"(
    . X . X X
    X X X . X
    . . . X X
    . . . . .
    . . . . .)");
  EXPECT_TRUE(alive_at(b, "B5"));
  EXPECT_TRUE(alive_at(b, "E5"));
}

TEST(Position, OfAGameAndMovedOnAgree) {
  Game g(9);
  Position start = position_of(g, Color::kBlack);
  EXPECT_EQ(start.board, &g.board());
  EXPECT_TRUE(start.last_move.is_none());
  EXPECT_TRUE(start.second_last_move.is_none());
  EXPECT_EQ(start.move_number, 1);
  Position moved = start;
  const Vertex moves[] = {gtp(g.board(), "C3"), Vertex::pass(), gtp(g.board(), "D4")};
  for (const Vertex v : moves) {
    const Color c = g.to_move();
    ASSERT_EQ(g.play(v), Legality::kLegal);
    advance(moved, v, c);
    const Position p = position_of(g, g.to_move());
    EXPECT_EQ(p.last_move, moved.last_move);
    EXPECT_EQ(p.second_last_move, moved.second_last_move);
    EXPECT_EQ(p.move_number, moved.move_number);
    EXPECT_EQ(p.to_move, moved.to_move);
  }
  EXPECT_EQ(moved.last_move, moves[2]);
  EXPECT_TRUE(moved.second_last_move.is_pass());
  EXPECT_EQ(moved.move_number, 4);
  EXPECT_EQ(moved.to_move, Color::kWhite);
}

}  // namespace
}  // namespace hane
