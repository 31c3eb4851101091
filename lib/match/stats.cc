#include "match/stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace hane {
namespace {

double clamp01(double x) { return std::clamp(x, 0.0, 1.0); }

// Pair outcomes 0, 1/2, 1, 3/2, 2 of two independent games at 50%: the prior of one pair.
constexpr std::array<double, 5> kIndependentPair = {1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};

// 800 / ln 10: converts a score excess per standard deviation into normalised Elo.
const double kNeloScale = 800.0 / std::log(10.0);


// The LLR of a discrete score distribution: values[i] with weights[i] (counts plus the
// prior), over n_real games or pairs.
template <size_t N>
double llr_of(const std::array<double, N>& values, const std::array<double, N>& weights, double n_real,
              const SprtParams& params, double nelo_sd_factor) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::array<double, N> probs;
  for (size_t i = 0; i < N; ++i) probs[i] = weights[i] / total;
  if (!params.normalized) {
    return gsprt_llr(values, probs, n_real, score_from_elo(params.elo0), score_from_elo(params.elo1));
  }
  double mean = 0;
  for (size_t i = 0; i < N; ++i) mean += values[i] * probs[i];
  double var = 0;
  for (size_t i = 0; i < N; ++i) var += probs[i] * (values[i] - mean) * (values[i] - mean);
  if (var <= 0) return 0;
  // nElo is defined on the per-game standard deviation; a pair's sd is sqrt(2) times smaller
  // for independent games, hence the factor sqrt(2 var) for pairs (fastchess, fishtest).
  const double sd = std::sqrt(nelo_sd_factor * var);
  const double s0 = 0.5 + params.elo0 * sd / kNeloScale;
  const double s1 = 0.5 + params.elo1 * sd / kNeloScale;
  return n_real * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

}  // namespace

Interval wilson_interval(const Wdl& wdl, double z) {
  const double n = static_cast<double>(wdl.games());
  if (n == 0) return {0, 1};
  const double p = wdl.score();
  const double z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  // At p = 0 or 1 one bound is exactly 0 or 1; keep rounding from making it finite in Elo.
  return {p == 0 ? 0.0 : clamp01(centre - half), p == 1 ? 1.0 : clamp01(centre + half)};
}

std::optional<double> elo_from_score(double score) {
  if (!(score > 0 && score < 1)) return std::nullopt;
  return 400.0 * std::log10(score / (1.0 - score));  // +0.0 at an even score (not -0.0)
}

double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

EloInterval elo_interval(const Interval& score) { return {elo_from_score(score.lo), elo_from_score(score.hi)}; }

double likelihood_of_superiority(const Wdl& wdl) {
  const double decisive = static_cast<double>(wdl.wins + wdl.losses);
  if (decisive == 0) return 0.5;
  return 0.5 * (1 + std::erf((wdl.wins - wdl.losses) / std::sqrt(2 * decisive)));
}

double Pentanomial::score() const {
  const int64_t n = pairs();
  if (n == 0) return 0.5;
  double points = 0;
  for (int i = 0; i < 5; ++i) points += counts[i] * (i * 0.25);
  return points / n;
}

double Pentanomial::variance() const {
  const int64_t n = pairs();
  if (n == 0) return 0;
  const double mean = score();
  double var = 0;
  for (int i = 0; i < 5; ++i) var += counts[i] * (i * 0.25 - mean) * (i * 0.25 - mean);
  return var / n;
}

Interval pentanomial_interval(const Pentanomial& p, double z) {
  const int64_t n = p.pairs();
  if (n < 2) return {0, 1};
  // Variance with the prior pair of sprt_llr (weight 1 among n + 1), about the sample mean.
  const double mean = p.score();
  double var = 0;
  for (int i = 0; i < 5; ++i) {
    var += (p.counts[i] + kIndependentPair[i]) * (i * 0.25 - mean) * (i * 0.25 - mean);
  }
  var /= n + 1;
  const double half = z * std::sqrt(var / n);
  return {clamp01(p.score() - half), clamp01(p.score() + half)};
}

double SprtParams::lower() const { return std::log(beta / (1 - alpha)); }
double SprtParams::upper() const { return std::log((1 - beta) / alpha); }

SprtParams parse_sprt(const std::string& text) {
  SprtParams p;
  for (absl::string_view item : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) throw std::invalid_argument("--sprt: expected key=value, got '" + std::string(item) + "'");
    const std::string key(item.substr(0, eq));
    const std::string value(item.substr(eq + 1));
    double x = 0;
    const bool number = absl::SimpleAtod(value, &x);
    if (key == "model") {
      if (value != "logistic" && value != "normalized") throw std::invalid_argument("--sprt: model must be logistic or normalized, got '" + value + "'");
      p.normalized = value == "normalized";
    } else if (key == "per") {
      if (value != "pair" && value != "game") throw std::invalid_argument("--sprt: per must be pair or game, got '" + value + "'");
      p.per_pair = value == "pair";
    } else if (!number) {
      throw std::invalid_argument("--sprt: '" + key + "' needs a number, got '" + value + "'");
    } else if (key == "elo0") {
      p.elo0 = x;
    } else if (key == "elo1") {
      p.elo1 = x;
    } else if (key == "alpha") {
      p.alpha = x;
    } else if (key == "beta") {
      p.beta = x;
    } else {
      throw std::invalid_argument("--sprt: unknown key '" + key + "' (elo0, elo1, alpha, beta, model, per)");
    }
  }
  if (!(p.elo0 < p.elo1)) throw std::invalid_argument("--sprt: elo0 must be below elo1");
  if (!(p.alpha > 0 && p.alpha < 1 && p.beta > 0 && p.beta < 1 && p.alpha + p.beta < 1))
    throw std::invalid_argument("--sprt: alpha and beta must lie in (0, 1) with alpha + beta < 1");
  return p;
}

std::vector<double> mle_with_mean(std::span<const double> values, std::span<const double> probs, double s) {
  if (values.size() != probs.size()) throw std::invalid_argument("mle_with_mean: values and probs differ in size");
  double lo_value = INFINITY, hi_value = -INFINITY;
  for (size_t i = 0; i < values.size(); ++i) {
    if (probs[i] > 0) lo_value = std::min(lo_value, values[i]), hi_value = std::max(hi_value, values[i]);
  }
  if (!(lo_value < s && s < hi_value)) {
    throw std::invalid_argument("mle_with_mean: the mean must lie strictly inside the sample's values");
  }
  // f(theta) = sum p_i (a_i - s) / (1 + theta (a_i - s)) falls from +inf to -inf on the
  // interval where every denominator of a sampled value is positive: bisect it.
  const auto f = [&](double theta) {
    double sum = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      if (probs[i] > 0) sum += probs[i] * (values[i] - s) / (1 + theta * (values[i] - s));
    }
    return sum;
  };
  double lo = -1 / (hi_value - s), hi = -1 / (lo_value - s);
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;  // as close as doubles get
    (f(mid) > 0 ? lo : hi) = mid;
  }
  const double theta = 0.5 * (lo + hi);
  std::vector<double> p(values.size());
  for (size_t i = 0; i < values.size(); ++i) p[i] = probs[i] / (1 + theta * (values[i] - s));
  return p;
}

double gsprt_llr(std::span<const double> values, std::span<const double> probs, double n, double s0, double s1) {
  const std::vector<double> p0 = mle_with_mean(values, probs, s0), p1 = mle_with_mean(values, probs, s1);
  double llr = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (probs[i] > 0) llr += probs[i] * (std::log(p1[i]) - std::log(p0[i]));
  }
  return n * llr;
}

double sprt_llr(const Wdl& wdl, const SprtParams& params) {
  if (wdl.games() == 0) return 0;
  const std::array<double, 3> values = {0.0, 0.5, 1.0};
  // Prior: half a win and half a loss (see stats.h).
  const std::array<double, 3> weights = {wdl.losses + 0.5, static_cast<double>(wdl.draws), wdl.wins + 0.5};
  return llr_of(values, weights, static_cast<double>(wdl.games()), params, 1.0);
}

double sprt_llr(const Pentanomial& p, const SprtParams& params) {
  if (p.pairs() == 0) return 0;
  const std::array<double, 5> values = {0.0, 0.25, 0.5, 0.75, 1.0};
  // Prior: one pair of independent games at 50% (see stats.h).
  std::array<double, 5> weights;
  for (int i = 0; i < 5; ++i) weights[i] = p.counts[i] + kIndependentPair[i];
  return llr_of(values, weights, static_cast<double>(p.pairs()), params, 2.0);
}

std::vector<double> bradley_terry_elo(int num_players, const std::vector<PairResult>& results) {
  // Points and games per player, and games per pair (with the prior draw added).
  std::vector<double> points(num_players, 0.0);
  std::vector<std::vector<double>> games(num_players, std::vector<double>(num_players, 0.0));
  for (const PairResult& r : results) {
    if (r.games <= 0 || r.a == r.b) continue;
    points[r.a] += r.points_a;
    points[r.b] += r.games - r.points_a;
    games[r.a][r.b] += r.games;
    games[r.b][r.a] += r.games;
  }
  for (int i = 0; i < num_players; ++i) {
    for (int j = 0; j < num_players; ++j) {
      if (i != j && games[i][j] > 0) {
        games[i][j] += 1;  // one prior draw against each opponent met
        points[i] += 0.5;
      }
    }
  }
  std::vector<double> gamma(num_players, 1.0);
  for (int iter = 0; iter < 10000; ++iter) {
    double change = 0;
    for (int i = 0; i < num_players; ++i) {
      double denom = 0;
      for (int j = 0; j < num_players; ++j) {
        if (games[i][j] > 0) denom += games[i][j] / (gamma[i] + gamma[j]);
      }
      if (denom == 0) continue;
      const double next = points[i] / denom;
      change = std::max(change, std::abs(std::log(next / gamma[i])));
      gamma[i] = next;
    }
    // Normalise to geometric mean 1 over players with games.
    double log_sum = 0;
    int n = 0;
    for (int i = 0; i < num_players; ++i) {
      if (points[i] > 0) log_sum += std::log(gamma[i]), ++n;
    }
    if (n) {
      const double g = std::exp(log_sum / n);
      for (double& x : gamma) x /= g;
    }
    if (change < 1e-10) break;
  }
  std::vector<double> elo(num_players, 0.0);
  for (int i = 0; i < num_players; ++i) {
    if (points[i] > 0) elo[i] = 400.0 * std::log10(gamma[i]);
  }
  return elo;
}

}  // namespace hane
