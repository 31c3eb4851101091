// Training the gamma guesser (predict/gamma.h).
//
// Imitation: minorisation-maximisation of the Bradley-Terry model (D. R. Hunter, "MM algorithms
// for generalized Bradley-Terry models", Annals of Statistics 2004; R. Coulom, "Computing Elo
// Ratings of Move Patterns in the Game of Go", ICGA Journal 2007). Each sampled position is a
// competition won by the played move among all legal moves; a move is a team of features and
// its strength the product of their gammas. Moves are grouped into "teams" of identical features
// (one table over all positions), so a position is a short list of (team, count). One sweep
// updates each group in turn (patterns, then each flag group; a team has at most one feature of
// a group, so each update is an exact MM step and the likelihood never falls):
//   gamma_i <- (W_i + p) / (sum_j sum_{teams t of j with i} count_jt C_t / E_j + 2p / (gamma_i + 1)),
// W_i the wins of feature i, C_t the product of t's other gammas, E_j the total strength of
// position j, p the prior: p virtual wins and p losses against a gamma-1 opponent, which keeps
// rare features near 1. After each sweep the validation positions give top-1 and mean
// log-likelihood; the best sweep (validation log-likelihood) is kept, also on Ctrl-C.
//
// Balancing: simulation balancing (S.-C. Huang, R. Coulom and S.-S. Lin, "Monte-Carlo
// Simulation Balancing in Practice", Computers and Games 2010, Algorithm 1), on theta = ln gamma.
// For each training position s with target value V*(s) (the probability that Black wins):
//   V = mean z over M playouts,  g = mean over N playouts of (z - V) sum_t psi_t,
//   psi_t = phi(a_t) - sum_b pi(b | s_t) phi(b)  (the score function of the move played at t),
//   theta <- theta + alpha (V* - V) g,
// z = 1 when Black wins the playout (area score, komi). The playouts are the policy's own
// (playout/gamma.h, or rules-gamma's of playout/rules_gamma.h, whose only learned draws are its
// pattern answer's: there phi is the candidate's pattern and distance features, or the empty
// pattern's for the background), so what is balanced is exactly what the search plays.
//
// Ranks (cluster/cluster.h, mpirun): both are collectives. MM shares the games over the ranks
// (game i on rank i mod ranks); balancing shares each position's playouts (playout k on rank
// k mod ranks, each with its own seed). The sums that steer the model are kept in fixed point
// (2^-32), so the model has the same bits for any number of ranks.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "corpus/corpus.h"
#include "go/board.h"
#include "playout/rules.h"
#include "predict/gamma.h"

namespace hane {

struct GammaTrainOptions {
  /// Training positions sampled (uniformly, by a hash of game and move) from the train games.
  int64_t max_positions = 300'000;
  /// Validation positions sampled likewise.
  int64_t validation_positions = 30'000;
  /// 3x3 codes seen fewer times among the training candidates share the "other" gamma.
  int64_t min_count = 20;
  /// MM sweeps at most (each updates every group once).
  int sweeps = 20;
  /// Virtual wins and losses of every feature against a gamma-1 opponent.
  double prior = 1.0;
  uint64_t seed = 1;
  bool progress = true;
};

struct GammaSweep {
  int sweep = 0;                 // from 1
  double train_log_likelihood = 0;       // mean ln P(played) before the sweep's updates, nats
  double validation_top1 = 0;
  double validation_log_likelihood = 0;  // after the sweep
  double seconds = 0;
};

/// Trains on sampled positions of `train`, validating on `validation`. The model's `training`
/// JSON holds the options, sizes, sweeps and the best sweep. Throws std::runtime_error if there
/// is nothing to train on.
GammaModel train_gamma(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
                       const GammaTrainOptions& options, const std::function<void(const GammaSweep&)>& on_sweep = {});

/// A position to balance on: the position, and the probability that Black wins it.
struct BalancePosition {
  Board board{19};
  Color to_move = Color::kBlack;
  Vertex last = Vertex::none(), second_last = Vertex::none();
  double komi = 7.5;
  double target = 0.5;
};

struct GammaBalanceOptions {
  /// Playouts per position for V (M) and for the gradient (N).
  int value_playouts = 16;
  int gradient_playouts = 16;
  /// Step size alpha on ln gamma.
  double rate = 1.0;
  /// Passes over the positions.
  int passes = 1;
  /// ln gamma is kept within [-bound, bound].
  double bound = 8;
  /// The playouts balanced: "gamma" (every move a learned draw; playout/gamma.h) or
  /// "rules-gamma" (the learned pattern answer of the rules policy, with `rules`; its
  /// pattern_second must be 0; playout/rules_gamma.h).
  std::string policy = "gamma";
  RulesOptions rules;
  uint64_t seed = 1;
  bool progress = true;
};

/// Positions for balancing from the records: `count` games of `games` with a result ("B+..."
/// or "W+..."), one position each, drawn uniformly from the game's moves after the fraction
/// `from` of them (0.6 by default: the last 40%, where the result mostly reflects the position);
/// the target is 1 if Black won, else 0.
std::vector<BalancePosition> balance_positions(const std::vector<CorpusGame>& games, int64_t count, uint64_t seed,
                                               double from = 0.6);

/// Simulation balancing of `start` on `positions` (see the top of this file). Ctrl-C stops
/// after the current position. The model's `training` JSON gets a "balance" entry (options,
/// positions, mean squared error of V before and after each pass).
GammaModel balance_gamma(const GammaModel& start, const std::vector<BalancePosition>& positions,
                         const GammaBalanceOptions& options);

}  // namespace hane
