// The node pool, rerooting it, and the search's root: tree reuse and expansion with the game's rules.
#include "search/tree.h"

#include <algorithm>

#include "search/search_impl.h"

namespace hane::search_internal {

NodePool::NodePool(size_t max_bytes)
    : max_chunks_(std::max<size_t>(1, max_bytes / (sizeof(Node) * kChunk))), chunks_(max_chunks_) {}

int32_t NodePool::allocate(int count) {
  std::lock_guard<std::mutex> lock(mutex_);
  int32_t start = next_;
  size_t chunk = static_cast<size_t>(start >> kChunkBits);
  if ((start & (kChunk - 1)) + count > kChunk) {
    ++chunk;  // the rest of this chunk stays unused
    start = static_cast<int32_t>(chunk << kChunkBits);
  }
  if (chunk >= max_chunks_) {
    full_.store(true, std::memory_order_relaxed);
    return -1;
  }
  if (chunk >= allocated_chunks_) {
    chunks_[chunk] = std::make_unique<Node[]>(kChunk);
    allocated_chunks_ = chunk + 1;
  }
  next_ = start + count;
  for (int32_t i = start; i < next_; ++i) {
    Node& n = (*this)[i];
    n.visits.store(0, std::memory_order_relaxed);
    n.half_wins.store(0, std::memory_order_relaxed);
    n.amaf_visits.store(0, std::memory_order_relaxed);
    n.amaf_half_wins.store(0, std::memory_order_relaxed);
    n.prior_visits.store(0, std::memory_order_relaxed);
    n.prior_wins = 0;
    n.first_child = -1;
    n.move = 1;
    n.num_children = 0;
    n.state.store(Node::kLeaf, std::memory_order_relaxed);
    n.joseki_corners = 0x0F;
  }
  used_nodes_.fetch_add(count, std::memory_order_relaxed);
  return start;
}

void NodePool::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  next_ = 0;
  used_nodes_.store(0, std::memory_order_relaxed);
  full_.store(false, std::memory_order_relaxed);
}

int32_t reroot(NodePool& pool, int32_t new_root) {
  // Copies the subtree, breadth first (each node's children stay contiguous), then rebuilds the
  // pool from it.
  struct Plain {
    int32_t visits, half_wins, amaf_visits, amaf_half_wins;
    float prior_visits, prior_wins;
    int32_t source;        // index in the old pool
    int32_t first_child;   // index in `copy`, -1 for a leaf
    int16_t move;
    uint16_t num_children;
    uint8_t joseki_corners;
  };
  auto plain = [&](int32_t i) {
    const Node& n = pool[i];
    return Plain{n.visits.load(), n.half_wins.load(), n.amaf_visits.load(), n.amaf_half_wins.load(),
                 n.prior_visits.load(), n.prior_wins, i, -1, n.move, 0, n.joseki_corners};
  };
  std::vector<Plain> copy{plain(new_root)};
  for (size_t i = 0; i < copy.size(); ++i) {
    const Node& n = pool[copy[i].source];
    if (!n.expanded()) continue;
    copy[i].first_child = static_cast<int32_t>(copy.size());
    copy[i].num_children = n.num_children;
    for (int k = 0; k < n.num_children; ++k) copy.push_back(plain(n.first_child + k));
  }
  pool.reset();
  // index[i]: where copy[i] goes in the new pool; -1 when it has no place.
  std::vector<int32_t> index(copy.size(), -1);
  index[0] = pool.allocate(1);
  for (size_t i = 0; i < copy.size(); ++i) {
    // The breadth-first packing wastes chunk ends in other places than the old layout did, so
    // a subtree that fitted may not fit again: a node whose block of children found no room
    // stays a leaf, and its descendants are dropped (their index stays -1).
    if (index[i] < 0) continue;
    const Plain& p = copy[i];
    Node& n = pool[index[i]];
    n.visits.store(p.visits);
    n.half_wins.store(p.half_wins);
    n.amaf_visits.store(p.amaf_visits);
    n.amaf_half_wins.store(p.amaf_half_wins);
    n.prior_visits.store(p.prior_visits);
    n.prior_wins = p.prior_wins;
    n.move = p.move;
    n.joseki_corners = p.joseki_corners;
    if (p.first_child < 0) continue;
    const int32_t base = pool.allocate(p.num_children);
    if (base < 0) continue;
    for (int k = 0; k < p.num_children; ++k) index[p.first_child + k] = base + k;
    n.first_child = base;
    n.num_children = p.num_children;
    n.state.store(Node::kExpanded, std::memory_order_release);
  }
  return index[0];
}

}  // namespace hane::search_internal

namespace hane {

// ---------------------------------------------------------------------------------------------
// The root: tree reuse and expansion with the game's rules.

bool Search::Impl::try_reuse(const Game& game, Color to_play) {
  if (!have_tree_ || !options_.reuse_tree || game.size() != root_board_.size() || game.rules().komi != komi_) {
    return false;
  }
  const std::vector<Move>& moves = game.moves();
  if (moves.size() < root_moves_.size() || !std::equal(root_moves_.begin(), root_moves_.end(), moves.begin())) {
    return false;
  }
  Board board = root_board_;
  Color color = root_color_;
  int32_t node = root_;
  for (size_t i = root_moves_.size(); i < moves.size(); ++i) {
    const Move& m = moves[i];
    if (m.color != color || board.play(m.vertex, m.color) != Legality::kLegal) return false;
    const Node& n = pool_[node];
    if (!n.expanded()) return false;
    int32_t next = -1;
    for (int k = 0; k < n.num_children; ++k) {
      if (pool_[n.first_child + k].move == m.vertex.index()) next = n.first_child + k;
    }
    if (next < 0) return false;
    node = next;
    color = opponent(color);
  }
  if (color != to_play || board.hash() != game.board().hash() || board.ko_point() != game.board().ko_point()) {
    return false;
  }
  if (node != root_) root_ = search_internal::reroot(pool_, node);
  return true;
}

void Search::Impl::prepare_root(const Game& game, Color to_play) {
  if (!try_reuse(game, to_play)) {
    pool_.reset();
    root_ = pool_.allocate(1);
  }
  have_tree_ = true;
  root_board_ = game.board();
  root_color_ = to_play;
  komi_ = game.rules().komi;
  root_moves_ = game.moves();
  root_game_ = game;
  const Position at = position_of(game, to_play);
  root_last_ = at.last_move;
  root_second_last_ = at.second_last_move;
  root_move_number_ = at.move_number;
  auto expand_root = [&] {
    pool_[root_].state.store(Node::kExpanding);
    return expand(*workers_[0], pool_[root_], root_board_, root_color_, root_last_, root_second_last_,
                  root_move_number_);
  };
  // A reused leaf root in a full pool: start a fresh tree. A fresh pool holds at least one
  // chunk (NodePool), more than a root's children on any board, so the second try succeeds;
  // if it did not, the root would stay a leaf and search() would run no simulation.
  if (!pool_[root_].expanded() && !expand_root()) {
    pool_.reset();
    root_ = pool_.allocate(1);
    if (!expand_root()) {
      root_allowed_.clear();
      root_priors_.clear();
      return;
    }
  }
  Node& root = pool_[root_];
  root_allowed_.assign(root.num_children, 1);
  root_priors_.assign(root.num_children, 0.0f);
  Worker& w = *workers_[0];
  w.candidates.clear();
  for (int i = 0; i < root.num_children; ++i) {
    const Vertex v = pool_[root.first_child + i].vertex();
    root_allowed_[i] = game.legal(v, to_play) == Legality::kLegal;
    if (!v.is_pass()) w.candidates.push_back(v);
  }
  if (w.guesser && !w.candidates.empty()) {
    guesser_probabilities(w, root_board_, root_color_, root_last_, root_second_last_, root_move_number_);
    double sum = 0;
    for (float s : w.scores) sum += std::max(0.0f, s);
    for (int i = 0, j = 0; i < root.num_children; ++i) {
      if (pool_[root.first_child + i].vertex().is_pass()) continue;
      root_priors_[i] = sum > 0 ? static_cast<float>(std::max(0.0f, w.scores[j]) / sum) : 0.0f;
      ++j;
    }
  }
}

}  // namespace hane
