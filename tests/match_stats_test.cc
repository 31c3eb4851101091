// Match statistics against values computed by hand (Python, from the formulas in stats.h).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

#include "match/report.h"
#include "match/schedule.h"
#include "match/stats.h"

namespace hane {
namespace {

TEST(MatchStats, WilsonInterval) {
  const Interval i = wilson_interval({7, 0, 3});
  EXPECT_NEAR(i.lo, 0.396778, 1e-6);
  EXPECT_NEAR(i.hi, 0.892209, 1e-6);
  const Interval zero = wilson_interval({0, 0, 10});
  EXPECT_EQ(zero.lo, 0);
  EXPECT_NEAR(zero.hi, 0.277533, 1e-6);
  // A jigo counts half: 6 wins, 2 jigo, 2 losses is 7 points of 10.
  EXPECT_NEAR(wilson_interval({6, 2, 2}).lo, 0.396778, 1e-6);
}

TEST(MatchStats, EloFromScore) {
  EXPECT_NEAR(*elo_from_score(0.75), 190.848502, 1e-6);
  EXPECT_NEAR(*elo_from_score(0.25), -190.848502, 1e-6);
  EXPECT_NEAR(*elo_from_score(0.5), 0, 1e-12);
  EXPECT_FALSE(elo_from_score(1.0).has_value());
  EXPECT_FALSE(elo_from_score(0.0).has_value());
  EXPECT_NEAR(score_from_elo(190.848502), 0.75, 1e-9);
  // At 10 of 10 the Elo is infinite, the interval's lower bound finite.
  const EloInterval e = elo_interval(wilson_interval({10, 0, 0}));
  ASSERT_TRUE(e.lo.has_value());
  EXPECT_FALSE(e.hi.has_value());
  EXPECT_NEAR(*e.lo, *elo_from_score(1 - 0.277533), 0.01);
}

TEST(MatchStats, LikelihoodOfSuperiority) {
  EXPECT_NEAR(likelihood_of_superiority({60, 0, 40}), 0.977250, 1e-6);
  EXPECT_NEAR(likelihood_of_superiority({60, 10, 40}), 0.977250, 1e-6);  // draws carry nothing
  EXPECT_EQ(likelihood_of_superiority({0, 3, 0}), 0.5);
}

TEST(MatchStats, PentanomialScoreVarianceInterval) {
  Pentanomial p;
  p.counts = {1, 2, 5, 3, 1};
  EXPECT_NEAR(p.score(), 0.520833, 1e-6);
  EXPECT_NEAR(p.variance(), 0.067274, 1e-6);
  const Interval i = pentanomial_interval(p);
  // Variance with the prior pair: 0.066940 instead of 0.067274.
  EXPECT_NEAR(i.lo, 0.374447, 1e-6);
  EXPECT_NEAR(i.hi, 0.667220, 1e-6);
  // Pairs all won: the interval keeps a width.
  Pentanomial won;
  won.counts = {0, 0, 0, 0, 4};
  EXPECT_LT(pentanomial_interval(won).lo, 0.9);
}

TEST(MatchStats, SprtBoundsAndLlr) {
  const SprtParams p = parse_sprt("elo0=0,elo1=50,alpha=0.05,beta=0.05");
  EXPECT_NEAR(p.lower(), -2.944439, 1e-6);
  EXPECT_NEAR(p.upper(), 2.944439, 1e-6);
  EXPECT_FALSE(p.normalized);
  EXPECT_TRUE(p.per_pair);
  // The values below were computed apart from hane (python3, no Lagrange root: a direct
  // maximisation of sum phat ln p over the distributions of mean s, by golden-section search
  // on three values and Nelder-Mead on five; script in the commit message of this test).
  // s0 = 1/2, s1 = 1 / (1 + 10^(-50/400)) = 0.571463.
  // 60 wins, 40 losses, with the prior: phat = (40.5, 0, 60.5) / 101; on two values the
  // distribution of mean s is (1 - s, s), so LLR = 100 (60.5/101 ln(s1/s0) +
  // 40.5/101 ln((1-s1)/(1-s0))) = 100 (0.599010 * 0.133595 - 0.400990 * 0.154227) = 1.817762.
  EXPECT_NEAR(sprt_llr(Wdl{60, 0, 40}, p), 1.817762, 1e-6);
  // 30 wins, 20 draws, 10 losses: phat = (10.5, 20, 30.5) / 61; under s0 the draws keep their
  // share (value 1/2 = s0) and wins and losses split the rest evenly; LLR 3.340874.
  EXPECT_NEAR(sprt_llr(Wdl{30, 20, 10}, p), 3.340874, 1e-6);
  Pentanomial penta;
  penta.counts = {1, 2, 5, 3, 1};
  EXPECT_NEAR(sprt_llr(penta, p), -0.213598, 1e-6);
  const SprtParams n = parse_sprt("model=normalized,elo1=50");
  EXPECT_TRUE(n.normalized);
  EXPECT_NEAR(sprt_llr(penta, n), -0.066995, 1e-6);
  EXPECT_EQ(sprt_llr(Wdl{}, p), 0);
  // The prior keeps one pair of a win and a loss from looking like certainty.
  Pentanomial one;
  one.counts = {0, 0, 1, 0, 0};
  EXPECT_NEAR(sprt_llr(one, p), -0.068612, 1e-6);
  // Won pairs only: the most likely distribution of mean s puts s on two wins and 1 - s on
  // two losses, so each pair adds about ln(s1 / s0) = 0.1336: 22 pairs stay below the upper
  // bound (2.920703), 23 cross it (3.054309).
  Pentanomial wins;
  wins.counts = {0, 0, 0, 0, 22};
  EXPECT_NEAR(sprt_llr(wins, p), 2.920703, 1e-6);
  wins.counts[4] = 23;
  EXPECT_NEAR(sprt_llr(wins, p), 3.054309, 1e-6);
  EXPECT_GT(sprt_llr(wins, p), p.upper());
}

TEST(MatchStats, ConstrainedMleAndGsprt) {
  // Two values: the only distribution of mean s is (1 - s, s), so the LLR is the classical
  // SPRT's, W ln(s1/s0) + L ln((1-s1)/(1-s0)): 60 * 0.133595 + 40 * (-0.154227) = 1.846259.
  const std::vector<double> two = {0, 1}, p64 = {0.4, 0.6};
  const std::vector<double> m = mle_with_mean(two, p64, 0.7);
  EXPECT_NEAR(m[0], 0.3, 1e-12);
  EXPECT_NEAR(m[1], 0.7, 1e-12);
  EXPECT_NEAR(gsprt_llr(two, p64, 100, 0.5, score_from_elo(50)), 1.846259, 1e-6);
  // The sample's own mean gives the sample back (theta = 0), and the mean is always met.
  const std::vector<double> five = {0, 0.25, 0.5, 0.75, 1}, probs = {0.1, 0.2, 0.3, 0.25, 0.15};
  const std::vector<double> same = mle_with_mean(five, probs, 0.5375);
  for (size_t i = 0; i < 5; ++i) EXPECT_NEAR(same[i], probs[i], 1e-12);
  for (const double s : {0.05, 0.3, 0.5, 0.9}) {
    const std::vector<double> q = mle_with_mean(five, probs, s);
    double total = 0, mean = 0;
    for (size_t i = 0; i < 5; ++i) total += q[i], mean += q[i] * five[i];
    EXPECT_NEAR(total, 1, 1e-9) << s;
    EXPECT_NEAR(mean, s, 1e-9) << s;
  }
  // A value never seen keeps probability 0; a mean outside the seen values is refused.
  const std::vector<double> gap = {0.4, 0, 0.6};
  const std::vector<double> three = {0, 0.5, 1};
  EXPECT_EQ(mle_with_mean(three, gap, 0.55)[1], 0);
  EXPECT_THROW(mle_with_mean(three, gap, 1.0), std::invalid_argument);
}

TEST(MatchStats, SprtParseErrors) {
  EXPECT_THROW(parse_sprt("elo0=10,elo1=5"), std::invalid_argument);
  EXPECT_THROW(parse_sprt("alpha=1.5"), std::invalid_argument);
  EXPECT_THROW(parse_sprt("gamma=1"), std::invalid_argument);
  EXPECT_THROW(parse_sprt("elo1=abc"), std::invalid_argument);
  EXPECT_THROW(parse_sprt("model=bayesian"), std::invalid_argument);
  EXPECT_FALSE(parse_sprt("per=game").per_pair);
}

TEST(MatchStats, BradleyTerry) {
  // Two players, 3 of 4 plus the prior draw: 3.5 of 5 -> 400 log10(3.5 / 1.5) apart.
  const std::vector<double> two = bradley_terry_elo(2, {{0, 1, 3, 4}});
  EXPECT_NEAR(two[0], 73.595357, 1e-4);
  EXPECT_NEAR(two[1], -73.595357, 1e-4);
  // Three players in a chain: order kept, the mean is 0, a perfect score stays finite.
  const std::vector<double> three = bradley_terry_elo(3, {{0, 1, 6, 8}, {1, 2, 6, 8}, {0, 2, 8, 8}});
  EXPECT_GT(three[0], three[1]);
  EXPECT_GT(three[1], three[2]);
  EXPECT_NEAR(three[0] + three[1] + three[2], 0, 1e-6);
  EXPECT_TRUE(std::isfinite(three[0]));
  // Symmetric results give equal ratings.
  const std::vector<double> even = bradley_terry_elo(3, {{0, 1, 2, 4}, {1, 2, 2, 4}, {0, 2, 2, 4}});
  for (double e : even) EXPECT_NEAR(e, 0, 1e-6);
}

TEST(MatchSchedule, PairsShareOpeningsWithColoursSwapped) {
  const std::vector<Opening> openings = {{"a", {}}, {"b", {}}, {"c", {}}};
  const std::vector<Pairing> pairings = make_pairings(3, false);
  ASSERT_EQ(pairings.size(), 3u);
  const std::vector<GameAssignment> s = make_schedule(pairings, 8, openings, 7);
  ASSERT_EQ(s.size(), 24u);
  std::set<uint64_t> seeds;
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s[i].index, static_cast<int64_t>(i));
    seeds.insert(s[i].seed);
    EXPECT_GE(s[i].seed, 1u);
    EXPECT_LT(s[i].seed, 1u << 31);
  }
  EXPECT_EQ(seeds.size(), s.size());  // every game its own seed
  for (size_t i = 0; i + 1 < s.size(); i += 2) {
    EXPECT_EQ(s[i].pairing, s[i + 1].pairing);
    EXPECT_EQ(s[i].pair, s[i + 1].pair);
    EXPECT_EQ(s[i].opening_name, s[i + 1].opening_name);
    EXPECT_EQ(s[i].black, s[i + 1].white);
    EXPECT_EQ(s[i].white, s[i + 1].black);
    EXPECT_EQ(s[i].black, pairings[s[i].pairing].first);
    EXPECT_EQ(s[i].opening_name, openings[s[i].pair % 3].name);
  }
  // Same options, same schedule (resume relies on it); gauntlet pairs engine 0 with the rest.
  const std::vector<GameAssignment> again = make_schedule(pairings, 8, openings, 7);
  for (size_t i = 0; i < s.size(); ++i) EXPECT_EQ(s[i].seed, again[i].seed);
  EXPECT_EQ(make_pairings(4, true).size(), 3u);
  EXPECT_EQ(make_pairings(4, false).size(), 6u);
  EXPECT_EQ(make_schedule(make_pairings(2, false), 5, {}, 1).size(), 5u);
}

TEST(MatchResult, FixedHandicapPoints) {
  EXPECT_EQ(fixed_handicap_points(9, 2).size(), 2u);
  EXPECT_EQ(fixed_handicap_points(19, 9).size(), 9u);
  EXPECT_TRUE(fixed_handicap_points(9, 10).empty());
  EXPECT_TRUE(fixed_handicap_points(8, 5).empty());
  EXPECT_TRUE(fixed_handicap_points(5, 2).empty());
  std::vector<std::string> h;
  for (Vertex v : fixed_handicap_points(19, 4)) h.push_back(to_gtp(v, 19));
  EXPECT_EQ(h, (std::vector<std::string>{"D4", "Q16", "D16", "Q4"}));
  std::vector<std::string> nine;
  for (Vertex v : fixed_handicap_points(9, 5)) nine.push_back(to_gtp(v, 9));
  EXPECT_EQ(nine, (std::vector<std::string>{"C3", "G7", "C7", "G3", "E5"}));
}

TEST(MatchResult, FinalScoreText) {
  EXPECT_EQ(parse_final_score("B+3.5"), 3.5);
  EXPECT_EQ(parse_final_score("w+0.5"), -0.5);
  EXPECT_EQ(parse_final_score("0"), 0.0);
  EXPECT_FALSE(parse_final_score("W+R").has_value());
  EXPECT_FALSE(parse_final_score("hello").has_value());
  EXPECT_EQ(score_text(-2.5), "W+2.5");
  EXPECT_EQ(score_text(7), "B+7");
  EXPECT_EQ(score_text(0), "0");
}

}  // namespace
}  // namespace hane
