#include "search/softmax_policy.h"

#include <cmath>

#include "features/tactics.h"

namespace hane {

void SumTree::reset(int slots) {
  slots_ = slots;
  leaves_ = 1;
  while (leaves_ < slots) leaves_ *= 2;
  nodes_.assign(2 * leaves_, 0.0);
}

int SumTree::find(double u) const {
  if (!(nodes_[1] > 0)) return -1;
  int i = 1;
  while (i < leaves_) {
    const double left = nodes_[2 * i];
    // Rounding may leave u at or beyond the right subtree's sum: never enter an empty subtree.
    if ((u < left && left > 0) || !(nodes_[2 * i + 1] > 0)) {
      i = 2 * i;
    } else {
      u -= left;
      i = 2 * i + 1;
    }
  }
  return i - leaves_;
}

SoftmaxPolicy::SoftmaxPolicy(std::shared_ptr<const SoftmaxModel> model, SoftmaxPolicyOptions options)
    : model_(std::move(model)), options_(options), local_(model_->feature_set == FeatureSet::kRollout) {
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
  for (int i = 0; i < 12; ++i) radius3_offsets_[i] = diamond_offsets_[i];
  for (int i = 0; i < 12; ++i) radius3_offsets_[12 + i] = kRing3Offsets[i].dy * stride + kRing3Offsets[i].dx;
  for (int c = 0; c < 2; ++c) {
    tree_[c].reset(n * n);
    pending_[c].clear();
    full_[c] = true;
    center_[c] = Vertex::none();
  }
}

void SoftmaxPolicy::mark_diamond_for(int c, Vertex center) {
  if (!center.is_point()) return;
  for (int off : diamond_offsets_) {
    const int p = center.index() + off;
    if (slot_of_[p] >= 0) mark_for(c, p);
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

double SoftmaxPolicy::score_point(Vertex v, Color c) {
  ++rescored_;
  if (!board_.is_empty(v) || board_.legal(v, c) != Legality::kLegal) return 0;
  if (options_.exclude_own_eyes && board_.is_eye(v, c)) return 0;
  CandidateFeatures f;
  candidate_features(model_->feature_set, MoveContext{&board_, c, last_, second_last_}, v, tracker_.black_code(v),
                     local_ ? nullptr : &states_, &f);
  return std::exp(static_cast<double>(model_->score(f)));
}

void SoftmaxPolicy::sync(Color c) {
  const int ci = c == Color::kBlack ? 0 : 1;
  if (full_[ci]) {
    if (!local_) states_.fill(board_);
    const int n = tree_[ci].slots();
    for (int s = 0; s < n; ++s) tree_[ci].set(s, score_point(Vertex(vertex_of_[s]), c));
    full_[ci] = false;
  } else {
    if (center_[ci] != last_) {
      mark_diamond_for(ci, center_[ci]);
      mark_diamond_for(ci, last_);
    }
    for (int16_t p : pending_[ci]) tree_[ci].set(slot_of_[p], score_point(Vertex(p), c));
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
    const uint32_t epoch = ++seen_epoch_;
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
    for (int i = 12; i < 24; ++i) {
      const Vertex x(v.index() + radius3_offsets_[i]);
      int size;
      Color owner;
      if (slot_of_[x.index()] >= 0 && board_.is_empty(x) && nakade_vital(board_, x, &size, &owner)) mark(x.index());
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

double SoftmaxPolicy::probability(Vertex v) {
  const double w = weight(v);
  const double total = tree_[to_move_ == Color::kBlack ? 0 : 1].total();
  return total > 0 ? w / total : 0.0;
}

PlayoutResult softmax_playout(SoftmaxPolicy& policy, Rng& rng, int max_moves) {
  if (max_moves < 0) max_moves = 3 * policy.board().size() * policy.board().size();
  PlayoutResult result;
  int passes = 0;
  while (passes < 2 && result.moves < max_moves) {
    const Vertex v = policy.sample(rng);
    passes = v.is_pass() ? passes + 1 : 0;
    policy.play(v);
    ++result.moves;
  }
  result.score = area_score(policy.board());
  return result;
}

}  // namespace hane
