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
// moments, Eigen arrays for each position's scores). After each epoch the validation positions
// give top-1 (ties shared as in evaluate.h) and mean log-likelihood; the best epoch's weights are
// kept, the step size is multiplied by lr_decay after an epoch without improvement, and training
// stops after `patience` such epochs in a row (or max_epochs).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "corpus/corpus.h"
#include "predict/softmax.h"

namespace hane {

struct SoftmaxTrainOptions {
  FeatureSet feature_set = FeatureSet::kRollout;
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

// ---------------------------------------------------------------------------------------------
// The pieces, exposed for tests.

/// Positions in the compact form training uses, in blocks (256 KB doubling to 64 MB) that never move. Layout of
/// a position, in 32-bit words: [number of classes] [index of the played move's class], then
/// for each class [count | number of fixed ids << 16 | number of pattern ids << 24], the fixed
/// ids (< num_fixed) packed four to a word, then the pattern ids.
class PositionCache {
 public:
  /// Ids below `num_fixed` (at most 256) are the fixed features.
  explicit PositionCache(uint32_t num_fixed = 0);
  /// Adds a position of `num_candidates` candidates: candidate i's feature ids are
  /// ids[offsets[i] .. offsets[i + 1]) (distinct, any order; sorted here); `played` is the
  /// index of the played candidate. Candidates with the same ids form one class.
  void add(std::span<uint32_t> ids, std::span<const uint32_t> offsets, int played);
  size_t size() const { return positions_.size(); }
  /// Memory held (blocks and index).
  size_t bytes() const { return allocated_words_ * 4 + positions_.capacity() * 8; }
  const uint32_t* position(size_t i) const { return positions_[i]; }

  /// Position i decoded (for tests): its classes, and the played class through `played`.
  struct Class {
    uint32_t count = 0;
    std::vector<uint32_t> ids;
  };
  std::vector<Class> classes(size_t i, int* played = nullptr) const;

 private:
  static constexpr size_t kFirstBlockWords = size_t{1} << 16;
  static constexpr size_t kBlockWords = size_t{1} << 24;
  uint32_t num_fixed_ = 0;
  std::vector<std::unique_ptr<uint32_t[]>> blocks_;
  size_t block_words_ = 0;      // capacity of the last block
  size_t block_used_ = 0;       // words used in it
  size_t allocated_words_ = 0;  // in every block
  std::vector<const uint32_t*> positions_;
  std::vector<std::pair<uint64_t, uint32_t>> order_;  // scratch: (hash of ids, candidate)
  std::vector<uint8_t> done_;                         // scratch
  std::vector<uint32_t> scratch_;                     // the position being written
};

/// A dense gradient buffer that remembers which entries are non-zero.
struct SparseGradient {
  explicit SparseGradient(int64_t n = 0) : g(Eigen::VectorXf::Zero(n)), marked(n, 0) {}
  void add(uint32_t id, float v) {
    if (!marked[id]) {
      marked[id] = 1;
      touched.push_back(id);
    }
    g[id] += v;
  }
  void clear() {
    for (uint32_t id : touched) g[id] = 0, marked[id] = 0;
    touched.clear();
  }
  Eigen::VectorXf g;
  std::vector<int> touched;
  std::vector<uint8_t> marked;
};

struct PositionLoss {
  double loss = 0;  // -ln P(played), nats
  double top1 = 0;  // 1 if the played class scores highest alone; ties shared (evaluate.h)
};

/// The loss of one cached position under `weights`; if `grad` is not null, adds `scale` times
/// d loss / d weights to it.
PositionLoss position_loss(const uint32_t* position, const Eigen::VectorXf& weights, SparseGradient* grad, float scale);

}  // namespace hane
