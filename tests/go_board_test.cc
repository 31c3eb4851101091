#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "go/board.h"
#include "go/random.h"
#include "go/zobrist.h"
#include "go_fixtures.h"

namespace hane {
namespace {

using testing::ascii;
using testing::board_from_ascii;
using testing::drawn;
using testing::gtp;

TEST(Vertex, GtpAndSgfText) {
  const Geometry g(19);
  EXPECT_EQ(to_gtp(g.at(3, 15), 19), "D4");
  EXPECT_EQ(to_gtp(g.at(8, 0), 19), "J19");  // I is skipped
  EXPECT_EQ(to_gtp(Vertex::pass(), 19), "pass");
  EXPECT_EQ(from_gtp("d4", 19), g.at(3, 15));
  EXPECT_EQ(from_gtp("PASS", 19), Vertex::pass());
  EXPECT_EQ(from_gtp("I5", 19), std::nullopt);
  EXPECT_EQ(from_gtp("T20", 19), std::nullopt);
  EXPECT_EQ(from_gtp("A0", 19), std::nullopt);
  EXPECT_EQ(from_gtp("Z25", 25), Geometry(25).at(24, 0));
  EXPECT_EQ(to_sgf(g.at(3, 15), 19), "dp");
  EXPECT_EQ(from_sgf("dp", 19), g.at(3, 15));
  EXPECT_EQ(from_sgf("", 19), Vertex::pass());
  EXPECT_EQ(from_sgf("tt", 19), Vertex::pass());
  EXPECT_EQ(from_sgf("tt", 21), Geometry(21).at(19, 19));  // a real point on 21x21
  EXPECT_EQ(from_sgf("ss", 9), std::nullopt);               // outside 9x9
  EXPECT_EQ(from_sgf("a", 9), std::nullopt);
}

TEST(Vertex, PaddingReachesDistanceThreeAsWall) {
  for (int size : {2, 9, 19, 25}) {
    const Board b(size);
    const Geometry& g = b.geometry();
    for (int y = 0; y < size; ++y) {
      for (int x = 0; x < size; ++x) {
        for (int dy = -3; dy <= 3; ++dy) {
          for (int dx = -3; dx <= 3; ++dx) {
            if (std::abs(dx) + std::abs(dy) > 3) continue;
            const Vertex v(g.at(x, y).index() + dy * g.stride + dx);
            const bool on = g.on_board(x + dx, y + dy);
            ASSERT_EQ(b.color(v) != Color::kWall, on) << size << " " << x << "," << y << " " << dx << "," << dy;
          }
        }
      }
    }
  }
}

TEST(Board, SingleCapture) {
  Board b = board_from_ascii(R"(
    . X . . .
    X O . . .
    . X . . .
    . . . . .
    . . . . .)");
  EXPECT_EQ(b.liberties(gtp(b, "B4")), 1);
  ASSERT_EQ(b.play(gtp(b, "C4"), Color::kBlack), Legality::kLegal);
  EXPECT_EQ(ascii(b), drawn(R"(
    . X . . .
    X . X . .
    . X . . .
    . . . . .
    . . . . .)"));
  EXPECT_EQ(b.prisoners(Color::kBlack), 1);
  ASSERT_EQ(b.last_removed().size(), 1u);
  EXPECT_EQ(Vertex(b.last_removed()[0]), gtp(b, "B4"));
  EXPECT_EQ(b.liberties(gtp(b, "C4")), 4);
}

TEST(Board, CaptureOfTwoChainsAtOnce) {
  Board b = board_from_ascii(R"(
    O X . . .
    . O X . .
    O X . . .
    X . . . .
    . . . . .)");
  // White A5, B4 and A3 are three chains whose last liberty is A4.
  ASSERT_EQ(b.play(gtp(b, "A4"), Color::kBlack), Legality::kLegal);
  EXPECT_EQ(ascii(b), drawn(R"(
    . X . . .
    X . X . .
    . X . . .
    X . . . .
    . . . . .)"));
  EXPECT_EQ(b.prisoners(Color::kBlack), 3);
  EXPECT_EQ(b.last_removed().size(), 3u);
  EXPECT_EQ(b.liberties(gtp(b, "A4")), 3);
}

TEST(Board, CaptureThatLooksLikeSuicide) {
  Board b = board_from_ascii(R"(
    . O X . .
    O X . . .
    . . . . .
    . . . . .
    . . . . .)");
  // A5 for Black would be suicide only if nothing is captured; B5 (white) has only A5 left.
  EXPECT_EQ(b.liberties(gtp(b, "B5")), 1);
  ASSERT_EQ(b.play(gtp(b, "A5"), Color::kBlack), Legality::kLegal);
  EXPECT_EQ(b.color(gtp(b, "B5")), Color::kEmpty);
  EXPECT_EQ(b.color(gtp(b, "A4")), Color::kWhite);
  EXPECT_EQ(b.liberties(gtp(b, "A5")), 1);
}

TEST(Board, SuicideIsRefusedAndLeavesTheBoardAsItWas) {
  Board b = board_from_ascii(R"(
    . O . . .
    O O . . .
    . . . . .
    . . . . .
    . . . . .)");
  const std::string before = ascii(b);
  const uint64_t hash = b.hash();
  EXPECT_EQ(b.play(gtp(b, "A5"), Color::kBlack), Legality::kSuicide);
  EXPECT_EQ(ascii(b), before);
  EXPECT_EQ(b.hash(), hash);
  EXPECT_EQ(b.play(gtp(b, "B5"), Color::kBlack), Legality::kOccupied);
  EXPECT_EQ(b.play(Vertex::none(), Color::kBlack), Legality::kOffBoard);
  EXPECT_EQ(b.play(gtp(b, "A5"), Color::kWhite), Legality::kLegal);  // filling own eye is legal
}

TEST(Board, MultiStoneSuicideWhenAllowedRemovesTheChain) {
  Board b = board_from_ascii(R"(
    X . O . .
    O O . . .
    . . . . .
    . . . . .
    . . . . .)", /*allow_suicide=*/true);
  // B5 joins A5 into a chain with no liberty and captures nothing.
  const uint64_t expected = b.hash_after(gtp(b, "B5"), Color::kBlack);
  ASSERT_EQ(b.play(gtp(b, "B5"), Color::kBlack), Legality::kLegal);
  EXPECT_EQ(ascii(b), drawn(R"(
    . . O . .
    O O . . .
    . . . . .
    . . . . .
    . . . . .)"));
  EXPECT_EQ(b.prisoners(Color::kWhite), 2);
  EXPECT_EQ(b.hash(), expected);
  EXPECT_EQ(b.hash(), board_from_ascii(ascii(b)).hash());
}

TEST(Board, KoAndItsRelease) {
  Board b = board_from_ascii(R"(
    . . . . .
    . X O . .
    X O . O .
    . X O . .
    . . . . .)");
  ASSERT_EQ(b.play(gtp(b, "C3"), Color::kBlack), Legality::kLegal);  // takes the ko
  EXPECT_EQ(b.color(gtp(b, "B3")), Color::kEmpty);
  EXPECT_EQ(b.ko_point(), gtp(b, "B3"));
  EXPECT_EQ(b.ko_color(), Color::kWhite);
  EXPECT_EQ(b.legal(gtp(b, "B3"), Color::kWhite), Legality::kKo);
  EXPECT_EQ(b.legal(gtp(b, "B3"), Color::kBlack), Legality::kLegal);  // binds White only
  // A ko threat elsewhere and its answer release the ko.
  ASSERT_EQ(b.play(gtp(b, "E1"), Color::kWhite), Legality::kLegal);
  EXPECT_EQ(b.ko_point(), Vertex::none());
  ASSERT_EQ(b.play(gtp(b, "E2"), Color::kBlack), Legality::kLegal);
  EXPECT_EQ(b.play(gtp(b, "B3"), Color::kWhite), Legality::kLegal);  // retakes
  EXPECT_EQ(b.ko_point(), gtp(b, "C3"));
  // A pass also releases it.
  ASSERT_EQ(b.play(Vertex::pass(), Color::kBlack), Legality::kLegal);
  EXPECT_EQ(b.ko_point(), Vertex::none());
}

TEST(Board, SnapbackIsNotKo) {
  Board b = board_from_ascii(R"(
    . . . . . .
    X X X X . .
    X O O O X .
    X O . . O X
    X O O O O X
    . X X X X .)");
  // Black throws in at C3; White captures it at D3 taking one stone; Black retakes at C3,
  // capturing the whole white chain (snapback), which is not a ko.
  ASSERT_EQ(b.play(gtp(b, "C3"), Color::kBlack), Legality::kLegal);
  ASSERT_EQ(b.play(gtp(b, "D3"), Color::kWhite), Legality::kLegal);
  EXPECT_EQ(b.color(gtp(b, "C3")), Color::kEmpty);
  EXPECT_EQ(b.ko_point(), Vertex::none());  // the capturing chain has more than one stone
  ASSERT_EQ(b.play(gtp(b, "C3"), Color::kBlack), Legality::kLegal);
  EXPECT_EQ(b.prisoners(Color::kBlack), 10);
  EXPECT_EQ(ascii(b), drawn(R"(
    . . . . . .
    X X X X . .
    X . . . X .
    X . X . . X
    X . . . . X
    . X X X X .)"));
}

TEST(Board, ExactLibertiesCountASharedPointOnce) {
  Board b = board_from_ascii(R"(
    . . . . .
    . X . . .
    . . . . .
    . X . . .
    . . . . .)");
  ASSERT_EQ(b.play(gtp(b, "B3"), Color::kBlack), Legality::kLegal);
  EXPECT_EQ(b.chain_size(gtp(b, "B4")), 3);
  EXPECT_EQ(b.liberties(gtp(b, "B2")), 8);
  ASSERT_EQ(b.play(gtp(b, "C4"), Color::kWhite), Legality::kLegal);
  EXPECT_EQ(b.liberties(gtp(b, "B4")), 7);
  EXPECT_EQ(b.liberties(gtp(b, "C4")), 3);
  Vertex libs[8];
  EXPECT_EQ(b.liberties_of(gtp(b, "C4"), libs), 3);
}

TEST(Board, HashAfterMatchesPlayAndRecomputation) {
  Board b = board_from_ascii(R"(
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .)");
  const uint64_t predicted = b.hash_after(gtp(b, "C4"), Color::kBlack);
  ASSERT_EQ(b.play(gtp(b, "C4"), Color::kBlack), Legality::kLegal);  // captures B4
  EXPECT_EQ(b.hash(), predicted);
  EXPECT_EQ(b.hash(), board_from_ascii(ascii(b)).hash());
  EXPECT_NE(b.hash(), Board(5).hash());
}

TEST(Board, EyesAtCentreEdgeAndCorner) {
  // Corner: no opponent diagonal allowed.
  Board b = board_from_ascii(". X . . .\nX X . . .\n. . . . .\n. . . . .\n. . . . .");
  EXPECT_TRUE(b.is_eye(gtp(b, "A5"), Color::kBlack));
  EXPECT_FALSE(b.is_eye(gtp(b, "A5"), Color::kWhite));
  b = board_from_ascii(". X . . .\nX O . . .\n. . . . .\n. . . . .\n. . . . .");
  EXPECT_FALSE(b.is_eye(gtp(b, "A5"), Color::kBlack));
  // Edge: likewise.
  b = board_from_ascii("X . X . .\n. X . . .\n. . . . .\n. . . . .\n. . . . .");
  EXPECT_TRUE(b.is_eye(gtp(b, "B5"), Color::kBlack));
  b = board_from_ascii("X . X . .\nO X . . .\n. . . . .\n. . . . .\n. . . . .");
  EXPECT_FALSE(b.is_eye(gtp(b, "B5"), Color::kBlack));
  // Centre: one opponent diagonal is still an eye, two are not.
  b = board_from_ascii(". . . . .\n. O X . .\n. X . X .\n. . X . .\n. . . . .");
  EXPECT_TRUE(b.is_eye(gtp(b, "C3"), Color::kBlack));
  b = board_from_ascii(". . . . .\n. O X . .\n. X . X .\n. . X O .\n. . . . .");
  EXPECT_FALSE(b.is_eye(gtp(b, "C3"), Color::kBlack));
  // A neighbour that is empty or the opponent's is never an eye.
  b = board_from_ascii(". . . . .\n. . X . .\n. X . . .\n. . X . .\n. . . . .");
  EXPECT_FALSE(b.is_eye(gtp(b, "C3"), Color::kBlack));
}

// The bytes of a board object (its fields, stale entries and padding included: undo() must
// restore even what no accessor reads).
std::vector<unsigned char> bytes_of(const Board& b) {
  std::vector<unsigned char> out(sizeof(Board));
  std::memcpy(out.data(), static_cast<const void*>(&b), sizeof(Board));
  return out;
}

// Everything a board tells: per point its colour, neighbour counts and, for stones, chain head,
// next stone, size and liberties; the empty points and last_removed() in order; ko, hash and
// prisoners.
std::vector<int> state_of(const Board& b) {
  std::vector<int> out;
  for (int i = 0; i < b.geometry().num_vertices(); ++i) {
    const Vertex v(i);
    out.push_back(static_cast<int>(b.color(v)));
    if (b.color(v) == Color::kWall) continue;
    out.push_back(b.empty_neighbours(v) | b.neighbours_or_wall(v, Color::kBlack) << 4 |
                  b.neighbours_or_wall(v, Color::kWhite) << 8);
    if (!b.is_stone(v)) continue;
    out.push_back(b.chain_head(v).index());
    out.push_back(b.next_in_chain(v).index());
    out.push_back(b.chain_size(v));
    Vertex libs[Board::kMaxVertices];
    const int n = b.liberties_of(v, libs);
    out.push_back(n);
    EXPECT_EQ(n, b.liberties(v));
    for (int k = 0; k < n; ++k) out.push_back(libs[k].index());
  }
  out.insert(out.end(), b.empty_points().begin(), b.empty_points().end());
  out.push_back(-1);
  out.insert(out.end(), b.last_removed().begin(), b.last_removed().end());
  out.push_back(-1);
  out.push_back(b.ko_point().index());
  out.push_back(static_cast<int>(b.ko_color()));
  out.push_back(static_cast<int>(static_cast<uint32_t>(b.hash())));
  out.push_back(static_cast<int>(static_cast<uint32_t>(b.hash() >> 32)));
  out.push_back(b.prisoners(Color::kBlack));
  out.push_back(b.prisoners(Color::kWhite));
  return out;
}

// A uniformly random legal point for c (eyes included), or pass when there is none.
Vertex random_legal(const Board& b, Color c, Rng& rng) {
  std::vector<Vertex> legal;
  for (const int16_t p : b.empty_points()) {
    if (b.legal(Vertex(p), c) == Legality::kLegal) legal.emplace_back(p);
  }
  return legal.empty() ? Vertex::pass() : legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

TEST(Board, UndoRestoresEveryByteAndRecordedPlayEqualsPlay) {
  for (const auto& [size, suicide] : {std::pair{9, false}, std::pair{19, false}, std::pair{9, true}, std::pair{5, true}}) {
    Rng rng(static_cast<uint64_t>(size) * 2 + suicide);
    Board::UndoLog log;
    int captures = 0, undone = 0;
    for (int game = 0; game < (size == 19 ? 2 : 6); ++game) {
      Board b(size, suicide), plain(size, suicide), recorded(size, suicide);
      Board::UndoLog kept;
      Color c = Color::kBlack;
      for (int move = 0; move < 3 * size * size; ++move) {
        // A read: up to 8 moves recorded, then taken back one by one, each undo leaving b as it
        // was before that move (a field one move forgot could otherwise be mended by the undo
        // of an earlier move that saved it).
        std::vector<std::vector<unsigned char>> before{bytes_of(b)};
        Color r = c;
        const int depth = 1 + static_cast<int>(rng.below(8));
        for (int k = 0; k < depth; ++k) {
          const Vertex v = random_legal(b, r, rng);
          if (v.is_pass()) break;
          b.play_legal(v, r, log);
          before.push_back(bytes_of(b));
          captures += !b.last_removed().empty();
          r = opponent(r);
        }
        while (log.moves() > 0) {
          b.undo(log);
          before.pop_back();
          ASSERT_EQ(bytes_of(b), before.back()) << "size " << size << " game " << game << " move " << move
                                                << " depth " << before.size();
          ++undone;
        }
        // The game goes on, played plainly and with a log that is never undone.
        const Vertex v = random_legal(b, c, rng);
        if (v.is_pass()) break;
        b.play_legal(v, c);
        plain.play_legal(v, c);
        recorded.play_legal(v, c, kept);
        ASSERT_EQ(state_of(recorded), state_of(plain)) << "size " << size << " game " << game << " move " << move;
        c = opponent(c);
      }
    }
    EXPECT_GT(captures, 100) << size;
    EXPECT_GT(undone, 1000) << size;
  }
}

}  // namespace
}  // namespace hane
