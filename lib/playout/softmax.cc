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
    Table& t = tables_[k];
    size_t capacity = 2;
    while (capacity * 5 < model.patterns[k].size() * 8) capacity *= 2;
    t.slots.resize(capacity);
    t.mask = capacity - 1;
    t.shift = 64 - std::countr_zero(capacity);
    for (const auto& [key, w] : model.patterns[k]) {
      size_t i = t.home(key);
      while (t.slots[i].used) i = (i + 1) & t.mask;
      t.slots[i] = {key, w, 1};
    }
  }
}

SoftmaxPolicy::SoftmaxPolicy(std::shared_ptr<const SoftmaxModel> model, SoftmaxPolicyOptions options)
    : SoftmaxPolicy(model, std::make_shared<const PackedWeights>(*model), options) {}

SoftmaxPolicy::SoftmaxPolicy(std::shared_ptr<const SoftmaxModel> model, std::shared_ptr<const PackedWeights> weights,
                             SoftmaxPolicyOptions options)
    : model_(std::move(model)), weights_(std::move(weights)), options_(options),
      local_(model_->feature_set == FeatureSet::kRollout) {
  updates_.resize(Board::kMaxVertices);
  reset(Board(19), Color::kBlack);
}

void SoftmaxPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  board_ = board;
  tracker_.reset(board_);
  to_move_ = to_move;
  last_ = last;
  second_last_ = second_last;
  const int n = board_.size();
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
  // Index differences of the diamond's points (unique for every board size, see vertex.h).
  in_diamond_.fill(false);
  for (int off : diamond_offsets_) in_diamond_[off + kMaxDelta] = true;
  for (int i = 0; i < 12; ++i) radius3_offsets_[i] = diamond_offsets_[i];
  for (int i = 0; i < 12; ++i) radius3_offsets_[12 + i] = kRing3Offsets[i].dy * stride + kRing3Offsets[i].dx;
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

bool SoftmaxPolicy::base_features(Vertex v, Color c, CandidateFeatures* f) {
  ++rescored_;
  if (!board_.is_empty(v) || board_.legal(v, c) != Legality::kLegal) return false;
  if (options_.exclude_own_eyes && board_.is_eye(v, c)) return false;
  // Rollout: the features without the previous move (sync() adds those); tree: all.
  const Position ctx{&board_, c, local_ ? Vertex::none() : last_, second_last_};
  candidate_features(model_->feature_set, ctx, v, tracker_.black_code(v), local_ ? nullptr : &states_, f);
  return true;
}

void SoftmaxPolicy::sync(Color c) {
  const int ci = c == Color::kBlack ? 0 : 1;
  num_updates_ = 0;
  auto add = [&](int p, bool base) { add_update(p, base); };
  if (full_[ci]) {
    if (!local_) states_.fill(board_);
    for (int16_t p : vertex_of_) add(p, true);
    full_[ci] = false;
  } else {
    for (int16_t p : pending_[ci]) add(p, true);
    // Points whose relation to the previous move changed, and nothing else: their base score
    // stands. (Marked so that a point in both diamonds is updated once.)
    if (center_[ci] != last_) {
      for (Vertex center : {center_[ci], last_}) {
        if (!center.is_point()) continue;
        for (int off : diamond_offsets_) {
          const int p = center.index() + off;
          if (slot_of_[p] >= 0 && mark_[ci][p] != epoch_[ci]) {
            mark_[ci][p] = epoch_[ci];
            add(p, false);
          }
        }
      }
    }
  }
  // Features first, with the pattern weights they need prefetched.
  const bool response = local_ && last_.is_point();
  const std::span<Update> updates(updates_.data(), num_updates_);
  for (Update& u : updates) {
    const Vertex v(u.p);
    if (u.base) {
      u.candidate = base_features(v, c, &u.fb);
      if (u.candidate) weights_->prefetch(u.fb);
    } else {
      u.candidate = base_[ci][u.p] != -std::numeric_limits<float>::infinity();
    }
    u.response = false;
    if (u.candidate && response) {
      const int delta = u.p - last_.index();
      if (delta >= -kMaxDelta && delta <= kMaxDelta && in_diamond_[delta + kMaxDelta]) {
        response_features(Position{&board_, c, last_}, v, tracker_.black_code(v), &u.fr);
        u.response = true;
        weights_->prefetch(u.fr);
      }
    }
  }
  // Then the scores: exp(base + response part) in the tree.
  for (const Update& u : updates) {
    if (u.base) base_[ci][u.p] = u.candidate ? weights_->score(u.fb) : -std::numeric_limits<float>::infinity();
    if (!u.candidate) {
      tree_[ci].set(slot_of_[u.p], 0.0);
      continue;
    }
    float s = base_[ci][u.p];
    if (u.response) s += weights_->score(u.fr);
    tree_[ci].set(slot_of_[u.p], std::exp(s));
  }
  center_[ci] = last_;
  pending_[ci].clear();
  if (++epoch_[ci] == 0) {
    mark_[ci].fill(0);
    epoch_[ci] = 1;
  }
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

    for (int16_t p : tracker_.dirty()) mark(p);  // includes the new ko point (a captured stone)
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
      if (slot_of_[x.index()] >= 0 && board_.is_empty(x) && nakade_vital(board_, x, tracker_.black_code(x), &size, &owner)) {
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
