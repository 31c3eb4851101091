// Training the linear-softmax guesser (softmax.h) on game records.
//
// Minimises the cross-entropy of the played move over all legal moves of each position,
//   loss = -ln P(played) = -s(played) + ln sum_m exp(s(m)),   s(m) = sum of m's feature weights,
// with mini-batch Adam (Kingma and Ba, "Adam: A Method for Stochastic Optimization", ICLR
// 2015) in its lazy (sparse) form: each step updates the weights and moments of the features
// present in the batch only, with the step's bias correction; an L2 penalty (l2 / 2) w^2 is
// added to the gradient of those features (so rare features are pulled towards 0 whenever
// they appear). The positions are split by game (hash) into `shards` logical shards; a step's
// gradient is each shard's sum over its positions of the batch (in batch order), then the sum
// of those shard by shard, so a run is deterministic for a given seed and number of shards
// whatever the numbers of threads and of ranks. With several ranks (cluster/cluster.h: mpirun)
// shard s lives on rank s mod ranks, which alone counts its pattern keys, caches its positions
// and computes its gradients; the key counts are exchanged once, the shard gradients (sparse
// (id, value) lists) with one allgather per step, and every rank makes the same Adam step: the
// model is the same as one process's (the data-parallel synchronous SGD of Dean et al.,
// "Large Scale Distributed Deep Networks", NIPS 2012, without its asynchrony).
//
// The work is feature extraction, so it is done once: the training positions (a deterministic
// random sample of the train games' positions when they do not fit the memory budget) are
// replayed twice, first to count pattern keys (keys seen fewer than min_count times among the
// sampled candidates are dropped), then to store each position compactly: its legal moves
// grouped into classes of identical feature ids with multiplicities. A KGS position takes about
// 0.7 KB with the rollout features (~250 legal moves in ~60 classes) and 4 KB with the tree
// features (most moves distinct), so a 3 GB budget holds about 3.9 million and 0.65 million of
// the 6.4 million KGS training positions. Epochs then only do arithmetic (Eigen vectors for the weights and
// moments, Eigen arrays for each position's scores). An epoch visits the positions in a fresh
// random order; with the cache on disk (cache_dir) the order is shuffled in windows instead, so
// that the disk is read in long runs: the positions fall into runs of 4,096 consecutive ones of a
// shard, the runs are shuffled, and the positions of every 64 runs in a row (a window, about
// 1.3 GB with the tree features) are shuffled among themselves; each window is read from disk
// before its first batch. Before the first epoch and after each the
// validation positions give top-1 (ties shared as in evaluate.h) and mean log-likelihood; the
// best epoch's weights are kept (the start's if no epoch beats it), the step size is multiplied
// by lr_decay after an epoch without improvement, and training stops after `patience` such
// epochs in a row (or max_epochs).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "corpus/corpus.h"
#include "predict/leaf_softmax.h"
#include "predict/softmax.h"
#include "train/position_cache.h"

namespace hane {

struct SoftmaxTrainOptions {
  FeatureSet feature_set = FeatureSet::kRollout;
  /// The strategic families of the strategic set (features/strategic_context.h).
  StrategicFamilies strategic_families = kAllStrategicFamilies;
  /// Pattern keys seen (as a candidate's key) fewer times than this in the training positions
  /// are dropped from the dictionaries.
  int64_t min_count = 10;
  int max_epochs = 15;
  /// Epochs without a validation improvement before stopping.
  int patience = 2;
  /// Positions per mini-batch.
  int batch_size = 256;
  /// Adam step size, and its factor after an epoch without improvement.
  double learning_rate = 0.01;
  double lr_decay = 0.5;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  /// L2 strength (per step, on the features of the batch).
  double l2 = 1e-5;
  /// Memory for the cached training positions, in GB; positions are sampled to fit.
  double memory_gb = 3.0;
  /// If not empty, the training positions are cached in files of this directory, mapped into
  /// memory (train/position_cache.h), not in memory: memory_gb then bounds the files, and the
  /// kernel keeps in RAM what fits. Each epoch then reads the cache in windows (see below).
  std::string cache_dir;
  /// If > 0, cache at most about this many training positions (sampled).
  int64_t max_positions = 0;
  /// Validation positions cached (sampled from the validation games).
  int64_t validation_positions = 200'000;
  /// Fraction of the cached training positions used in each epoch (a fresh random subset).
  double epoch_fraction = 1.0;
  /// What decides the best epoch and whether an epoch improved: validation "loglik" (smooth:
  /// the default) or "top1" (noisier: ties stop training early).
  std::string select = "loglik";
  /// Logical shards of the training and validation games (see above): the model depends on
  /// this number but not on threads or ranks; at most this many ranks (and threads) do work.
  int shards = 16;
  /// Factorised pairs (the leaf softmax only): with d > 0 every feature, leaf and pattern key
  /// also gets a latent vector of d floats, and a candidate's score adds the dot products of
  /// its features' vectors taken in pairs (train/position_cache.h, position_loss; the LFR model
  /// of Wistuba and Schmidt-Thieme 2013). The vectors start at uniform random values in
  /// [-factor_init, factor_init] (seeded) and an L2 penalty of strength factor_l2 pulls them
  /// towards 0 (more than the weights' l2: the vectors overfit sooner). 0..32.
  int factor_dim = 0;
  double factor_init = 0.01;
  double factor_l2 = 1e-3;
  /// Threads for extraction and training (0: one per core); on each rank.
  int threads = 0;
  uint64_t seed = 1;
  bool progress = true;
};

/// One epoch's figures.
struct SoftmaxEpoch {
  int epoch = 0;            // from 1
  double train_loss = 0;    // mean -ln P(played) over the epoch's positions, during the epoch (nats)
  double validation_top1 = 0;
  double validation_log_likelihood = 0;  // mean ln P(played), nats
  double learning_rate = 0;
  double seconds = 0;
};

/// Trains on every position of `train` (sampled if needed) and validates on positions of
/// `validation` after each epoch. `on_epoch`, if set, sees each epoch's figures. The model's
/// `training` JSON holds the options, corpus and cache sizes, every epoch and the best one.
/// Throws std::invalid_argument for bad options and std::runtime_error if there is nothing
/// to train on.
SoftmaxModel train_softmax(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
                           const SoftmaxTrainOptions& options,
                           const std::function<void(const SoftmaxEpoch&)>& on_epoch = {});

/// The same with the leaves of `tree` as features too (predict/leaf_softmax.h): each candidate
/// also has the id of the leaf it reaches, whose weight starts at ln p of that leaf and is
/// pulled towards it by the L2 penalty (the other weights start at 0 and are pulled towards
/// 0), so that training starts from the tree's own guess. Validation positions are measured
/// before the first epoch too (the report's "start"), and that start is kept if no epoch beats
/// it. Pattern keys are counted as without a tree. The cache holds one more id per class and
/// fewer identical candidates: about 1.3 times the memory per position. With factor_dim > 0 the
/// model's `factors` hold the trained latent vectors (leaf_softmax.h). train_softmax refuses
/// factor_dim > 0 (std::invalid_argument): the plain softmax plays in playouts, whose
/// incremental scores assume features that add up alone.
LeafSoftmaxModel train_leaf_softmax(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
                                    DecisionTree tree, const SoftmaxTrainOptions& options,
                                    const std::function<void(const SoftmaxEpoch&)>& on_epoch = {});

}  // namespace hane
