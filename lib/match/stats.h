// Match statistics: score intervals, Elo, pentanomial pairs, LOS, the GSPRT and joint ratings.
// Scores are the first engine's points per game (win 1, jigo 1/2, loss 0). Elo is logistic
// Elo (400 points = 10:1 odds) unless said otherwise.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace hane {

/// The normal quantile for a two-sided 95% interval.
inline constexpr double kZ95 = 1.959963984540054;

/// A closed interval [lo, hi].
struct Interval {
  double lo = 0, hi = 0;
};

/// Win/draw/loss counts of the first engine of a pairing (draws are jigo under integer komi).
struct Wdl {
  int64_t wins = 0, draws = 0, losses = 0;
  int64_t games() const { return wins + draws + losses; }
  /// Mean points per game; 0.5 when no games.
  double score() const { return games() ? (wins + 0.5 * draws) / games() : 0.5; }
};

/// Wilson score interval for a proportion (E. B. Wilson, JASA 22, 1927), taking the points
/// scored (wins + draws/2) as the successes of `games()` trials; z = 1.96 gives 95%.
/// [0, 1] when there are no games.
Interval wilson_interval(const Wdl& wdl, double z = kZ95);

/// Logistic Elo difference of a score: -400 log10(1/s - 1). nullopt at s <= 0 or s >= 1.
std::optional<double> elo_from_score(double score);
/// Inverse: 1 / (1 + 10^(-elo/400)).
double score_from_elo(double elo);
/// An Elo interval from a score interval; a bound at 0 or 1 is nullopt (infinite).
struct EloInterval {
  std::optional<double> lo, hi;
};
EloInterval elo_interval(const Interval& score);

/// Likelihood of superiority, the probability that the first engine is the stronger given
/// wins and losses (draws carry no information), normal approximation as cutechess-cli and
/// fastchess compute it: 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))). 0.5 with no decisive game.
double likelihood_of_superiority(const Wdl& wdl);

/// Outcomes of game pairs (one opening, colours swapped), counted by the first engine's
/// points over the pair: index 0 = 0 (two losses), 1 = 1/2, 2 = 1 (a win and a loss, or two
/// draws), 3 = 3/2, 4 = 2 (two wins).
struct Pentanomial {
  std::array<int64_t, 5> counts{};
  int64_t pairs() const { return counts[0] + counts[1] + counts[2] + counts[3] + counts[4]; }
  /// Mean points per game over the pairs; 0.5 when none.
  double score() const;
  /// Variance of the pair score (points per game, 0..1) across pairs.
  double variance() const;
};

/// The pair-based interval (as fastchess reports with pentanomial statistics): the mean pair
/// score plus or minus z standard errors of the mean over pairs, clamped to [0, 1]. The
/// variance is taken with the prior pair of sprt_llr (weight 1 of n + 1), so that a few
/// pairs all alike do not give an interval of width 0. [0, 1] with fewer than two pairs.
Interval pentanomial_interval(const Pentanomial& p, double z = kZ95);

/// SPRT settings. `elo0`/`elo1` are logistic Elo when !normalized, else normalised Elo
/// (nElo: the score excess in units of the game's (or pair's) standard deviation,
/// nElo = (score - 1/2) / sd * 800 / ln 10, as fishtest and fastchess define it).
struct SprtParams {
  double elo0 = 0, elo1 = 50, alpha = 0.05, beta = 0.05;
  bool normalized = false;
  bool per_pair = true;  // LLR over pentanomial pair counts (else over single games)
  double lower() const;  // ln(beta / (1 - alpha))
  double upper() const;  // ln((1 - beta) / alpha)
  std::string model() const { return normalized ? "normalized" : "logistic"; }
};

/// "elo0=0,elo1=50,alpha=0.05,beta=0.05[,model=logistic|normalized][,per=pair|game]";
/// keys in any order, unnamed keys keep their defaults. Throws std::invalid_argument
/// naming the bad key or value.
SprtParams parse_sprt(const std::string& text);

/// The generalised SPRT's log-likelihood ratio (M. Van den Bergh, "Comments on Normalized
/// Elo", https://www.cantate.be/Fishtest/normalized_elo_practical.pdf; the test fishtest and
/// fastchess run), over the per-game (trinomial: 0, 1/2, 1) or per-pair (pentanomial: 0, 1/4,
/// ..., 1 points per game) score distribution of N games or pairs.
///
/// Logistic model (the default), exact as in fastchess: with s0, s1 the scores of elo0 and
/// elo1 (score_from_elo), p0 and p1 are the maximum-likelihood distributions of the sample
/// under the constraint that the mean score is s0, resp. s1 (mle_with_mean), and
///   LLR = N sum_i phat_i ln(p1_i / p0_i)   (gsprt_llr).
/// Normalized model (nElo): the normal approximation
///   LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var),
/// with s and var the sample's mean and variance and s0, s1 = 1/2 + nElo sd / (800 / ln 10)
/// (fastchess solves a constrained MLE there too; hane does not).
///
/// The sample distribution phat is not the raw counts: unlike fastchess, which replaces empty
/// counts by 1e-3, it gets a prior of weight one: half a win and half a loss (per game), or
/// one pair of independent games at 50%, i.e. 1/16, 4/16, 6/16, 4/16, 1/16 (per pair); N stays
/// the number of games or pairs. With 1e-3 a single pair of one win and one loss looks like
/// a variance near 0 and decides H0 after two games; with the prior its LLR is near 0, and
/// the prior's weight fades as games come in. A run of wins only still moves the LLR. 0 with
/// no games.
double sprt_llr(const Wdl& wdl, const SprtParams& params);
double sprt_llr(const Pentanomial& p, const SprtParams& params);

/// The distribution on `values` closest to the sample `probs` (the maximum of
/// sum probs_i ln p_i) among those whose mean is `s` (Van den Bergh, above, proposition 1.1):
/// p_i = probs_i / (1 + theta (values_i - s)), theta the root, found by bisection, of
/// sum probs_i (values_i - s) / (1 + theta (values_i - s)) = 0 where every denominator is
/// positive. `probs` sums to 1; values with probability 0 keep 0. Throws
/// std::invalid_argument unless s lies strictly between the least and the greatest value of
/// positive probability.
std::vector<double> mle_with_mean(std::span<const double> values, std::span<const double> probs, double s);

/// n sum_i probs_i ln(p1_i / p0_i) with p0, p1 = mle_with_mean(values, probs, s0 / s1): the
/// GSPRT's LLR of a sample distribution `probs` of n games or pairs.
double gsprt_llr(std::span<const double> values, std::span<const double> probs, double n, double s0, double s1);

/// Games between two players for joint ratings: `points_a` scored by `a` in `games` games.
struct PairResult {
  int a = 0, b = 0;
  double points_a = 0;
  int64_t games = 0;
};

/// Bradley-Terry maximum-likelihood ratings (logistic Elo, mean 0) of `num_players` from
/// pairwise results, by Hunter's MM iteration (D. R. Hunter, "MM algorithms for generalized
/// Bradley-Terry models", Ann. Statist. 32, 2004), as Ordo and BayesElo fit them. A prior of
/// one drawn game against each opponent actually met keeps perfect scores finite (BayesElo
/// uses a prior of the same kind). Players without games get 0.
std::vector<double> bradley_terry_elo(int num_players, const std::vector<PairResult>& results);

}  // namespace hane
