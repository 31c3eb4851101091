// Gradient boosting of regression trees (predict/boost.h) with a softmax loss over each
// position's legal moves, on the decision tree's question inputs.
//
// Loss: the negative log-likelihood of the played move, -ln softmax(margin)[played], over the
// candidates of each position (every legal move: the training sample holds whole positions,
// tree_sample.h). Per candidate the gradient is p - y and the (diagonal) hessian p (1 - p), p
// the candidate's softmax probability and y = 1 for the played move (as XGBoost's and
// LightGBM's multiclass objectives). Each round grows one tree on these: leaf-wise (the leaf of
// largest gain next, up to `leaves`), every split chosen from one histogram of (sum g, sum h,
// rows) per input and value, with the gain
//
//   G_yes^2 / (H_yes + l2) + G_no^2 / (H_no + l2) - G^2 / (H + l2)
//
// (T. Chen and C. Guestrin, "XGBoost: a scalable tree boosting system", KDD 2016); ordered
// inputs are asked thresholds, categories any set, found by ordering the values by G / H (as
// LightGBM does for categorical features; the tree trainer's ordering, tree_train.h, for two
// classes). A child's histogram is the parent's minus its sibling's, of which only the smaller
// is counted. Leaf values are a Newton step with shrinkage, -learning_rate G / (H + l2).
//
// Rows. A tree is grown on the played moves, every candidate of probability at least
// `sample_below`, and the others each with probability `sample_rate`, counting 1 / sample_rate
// (their g and h weighted): with a strong base most candidates have p near 0 and carry almost
// no gradient (the idea of LightGBM's gradient-based one-side sampling). The draw hashes the
// row's inputs, its position's played row and size, the round and the seed, so it does not
// depend on threads or ranks, and equal rows of different positions are drawn independently
// (drawn together, the thousands of equal quiet-area rows of a leaf were all in or all out, and
// a leaf whose not-played rows were all out took Newton steps of several nats that made the
// training loss worse). Every row's margin is updated after each round.
//
// Base. Training starts from the margins of `base` (a decision tree as ln p: its own guess),
// or from 0 (uniform). Validation positions (whole) are measured after every round (top-1 and
// mean log-likelihood, as `hane eval`); with early_stop the model keeps the round of best
// validation log-likelihood once `patience` rounds in a row have not improved on it.
//
// With several ranks (cluster/cluster.h) each holds its share of the training positions
// (sampled by game, tree_sample.h) and every histogram and sum is added over ranks (the
// data-parallel growth of LightGBM and XGBoost): every rank grows the same trees, equal to one
// process's up to the rounding of the sums. Threads split the histograms and the per-row work
// into a fixed number of chunks added in order: the model does not depend on --threads.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "predict/boost.h"
#include "train/tree_sample.h"

namespace hane {

struct BoostTrainOptions {
  int rounds = 30;              // boosted trees, at most
  int leaves = 32;              // leaves of each tree, at most (>= 2)
  double learning_rate = 0.3;   // shrinkage of each tree's Newton step
  double l2 = 1;                // added to a leaf's hessian sum (regularisation)
  int64_t min_leaf = 100;       // least rows (as sampled, unweighted) on each side of a split
  double min_hessian = 1e-3;    // least hessian sum on each side of a split
  double sample_below = 0.001;  // not-played candidates below this probability are sampled...
  double sample_rate = 0.1;     // ...with this probability, weighing 1 / sample_rate
  bool early_stop = true;
  int patience = 3;             // rounds without a better validation log-likelihood before stopping
  TreeFeatureOptions features;  // those the samples were made with (recorded in the model)
  uint64_t seed = 1;
  int threads = 0;              // 0: one per core
  bool progress = true;
};

/// One measurement after `rounds` boosted trees (0: the base alone).
struct BoostCurvePoint {
  int rounds = 0;
  double top1 = 0;                  // validation, ties broken at random in expectation
  double log_likelihood = 0;        // validation mean ln P(played), nats
  double train_log_likelihood = 0;  // training mean ln P(played) before this round's tree
  double rows_used = 0;             // fraction of the training rows the tree was grown on
  double seconds = 0;               // since training began
};

struct BoostTrainResult {
  BoostedTrees model;  // base + the best rounds on validation (or every round)
  BoostedTrees grown;  // base + every round grown (model is its first best_rounds)
  std::vector<BoostCurvePoint> curve;
  int best_rounds = 0;
  bool stopped_early = false;
  double seconds = 0;
};

/// Boosts on `train` (whole positions: position_start set) from `base` (may be null) and
/// measures on `validation` (whole positions; may be empty: no curve beyond the training
/// loss, no early stop). The model carries options.features, `base` as its first tree, and a
/// "boosting" summary in training.
BoostTrainResult train_boost(const TreeSample& train, const TreeSample& validation, const RegressionTree* base,
                             const BoostTrainOptions& options);

/// [{rounds, top1, log_likelihood, train_log_likelihood, rows_used, seconds}, ...]
nlohmann::json boost_curve_json(const std::vector<BoostCurvePoint>& curve);

}  // namespace hane
