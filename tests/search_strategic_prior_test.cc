// The search's strategic prior (search/strategic_prior.h): its parts worked out by hand, and the
// search's root priors re-weighted exactly as it says.
#include "search/strategic_prior.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "go/game.h"
#include "go_fixtures.h"
#include "search/search.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;

TEST(StrategicPrior, EmptyTriangleNeedsThreeOwnStonesAndAnEmptyFourthPoint) {
  const Board b = board_from_ascii(R"(
    .....
    .X...
    .XO..
    .....
    .....
  )");
  const Color black = Color::kBlack;
  EXPECT_TRUE(makes_empty_triangle(b, b.at(0, 1), black));   // with (1,1) (1,2); (0,2) empty
  EXPECT_FALSE(makes_empty_triangle(b, b.at(2, 1), black));  // (2,2) is White's
  EXPECT_TRUE(makes_empty_triangle(b, b.at(0, 2), black));   // with (1,1) (1,2); (0,1) empty
  EXPECT_FALSE(makes_empty_triangle(b, b.at(1, 3), black));  // a straight line of three
  EXPECT_FALSE(makes_empty_triangle(b, b.at(1, 0), black));
  EXPECT_FALSE(makes_empty_triangle(b, b.at(3, 3), black));  // far from the stones
  EXPECT_FALSE(makes_empty_triangle(b, b.at(0, 1), Color::kWhite));  // not White's stones

  // In the corner, against the edge; and a full 2x2 square is not a triangle.
  const Board corner = board_from_ascii(R"(
    .X...
    X....
    .....
    ..XX.
    ..X..
  )");
  EXPECT_TRUE(makes_empty_triangle(corner, corner.at(0, 0), black));
  EXPECT_TRUE(makes_empty_triangle(corner, corner.at(1, 1), black));  // with (1,0) (0,1); (0,0) empty
  EXPECT_FALSE(makes_empty_triangle(corner, corner.at(3, 4), black));  // fills the square of four
  EXPECT_TRUE(makes_empty_triangle(corner, corner.at(1, 4), black));   // with (2,3) (2,4); (1,3) empty
}

TEST(StrategicPrior, PhaseFallsLinearlyToZeroAtHalfTheBoard) {
  EXPECT_DOUBLE_EQ(strategic_phase(1, 361), 1.0);
  EXPECT_DOUBLE_EQ(strategic_phase(91, 361), 1.0 - 90 / 180.5);
  EXPECT_DOUBLE_EQ(strategic_phase(181, 361), 1.0 - 180 / 180.5);
  EXPECT_DOUBLE_EQ(strategic_phase(182, 361), 0.0);
  EXPECT_DOUBLE_EQ(strategic_phase(300, 361), 0.0);
  EXPECT_DOUBLE_EQ(strategic_phase(41, 81), 1.0 - 40 / 40.5);
  EXPECT_DOUBLE_EQ(strategic_phase(1, 4), 1.0);  // a 2x2 board: half is 2 points
  EXPECT_DOUBLE_EQ(strategic_phase(2, 4), 0.5);
}

TEST(StrategicPrior, KindOddsAreTheLearnedOrder) {
  using K = StrategicKind;
  EXPECT_GT(strategic_kind_odds(K::kOpen), strategic_kind_odds(K::kContest));
  EXPECT_GT(strategic_kind_odds(K::kContest), strategic_kind_odds(K::kReduce));
  EXPECT_GT(strategic_kind_odds(K::kReduce), strategic_kind_odds(K::kExtend));
  EXPECT_GT(strategic_kind_odds(K::kExtend), 0);
  EXPECT_LT(strategic_kind_odds(K::kSecure), 0);
  EXPECT_LT(strategic_kind_odds(K::kInvade), strategic_kind_odds(K::kSecure));
  EXPECT_EQ(strategic_kind_odds(K::kNone), 0);
}

TEST(StrategicPrior, TermAddsTheEmptyTrianglePenaltyToThePhasedOdds) {
  const Board b = board_from_ascii(R"(
    .........
    .X.......
    .X.......
    .........
    .........
    .........
    .........
    .........
    .........
  )");
  BoardMaps maps;
  board_maps(b, nullptr, maps);
  const Vertex tri = b.at(0, 1), plain = b.at(6, 6);
  const int move = 21;  // phase 1 - 20/40.5 on 9x9
  const double phase = strategic_phase(move, 81);
  EXPECT_DOUBLE_EQ(strategic_term(b, maps, tri, Color::kBlack, move),
                   strategic_kind_odds(strategic_kind(b, maps, tri, Color::kBlack)) * phase + kEmptyTrianglePenalty);
  EXPECT_DOUBLE_EQ(strategic_term(b, maps, plain, Color::kBlack, move),
                   strategic_kind_odds(strategic_kind(b, maps, plain, Color::kBlack)) * phase);
  // After half the board only the empty triangle is left.
  EXPECT_DOUBLE_EQ(strategic_term(b, maps, tri, Color::kBlack, 60), kEmptyTrianglePenalty);
  EXPECT_DOUBLE_EQ(strategic_term(b, maps, plain, Color::kBlack, 60), 0.0);
}

TEST(StrategicPrior, ReweightKeepsTheSumAndMultipliesByTheExponentOfTheTerm) {
  const Board b = board_from_ascii(R"(
    .........
    .X.......
    .X.......
    .........
    ......O..
    .........
    .........
    .........
    .........
  )");
  BoardMaps maps;
  board_maps(b, nullptr, maps);
  std::vector<Vertex> moves;
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 9; ++x) {
      if (b.is_empty(b.at(x, y))) moves.push_back(b.at(x, y));
    }
  }
  std::vector<float> p(moves.size());
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<float>(1 + i % 7);
  const double sum = std::accumulate(p.begin(), p.end(), 0.0);
  std::vector<float> q = p;
  const double weight = 1.5;
  strategic_reweight(b, maps, Color::kBlack, 5, weight, moves, q);
  EXPECT_NEAR(std::accumulate(q.begin(), q.end(), 0.0), sum, 1e-3);
  // q_i / p_i = c · exp(weight · t_i) for one c.
  const double c = q[0] / p[0] / std::exp(weight * strategic_term(b, maps, moves[0], Color::kBlack, 5));
  for (size_t i = 0; i < moves.size(); ++i) {
    const double expected = c * p[i] * std::exp(weight * strategic_term(b, maps, moves[i], Color::kBlack, 5));
    EXPECT_NEAR(q[i], expected, 1e-5 * expected) << i;
  }
  // Weight 0 changes nothing.
  std::vector<float> same = p;
  strategic_reweight(b, maps, Color::kBlack, 5, 0.0, moves, same);
  for (size_t i = 0; i < p.size(); ++i) EXPECT_FLOAT_EQ(same[i], p[i]);
}

TEST(StrategicPrior, TheSearchsRootPriorsAreTheGuessersReweighted) {
  const std::string model = std::string(HANE_TEST_DATA_DIR) + "/../../patterns/kgs-3x3.model";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "no shipped model at " << model;
  Game g(9);
  for (const char* m : {"C3", "G7", "C4", "G6", "D3"}) ASSERT_EQ(g.play(gtp(g.board(), m)), Legality::kLegal);
  auto priors = [&](double weight) {
    auto s = Search::create({.prior = model, .strategic_weight = weight, .threads = 1, .playouts = 50});
    EXPECT_TRUE(s.ok());
    std::vector<float> out(Board::kMaxVertices, 0.0f);
    for (const MoveStats& m : (*s)->search(g, Color::kWhite, {.playouts = 50}).children) {
      if (m.move.is_point()) out[m.move.index()] = static_cast<float>(m.prior);
    }
    return out;
  };
  const std::vector<float> plain = priors(0), strategic = priors(2);
  const Board& b = g.board();
  const PointSet dead = dead_stones_by_tactics(b, Color::kWhite);
  BoardMaps maps;
  board_maps(b, &dead, maps);
  // strategic / plain = c · exp(2 t) at every point: the ratios, divided by exp(2 t), agree.
  std::vector<double> c;
  int triangles = 0;
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 9; ++x) {
      const Vertex v = b.at(x, y);
      if (plain[v.index()] <= 1e-4f) continue;
      const double t = strategic_term(b, maps, v, Color::kWhite, position_of(g, Color::kWhite).move_number);
      c.push_back(strategic[v.index()] / plain[v.index()] / std::exp(2 * t));
      triangles += makes_empty_triangle(b, v, Color::kWhite);
    }
  }
  ASSERT_GT(c.size(), 30u);
  EXPECT_GT(triangles, 0);  // the position has a move the penalty lowers (next to G7 G6)
  for (double ci : c) EXPECT_NEAR(ci, c[0], 1e-3 * c[0]);
}

}  // namespace
}  // namespace hane
