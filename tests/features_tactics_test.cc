#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "features/tactics.h"
#include "go/board.h"
#include "playout/uniform.h"
#include "go/random.h"
#include "go_fixtures.h"

namespace hane {
namespace {

using testing::board_from_ascii;

using testing::B;
using testing::W;

// Points are written (x, y) from the top-left corner, as the fixtures are drawn.
Vertex xy(const Board& b, int x, int y) { return b.at(x, y); }

// --- Captures ------------------------------------------------------------------------------------

TEST(Tactics, SingleCapture) {
  const Board b = board_from_ascii(R"(
    . . . . .
    . X O X .
    . . X . .
    . . . . .
    . . . . .)");
  // O has one liberty above it.
  const MoveFacts f = move_facts(b, xy(b, 2, 0), B);
  EXPECT_EQ(capture_size(b, xy(b, 2, 0), B), 1);
  EXPECT_EQ(f.capture_size, 1);
  EXPECT_EQ(f.captured_chains, 1);
  EXPECT_EQ(f.liberties, 3);  // two empty neighbours and the captured point
  EXPECT_FALSE(f.self_atari);
  EXPECT_FALSE(f.ko);
  EXPECT_EQ(f.chain_size, 1);
  EXPECT_EQ(capture_size(b, xy(b, 0, 0), B), 0);
}

TEST(Tactics, CapturesFourChainsAtOnce) {
  const Board b = board_from_ascii(R"(
    . . O . .
    . O X O .
    O X . X O
    . O X O .
    . . O . .)");
  const Vertex v = xy(b, 2, 2);
  EXPECT_EQ(capture_size(b, v, W), 4);
  const MoveFacts f = move_facts(b, v, W);
  EXPECT_EQ(f.capture_size, 4);
  EXPECT_EQ(f.captured_chains, 4);
  EXPECT_EQ(f.liberties, 4);
  EXPECT_EQ(liberties_after(b, v, W, 100), 4);
  EXPECT_FALSE(f.self_atari);
  // The merged white chain: the move joins nothing (its neighbours were all black).
  EXPECT_EQ(f.chain_size, 1);
}

TEST(Tactics, CaptureOfBigChainFreesOnlyTouchingPoints) {
  // The stone at A5 captures two stones; only the one next to it becomes its liberty, and
  // black's A4 keeps it from having any other: a self-atari that captures (not a ko: 2 stones).
  const Board b = board_from_ascii(R"(
    . X X O .
    X O O . .
    . . . . .
    . . . . .
    . . . . .)");
  const Vertex v = xy(b, 0, 0);
  const MoveFacts f = move_facts(b, v, W);
  EXPECT_EQ(f.capture_size, 2);
  EXPECT_EQ(f.liberties, 1);
  EXPECT_TRUE(f.self_atari);
  EXPECT_FALSE(f.ko);
  // A4 (black, 2 liberties including A5) is left in atari.
  EXPECT_EQ(f.atari_chains, 1);
  EXPECT_EQ(f.atari_stones, 1);
}

TEST(Tactics, KoCapture) {
  const Board b = board_from_ascii(R"(
    . X O .
    X O . O
    . X O .
    . . . .)");
  const Vertex v = xy(b, 2, 1);
  const MoveFacts f = move_facts(b, v, B);
  EXPECT_EQ(f.capture_size, 1);
  EXPECT_TRUE(f.self_atari);
  EXPECT_TRUE(f.ko);
  EXPECT_EQ(f.liberties, 1);
  EXPECT_EQ(f.chain_size, 1);
  // The board agrees: after the capture White may not retake at once.
  Board after = b;
  after.play_legal(v, B);
  EXPECT_EQ(after.ko_point(), xy(b, 1, 1));
}

TEST(Tactics, SnapbackThrowInCaptureAndRecapture) {
  Board b = board_from_ascii(R"(
    . . . . . .
    . . . . . .
    . . . . . .
    O O O O O .
    O X X X O .
    O X . . O .)");
  const Vertex throw_in = xy(b, 2, 5), take = xy(b, 3, 5);
  // The throw-in is a lone self-atari that puts the four black stones in atari.
  MoveFacts f = move_facts(b, throw_in, W);
  EXPECT_TRUE(f.self_atari);
  EXPECT_EQ(f.chain_size, 1);
  EXPECT_EQ(f.capture_size, 0);
  EXPECT_EQ(f.atari_chains, 1);
  EXPECT_EQ(f.atari_stones, 4);
  b.play_legal(throw_in, W);
  // Black's capture is itself a self-atari of five stones: the snapback.
  f = move_facts(b, take, B);
  EXPECT_EQ(f.capture_size, 1);
  EXPECT_TRUE(f.self_atari);
  EXPECT_FALSE(f.ko);  // a five-stone chain in atari, not a ko
  EXPECT_EQ(f.chain_size, 5);
  EXPECT_EQ(f.liberties, 1);
  // Black's chain was in atari and still is: nothing saved.
  EXPECT_EQ(f.saved_stones, 0);
  b.play_legal(take, B);
  f = move_facts(b, throw_in, W);
  EXPECT_EQ(f.capture_size, 5);
  EXPECT_EQ(f.captured_chains, 1);
  EXPECT_EQ(f.liberties, 3);
  EXPECT_FALSE(f.self_atari);
}

// --- Atari, save atari, self-atari ---------------------------------------------------------------

TEST(Tactics, DoubleAtari) {
  const Board b = board_from_ascii(R"(
    . . . . .
    X O . O X
    . X . X .
    . . . . .
    . . . . .)");
  const MoveFacts f = move_facts(b, xy(b, 2, 1), B);
  EXPECT_EQ(f.atari_chains, 2);
  EXPECT_EQ(f.atari_stones, 2);
  EXPECT_EQ(f.liberties, 2);
  EXPECT_FALSE(f.self_atari);
  EXPECT_TRUE(f.atari());
}

TEST(Tactics, AtariOnAChainSharingItsLastLibertyWithTheMover) {
  // White's four stones have the liberties A5 and B5. Black at B5 puts them in atari, but its
  // own stone's only liberty is A5 too: White may capture it there.
  const Board b = board_from_ascii(R"(
    . . O X .
    O O O X .
    X X X X .
    . . . . .
    . . . . .)");
  const Vertex v = xy(b, 1, 0);
  const MoveFacts f = move_facts(b, v, B);
  EXPECT_EQ(f.atari_chains, 1);
  EXPECT_EQ(f.atari_stones, 4);
  EXPECT_TRUE(f.self_atari);
  EXPECT_EQ(f.chain_size, 1);
  EXPECT_EQ(f.capture_size, 0);
  // White's capture at A5 leaves its five stones one liberty (B5): Black would retake them all.
  Board after = b;
  after.play_legal(v, B);
  const MoveFacts g = move_facts(after, xy(b, 0, 0), W);
  EXPECT_EQ(g.capture_size, 1);
  EXPECT_EQ(g.liberties, 1);
  EXPECT_TRUE(g.self_atari);
  EXPECT_FALSE(g.ko);  // five stones in atari, not a lone stone
  EXPECT_EQ(g.saved_stones, 0);
}

TEST(Tactics, SaveAtariByExtending) {
  const Board b = board_from_ascii(R"(
    . O . . .
    O X O . .
    . . . . .
    . . . . .
    . . . . .)");
  const MoveFacts f = move_facts(b, xy(b, 1, 2), B);
  EXPECT_EQ(f.saved_stones, 1);
  EXPECT_TRUE(f.save_atari());
  EXPECT_EQ(f.liberties, 3);
  EXPECT_EQ(f.chain_size, 2);
}

TEST(Tactics, ExtendingIntoAtariSavesNothing) {
  const Board b = board_from_ascii(R"(
    . O . . .
    O X O . .
    O . O . .
    O . O . .
    . O . . .)");
  // B3 leaves the pair one liberty (B2).
  const MoveFacts f = move_facts(b, xy(b, 1, 2), B);
  EXPECT_EQ(f.saved_stones, 0);
  EXPECT_EQ(f.liberties, 1);
  EXPECT_TRUE(f.self_atari);
  EXPECT_EQ(f.chain_size, 2);
}

TEST(Tactics, SaveAtariByCapturingANeighbourElsewhere) {
  // Black B4 is in atari (liberty B5). Capturing the white stone C4 at D4 gives it a liberty.
  const Board b = board_from_ascii(R"(
    . . X . .
    O X O . .
    . O X . .
    . . . . .
    . . . . .)");
  const MoveFacts f = move_facts(b, xy(b, 3, 1), B);
  EXPECT_EQ(f.capture_size, 1);
  EXPECT_EQ(f.saved_stones, 1);
  EXPECT_EQ(f.liberties, 4);
  // Extending at B5 also saves it: joined with C5, two liberties (A5, D5).
  const MoveFacts g = move_facts(b, xy(b, 1, 0), B);
  EXPECT_EQ(g.saved_stones, 1);
}

TEST(Tactics, SelfAtariOfABigChain) {
  // Black's pair has two liberties; D4 joins it into three stones with one liberty (A4).
  const Board c = board_from_ascii(R"(
    . . . . . .
    . O O O . .
    . X X . O .
    O O O O . .
    . . . . . .
    . . . . . .)");
  const MoveFacts f = move_facts(c, xy(c, 3, 2), B);
  EXPECT_TRUE(f.self_atari);
  EXPECT_EQ(f.liberties, 1);  // A4
  EXPECT_EQ(f.chain_size, 3);
  EXPECT_EQ(f.saved_stones, 0);
}

TEST(Tactics, SuicideWhereAllowedHasNoLiberties) {
  const Board b = board_from_ascii(R"(
    . O . .
    O . O .
    . O . .
    . . . .)",
                                   /*allow_suicide=*/true);
  const Vertex v = xy(b, 1, 1);
  ASSERT_EQ(b.legal(v, B), Legality::kLegal);
  const MoveFacts f = move_facts(b, v, B);
  EXPECT_EQ(f.liberties, 0);
  EXPECT_FALSE(f.self_atari);
  EXPECT_EQ(liberties_after(b, v, B), 0);
}

TEST(Tactics, LibertiesAfterCountsSharedLibertiesOnce) {
  // C3 joins two black chains that share the liberties B3 and D3... and C2's.
  const Board b = board_from_ascii(R"(
    . . . . .
    . . X . .
    . . . . .
    . . X . .
    . . . . .)");
  const Vertex v = xy(b, 2, 2);
  // Chains C4 (libs C5 B4 D4 C3) and C2 (libs C3 B2 D2 C1); the stone adds B3 and D3.
  EXPECT_EQ(liberties_after(b, v, B, 100), 8);
  EXPECT_EQ(liberties_after(b, v, B, 4), 4);
  EXPECT_EQ(liberties_after(b, v, B, 1), 1);
  // C4 joins B4 and C3, which share the liberty B3: 4 + 4 + 2 (the stone's) - 2 (C4) - 1 = 7.
  const Board c = board_from_ascii(R"(
    . . . . .
    . X . . .
    . . X . .
    . . . . .
    . . . . .)");
  EXPECT_EQ(liberties_after(c, xy(c, 2, 1), B, 100), 7);
  EXPECT_EQ(move_facts(c, xy(c, 2, 1), B).liberties, 4);
}

// --- Ladders -------------------------------------------------------------------------------------

// A plain ladder reader with the same rules as the library's, without pruning: every candidate
// move is played on a copy.
class NaiveLadder {
 public:
  NaiveLadder(Vertex target, Color attacker) : target_(target), attacker_(attacker), defender_(opponent(attacker)) {}
  bool captured(const Board& b) {
    const int libs = b.liberties(target_);
    if (libs == 1) return !defender_escapes(b, 0);
    if (libs == 2) return attacker_captures(b, 0);
    return false;
  }
  bool gave_up() const { return gave_up_; }

 private:
  static constexpr int kMaxPly = 150;
  bool defender_escapes(const Board& b, int ply) {
    if (ply > kMaxPly) return gave_up_ = true;
    std::vector<Vertex> moves;
    for (int y = 0; y < b.size(); ++y) {
      for (int x = 0; x < b.size(); ++x) {
        const Vertex s = b.at(x, y);
        if (b.color(s) != defender_ || b.chain_head(s) != b.chain_head(target_)) continue;
        for (Vertex u : b.neighbours(s)) {
          if (b.color(u) == attacker_ && b.liberties(u) == 1) moves.push_back(b.first_liberty(u));
        }
      }
    }
    moves.push_back(b.first_liberty(target_));
    for (Vertex m : moves) {
      if (b.legal(m, defender_) != Legality::kLegal) continue;
      auto nb = std::make_unique<Board>(b);  // on the heap: boards are large
      nb->play_legal(m, defender_);
      if (nb->color(target_) != defender_) continue;
      const int libs = nb->liberties(target_);
      if (libs >= 3) return true;
      if (libs == 2 && !attacker_captures(*nb, ply + 1)) return true;
    }
    return false;
  }
  bool attacker_captures(const Board& b, int ply) {
    if (ply > kMaxPly) {
      gave_up_ = true;
      return false;
    }
    std::array<Vertex, 2> libs;
    b.liberties_of(target_, libs);
    for (Vertex m : libs) {
      if (b.legal(m, attacker_) != Legality::kLegal) continue;
      auto nb = std::make_unique<Board>(b);
      nb->play_legal(m, attacker_);
      if (nb->liberties(target_) != 1) continue;
      if (!defender_escapes(*nb, ply + 1)) return true;
    }
    return false;
  }
  Vertex target_;
  Color attacker_, defender_;
  bool gave_up_ = false;
};

// The library's answer for a chain, checked against the naive search.
bool captured_checked(const Board& b, Vertex chain, Color attacker) {
  NaiveLadder naive(chain, attacker);
  const bool expected = naive.captured(b);
  EXPECT_FALSE(naive.gave_up());
  const bool got = ladder_captured(b, chain, attacker);
  EXPECT_EQ(got, expected) << b.to_string() << to_gtp(chain, b.size());
  return got;
}

// The classic start: White's stone at D6 (x=3, y=3) has two liberties; Black's atari at D5
// (x=3, y=4) drives it down-right along the diagonal.
constexpr char kLadder[] = R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . X X . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)";

TEST(Ladders, WorksToTheEdge) {
  const Board b = board_from_ascii(kLadder);
  const Vertex atari = xy(b, 3, 4);
  EXPECT_TRUE(ladder_capture(b, atari, B));
  EXPECT_TRUE(captured_checked(b, xy(b, 3, 3), B));  // 2 liberties, Black to move
  // The other atari (E6) lets White run to three liberties.
  EXPECT_FALSE(ladder_capture(b, xy(b, 4, 3), B));
  const MoveFacts f = move_facts(b, atari, B, LadderReading::kRead);
  EXPECT_TRUE(f.ladders_read);
  EXPECT_TRUE(f.ladder_capture);
  EXPECT_EQ(f.atari_chains, 1);
  // Without reading the ladder facts stay off.
  const MoveFacts g = move_facts(b, atari, B);
  EXPECT_FALSE(g.ladders_read);
  EXPECT_FALSE(g.ladder_capture);

  // White in atari: running is not an escape.
  Board after = b;
  after.play_legal(atari, B);
  EXPECT_TRUE(captured_checked(after, xy(b, 3, 3), B));
  const Vertex run = xy(b, 4, 3);
  const MoveFacts r = move_facts(after, run, W, LadderReading::kRead);
  EXPECT_TRUE(r.save_atari());
  EXPECT_EQ(r.liberties, 2);
  EXPECT_FALSE(r.ladder_escape);
  EXPECT_FALSE(ladder_escape(after, run, W));
}

TEST(Ladders, BrokenByABreaker) {
  Board b = board_from_ascii(kLadder);
  b.set_stone(xy(b, 6, 6), W);  // on the diagonal White runs along
  EXPECT_FALSE(ladder_capture(b, xy(b, 3, 4), B));
  EXPECT_FALSE(captured_checked(b, xy(b, 3, 3), B));
  Board after = b;
  after.play_legal(xy(b, 3, 4), B);
  EXPECT_FALSE(captured_checked(after, xy(b, 3, 3), B));
  EXPECT_TRUE(ladder_escape(after, xy(b, 4, 3), W));
  EXPECT_TRUE(move_facts(after, xy(b, 4, 3), W, LadderReading::kRead).ladder_escape);
  // A black stone there instead helps the attacker: the ladder still works.
  b.set_stone(xy(b, 6, 6), B);
  EXPECT_TRUE(ladder_capture(b, xy(b, 3, 4), B));
}

TEST(Ladders, DefenderEscapesByCapturingAnAttackerInAtari) {
  // The ladder from D8 (x=3, y=1) along the top edge: Black's atari at D7 (x=3, y=2), White
  // runs to E8, Black ataris at F8 and White's only way on is E7... With White F9 on the board,
  // Black's D9-E9 pair is in atari once White runs to E8, and White captures it instead.
  const char* kWithout = R"(
    . . . X X . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)";
  Board without = board_from_ascii(kWithout);
  Board with = without;
  with.set_stone(xy(with, 5, 0), W);
  const Vertex atari = xy(with, 3, 2), run = xy(with, 4, 1);
  EXPECT_TRUE(ladder_capture(without, atari, B));
  EXPECT_FALSE(ladder_capture(with, atari, B));
  EXPECT_FALSE(move_facts(with, atari, B, LadderReading::kRead).ladder_capture);
  // Step by step: after the atari and the run, the pair is in atari and Black's F8 atari
  // (x=5, y=1) is answered by the capture at C9 (x=2, y=0).
  with.play_legal(atari, B);
  with.play_legal(run, W);
  ASSERT_EQ(with.liberties(xy(with, 3, 0)), 1);
  with.play_legal(xy(with, 5, 1), B);
  ASSERT_EQ(with.liberties(run), 1);
  EXPECT_FALSE(captured_checked(with, run, B));
  const MoveFacts f = move_facts(with, xy(with, 2, 0), W, LadderReading::kRead);
  EXPECT_EQ(f.capture_size, 2);
  EXPECT_EQ(f.saved_stones, 3);  // the two runners, and F9 (in atari since F8) too
  EXPECT_TRUE(f.ladder_escape);
  // Running on at E7 escapes too: the capture stays available after Black's next atari.
  EXPECT_TRUE(move_facts(with, xy(with, 4, 2), W, LadderReading::kRead).ladder_escape);
}

TEST(Ladders, SmallBoard) {
  // 5x5: White B4 (x=1, y=1) is laddered into the bottom-right corner.
  const Board b = board_from_ascii(R"(
    . X X . .
    X O . . .
    . . . . .
    . . . . .
    . . . . .)");
  EXPECT_TRUE(ladder_capture(b, xy(b, 1, 2), B));
  EXPECT_TRUE(captured_checked(b, xy(b, 1, 1), B));
  // A white stone on the diagonal breaks it.
  Board c = b;
  c.set_stone(xy(c, 3, 2), W);
  EXPECT_FALSE(captured_checked(c, xy(c, 1, 1), B));
}

TEST(Ladders, ChainsWithManyLibertiesAreNotLaddered) {
  const Board b = board_from_ascii(kLadder);
  EXPECT_FALSE(ladder_captured(b, xy(b, 3, 2), W));  // black pair, 4 liberties
  EXPECT_FALSE(ladder_captured(b, xy(b, 0, 0), W));  // not a stone
  EXPECT_FALSE(ladder_captured(b, xy(b, 3, 3), W));  // own colour
}

TEST(Ladders, LimitsGiveUpAsEscape) {
  const Board b = board_from_ascii(kLadder);
  LadderLimits tight;
  tight.max_plies = 4;
  EXPECT_FALSE(ladder_captured(b, xy(b, 3, 3), B, tight));
  tight = {};
  tight.max_nodes = 3;
  EXPECT_FALSE(ladder_captured(b, xy(b, 3, 3), B, tight));
}

// --- Nakade --------------------------------------------------------------------------------------

struct ShapeCase {
  const char* name;
  const char* board;
  EyeShape shape;
  int vital_x, vital_y;
  int size;
};

class NakadeShapes : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(NakadeShapes, VitalPoint) {
  const ShapeCase& sc = GetParam();
  const Board b = board_from_ascii(sc.board);
  const Vertex vital = xy(b, sc.vital_x, sc.vital_y);
  // The same answer from every point of the region.
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      const Vertex p = xy(b, x, y);
      const auto eye = nakade_shape(b, p);
      if (!b.is_empty(p) || !eye) continue;
      EXPECT_EQ(eye->shape, sc.shape) << sc.name;
      EXPECT_EQ(eye->vital, vital) << sc.name;
      EXPECT_EQ(eye->size, sc.size) << sc.name;
      EXPECT_EQ(eye->owner, B) << sc.name;
    }
  }
  const auto eye = nakade_shape(b, vital);
  ASSERT_TRUE(eye.has_value()) << sc.name;
  EXPECT_EQ(eye->shape, sc.shape);
  // As moves: White's nakade (attack) and Black's (defence).
  const MoveFacts attack = move_facts(b, vital, W);
  EXPECT_EQ(attack.nakade_size, sc.size) << sc.name;
  EXPECT_FALSE(attack.nakade_own);
  const MoveFacts defend = move_facts(b, vital, B);
  EXPECT_EQ(defend.nakade_size, sc.size) << sc.name;
  EXPECT_TRUE(defend.nakade_own);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, NakadeShapes,
    ::testing::Values(
        ShapeCase{"straight three", R"(
          . X X X . . .
          X . . . X . .
          . X X X . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .)", EyeShape::kStraightThree, 2, 1, 3},
        ShapeCase{"straight three on the edge", R"(
          X . . . X . .
          . X X X . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .)", EyeShape::kStraightThree, 2, 0, 3},
        ShapeCase{"bent three in the corner", R"(
          . . X . . . .
          . X X . . . .
          X X . . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .)", EyeShape::kBentThree, 0, 0, 3},
        ShapeCase{"bent three", R"(
          . X X . . . .
          X . . X . . .
          X . X . . . .
          . X . . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .)", EyeShape::kBentThree, 1, 1, 3},
        ShapeCase{"pyramid four", R"(
          . X X X . . .
          X . . . X . .
          . X . X . . .
          . . X . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .)", EyeShape::kPyramidFour, 2, 1, 4},
        ShapeCase{"crossed five", R"(
          . . . . . . .
          . . . X . . .
          . . X . X . .
          . X . . . X .
          . . X . X . .
          . . . X . . .
          . . . . . . .)", EyeShape::kCrossedFive, 3, 3, 5},
        ShapeCase{"bulky five", R"(
          . X X . . . .
          X . . X . . .
          X . . . X . .
          . X X X . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .)", EyeShape::kBulkyFive, 2, 2, 5},
        ShapeCase{"bulky five in the corner", R"(
          . . X . . . .
          . . . X . . .
          X X X . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .
          . . . . . . .)", EyeShape::kBulkyFive, 1, 1, 5},
        ShapeCase{"rabbity six", R"(
          . . . . . . .
          . . . X . . .
          . . X . X . .
          . X . . . X .
          . . X . . X .
          . . . X X . .
          . . . . . . .)", EyeShape::kRabbitySix, 3, 3, 6}),
    [](const ::testing::TestParamInfo<ShapeCase>& param_info) {
      std::string name;
      for (const char* p = param_info.param.name; *p; ++p) name += (*p == ' ') ? '_' : *p;
      return name;
    });

TEST(Nakade, ShapesWithoutAVitalPoint) {
  const Board square = board_from_ascii(R"(
    . X X . . .
    X . . X . .
    X . . X . .
    . X X . . .
    . . . . . .
    . . . . . .)");
  EXPECT_FALSE(nakade_shape(square, xy(square, 1, 1)));
  const Board straight_four = board_from_ascii(R"(
    . X X X X . .
    X . . . . X .
    . X X X X . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .)");
  EXPECT_FALSE(nakade_shape(straight_four, xy(straight_four, 2, 1)));
  const Board bent_four = board_from_ascii(R"(
    . X X X . . .
    X . . . X . .
    . X X . X . .
    . . X X . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .)");
  EXPECT_FALSE(nakade_shape(bent_four, xy(bent_four, 2, 1)));
  const Board two_and_seven = board_from_ascii(R"(
    . . X . . . . . X
    X X . X X X X X X
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  EXPECT_FALSE(nakade_shape(two_and_seven, xy(two_and_seven, 0, 0)));  // two points
  EXPECT_FALSE(nakade_shape(two_and_seven, xy(two_and_seven, 4, 0)));  // straight five
  EXPECT_FALSE(nakade_shape(two_and_seven, xy(two_and_seven, 4, 4)));  // open area
  EXPECT_FALSE(nakade_shape(two_and_seven, xy(two_and_seven, 2, 0)));  // a stone
  EXPECT_EQ(eye_shape_name(EyeShape::kBulkyFive), "bulky five");
}

TEST(Nakade, MixedBoundaryIsNotAnEyeSpace) {
  const Board b = board_from_ascii(R"(
    . X X X . . .
    X . . . O . .
    . X X X . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .)");
  EXPECT_FALSE(nakade_shape(b, xy(b, 2, 1)));
  EXPECT_EQ(move_facts(b, xy(b, 2, 1), W).nakade_size, 0);
}

TEST(Nakade, OnlyTheVitalPointIsANakadeMove) {
  const Board b = board_from_ascii(R"(
    . X X X . . .
    X . . . X . .
    . X X X . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .)");
  EXPECT_EQ(move_facts(b, xy(b, 1, 1), W).nakade_size, 0);
  EXPECT_EQ(move_facts(b, xy(b, 2, 1), W).nakade_size, 3);
}

// --- Distances -----------------------------------------------------------------------------------

TEST(Distances, ManhattanCoulomAndEdge) {
  const Geometry g(19);
  const Vertex d4 = g.at(3, 15), q16 = g.at(15, 3), k10 = g.at(9, 9);
  EXPECT_EQ(manhattan_distance(g, d4, d4), 0);
  EXPECT_EQ(manhattan_distance(g, d4, q16), 24);
  EXPECT_EQ(move_distance(g, d4, d4), 0);
  EXPECT_EQ(move_distance(g, d4, g.at(4, 15)), 2);  // adjacent
  EXPECT_EQ(move_distance(g, d4, g.at(4, 14)), 3);  // diagonal
  EXPECT_EQ(move_distance(g, d4, g.at(5, 14)), 5);  // knight's move: 2 + 1 + 2
  EXPECT_EQ(move_distance(g, d4, q16), 36);
  EXPECT_EQ(edge_line(g, g.at(0, 0)), 1);
  EXPECT_EQ(edge_line(g, g.at(18, 7)), 1);
  EXPECT_EQ(edge_line(g, d4), 4);
  EXPECT_EQ(edge_line(g, k10), 10);
  EXPECT_EQ(edge_line(Geometry(9), Geometry(9).at(4, 4)), 5);
  const Board b(19);
  EXPECT_EQ(move_facts(b, d4, B).line, 4);
}

// --- Properties against playing the move ---------------------------------------------------------

// Random positions: `moves` uniformly random moves (random_move) from an empty board.
Board random_position(int size, int moves, Rng& rng, bool allow_suicide = false) {
  Board b(size, allow_suicide);
  Color c = B;
  for (int i = 0; i < moves; ++i) {
    const Vertex v = random_move(b, c, rng);
    b.play(v, c);
    c = opponent(c);
  }
  return b;
}

TEST(TacticsProperty, FactsMatchPlayingTheMove) {
  Rng rng(20240601);
  int checked = 0, self_ataris = 0, captures = 0, saves = 0, ataris = 0, kos = 0, nakades = 0;
  for (int game = 0; game < 600; ++game) {
    const int size = game % 3 == 0 ? 9 : game % 3 == 1 ? 13 : 19;
    const bool suicide = game % 8 == 7;
    const int moves = static_cast<int>(rng.below(static_cast<uint32_t>(2 * size * size)));
    const Board b = random_position(size, moves, rng, suicide);
    for (int16_t e : b.empty_points()) {
      const Vertex v(e);
      for (Color c : {B, W}) {
        if (b.legal(v, c) != Legality::kLegal) continue;
        Board after = b;
        after.play_legal(v, c);
        const bool alive = after.color(v) == c;
        const int exact_libs = alive ? after.liberties(v) : 0;
        const int exact_capture = after.prisoners(c) - b.prisoners(c);
        const MoveFacts f = move_facts(b, v, c);
        ASSERT_EQ(capture_size(b, v, c), exact_capture) << b.to_string() << to_gtp(v, size);
        ASSERT_EQ(f.capture_size, exact_capture);
        ASSERT_EQ(liberties_after(b, v, c, 1000), exact_libs) << b.to_string() << to_gtp(v, size);
        ASSERT_EQ(liberties_after(b, v, c, 2), std::min(exact_libs, 2));
        ASSERT_EQ(f.liberties, std::min(exact_libs, MoveFacts::kLibertyCap));
        ASSERT_EQ(f.self_atari, exact_libs == 1);
        // The playouts' refused self-atari is the same fact, without captures, by chain size.
        for (const int min_stones : {1, 3}) {
          ASSERT_EQ(is_self_atari(b, v, c, min_stones),
                    f.self_atari && f.capture_size == 0 && f.chain_size >= min_stones)
              << b.to_string() << to_gtp(v, size) << " min_stones " << min_stones;
        }
        if (alive) {
          ASSERT_EQ(f.chain_size, after.chain_size(v));
        }
        ASSERT_EQ(f.ko, after.ko_point() != Vertex::none());
        // Stones newly in atari and stones saved from atari, by looking at every stone.
        int atari_stones = 0, saved_stones = 0;
        for (int y = 0; y < size; ++y) {
          for (int x = 0; x < size; ++x) {
            const Vertex s = b.at(x, y);
            if (b.color(s) == opponent(c) && after.color(s) == opponent(c) && after.liberties(s) == 1 &&
                b.liberties(s) != 1) {
              ++atari_stones;
            }
            if (b.color(s) == c && b.liberties(s) == 1 && after.color(s) == c && after.liberties(s) >= 2) {
              ++saved_stones;
            }
          }
        }
        ASSERT_EQ(f.atari_stones, atari_stones) << b.to_string() << to_gtp(v, size);
        ASSERT_EQ(f.saved_stones, saved_stones) << b.to_string() << to_gtp(v, size);
        // The nakade fact is nakade_shape() at its vital point (move_facts filters first).
        const auto eye = nakade_shape(b, v);
        const bool vital = eye && eye->vital == v;
        ASSERT_EQ(f.nakade_size, vital ? eye->size : 0) << b.to_string() << to_gtp(v, size);
        if (vital) {
          ASSERT_EQ(f.nakade_own, eye->owner == c);
          ++nakades;
        }
        ASSERT_EQ(f.line, edge_line(b.geometry(), v));
        ++checked;
        self_ataris += f.self_atari;
        captures += f.capture_size > 0;
        saves += f.saved_stones > 0;
        ataris += f.atari_chains > 0;
        kos += f.ko;
      }
    }
  }
  // The positions exercise every fact.
  EXPECT_GT(checked, 10000);
  EXPECT_GT(self_ataris, 100);
  EXPECT_GT(captures, 100);
  EXPECT_GT(saves, 50);
  EXPECT_GT(ataris, 100);
  EXPECT_GT(kos, 10);
  EXPECT_GT(nakades, 10);
}

TEST(TacticsProperty, LadderReaderMatchesNaiveSearch) {
  Rng rng(77);
  int read = 0, captured = 0;
  LadderLimits generous;
  generous.max_nodes = 1 << 20;
  generous.max_plies = 150;
  for (int game = 0; game < 600; ++game) {
    const int size = game % 3 == 0 ? 9 : game % 3 == 1 ? 13 : 19;
    const int moves = static_cast<int>(rng.below(static_cast<uint32_t>(size * size)));
    const Board b = random_position(size, moves, rng);
    for (int y = 0; y < size; ++y) {
      for (int x = 0; x < size; ++x) {
        const Vertex s = b.at(x, y);
        if (!b.is_stone(s) || b.chain_head(s) != s || b.liberties(s) > 2) continue;
        const Color attacker = opponent(b.color(s));
        NaiveLadder naive(s, attacker);
        const bool expected = naive.captured(b);
        if (naive.gave_up()) continue;
        ASSERT_EQ(ladder_captured(b, s, attacker, generous), expected) << b.to_string() << to_gtp(s, size);
        ++read;
        captured += expected;
      }
    }
  }
  EXPECT_GT(read, 1000);
  EXPECT_GT(captured, 100);
  EXPECT_LT(captured, read);
}

TEST(TacticsProperty, LadderFactsMatchReadingAfterTheMove) {
  Rng rng(99);
  int capture_moves = 0, escape_moves = 0;
  for (int game = 0; game < 60; ++game) {
    const int size = 9 + 2 * static_cast<int>(rng.below(6));
    const Board b = random_position(size, static_cast<int>(rng.below(static_cast<uint32_t>(size * size))), rng);
    for (int16_t e : b.empty_points()) {
      const Vertex v(e);
      for (Color c : {B, W}) {
        if (b.legal(v, c) != Legality::kLegal) continue;
        const MoveFacts f = move_facts(b, v, c, LadderReading::kRead);
        ASSERT_TRUE(f.ladders_read);
        EXPECT_EQ(f.ladder_capture, ladder_capture(b, v, c));
        EXPECT_EQ(f.ladder_escape, ladder_escape(b, v, c));
        // Definitions, read on the board after the move.
        Board after = b;
        after.play_legal(v, c);
        bool expect_capture = false;
        for (Vertex n : b.neighbours(v)) {
          if (b.color(n) == opponent(c) && b.liberties(n) == 2 && after.color(n) == opponent(c) &&
              ladder_captured(after, n, c)) {
            expect_capture = true;
          }
        }
        EXPECT_EQ(f.ladder_capture, expect_capture) << b.to_string() << to_gtp(v, size);
        bool expect_escape = false;  // some saved stone's chain is then safe from ladders
        for (int y = 0; y < size && !expect_escape; ++y) {
          for (int x = 0; x < size; ++x) {
            const Vertex s = b.at(x, y);
            if (b.color(s) == c && b.liberties(s) == 1 && after.color(s) == c && after.liberties(s) >= 2 &&
                !ladder_captured(after, s, opponent(c))) {
              expect_escape = true;
            }
          }
        }
        EXPECT_EQ(f.ladder_escape, expect_escape) << b.to_string() << to_gtp(v, size);
        capture_moves += f.ladder_capture;
        escape_moves += f.ladder_escape;
      }
    }
  }
  EXPECT_GT(capture_moves, 20);
  EXPECT_GT(escape_moves, 20);
}

}  // namespace
}  // namespace hane
