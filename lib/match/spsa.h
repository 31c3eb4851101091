// SPSA (simultaneous perturbation stochastic approximation) over game results, with the
// schedule of fishtest, Stockfish's testing framework (server/fishtest/spsa_handler.py and
// spsa_workflow.py in github.com/official-stockfish/fishtest; J. C. Spall, "Implementation of
// the simultaneous perturbation algorithm for stochastic optimization", IEEE Trans. Aerospace
// and Electronic Systems 34, 1998, for the exponents).
//
// The unit of time is the game pair (fishtest's "iter"): N = the pairs of the whole run.
// For each parameter, from C_END (the perturbation at the end) and R_END (the learning rate at
// the end), with A = floor(A_ratio * N):
//   c   = C_END * N^gamma                 a = R_END * C_END^2 * (A + N)^alpha
// At pair k (1-based: the pairs done before, plus one):
//   c_k = c / k^gamma                     R_k = a / (A + k)^alpha / c_k^2
// The engines played are theta + c_k * flip and theta - c_k * flip (each clipped to
// [MIN, MAX]), flip = +-1 per parameter at random. After a batch of games whose result is
// W - L of the plus engine (summed over the batch), every parameter moves by
//   theta = clip(theta + R_k * c_k * (W - L) * flip, MIN, MAX)
// and k advances by the batch's pairs. c_k and R_k decrease from c, a/(A+1)^alpha/c^2 to
// C_END and R_END at k = N. Defaults: A_ratio 0.1, alpha 0.602, gamma 0.101 (fishtest's), and
// per parameter C_END = (MAX - MIN) / 20 and R_END = 0.002 (what Stockfish's TUNE() macro
// prints for fishtest).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hane {

/// One tuned parameter. Requires min < max, start in [min, max], c_end > 0, r_end >= 0.
struct SpsaParam {
  std::string key;
  double start = 0, min = 0, max = 1;
  double c_end = 0.05, r_end = 0.002;
};

struct SpsaSchedule {
  double a_ratio = 0.1;  // A = floor(a_ratio * pairs)
  double alpha = 0.602;
  double gamma = 0.101;
};

/// What is played at one batch: per parameter, the flip, c_k, R_k and the two values.
struct SpsaStep {
  int64_t k = 1;  // the pair number the step is computed at (1-based)
  std::vector<int> flip;
  std::vector<double> c, r;
  std::vector<double> plus, minus;  // clip(theta +- c_k flip)
};

class Spsa {
 public:
  /// `pairs`: N, the game pairs of the whole run (>= 1). Throws std::invalid_argument naming
  /// the parameter when one breaks SpsaParam's requirements, or when pairs < 1.
  Spsa(std::vector<SpsaParam> params, int64_t pairs, SpsaSchedule schedule = {});

  /// The step at the current pair count with the given flips (one +-1 per parameter).
  SpsaStep step(const std::vector<int>& flip) const;
  /// Applies a batch's result (W - L of the plus engine over its games; a draw counts 0) and
  /// advances the pair count by `pairs`.
  void update(const SpsaStep& step, double result, int64_t pairs);

  const std::vector<SpsaParam>& params() const { return params_; }
  const std::vector<double>& theta() const { return theta_; }
  int64_t pairs_done() const { return done_; }
  int64_t pairs_total() const { return total_; }
  double big_a() const { return big_a_; }
  /// The per-parameter c and a of the formulas above.
  double c(size_t i) const { return c_[i]; }
  double a(size_t i) const { return a_[i]; }

 private:
  std::vector<SpsaParam> params_;
  SpsaSchedule schedule_;
  int64_t total_ = 1, done_ = 0;
  double big_a_ = 0;
  std::vector<double> c_, a_, theta_;
};

/// A parameter value as an engine gets it: a whole number when `integer`, else up to 6
/// significant digits ("%.6g").
std::string engine_value(double value, bool integer);

/// The flips of batch `batch` of a run with `seed`: n values +-1, a pure function of the three
/// (splitmix64), so a resumed run draws the same ones.
std::vector<int> spsa_flips(uint64_t seed, int64_t batch, size_t n);

}  // namespace hane
