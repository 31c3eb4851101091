// Expansion with priors, selection by the RAVE blend, one simulation and its backup (search.h).
#include <algorithm>
#include <cmath>

#include "features/tactics.h"
#include "playout/policy.h"
#include "predict/softmax.h"
#include "search/ownership.h"
#include "search/search_impl.h"
#include "search/strategic_prior.h"

namespace hane {

using search_internal::half_wins_for;
using search_internal::Node;
using search_internal::NodePool;

namespace search_internal {
namespace {

// Relaxed add without a locked instruction, for AMAF counts: under threads an update may
// rarely be lost, as in Fuego's lock-free tree (M. Enzenberger and M. Müller, "A Lock-free
// Multithreaded Monte-Carlo Tree Search Algorithm", ACG 2009).
inline void racy_add(std::atomic<int32_t>& a, int32_t d) {
  a.store(a.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
}

}  // namespace

Prior child_prior(double even, double weight, double p, double scale) {
  double bonus = 0;
  if (scale > 0) bonus = weight * std::sqrt(std::max(0.0, p) / scale);
  return {static_cast<float>(even + bonus), static_cast<float>(even / 2 + bonus)};
}

void backup_amaf(NodePool& pool, std::span<const int32_t> path, std::span<const Move> moves,
                 std::span<const uint8_t> ko_captures, int black_half, const AmafWeights& weights,
                 AmafScratch& scratch) {
  // Scanning the simulation backwards leaves color[v] = the colour that played v first from move
  // j on and index[v] its move index; at j = the depth of a path node, update that node's children.
  const size_t tree_moves = path.empty() ? 0 : path.size() - 1;
  const int length = static_cast<int>(moves.size());
  uint8_t* first = scratch.color.data();
  int32_t* first_at = scratch.index.data();
  for (size_t j = moves.size(); j-- > 0;) {
    const Move& m = moves[j];
    if (m.vertex.is_point()) {
      first[m.vertex.index()] = static_cast<uint8_t>(m.color);
      first_at[m.vertex.index()] = static_cast<int32_t>(j);
    }
    if (j >= tree_moves) continue;
    const Node& parent = pool[path[j]];
    const uint8_t mover = static_cast<uint8_t>(m.color);
    const int half = half_wins_for(m.color, black_half);
    Node* children = &pool[parent.first_child];  // contiguous
    const bool ko_fight = !weights.ko_threats && !ko_captures.empty() && ko_captures[j];
    if (weights.distance == 0 && !ko_fight) {
      for (int k = 0; k < parent.num_children; ++k) {
        Node& c = children[k];
        // Branch-free: pass (index 0) never matches, as color[0] stays 0.
        const int32_t hit = first[c.move] == mover;
        racy_add(c.amaf_visits, hit);
        racy_add(c.amaf_half_wins, hit * half);
      }
      continue;
    }
    // The ko fight that move j opens: it goes on while every third move retakes the ko.
    int ko_length = 0;
    if (ko_fight) {
      ko_length = 1;
      while (static_cast<int>(j) + ko_length + 2 < length && ko_captures[j + ko_length + 2]) ko_length += 3;
    }
    const int rest = length - static_cast<int>(j) + 1;
    for (int k = 0; k < parent.num_children; ++k) {
      Node& c = children[k];
      if (first[c.move] != mover) continue;
      const int f = first_at[c.move];
      const int d = f - static_cast<int>(j);
      if (d <= ko_length && d % 6 == 4) continue;  // a ko threat before retaking
      const int32_t weight = 1 + weights.distance * (length - f) / rest;
      racy_add(c.amaf_visits, weight);
      racy_add(c.amaf_half_wins, weight * half);
    }
  }
  for (const Move& m : moves) {
    if (m.vertex.is_point()) first[m.vertex.index()] = 0;
  }
}

}  // namespace search_internal

bool Search::Impl::expand(Worker& w, Node& node, const Board& board, Color to_move, Vertex last,
                          Vertex second_last, int move_number) {
  w.candidates.clear();
  for (int16_t p : board.empty_points()) {
    const Vertex v(p);
    if (board.is_eye(v, to_move) || board.legal(v, to_move) != Legality::kLegal) continue;
    if (options_.prune_ladders && saves_atari(board, v, to_move) && !ladder_escape(board, v, to_move)) continue;
    w.candidates.push_back(v);
  }
  // No pass before the opening is over (go/game.h in_opening), unless there is no other move.
  const bool with_pass = w.candidates.empty() || !in_opening(board, move_number - 1);
  const int count = static_cast<int>(w.candidates.size()) + (with_pass ? 1 : 0);
  const int32_t first = pool_.allocate(count);
  if (first < 0) {
    node.state.store(Node::kLeaf, std::memory_order_release);
    return false;
  }
  const double even = options_.prior_even;
  float best = 0;
  if (w.guesser && !w.candidates.empty()) {
    guesser_probabilities(w, board, to_move, last, second_last, move_number);
    for (float s : w.scores) best = std::max(best, s);
    if (options_.prior_absolute) {
      // Probabilities over the children: the scale is their sum, not the largest.
      float sum = 0;
      for (float s : w.scores) sum += std::max(0.0f, s);
      best = sum;
    }
  }
  const uint8_t corners = joseki_bonus(w, node, board, to_move, move_number);
  const bool joseki = !w.joseki_moves.empty();
  for (int i = 0; i < static_cast<int>(w.candidates.size()); ++i) {
    Node& c = pool_[first + i];
    c.move = static_cast<int16_t>(w.candidates[i].index());
    const search_internal::Prior prior =
        search_internal::child_prior(even, options_.prior_weight, best > 0 ? w.scores[i] : 0, best);
    const float bonus = joseki ? w.joseki_bonus[c.move] : 0.0f;
    c.prior_visits.store(prior.visits + bonus, std::memory_order_relaxed);
    c.prior_wins = prior.wins + bonus;
    c.joseki_corners = corners;
  }
  if (joseki) {
    for (const JosekiMove& m : w.joseki_moves) w.joseki_bonus[m.move.index()] = 0;
  }
  if (with_pass) {
    Node& pass = pool_[first + count - 1];
    pass.move = static_cast<int16_t>(Vertex::pass().index());
    pass.prior_visits.store(static_cast<float>(even), std::memory_order_relaxed);
    pass.prior_wins = static_cast<float>(even * search_internal::kPassPriorWinrate);
    pass.joseki_corners = corners;
  }
  node.first_child = first;
  node.num_children = static_cast<uint16_t>(count);
  node.state.store(Node::kExpanded, std::memory_order_release);
  return true;
}

void Search::Impl::guesser_probabilities(Worker& w, const Board& board, Color to_move, Vertex last,
                                         Vertex second_last, int move_number) {
  w.scores.resize(w.candidates.size());
  const Position position{&board, to_move, last, second_last, move_number};
  w.guesser->score(position, w.candidates, w.scores);
  if (!w.guesser->gives_probabilities()) softmax_in_place(w.scores);  // scores of any scale
  // The strategic prior (strategic_prior.h) for the root's children and their replies.
  if (options_.strategic_weight > 0 && move_number - root_move_number_ <= 1) {
    if (!w.strategic_maps) w.strategic_maps = std::make_unique<BoardMaps>();
    const PointSet dead = dead_stones_by_tactics(board, to_move);
    board_maps(board, &dead, *w.strategic_maps);
    strategic_reweight(board, *w.strategic_maps, to_move, move_number, options_.strategic_weight, w.candidates,
                       w.scores);
  }
}

uint8_t Search::Impl::joseki_bonus(Worker& w, const Node& node, const Board& board, Color to_move, int move_number) {
  w.joseki_moves.clear();
  if (!joseki_ || node.joseki_corners == 0) return 0;
  const uint8_t live = joseki_->corner_replies(board, to_move, move_number, node.joseki_corners, w.joseki_moves);
  if (w.joseki_moves.empty()) return live;
  if (w.joseki_bonus.empty()) w.joseki_bonus.assign(Board::kMaxVertices, 0.0f);
  const double weight = options_.joseki_weight;
  for (const JosekiMove& m : w.joseki_moves) {
    w.joseki_bonus[m.move.index()] += static_cast<float>(weight * std::sqrt(static_cast<double>(m.share)));
  }
  return live;
}

void Search::Impl::add_criticality(Vertex move, float& r, float& a) const {
  if (criticality_.visits(move) < options_.criticality_min_visits) return;
  const float extra = static_cast<float>(criticality_.criticality(move) * options_.criticality) * r;
  r += extra;  // all wins: with crit < 0, fewer AMAF visits and wins alike
  a += extra;
}

double Search::Impl::child_value(const Node& c, double log_parent, bool at_root) const {
  // With W, n the direct wins and visits (priors included), A, r the AMAF ones and e = equiv:
  //   β·A/r + (1 − β)·W/n = (A·e + W·(e + r)) / (r·e + n·e + n·r)   (one division).
  // Single precision: one divss per child (values differ from double by < 1e-6).
  const float n = static_cast<float>(c.visits.load(std::memory_order_relaxed)) +
                  c.prior_visits.load(std::memory_order_relaxed);
  const float w = 0.5f * static_cast<float>(c.half_wins.load(std::memory_order_relaxed)) + c.prior_wins;
  float r = static_cast<float>(c.amaf_visits.load(std::memory_order_relaxed));
  float a = 0.5f * static_cast<float>(c.amaf_half_wins.load(std::memory_order_relaxed));
  if (at_root && options_.criticality > 0) add_criticality(c.vertex(), r, a);
  const float e = rave_equiv_;
  const float denominator = r * e + n * e + n * r;
  double value = denominator > 0 ? (a * e + w * (e + r)) / denominator : 0.5f;
  if (options_.uct_c > 0) value += options_.uct_c * std::sqrt(log_parent / (n + 1));
  return value;
}

int32_t Search::Impl::select_child(const Node& node, bool at_root, Rng& rng) const {
  const Node* children = &pool_[node.first_child];  // contiguous
  if (options_.uct_c == 0) {
    // The same choice as child_value() without a division: compare the fractions num / den
    // of the RAVE blend by cross-multiplying (den > 0; an empty child counts as 1/2).
    float best_num = -1, best_den = 1;
    int32_t best = -1;
    uint32_t ties = 1;  // children of the best value so far
    const float e = rave_equiv_;
    const bool criticality = at_root && options_.criticality > 0;
    for (int i = 0; i < node.num_children; ++i) {
      if (at_root && !root_allowed_[i]) continue;
      const Node& c = children[i];
      const float n = static_cast<float>(c.visits.load(std::memory_order_relaxed)) +
                  c.prior_visits.load(std::memory_order_relaxed);
      const float w = 0.5f * static_cast<float>(c.half_wins.load(std::memory_order_relaxed)) + c.prior_wins;
      float r = static_cast<float>(c.amaf_visits.load(std::memory_order_relaxed));
      float a = 0.5f * static_cast<float>(c.amaf_half_wins.load(std::memory_order_relaxed));
      if (criticality) add_criticality(c.vertex(), r, a);
      float den = r * e + n * e + n * r;
      float num = a * e + w * (e + r);
      if (!(den > 0)) {
        num = 0.5f;
        den = 1;
      }
      const float left = num * best_den, right = best_num * den;
      // Ties (children with the same prior and no visits yet, common under a decision tree's
      // leaves) go to one of them at random; never to pass, the last child.
      if (left > right || (left == right && i + 1 < node.num_children && rng.below(++ties) == 0)) {
        if (left > right) ties = 1;
        best_num = num;
        best_den = den;
        best = node.first_child + i;
      }
    }
    return best;
  }
  const double log_parent = std::log(node.visits.load(std::memory_order_relaxed) + 1.0);
  int32_t best = -1;
  double best_value = -1e300;
  uint32_t ties = 1;
  for (int i = 0; i < node.num_children; ++i) {
    if (at_root && !root_allowed_[i]) continue;
    const double v = child_value(children[i], log_parent, at_root);
    if (v > best_value || (v == best_value && i + 1 < node.num_children && rng.below(++ties) == 0)) {
      if (v > best_value) ties = 1;
      best_value = v;
      best = node.first_child + i;
    }
  }
  return best;
}

void Search::Impl::simulate(Worker& w) {
  PlayoutPolicy& policy = *w.policy;
  policy.reset(root_board_, root_color_, root_last_, root_second_last_);
  w.moves.clear();
  w.ko_captures.clear();
  w.path.clear();
  w.path.push_back(root_);
  Node* node = &pool_[root_];
  node->visits.fetch_add(1, std::memory_order_relaxed);
  Color color = root_color_;
  Vertex last = root_last_, second_last = root_second_last_;
  const int max_depth = root_board_.size() * root_board_.size();
  const bool superko = root_game_.rules().superko != Superko::kNone;
  w.line_keys.clear();
  bool repeated = false;
  for (int depth = 0; depth < max_depth; ++depth) {
    if (!node->expanded()) {
      uint8_t leaf = Node::kLeaf;
      if (node->n() < options_.expand_visits || pool_.full() ||
          !node->state.compare_exchange_strong(leaf, Node::kExpanding, std::memory_order_acquire) ||
          !expand(w, *node, policy.board(), color, last, second_last, root_move_number_ + depth)) {
        break;
      }
    }
    const int32_t child = select_child(*node, depth == 0, w.rng);
    if (child < 0) break;
    node = &pool_[child];
    node->visits.fetch_add(1, std::memory_order_relaxed);  // the virtual loss
    const Vertex v = node->vertex();
    policy.play(v);
    w.moves.push_back({color, v});
    if (!amaf_weights_.ko_threats) w.ko_captures.push_back(!policy.board().ko_point().is_none());
    w.path.push_back(child);
    second_last = last;
    last = v;
    color = opponent(color);
    if (superko && !v.is_pass()) {
      // The root's children obey superko already (root_allowed_).
      const uint64_t key = root_game_.superko_key(policy.board().hash(), color);
      if (depth > 0 && (root_game_.repeats(key) || std::find(w.line_keys.begin(), w.line_keys.end(), key) !=
                                                      w.line_keys.end())) {
        node->prior_visits.store(1e9f, std::memory_order_relaxed);  // invalid: never selected again
        repeated = true;
        break;
      }
      w.line_keys.push_back(key);
    }
  }
  int black_half = 1;
  if (repeated) {
    black_half = w.moves.back().color == Color::kBlack ? 0 : 2;  // a loss for the move's player
  } else {
    const PlayoutResult result = run_playout(policy, w.rng, -1, &w.moves, amaf_weights_.ko_threats ? nullptr : &w.ko_captures);
    const double margin = result.score.margin(komi_ + extra_komi_);
    black_half = margin > 0 ? 2 : margin == 0 ? 1 : 0;
    w.margin_sum += margin;
    if (w.last_good_reply && black_half != 1) {
      w.last_good_reply->learn(root_second_last_, root_last_, w.moves, black_half == 2 ? Color::kBlack : Color::kWhite);
    }
  }
  add_ownership(policy.board(), w.owner_sum);
  if (!repeated && w.path.size() >= 2 && w.moves[0].vertex.is_point()) {  // through a root child
    criticality_.add(w.moves[0].vertex, policy.board(), black_half);
  }

  // Direct values: each node's result for the player who moved into it.
  pool_[root_].half_wins.fetch_add(half_wins_for(opponent(root_color_), black_half), std::memory_order_relaxed);
  for (size_t d = 1; d < w.path.size(); ++d) {
    pool_[w.path[d]].half_wins.fetch_add(half_wins_for(w.moves[d - 1].color, black_half), std::memory_order_relaxed);
  }
  search_internal::backup_amaf(pool_, w.path, w.moves, w.ko_captures, black_half, amaf_weights_, w.amaf);
}

}  // namespace hane
