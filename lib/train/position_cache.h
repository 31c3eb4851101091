// The compact cache of training positions of the softmax trainer (softmax_train.h) and the
// loss of one cached position with its gradient: the arithmetic of every epoch.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace hane {

/// Positions in the compact form training uses, in blocks (256 KB doubling to 64 MB) that never move. Layout of
/// a position, in 32-bit words: [number of classes] [index of the played move's class], then
/// for each class [count | number of fixed ids << 16 | number of pattern ids << 24], the fixed
/// ids (< num_fixed) packed four to a word, then the pattern ids.
///
/// The blocks live in memory, or, with a spill directory, in a file there mapped into memory
/// (mmap, MAP_SHARED; the file is unlinked at once, so it is gone when the cache is, even after
/// a crash): the kernel then keeps in RAM what fits and reads the rest back from disk, so a cache
/// larger than the machine's memory works. Read out of order it waits on the disk page by page;
/// read runs of consecutive positions after a `prefetch` of each.
class PositionCache {
 public:
  /// Ids below `num_fixed` (at most 256) are the fixed features. Throws std::invalid_argument
  /// for more.
  explicit PositionCache(uint32_t num_fixed = 0);
  /// The same with its blocks in a file of `spill_dir` (see above). Throws std::runtime_error,
  /// naming the directory and the system's reason, if no file can be made there; `add` throws
  /// it if the disk is full.
  PositionCache(uint32_t num_fixed, const std::string& spill_dir);
  PositionCache(PositionCache&&) noexcept;
  PositionCache& operator=(PositionCache&&) noexcept;
  ~PositionCache();
  /// Adds a position of `num_candidates` candidates: candidate i's feature ids are
  /// ids[offsets[i] .. offsets[i + 1]) (distinct, any order; sorted here); `played` is the
  /// index of the played candidate. Candidates with the same ids form one class.
  void add(std::span<uint32_t> ids, std::span<const uint32_t> offsets, int played);
  size_t size() const { return positions_.size(); }
  /// Memory held (blocks and index; with a spill directory the blocks are on disk).
  size_t bytes() const { return allocated_words_ * 4 + positions_.capacity() * 8; }
  bool spilled() const { return spill_ != nullptr; }
  const uint32_t* position(size_t i) const { return positions_[i]; }
  /// Asks the kernel to read positions [first, last) from disk now (MADV_WILLNEED) and touches
  /// each of their pages, so that reading them in any order then does not wait on the disk page
  /// by page. Does nothing in memory.
  void prefetch(size_t first, size_t last) const;

  /// Position i decoded (for tests): its classes, and the played class through `played`.
  struct Class {
    uint32_t count = 0;
    std::vector<uint32_t> ids;
  };
  std::vector<Class> classes(size_t i, int* played = nullptr) const;

 private:
  struct Spill;  // the file and its mappings
  struct Block {
    uint32_t* data = nullptr;
    size_t words = 0;
  };
  void new_block(size_t words);  // appends a block of `words` (in memory or in the file)
  void release();

  static constexpr size_t kFirstBlockWords = size_t{1} << 16;
  static constexpr size_t kBlockWords = size_t{1} << 24;
  uint32_t num_fixed_ = 0;
  std::unique_ptr<Spill> spill_;
  std::vector<Block> blocks_;
  std::vector<size_t> block_starts_;
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

/// The loss of one cached position under `weights`: -ln P(played) with P the softmax of the
/// classes' scores (each class counted `count` times); if `grad` is not null, adds `scale` times
/// d loss / d weights to it.
///
/// With `factor_dim` d > 0 the weights hold, after the n = size / (1 + d) feature weights, one
/// latent vector of d floats per feature (feature i's at n + i d), and a class's score adds the
/// factorised pairs of its features: sum over pairs i < j of <v_i, v_j>, computed as
/// (|sum v|^2 - sum |v|^2) / 2 (Rendle, "Factorization Machines", ICDM 2010; the LFR move model
/// of Wistuba and Schmidt-Thieme, "Move Prediction in Go - Modelling Feature Interactions Using
/// Latent Factors", KI 2013).
PositionLoss position_loss(const uint32_t* position, const Eigen::VectorXf& weights, SparseGradient* grad, float scale,
                           int factor_dim = 0);

}  // namespace hane
