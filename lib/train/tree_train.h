// Growing the decision tree (tree.h) greedily on a sample of training positions.
//
// The sample (which candidates, their inputs): tree_sample.h.
//
// Growth (best-first, as in H. Shi, "Best-first Decision Tree Learning", 2007): every leaf keeps
// its candidates (a contiguous range of the sample, partitioned in place at each split) and its
// best question, found from one histogram of (played, not played) counts per input and value:
// for each input the values are sorted by their played ratio and every prefix is a candidate
// value set (optimal for two classes, Breiman et al. 1984, theorem 4.5). A leaf's probability
// is smoothed towards its parent's,
//
//   p = (played + k p_parent) / (seen + k),        k = prior_strength,
//
// and a split's gain is the rise in the training sample's log-likelihood of the played /
// not-played labels, sum of played ln p + (seen - played) ln(1 - p) over the two children
// minus the parent's. Each step splits the leaf of largest gain (a priority queue), until
// max_leaves, or until no split gains, or (early_stop) until the validation log-likelihood has
// not improved while the tree grew by a factor `patience`; the tree returned is then the one of
// best validation log-likelihood (splits are kept in order, so any earlier tree is a prefix).
// The validation sample is measured as the tree grows by 5% and at every 1,000 leaves (the
// curve, TreeTrainResult::curve).
// A histogram is computed for the smaller child only when the parent's is kept (leaves of at
// least 32k candidates); both cores work at once: on large leaves each takes a share of the
// candidates, on small ones each splits its own leaf. In that case the queue's top leaves are
// split together (a split never changes another leaf's best split, so this is the greedy
// order except that a child may wait for its parent's runner-up).
//
// On the KGS train split (6.4M positions, negatives 0.1: 167M candidates, 5.4 GB) growth to
// 200k leaves takes about 30 s on two cores (and sampling about 70 s).
#pragma once

#include <cstdint>
#include <vector>

#include "predict/tree.h"
#include "train/tree_sample.h"

namespace hane {

struct TreeTrainOptions {
  int max_leaves = 10000;
  /// Least number of sample candidates in each child of a split.
  int64_t min_leaf = 20;
  /// k in the smoothing towards the parent's probability (in candidates "seen"). With thinned
  /// negatives a strong prior pays: `hane train tree` uses 10 / negatives (10 sampled rows).
  double prior_strength = 10;
  /// Least gain (nats on the training sample) worth a split.
  double min_gain = 1e-6;
  /// Stop once the validation log-likelihood has not improved since the tree had 1/patience
  /// of its leaves (and 64 fewer), and return the best tree; needs a validation sample.
  bool early_stop = true;
  double patience = 1.5;
  /// Leaf counts at which to also return the tree as it was (if growth gets that far).
  std::vector<int> snapshots;
  TreeFeatureOptions features;  // recorded in the trees (the samples must have been made with them)
  int threads = 0;  // 0: one per core
  bool progress = true;
};

/// One measurement of the growing tree on the validation sample.
struct TreeCurvePoint {
  int leaves = 0;
  double top1 = 0;            // ties broken at random in expectation, as in evaluate()
  double log_likelihood = 0;  // mean ln P(played), P normalised over the legal moves (nats)
  double train_gain = 0;      // total gain so far on the training sample (nats)
  double seconds = 0;         // since growth began
};

struct TreeTrainResult {
  DecisionTree tree;                     // the best tree on validation, or the last one
  std::vector<DecisionTree> snapshots;   // for the reached options.snapshots, in their order
  std::vector<int> snapshot_leaves;
  std::vector<TreeCurvePoint> curve;
  bool stopped_early = false;
  double seconds = 0;
};

/// With several ranks, `train` holds this rank's share of the rows (share_over_ranks) and
/// every rank grows the same tree: the counts of the root and each histogram are summed over
/// ranks (one allreduce of kTreeInputs x 32 counts per histogram), leaves are split one at a
/// time, and `validation` must be whole on every rank. The tree is then the one a single
/// process grows with one thread (threads only speed up the histograms).
/// Grows the tree on `train` (whose rows are reordered) and measures it on `validation`
/// (whole positions; may be empty: then no curve and no early stop). Trees carry
/// options.features and prior_strength, and a "growth" summary in training.
TreeTrainResult grow_tree(TreeSample& train, const TreeSample& validation, const TreeTrainOptions& options);

/// The JSON of a curve: [{leaves, top1, log_likelihood, train_gain, seconds}, ...].
nlohmann::json curve_json(const std::vector<TreeCurvePoint>& curve);

}  // namespace hane
