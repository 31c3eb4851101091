// The softmax guesser as a playout policy: move probabilities kept up to date move by move,
// and moves sampled in proportion to them in O(log n).
//
// For each colour the policy keeps w(p) = exp(score(p)) of every point p (0 for points that are
// not candidates) in a sum tree, so a move is drawn with one descent of the tree. After a move
// only the points whose features may have changed are rescored. For the `rollout` feature set
// (softmax_features.h) these are:
//   - the dirty list of the PatternTracker: every empty point whose diamond12 pattern changed
//     (colours or liberty buckets within distance 2), the played point and the captured points;
//     this covers the 3x3 and response patterns, legality (suicide), the own-eye test, and every
//     liberty fact that the buckets 1 / 2 / 3+ of the neighbouring chains decide;
//   - the old simple-ko point (the new one is a captured point);
//   - save atari through a capture: for every chain whose liberties the move changed (the chain
//     of the move, the opponent chains next to it, the chains next to captured stones) that is
//     in atari after the move or was before it, the liberty of each opponent chain in atari next
//     to it (capturing that chain saves it; such a point may be far from the move). Every other
//     input of save atari (which points the neighbouring chains' liberties are, when they have 2)
//     changes only with a point within distance 2 of the candidate;
//   - nakade: killing eye spaces lie within distance 2 of their vital point, so a vital point
//     that the move creates is within distance 3 of it (those at distance 3 are checked), and
//     a capture can open or close eye spaces within distance 3 of each captured stone;
//   - for the player to move, the points within distance 2 of the previous move and of the
//     previous move it last saw: the response features move with the previous move. A point's
//     score is kept as the sum of its other features' weights (the base) plus the response
//     part, so these points only get their response part recomputed.
// Each colour's tree is brought up to date lazily, when that colour is next to move, over the
// union of the points changed since (each point rescored once). The tree feature set is not
// local (distances to the previous moves change everywhere), so with it every empty point is
// rescored before each move. Either way the probabilities equal those of SoftmaxGuesser on the
// same position (tests compare them on replayed and random games).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "features/nakade.h"
#include "features/pattern_tracker.h"
#include "go/board.h"
#include "go/random.h"
#include "playout/policy.h"
#include "predict/softmax.h"

namespace hane {

namespace softmax_detail {
// Whether a stone next to the centre of the Black diamond code `black` is in atari (a nibble
// 0x5 or 0x6 in lane 0): save atari needs one.
inline bool atari_next(uint64_t black) {
  bool atari = false;
  for (int i = 0; i < 4; ++i) {
    const uint64_t nib = (black >> (4 * i)) & 0xF;
    atari |= nib == 0x5 || nib == 0x6;
  }
  return atari;
}
}  // namespace softmax_detail

/// Non-negative weights on slots 0..n-1, in an 8-ary sum tree (a node holds the sum of its 8
/// children, one cache line of doubles): set() and find() cost O(log n) (3 levels above 361
/// slots). Sums are recomputed from the children on every update, so they never drift, and a
/// node's value depends only on the leaves below it (not on the order of the updates).
///
/// Many leaves changed at once are cheaper staged: stage() writes leaves only, and commit()
/// then recomputes each node above them once, level by level (after a playout move about 25
/// leaves change, mostly in a few groups of 8, so commit() recomputes a dozen nodes where
/// set() would recompute 75). Between stage() and commit() the sums above the staged leaves
/// are stale: total() and find() need a commit() first.
class SumTree {
 public:
  static constexpr int kArity = 8;
  explicit SumTree(int slots = 0) { reset(slots); }
  /// n slots, all of weight 0.
  void reset(int slots);
  void set(int slot, double weight) {
    nodes_[slot] = weight;
    int i = slot;
    for (size_t k = 1; k < offsets_.size(); ++k) {
      i /= kArity;
      nodes_[offsets_[k] + i] = sum_of_children(k, i);
    }
  }
  /// Sets the weight of `slot` without updating the sums above it (see commit()).
  void stage(int slot, double weight) {
    nodes_[slot] = weight;
    const int parent = slot / kArity;
    dirty_[parent >> 6] |= uint64_t{1} << (parent & 63);
  }
  /// Brings the sums above the staged slots up to date: the same values as set() would give.
  void commit();
  double weight(int slot) const { return nodes_[slot]; }
  double total() const { return nodes_[offsets_.back()]; }
  /// The slot whose cumulative weight interval holds u, for 0 <= u < total() (a slot of
  /// positive weight whenever total() > 0, even when rounding puts u at or past the end); -1
  /// if total() is 0.
  int find(double u) const;
  int slots() const { return slots_; }

 private:
  // The sum of the kArity children of node i of level k (k >= 1), in a fixed order.
  double sum_of_children(size_t k, int i) const {
    const double* c = &nodes_[offsets_[k - 1] + i * kArity];
    return ((c[0] + c[1]) + (c[2] + c[3])) + ((c[4] + c[5]) + (c[6] + c[7]));
  }
  int slots_ = 0;
  std::vector<int> offsets_;    // where each level starts in nodes_: leaves first, the root last
  std::vector<double> nodes_;
  // Bit i set: node i of level 1 has a staged child. Each level's marks during commit().
  std::vector<uint64_t> dirty_, next_dirty_;
};

/// A softmax model's weights packed for playouts: one open-addressing table per pattern kind
/// (linear probing), so that a lookup reads one cache line, which prefetch() can fetch ahead.
/// The 3x3 table, read for every rescored point, has 8-byte slots (canonical 3x3 codes fit in
/// 32 bits) at a load of at most 3/4: 256 KB for the shipped model's 23,891 patterns, which
/// stay in a core's L2 cache; the others have 16-byte slots (key and weight) at a load of at most
/// 5/8. score() adds the same weights in the same order as SoftmaxModel::score, so the scores are
/// bit for bit the same. Read-only once built: shared by the clones of a policy.
class PackedWeights {
 public:
  explicit PackedWeights(const SoftmaxModel& model);
  float score(const CandidateFeatures& f) const {
    float s = 0;
    for (int i = 0; i < f.num_fixed; ++i) s += fixed_[f.fixed[i]];
    for (int k = 0; k < kNumPatternKinds; ++k) {
      if (f.has_key(static_cast<PatternKind>(k))) s += weight(k, f.keys[k]);
    }
    return s;
  }
  /// Fetches the slots score(f) will read into the cache.
  void prefetch(const CandidateFeatures& f) const {
    for (int k = 0; k < kNumPatternKinds; ++k) {
      if (f.has_key(static_cast<PatternKind>(k))) prefetch(k, f.keys[k]);
    }
  }
  /// The weight of fixed feature `i`.
  float fixed(int i) const { return fixed_[i]; }
  /// Fetches the slot where a lookup of `key` of kind `kind` starts into the cache.
  void prefetch(int kind, uint64_t key) const {
    if (kind == kKind3x3) {
      __builtin_prefetch(&small_[home(key, small_shift_)]);
    } else {
      __builtin_prefetch(&tables_[kind].slots[home(key, tables_[kind].shift)]);
    }
  }
  /// The weight of pattern key `key` of kind `kind` (0 if the model has none).
  float weight(int kind, uint64_t key) const {
    if (kind == kKind3x3) {
      return key < kNoKey ? weight_3x3(static_cast<uint32_t>(key)) : other_3x3(key);
    }
    const Table& t = tables_[kind];
    for (size_t i = home(key, t.shift);; i = (i + 1) & t.mask) {
      const Slot& s = t.slots[i];
      if (s.used && s.key == key) return s.weight;
      if (!s.used) return 0.0f;
    }
  }
  /// weight(k3x3, key) for a canonical 3x3 code (< 2^32, as every board's are).
  float weight_3x3(uint32_t key) const {
    for (size_t i = home(key, small_shift_);; i = (i + 1) & small_mask_) {
      const SmallSlot& s = small_[i];
      if (s.key == key) return s.weight;
      if (s.key == kNoKey) return 0.0f;
    }
  }

 private:
  static constexpr int kKind3x3 = static_cast<int>(PatternKind::k3x3);
  static size_t home(uint64_t key, int shift) { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift); }
  // 3x3 keys of the model that do not fit a small slot (2^32 - 1 and above: no board makes
  // them), looked up in a list.
  float other_3x3(uint64_t key) const;
  struct Slot {
    uint64_t key = 0;
    float weight = 0;
    uint32_t used = 0;
  };
  struct Table {
    std::vector<Slot> slots;
    size_t mask = 0;
    int shift = 63;
  };
  struct SmallSlot {
    uint32_t key;  // kNoKey: empty
    float weight;
  };
  static constexpr uint32_t kNoKey = 0xFFFF'FFFF;
  std::vector<float> fixed_;
  std::array<Table, kNumPatternKinds> tables_;  // (the 3x3 one unused)
  std::vector<SmallSlot> small_;
  size_t small_mask_ = 0;
  int small_shift_ = 63;
  std::vector<std::pair<uint64_t, float>> other_3x3_;
};

struct SoftmaxPolicyOptions {
  /// Leave out moves that fill one of the mover's own eyes (Board::is_eye), as uniform playouts
  /// do, so that playouts end; the probabilities are then renormalised over the other moves.
  bool exclude_own_eyes = true;
};

/// The policy `softmax:MODEL` (registry.h).
class SoftmaxPolicy final : public PlayoutPolicy {
 public:
  explicit SoftmaxPolicy(std::shared_ptr<const SoftmaxModel> model, SoftmaxPolicyOptions options = {});
  /// The same with the packed weights of `model` already built (for clones).
  SoftmaxPolicy(std::shared_ptr<const SoftmaxModel> model, std::shared_ptr<const PackedWeights> weights,
                SoftmaxPolicyOptions options);

  std::string name() const override { return "softmax"; }

  /// Starts from `board` with `to_move` to play after the moves `last` and `second_last`
  /// (pass or none if there were none). Rescores every point.
  void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
             Vertex second_last = Vertex::none()) override;

  const Board& board() const override { return board_; }
  Color to_move() const override { return to_move_; }
  Vertex last_move() const { return last_; }

  /// Plays `v` for to_move(): a legal move (Board::legal) or pass. Then the other colour is to
  /// move.
  void play(Vertex v) override;

  /// A move for to_move() drawn with probability P(v) (see probability()); pass if there is no
  /// candidate.
  Vertex sample(Rng& rng) override;

  /// The probability that sample() returns `v` now: exp(score(v)) over the sum of exp(score)
  /// of the candidates (legal, not an own eye when excluded); 0 for other points. Never
  /// std::nullopt.
  std::optional<double> probability(Vertex v) override;

  std::unique_ptr<PlayoutPolicy> clone() const override {
    return std::make_unique<SoftmaxPolicy>(model_, weights_, options_);
  }
  /// exp(score(v)) as kept in the tree (0 if not a candidate).
  double weight(Vertex v);

  /// Points rescored since construction (both colours), for benchmarks.
  int64_t rescored() const { return rescored_; }

 private:
  struct CachedWeight {
    uint32_t code;
    float weight;
    float exp_weight;  // std::exp(weight)
  };
  int slot(Vertex v) const { return slot_of_[v.index()]; }
  // Marks point index p for rescoring for both colours.
  void mark(int p) {
    for (int c = 0; c < 2; ++c) {
      if (mark_[c][p] != epoch_[c]) {
        mark_[c][p] = epoch_[c];
        pending_[c].push_back(static_cast<int16_t>(p));
      }
    }
  }
  // Marks a dirty point of the tracker whose 3x3 code did not change (only lane 2 of its
  // diamond did), for the colours whose base may depend on lane 2 there: a nakade feature
  // (it has one, or may have one now), or save atari (a chain in atari next to it).
  void mark_lane2(int p) {
    const uint64_t black = tracker_.black_code(Vertex(p));
    const bool both = softmax_detail::atari_next(black) || nakade_possible(black);
    for (int c = 0; c < 2; ++c) {
      if ((both || nakade_[c][p]) && mark_[c][p] != epoch_[c]) {
        mark_[c][p] = epoch_[c];
        pending_[c].push_back(static_cast<int16_t>(p));
      }
    }
  }
  void mark_atari_neighbours(Vertex chain);
  // Brings colour c's tree up to date (see the top of this file).
  void sync(Color c);
  void sync_rollout(Color c);
  void sync_tree(Color c);
  // Rollout: sets the base of v for c, the score without the response part (the same sum, in
  // the same order, as PackedWeights::score of candidate_features() without a previous move),
  // or kNotCandidate, and its exp when the cache has it (else -1).
  void rescore_base(int ci, int p, Color c);
  // The cheapest necessary conditions of nakade_vital() at the empty point v with Black diamond
  // code `black`: at least two empty neighbours, and a stone (or the edge) within distance 2
  // (an eye space of at most 6 points is enclosed).
  bool may_be_vital(Vertex v, uint64_t black) const { return board_.empty_neighbours(v) >= 2 && black != 0; }
  // The weight of the 3x3 pattern whose raw code for the player to move is `code` (any of the
  // 8 symmetric images), and its exp, through a direct-mapped cache of raw codes: a hit skips
  // canonical(), the table lookup and exp().
  const CachedWeight& weight_3x3(uint32_t code) {
    CachedWeight& e = cache_3x3_[(code * 0x9E3779B1u) >> (32 - kCacheBits)];
    if (e.code != code) {
      const float w = weights_->weight_3x3(static_cast<uint32_t>(canonical(code, PatternShape::k3x3)));
      e = {code, w, std::exp(w)};
    }
    return e;
  }
  // The leaf of point p without a response part: the exp of its base (computed once per base).
  double plain_weight(int ci, int p) {
    float& e = exp_base_[ci][p];
    if (e < 0) e = std::exp(base_[ci][p]);
    return e;
  }
  // Which point of the diamond of p the previous move is (0..11, the nibble of p's code that
  // sees it), or -1 if it is not within distance 1..2 of p.
  int response_point(int p) const {
    const int delta = last_.index() - p;
    return delta >= -kMaxDelta && delta <= kMaxDelta ? response_point_[delta + kMaxDelta] : -1;
  }

  std::shared_ptr<const SoftmaxModel> model_;
  std::shared_ptr<const PackedWeights> weights_;
  SoftmaxPolicyOptions options_;
  bool local_ = true;
  Board board_;
  PatternTracker tracker_;
  BoardStates states_;  // the tree feature set only
  Color to_move_ = Color::kBlack;
  Vertex last_ = Vertex::none(), second_last_ = Vertex::none();
  std::array<int16_t, Board::kMaxVertices> slot_of_{};
  std::vector<int16_t> vertex_of_;
  int board_size_ = 0;  // the size slot_of_ and the offsets were made for
  std::array<SumTree, 2> tree_;
  // Per colour and point: the score without the response part (kNotCandidate if the point is
  // not a candidate), and its exp (0 for kNotCandidate; negative until needed).
  static constexpr float kNotCandidate = -std::numeric_limits<float>::infinity();
  std::array<std::array<float, Board::kMaxVertices>, 2> base_{};
  std::array<std::array<float, Board::kMaxVertices>, 2> exp_base_{};
  std::array<std::array<uint8_t, Board::kMaxVertices>, 2> nakade_{};  // the base has a nakade feature
  // By index difference (offset by kMaxDelta) from a candidate to the previous move: the
  // diamond point it is (see response_point()).
  static constexpr int kMaxDelta = 2 * (Geometry::kMaxSize + Geometry::kPad) + 2;
  std::array<int8_t, 2 * kMaxDelta + 1> response_point_{};
  // Per diamond point i of the previous move: the weights of the response and neighbour
  // features, summed as PackedWeights::score sums them (0 + response + neighbour).
  std::array<float, kMaxPatternPoints> response_fixed_{};
  // Per colour: points to rescore (each once per epoch), whether everything must be rescored,
  // and the previous move its response features were computed for.
  std::array<std::array<uint32_t, Board::kMaxVertices>, 2> mark_{};
  std::array<uint32_t, 2> epoch_{1, 1};
  std::array<std::vector<int16_t>, 2> pending_;
  std::array<bool, 2> full_{true, true};
  std::array<Vertex, 2> center_{Vertex::none(), Vertex::none()};
  // sync_rollout(): the response points of the sync (point, diamond point, key).
  struct ResponseUpdate {
    int16_t p;
    int8_t point;
    uint64_t key;
  };
  std::array<ResponseUpdate, kMaxPatternPoints> response_updates_{};
  // sync_tree(): every point's features, then their scores.
  std::vector<CandidateFeatures> features_;
  std::vector<uint8_t> candidate_;
  // The 3x3 cache (weight_3x3()): 2^kCacheBits entries; a code no board makes marks an empty one.
  static constexpr int kCacheBits = 14;
  static constexpr uint32_t kNoCode = 0xFFFF'FFFF;  // nibbles 0xF: a wall with liberties
  std::vector<CachedWeight> cache_3x3_;
  std::vector<int16_t> was_in_atari_;  // scratch for play()
  std::array<uint32_t, Board::kMaxVertices> seen_{};  // scratch marks for chain heads
  uint32_t seen_epoch_ = 0;
  std::array<int, 12> diamond_offsets_{};
  std::array<int, 24> radius3_offsets_{};
  int64_t rescored_ = 0;
};

}  // namespace hane
