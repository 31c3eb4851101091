// SPSA's arithmetic against values computed by hand (Python, from the formulas in spsa.h), and
// its convergence on a synthetic objective with a known optimum.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "match/spsa.h"

namespace hane {
namespace {

TEST(Spsa, ScheduleFollowsFishtest) {
  // N = 100 pairs, A = 10, C_END = 2, R_END = 0.002:
  //   c = 2 * 100^0.101 = 3.18441745, a = 0.002 * 4 * 110^0.602 = 0.13552156.
  Spsa spsa({{"x", 0, -10, 10, 2, 0.002}}, 100);
  EXPECT_EQ(spsa.big_a(), 10);
  EXPECT_NEAR(spsa.c(0), 3.1844174541, 1e-9);
  EXPECT_NEAR(spsa.a(0), 0.1355215573, 1e-9);
  // At pair 1: c_1 = c, R_1 = a / 11^0.602 / c^2.
  SpsaStep s = spsa.step({1});
  EXPECT_EQ(s.k, 1);
  EXPECT_NEAR(s.c[0], 3.1844174541, 1e-9);
  EXPECT_NEAR(s.r[0], 0.0031552225, 1e-9);
  EXPECT_NEAR(s.plus[0], 3.1844174541, 1e-9);
  EXPECT_NEAR(s.minus[0], -3.1844174541, 1e-9);
  // theta += R c (W - L) flip: 3 wins more than losses, flip +1.
  spsa.update(s, 3, 49);
  EXPECT_NEAR(spsa.theta()[0], 0.0031552225 * 3.1844174541 * 3, 1e-9);
  EXPECT_EQ(spsa.pairs_done(), 49);
  // At pair 50: c_50 = c / 50^0.101 = 2.14503323, R_50 = a / 60^0.602 / c_50^2 = 0.00250434.
  s = spsa.step({-1});
  EXPECT_EQ(s.k, 50);
  EXPECT_NEAR(s.c[0], 2.1450332336, 1e-9);
  EXPECT_NEAR(s.r[0], 0.0025043399, 1e-9);
  // At the last pair c_N = C_END and R_N = R_END exactly.
  spsa.update(s, 0, 50);
  s = spsa.step({1});
  EXPECT_EQ(s.k, 100);
  EXPECT_NEAR(s.c[0], 2, 1e-12);
  EXPECT_NEAR(s.r[0], 0.002, 1e-12);
}

TEST(Spsa, ValuesAndThetaAreClippedToTheRange) {
  Spsa spsa({{"x", 0.95, 0, 1, 0.1, 1}}, 10);
  SpsaStep s = spsa.step({1});
  EXPECT_EQ(s.plus[0], 1);
  EXPECT_NEAR(s.minus[0], 0.95 - s.c[0], 1e-12);
  spsa.update(s, 100, 1);
  EXPECT_EQ(spsa.theta()[0], 1);
  spsa.update(spsa.step({1}), -1000, 1);
  EXPECT_EQ(spsa.theta()[0], 0);
}

TEST(Spsa, RefusesBadParameters) {
  EXPECT_THROW(Spsa({{"x", 0, 1, 1, 0.1, 0.002}}, 10), std::invalid_argument);    // MIN >= MAX
  EXPECT_THROW(Spsa({{"x", 2, 0, 1, 0.1, 0.002}}, 10), std::invalid_argument);    // START outside
  EXPECT_THROW(Spsa({{"x", 0.5, 0, 1, 0, 0.002}}, 10), std::invalid_argument);    // C_END 0
  EXPECT_THROW(Spsa({{"x", 0.5, 0, 1, 0.1, -1}}, 10), std::invalid_argument);     // R_END < 0
  EXPECT_THROW(Spsa({{"x", 0.5, 0, 1, 0.1, 0.002}}, 0), std::invalid_argument);   // no pairs
  EXPECT_THROW(Spsa({}, 10), std::invalid_argument);
}

TEST(Spsa, FlipsArePureFunctionsOfSeedAndBatchAndBalanced) {
  EXPECT_EQ(spsa_flips(7, 3, 5), spsa_flips(7, 3, 5));
  EXPECT_NE(spsa_flips(7, 3, 64), spsa_flips(7, 4, 64));
  EXPECT_NE(spsa_flips(7, 3, 64), spsa_flips(8, 3, 64));
  int plus = 0;
  for (int b = 0; b < 1000; ++b) {
    for (int f : spsa_flips(1, b, 2)) {
      ASSERT_TRUE(f == 1 || f == -1);
      plus += f == 1;
    }
  }
  EXPECT_NEAR(plus, 1000, 100);  // 2000 fair coins: sd 22
}

// The synthetic objective: the plus engine wins a game with probability
// logistic(s(plus) - s(minus)), s(x, y) = -8 ((x - 0.7)^2 + (y - 0.2)^2) (Bradley-Terry).
// 4,000 pairs in batches of 4 pairs, C_END 0.1 and R_END 0.005: in a simulation of 200 seeds
// of this set-up the largest distance to the optimum at the end was 0.042.
TEST(Spsa, ConvergesToAKnownOptimumWithinTolerance) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    Spsa spsa({{"x", 0.3, 0, 1, 0.1, 0.005}, {"y", 0.6, 0, 1, 0.1, 0.005}}, 4000);
    auto s = [](const std::vector<double>& v) { return -8 * (std::pow(v[0] - 0.7, 2) + std::pow(v[1] - 0.2, 2)); };
    for (int64_t batch = 0; spsa.pairs_done() < spsa.pairs_total(); ++batch) {
      const SpsaStep step = spsa.step(spsa_flips(seed, batch, 2));
      const double p = 1 / (1 + std::exp(-(s(step.plus) - s(step.minus))));
      int result = 0;
      for (int g = 0; g < 8; ++g) result += u(rng) < p ? 1 : -1;
      spsa.update(step, result, 4);
    }
    EXPECT_NEAR(spsa.theta()[0], 0.7, 0.05) << "seed " << seed;
    EXPECT_NEAR(spsa.theta()[1], 0.2, 0.05) << "seed " << seed;
  }
}

}  // namespace
}  // namespace hane
