#include "playout/softmax.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "features/tactics.h"

namespace hane {

void SumTree::reset(int slots) {
  slots_ = slots;
  offsets_.clear();
  // Each level padded to whole groups of kArity, down to a single root.
  int size = std::max(1, slots), total = 0;
  while (true) {
    const int padded = (size + kArity - 1) / kArity * kArity;
    offsets_.push_back(total);
    total += padded;
    if (size == 1) break;
    size = padded / kArity;
  }
  // The root level is one node (padded to a group); the last offset points at it.
  nodes_.assign(total, 0.0);
  // Level 1 has the most nodes of the levels above the leaves.
  const int level1 = offsets_.size() > 1 ? (offsets_[1] - offsets_[0]) / kArity : 1;
  dirty_.assign((level1 + 63) / 64, 0);
  next_dirty_.assign(dirty_.size(), 0);
}

void SumTree::commit() {
  // Level k's marked nodes are recomputed from their children, and mark their parents for
  // level k + 1. A level's nodes all come before its parents' level, whose marks start empty.
  for (size_t k = 1; k < offsets_.size(); ++k) {
    for (size_t w = 0; w < dirty_.size(); ++w) {
      for (uint64_t bits = dirty_[w]; bits != 0; bits &= bits - 1) {
        const int i = static_cast<int>(w * 64) + std::countr_zero(bits);
        nodes_[offsets_[k] + i] = sum_of_children(k, i);
        const int parent = i / kArity;
        next_dirty_[parent >> 6] |= uint64_t{1} << (parent & 63);
      }
      dirty_[w] = 0;
    }
    std::swap(dirty_, next_dirty_);
  }
  std::fill(dirty_.begin(), dirty_.end(), 0);  // the root's "parent"
}

int SumTree::find(double u) const {
  if (!(total() > 0)) return -1;
  int i = 0;  // node index within the current level
  for (int k = static_cast<int>(offsets_.size()) - 2; k >= 0; --k) {
    const double* c = &nodes_[offsets_[k] + i * kArity];
    // Stop at the child holding u, or at the last child of positive weight (rounding), never
    // at an empty one: the chosen node always has a positive sum.
    int last = kArity - 1;
    while (!(c[last] > 0)) --last;
    int j = 0;
    while (j < last && !(u < c[j] && c[j] > 0)) u -= c[j++];
    i = i * kArity + j;
  }
  return i;
}

PackedWeights::PackedWeights(const SoftmaxModel& model) : fixed_(model.fixed) {
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (k == kKind3x3) continue;
    Table& t = tables_[k];
    size_t capacity = 2;
    while (capacity * 5 < model.patterns[k].size() * 8) capacity *= 2;
    t.slots.resize(capacity);
    t.mask = capacity - 1;
    t.shift = 64 - std::countr_zero(capacity);
    for (const auto& [key, w] : model.patterns[k]) {
      size_t i = home(key, t.shift);
      while (t.slots[i].used) i = (i + 1) & t.mask;
      t.slots[i] = {key, w, 1};
    }
  }
  size_t capacity = 2;
  while (capacity * 3 < model.patterns[kKind3x3].size() * 4) capacity *= 2;
  small_.assign(capacity, SmallSlot{kNoKey, 0.0f});
  small_mask_ = capacity - 1;
  small_shift_ = 64 - std::countr_zero(capacity);
  for (const auto& [key, w] : model.patterns[kKind3x3]) {
    if (key >= kNoKey) {
      other_3x3_.emplace_back(key, w);
      continue;
    }
    size_t i = home(key, small_shift_);
    while (small_[i].key != kNoKey) i = (i + 1) & small_mask_;
    small_[i] = {static_cast<uint32_t>(key), w};
  }
}

float PackedWeights::other_3x3(uint64_t key) const {
  for (const auto& [k, w] : other_3x3_) {
    if (k == key) return w;
  }
  return 0.0f;
}

using softmax_detail::atari_next;

SoftmaxPolicy::SoftmaxPolicy(std::shared_ptr<const SoftmaxModel> model, SoftmaxPolicyOptions options)
    : SoftmaxPolicy(model, std::make_shared<const PackedWeights>(*model), options) {}

SoftmaxPolicy::SoftmaxPolicy(std::shared_ptr<const SoftmaxModel> model, std::shared_ptr<const PackedWeights> weights,
                             SoftmaxPolicyOptions options)
    : model_(std::move(model)), weights_(std::move(weights)), options_(options),
      local_(model_->feature_set == FeatureSet::kRollout) {
  using namespace fixed_feature;
  for (int i = 0; i < kMaxPatternPoints; ++i) {
    // As response_features() lists them: response, then the neighbour feature if any.
    const int adx = std::abs(kPatternOffsets[i].dx), ady = std::abs(kPatternOffsets[i].dy);
    float s = 0;
    s += weights_->fixed(kResponse);
    if (adx + ady == 1) s += weights_->fixed(kNeighbourOrth);
    if (adx == 1 && ady == 1) s += weights_->fixed(kNeighbourDiag);
    response_fixed_[i] = s;
  }
  cache_3x3_.assign(size_t{1} << kCacheBits, CachedWeight{kNoCode, 0.0f, 1.0f});
  reset(Board(19), Color::kBlack);
}

void SoftmaxPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  board_ = board;
  tracker_.reset(board_);
  to_move_ = to_move;
  last_ = last;
  second_last_ = second_last;
  const int n = board_.size();
  if (n != board_size_) {
    board_size_ = n;
    const int stride = board_.stride();
    slot_of_.fill(-1);
    vertex_of_.resize(n * n);
    for (int y = 0; y < n; ++y) {
      for (int x = 0; x < n; ++x) {
        const int v = board_.at(x, y).index();
        slot_of_[v] = static_cast<int16_t>(y * n + x);
        vertex_of_[y * n + x] = static_cast<int16_t>(v);
      }
    }
    for (int i = 0; i < 12; ++i) diamond_offsets_[i] = kPatternOffsets[i].dy * stride + kPatternOffsets[i].dx;
    // Index differences of the diamond's points (unique for every board size, see vertex.h): the
    // previous move at p + offset i is point i of p's diamond.
    response_point_.fill(-1);
    for (int i = 0; i < 12; ++i) response_point_[diamond_offsets_[i] + kMaxDelta] = static_cast<int8_t>(i);
    for (int i = 0; i < 12; ++i) radius3_offsets_[i] = diamond_offsets_[i];
    for (int i = 0; i < 12; ++i) radius3_offsets_[12 + i] = kRing3Offsets[i].dy * stride + kRing3Offsets[i].dx;
    features_.resize(n * n);
    candidate_.resize(n * n);
  }
  for (int c = 0; c < 2; ++c) {
    tree_[c].reset(n * n);
    pending_[c].clear();
    full_[c] = true;
    center_[c] = Vertex::none();
  }
}

void SoftmaxPolicy::mark_atari_neighbours(Vertex chain) {
  const Color other = opponent(board_.color(chain));
  Vertex s = chain;
  do {
    for (Vertex u : board_.neighbours(s)) {
      if (board_.color(u) == other && board_.liberties(u) == 1) mark(board_.first_liberty(u).index());
    }
    s = board_.next_in_chain(s);
  } while (s != chain);
}

void SoftmaxPolicy::rescore_base(int ci, int p, Color c) {
  using namespace fixed_feature;
  ++rescored_;
  const Vertex v(p);
  if (!board_.is_empty(v) || board_.legal(v, c) != Legality::kLegal || (options_.exclude_own_eyes && board_.is_eye(v, c))) {
    base_[ci][p] = kNotCandidate;
    exp_base_[ci][p] = 0;
    nakade_[ci][p] = 0;
    return;
  }
  // candidate_features() of the rollout set: nakade, save atari, then the 3x3 pattern.
  const uint64_t black = tracker_.black_code(v);
  float s = 0;
  int size = 0;
  Color owner = Color::kEmpty;
  const bool nakade = may_be_vital(v, black) && nakade_vital(board_, v, black, &size, &owner);
  nakade_[ci][p] = nakade;
  if (nakade) s += weights_->fixed(kNakade + 2 * (size - 3) + (owner == c ? 1 : 0));
  if (atari_next(black) && saves_atari(board_, v, c)) s += weights_->fixed(kSaveAtari);
  const uint64_t own = c == Color::kWhite ? swap_colors(black) : black;
  const CachedWeight& w = weight_3x3(static_cast<uint32_t>(shrink(own, PatternShape::k3x3)));
  base_[ci][p] = s + w.weight;
  // Without fixed features the base is the pattern's weight (0 + w == w), whose exp is cached.
  exp_base_[ci][p] = s == 0 ? w.exp_weight : -1;
}

void SoftmaxPolicy::sync(Color c) {
  if (local_) {
    sync_rollout(c);
  } else {
    sync_tree(c);
  }
  const int ci = c == Color::kBlack ? 0 : 1;
  full_[ci] = false;
  center_[ci] = last_;
  pending_[ci].clear();
  if (++epoch_[ci] == 0) {
    mark_[ci].fill(0);
    epoch_[ci] = 1;
  }
}

void SoftmaxPolicy::sync_rollout(Color c) {
  const int ci = c == Color::kBlack ? 0 : 1;
  SumTree& tree = tree_[ci];
  const bool response = last_.is_point();
  // 1. New bases: every point after a reset, else the points marked since the last sync. Their
  // leaves are set here unless the previous move is within their diamond (step 3).
  auto rescore = [&](int p) {
    rescore_base(ci, p, c);
    if (!response || response_point(p) < 0) tree.stage(slot_of_[p], plain_weight(ci, p));
  };
  const bool moved = full_[ci] || center_[ci] != last_;
  if (full_[ci]) {
    for (int16_t p : vertex_of_) rescore(p);
  } else {
    for (int16_t p : pending_[ci]) rescore(p);
    // 2. The points that the previous move this colour saw left: their response part goes.
    // (A point in both diamonds is done in step 3; a point set twice gets the same leaf.)
    if (moved && center_[ci].is_point()) {
      for (int off : diamond_offsets_) {
        const int p = center_[ci].index() + off;
        if (slot_of_[p] >= 0 && (!response || response_point(p) < 0)) tree.stage(slot_of_[p], plain_weight(ci, p));
      }
    }
  }
  // 3. The candidates within the diamond of the previous move: base plus response part. All of
  // them when it moved, else those rescored. Keys first, their weights prefetched.
  if (response) {
    int n = 0;
    for (int off : diamond_offsets_) {
      const int p = last_.index() + off;
      if (slot_of_[p] < 0 || (!moved && mark_[ci][p] != epoch_[ci])) continue;
      if (base_[ci][p] == kNotCandidate) {
        tree.stage(slot_of_[p], 0.0);
        continue;
      }
      // response_features(): p's diamond for c with the previous move's point marked.
      const int point = response_point(p);
      const uint64_t black = tracker_.black_code(Vertex(p));
      const uint64_t own = c == Color::kWhite ? swap_colors(black) : black;
      const uint64_t key = canonical(own | (uint64_t{3} << (4 * point)), PatternShape::kDiamond12);
      weights_->prefetch(static_cast<int>(PatternKind::kResponse), key);
      response_updates_[n++] = {static_cast<int16_t>(p), static_cast<int8_t>(point), key};
    }
    for (int k = 0; k < n; ++k) {
      const ResponseUpdate& u = response_updates_[k];
      const float part = response_fixed_[u.point] + weights_->weight(static_cast<int>(PatternKind::kResponse), u.key);
      tree.stage(slot_of_[u.p], std::exp(base_[ci][u.p] + part));
    }
  }
  tree.commit();
}

void SoftmaxPolicy::sync_tree(Color c) {
  // Every feature may change with any move (distances to the previous moves): everything is
  // rescored after each move, features first (their weights prefetched), then the scores.
  const int ci = c == Color::kBlack ? 0 : 1;
  if (!full_[ci]) return;
  states_.fill(board_);
  const Position ctx{&board_, c, last_, second_last_};
  const int n = static_cast<int>(vertex_of_.size());
  for (int s = 0; s < n; ++s) {
    const Vertex v(vertex_of_[s]);
    ++rescored_;
    candidate_[s] = board_.is_empty(v) && board_.legal(v, c) == Legality::kLegal &&
                    !(options_.exclude_own_eyes && board_.is_eye(v, c));
    if (!candidate_[s]) continue;
    candidate_features(model_->feature_set, ctx, v, tracker_.black_code(v), &states_, &features_[s]);
    weights_->prefetch(features_[s]);
  }
  SumTree& tree = tree_[ci];
  for (int s = 0; s < n; ++s) tree.stage(s, candidate_[s] ? std::exp(weights_->score(features_[s])) : 0.0);
  tree.commit();
}

void SoftmaxPolicy::play(Vertex v) {
  const Color c = to_move_;
  const Vertex old_ko = board_.ko_point();
  if (!local_ || !v.is_point()) {
    board_.play(v, c);
    tracker_.update(board_, v);
    if (old_ko.is_point() && local_) mark(old_ko.index());
    if (!local_) full_ = {true, true};
  } else {
    // Before the move: the stones of chains in atari whose liberties the move changes (the
    // chains next to v, and the mover's chains next to chains it captures).
    was_in_atari_.clear();
    const Color opp = opponent(c);
    for (Vertex n : board_.neighbours(v)) {
      if (!board_.is_stone(n) || board_.liberties(n) != 1) continue;
      was_in_atari_.push_back(static_cast<int16_t>(n.index()));
      // Opponent chains are captured; own chains may be suicided where allowed: the chains
      // next to them gain liberties.
      const Color other = opponent(board_.color(n));
      Vertex s = n;
      do {
        for (Vertex u : board_.neighbours(s)) {
          if (board_.color(u) == other && board_.liberties(u) == 1) was_in_atari_.push_back(static_cast<int16_t>(u.index()));
        }
        s = board_.next_in_chain(s);
      } while (s != n);
    }
    board_.play_legal(v, c);
    tracker_.update(board_, v);

    // The tracker's dirty points. Legality (ko aside), the own-eye test and the 3x3 weight depend
    // only on the 3x3 code; nakade and save atari on lane 2 too (mark_lane2()). The played point
    // (now occupied) and the emptied ones (among them the new ko point) are rescored whatever
    // their codes say, and the old ko point.
    for (int16_t p : tracker_.dirty()) {
      if (tracker_.changed_3x3(p)) {
        mark(p);
      } else {
        mark_lane2(p);
      }
    }
    mark(v.index());
    for (int16_t r : board_.last_removed()) mark(r);
    if (old_ko.is_point()) mark(old_ko.index());

    // Save atari through a capture: for each chain in atari now or before the move whose
    // liberties the move changed, the liberty of every opponent chain in atari next to it.
    if (++seen_epoch_ == 0) {  // wrapped (after 2^32 moves): forget old marks
      seen_.fill(0);
      seen_epoch_ = 1;
    }
    const uint32_t epoch = seen_epoch_;
    auto changed = [&](Vertex s, bool was_in_atari) {
      if (!board_.is_stone(s)) return;
      const Vertex head = board_.chain_head(s);
      if (seen_[head.index()] == epoch) return;
      if (!was_in_atari && board_.liberties(s) != 1) return;
      seen_[head.index()] = epoch;
      mark_atari_neighbours(s);
    };
    for (int16_t p : was_in_atari_) changed(Vertex(p), true);
    changed(v, false);
    for (Vertex n : board_.neighbours(v)) {
      if (board_.color(n) == opp) changed(n, false);
    }
    const std::span<const int16_t> removed = board_.last_removed();
    for (int16_t r : removed) {
      for (Vertex n : board_.neighbours(Vertex(r))) changed(n, false);
    }
    // Nakade. Killing eye spaces lie within distance 2 of their vital point, so a vital point
    // made by the move (its eye space lost v) is within distance 3 of v, and the tracker lists
    // those within distance 2. A capture can make or unmake vital points within distance 3 of
    // each captured stone.
    // (Only an empty region next to v can have lost v.)
    for (int i = board_.empty_neighbours(v) > 0 ? 12 : 24; i < 24; ++i) {
      const Vertex x(v.index() + radius3_offsets_[i]);
      int size;
      Color owner;
      if (slot_of_[x.index()] >= 0 && board_.is_empty(x) && may_be_vital(x, tracker_.black_code(x)) &&
          nakade_vital(board_, x, tracker_.black_code(x), &size, &owner)) {
        mark(x.index());
      }
    }
    for (int16_t r : removed) {
      for (int i = 12; i < 24; ++i) {
        const int p = r + radius3_offsets_[i];
        if (slot_of_[p] >= 0 && board_.is_empty(Vertex(p))) mark(p);
      }
    }
  }
  second_last_ = last_;
  last_ = v;
  to_move_ = opponent(c);
}

Vertex SoftmaxPolicy::sample(Rng& rng) {
  sync(to_move_);
  const SumTree& t = tree_[to_move_ == Color::kBlack ? 0 : 1];
  const int s = t.find(rng.uniform() * t.total());
  return s < 0 ? Vertex::pass() : Vertex(vertex_of_[s]);
}

double SoftmaxPolicy::weight(Vertex v) {
  sync(to_move_);
  const int s = slot(v);
  return s < 0 ? 0.0 : tree_[to_move_ == Color::kBlack ? 0 : 1].weight(s);
}

std::optional<double> SoftmaxPolicy::probability(Vertex v) {
  const double w = weight(v);
  const double total = tree_[to_move_ == Color::kBlack ? 0 : 1].total();
  return total > 0 ? w / total : 0.0;
}

}  // namespace hane
