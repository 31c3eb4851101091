// Measuring a guesser on games it never saw: accuracy, log-likelihood, time per guess.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "corpus/corpus.h"
#include "predict/guesser.h"

namespace hane {

/// Game phases by move number: 1-30, 31-100, 101-200, 201+.
inline constexpr int kNumPhases = 4;
inline constexpr std::array<const char*, kNumPhases> kPhaseNames = {"1-30", "31-100", "101-200", "201+"};
int phase_of(int move_number);

struct EvalOptions {
  int threads = 0;  // 0: one per core
  bool progress = true;
};

/// Sums over positions (every move of every game, passes excluded). Ties in score are broken
/// at random in expectation: a played move tied with m others at rank r..r+m counts
/// (k - r + 1) / (m + 1) towards top-k when k falls inside the tie.
struct EvalResult {
  static constexpr int kMaxK = 10;
  int64_t positions = 0;
  std::array<double, kMaxK + 1> top{};  // top[k]: positions whose played move ranks <= k
  double log_likelihood = 0;            // sum of ln P(played), nats (if probabilities)
  bool has_probabilities = false;
  double guess_seconds = 0;             // total time in guesses (legal moves + scoring + ranking)
  std::array<int64_t, kNumPhases> phase_positions{};
  std::array<double, kNumPhases> phase_top1{};

  double accuracy(int k) const { return positions ? top[k] / positions : 0; }
  double mean_log_likelihood() const { return positions ? log_likelihood / positions : 0; }
  /// Mean time per guess in µs.
  double us_per_guess() const { return positions ? 1e6 * guess_seconds / positions : 0; }
  /// top-1 accuracy divided by seconds per guess (s^-1).
  double ratio() const { return guess_seconds > 0 ? accuracy(1) / (guess_seconds / positions) : 0; }

  void add(const EvalResult& other);
};

/// Replays every game and asks `guesser` (cloned per thread) to rank all legal moves of every
/// position before each non-pass move. With several ranks (cluster/cluster.h) each rank
/// replays the games whose mixed hash (util/hash.h splitmix64) modulo the rank count is its
/// rank and the sums are reduced (doubles in rank order), so every rank returns the totals: the same counts as one process,
/// sums of doubles equal to rounding (1e-12 relative); guess_seconds is the sum over ranks.
EvalResult evaluate(const Guesser& guesser, const std::vector<CorpusGame>& games, const EvalOptions& options);
/// The same for several guessers at once: each position is replayed once and guessed by every
/// guesser in turn, so that their times are measured side by side under the same load (a
/// shared machine's load changes over minutes). Results in the order of `guessers`.
std::vector<EvalResult> evaluate(std::span<const Guesser* const> guessers, const std::vector<CorpusGame>& games,
                                 const EvalOptions& options);

/// The result as JSON: positions, top1, top3, top5, top10 (fractions), log_likelihood (nats,
/// null without probabilities), us_per_guess, ratio (s^-1), by_phase.
nlohmann::json eval_json(const EvalResult& r);

}  // namespace hane
