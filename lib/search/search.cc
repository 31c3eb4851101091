#include "search/search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>

#include "absl/strings/str_cat.h"
#include "go/score.h"
#include "playout/registry.h"
#include "predict/guesser.h"
#include "predict/load.h"
#include "search/ownership.h"
#include "search/tree.h"

namespace hane {

using search_internal::Node;
using search_internal::NodePool;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double process_cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// Relaxed add without a locked instruction, for AMAF counts: under threads an update may
// rarely be lost, as in Fuego's lock-free tree (M. Enzenberger and M. Müller, "A Lock-free
// Multithreaded Monte-Carlo Tree Search Algorithm", ACG 2009).
inline void racy_add(std::atomic<int32_t>& a, int32_t d) {
  a.store(a.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
}

// Half-wins of a simulation for `c`: 2 win, 1 jigo, 0 loss.
inline int half_wins_for(Color c, int black_half) { return c == Color::kBlack ? black_half : 2 - black_half; }

constexpr double kPassPriorWinrate = 0.1;

// Everything one search thread owns.
struct Worker {
  std::unique_ptr<PlayoutPolicy> policy;
  std::unique_ptr<Guesser> guesser;
  Rng rng;
  std::vector<Move> moves;
  std::vector<int32_t> path;
  std::vector<uint8_t> first_color;
  std::vector<int32_t> owner_sum;
  int64_t simulations = 0;  // in this search
  std::vector<Vertex> candidates;
  std::vector<float> scores;
};

}  // namespace

class Search::Impl {
 public:
  Impl(const SearchOptions& options, std::unique_ptr<PlayoutPolicy> policy, std::unique_ptr<Guesser> guesser)
      : options_(options), rave_equiv_(static_cast<float>(options.rave_equiv)), pool_(static_cast<size_t>(options.max_tree_mb) << 20) {
    for (int t = 0; t < options.threads; ++t) {
      auto w = std::make_unique<Worker>();
      w->policy = t == 0 ? std::move(policy) : workers_[0]->policy->clone();
      if (guesser) w->guesser = t == 0 ? std::move(guesser) : workers_[0]->guesser->clone();
      w->rng.reseed(options.seed ^ (0xA24BAED4963EE407ull * static_cast<uint64_t>(t + 1)));
      workers_.push_back(std::move(w));
    }
    end_rng_.reseed(options.seed ^ 0x5851F42D4C957F2Dull);
  }

  const SearchOptions& options() const { return options_; }
  SearchResult search(const Game& game, Color to_play, const SearchLimits& limits, const AnalysisCallback* analysis);
  SearchResult genmove(const Game& game, Color to_play, const SearchLimits& limits, bool cleanup,
                       const AnalysisCallback* analysis);
  std::vector<float> ownership() const {
    if (!searching_) return ownership_;
    // During a search (from the analysis callback, on the searching thread): the calling
    // thread's own simulations.
    const Worker& w = *workers_[0];
    std::vector<float> own(w.owner_sum.size(), 0.0f);
    if (w.simulations > 0) {
      for (size_t v = 0; v < own.size(); ++v) own[v] = static_cast<float>(w.owner_sum[v]) / static_cast<float>(w.simulations);
    }
    return own;
  }
  EndEstimate estimate_end(const Game& game, int playouts);
  void clear() {
    have_tree_ = false;
    pool_.reset();
  }

 private:
  void prepare_root(const Game& game, Color to_play);
  bool try_reuse(const Game& game, Color to_play);
  void reroot(int32_t new_root);
  bool expand(Worker& w, Node& node, const Board& board, Color to_move, Vertex last, Vertex second_last, int move_number);
  int32_t select_child(const Node& node, bool at_root) const;
  void simulate(Worker& w);
  void run_worker(int index, const SearchLimits& limits, int64_t playout_limit, const AnalysisCallback* analysis);
  SearchResult snapshot() const;
  std::vector<Vertex> principal_variation(int32_t from) const;
  double child_value(const Node& c, double log_parent) const;

  SearchOptions options_;
  float rave_equiv_;
  NodePool pool_;
  std::vector<std::unique_ptr<Worker>> workers_;
  Rng end_rng_;

  // The root and the position it stands for.
  int32_t root_ = -1;
  bool have_tree_ = false;
  Board root_board_;
  Color root_color_ = Color::kBlack;
  Vertex root_last_ = Vertex::none(), root_second_last_ = Vertex::none();
  int root_move_number_ = 1;
  double komi_ = 7.5;
  std::vector<Move> root_moves_;       // the game's moves at the root
  std::vector<uint8_t> root_allowed_;  // per root child: legal in the game (superko)
  std::vector<float> root_priors_;     // per root child: guesser probability

  // The current search.
  std::atomic<int64_t> tickets_{0};
  std::atomic<int64_t> done_{0};
  std::atomic<bool> stop_{false};
  Clock::time_point start_;
  double cpu_start_ = 0;
  std::vector<float> ownership_;
  bool searching_ = false;  // read and written by the searching thread only
};

absl::StatusOr<std::unique_ptr<Search>> Search::create(const SearchOptions& options) {
  if (options.threads < 1 || options.threads > 256) {
    return absl::InvalidArgumentError(absl::StrCat("search threads must be 1..256, got ", options.threads));
  }
  if (options.max_tree_mb < 1) {
    return absl::InvalidArgumentError(absl::StrCat("search tree memory must be >= 1 MB, got ", options.max_tree_mb));
  }
  if (!(options.rave_equiv > 0) || options.prior_weight < 0 || options.prior_even < 0 || options.uct_c < 0 ||
      options.expand_visits < 1 || options.playouts < 0 || options.visits < 0) {
    return absl::InvalidArgumentError(
        "search options out of range: rave_equiv > 0, prior_weight, prior_even, uct_c, playouts, visits >= 0, "
        "expand_visits >= 1");
  }
  if (options.playouts == 0 && options.visits == 0) {
    return absl::InvalidArgumentError("search options: a default budget is needed (playouts or visits > 0)");
  }
  if (options.resign_threshold < 0 || options.resign_threshold >= 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("resign threshold must be in [0, 1), got ", options.resign_threshold));
  }
  auto policy = make_policy(options.policy, options.policy_options);
  if (!policy.ok()) return policy.status();
  std::unique_ptr<Guesser> guesser;
  if (!options.prior.empty() && options.prior != "none") {
    auto g = load_guesser(options.prior);
    if (!g.ok()) return g.status();
    guesser = std::move(*g);
  }
  return std::unique_ptr<Search>(new Search(std::make_unique<Impl>(options, std::move(*policy), std::move(guesser))));
}

Search::Search(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Search::~Search() = default;
const SearchOptions& Search::options() const { return impl_->options(); }
SearchResult Search::search(const Game& game, Color to_play, const SearchLimits& limits,
                            const AnalysisCallback* analysis) {
  return impl_->search(game, to_play, limits, analysis);
}
SearchResult Search::genmove(const Game& game, Color to_play, const SearchLimits& limits, bool cleanup,
                             const AnalysisCallback* analysis) {
  return impl_->genmove(game, to_play, limits, cleanup, analysis);
}
std::vector<float> Search::ownership() const { return impl_->ownership(); }
EndEstimate Search::estimate_end(const Game& game, int playouts) { return impl_->estimate_end(game, playouts); }
void Search::clear() { impl_->clear(); }

SearchLimits Search::limits_for(const Game& game, const TimeControl& clock, bool budget_too) const {
  SearchLimits limits;
  const auto t = clock.time_for_move(static_cast<int>(game.board().empty_points().size()), options().time_lag);
  if (t) limits.seconds = *t;
  if (!t || budget_too) {
    limits.playouts = options().playouts;
    limits.visits = options().visits;
  }
  return limits;
}

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
  if (node != root_) reroot(node);
  return true;
}

void Search::Impl::reroot(int32_t new_root) {
  // Copies the subtree, breadth first (each node's children stay contiguous), then rebuilds the
  // pool from it.
  struct Plain {
    int32_t visits, half_wins, amaf_visits, amaf_half_wins;
    float prior_visits, prior_wins;
    int32_t source;        // index in the old pool
    int32_t first_child;   // index in `copy`, -1 for a leaf
    int16_t move;
    uint16_t num_children;
  };
  auto plain = [&](int32_t i) {
    const Node& n = pool_[i];
    return Plain{n.visits.load(), n.half_wins.load(), n.amaf_visits.load(), n.amaf_half_wins.load(),
                 n.prior_visits, n.prior_wins, i, -1, n.move, 0};
  };
  std::vector<Plain> copy{plain(new_root)};
  for (size_t i = 0; i < copy.size(); ++i) {
    const Node& n = pool_[copy[i].source];
    if (!n.expanded()) continue;
    copy[i].first_child = static_cast<int32_t>(copy.size());
    copy[i].num_children = n.num_children;
    for (int k = 0; k < n.num_children; ++k) copy.push_back(plain(n.first_child + k));
  }
  pool_.reset();
  std::vector<int32_t> index(copy.size(), -1);
  index[0] = pool_.allocate(1);
  for (size_t i = 0; i < copy.size(); ++i) {
    const Plain& p = copy[i];
    Node& n = pool_[index[i]];
    n.visits.store(p.visits);
    n.half_wins.store(p.half_wins);
    n.amaf_visits.store(p.amaf_visits);
    n.amaf_half_wins.store(p.amaf_half_wins);
    n.prior_visits = p.prior_visits;
    n.prior_wins = p.prior_wins;
    n.move = p.move;
    if (p.first_child < 0) continue;
    const int32_t base = pool_.allocate(p.num_children);
    if (base < 0) continue;  // cannot happen (the subtree fitted before); stays a leaf if it does
    for (int k = 0; k < p.num_children; ++k) index[p.first_child + k] = base + k;
    n.first_child = base;
    n.num_children = p.num_children;
    n.state.store(Node::kExpanded, std::memory_order_release);
  }
  // Children of leaves that could not be placed are simply dropped (their index stays -1).
  root_ = index[0];
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
  const size_t k = root_moves_.size();
  root_last_ = k >= 1 ? root_moves_[k - 1].vertex : Vertex::none();
  root_second_last_ = k >= 2 ? root_moves_[k - 2].vertex : Vertex::none();
  root_move_number_ = static_cast<int>(k) + 1;
  if (!pool_[root_].expanded()) {
    pool_[root_].state.store(Node::kExpanding);
    if (!expand(*workers_[0], pool_[root_], root_board_, root_color_, root_last_, root_second_last_,
                root_move_number_)) {
      // A reused leaf root in a full pool: start a fresh tree.
      pool_.reset();
      root_ = pool_.allocate(1);
      pool_[root_].state.store(Node::kExpanding);
      expand(*workers_[0], pool_[root_], root_board_, root_color_, root_last_, root_second_last_, root_move_number_);
    }
  }
  Node& root = pool_[root_];
  root_allowed_.assign(root.num_children, 1);
  root_priors_.assign(root.num_children, 0.0f);
  if (!root.expanded()) return;  // the tree has no room for the root's children
  Worker& w = *workers_[0];
  w.candidates.clear();
  for (int i = 0; i < root.num_children; ++i) {
    const Vertex v = pool_[root.first_child + i].vertex();
    root_allowed_[i] = game.legal(v, to_play) == Legality::kLegal;
    if (!v.is_pass()) w.candidates.push_back(v);
  }
  if (w.guesser && !w.candidates.empty()) {
    w.scores.resize(w.candidates.size());
    const Position position{&root_board_, root_color_, root_last_, root_second_last_, root_move_number_};
    w.guesser->score(position, w.candidates, w.scores);
    double sum = 0;
    for (float s : w.scores) sum += std::max(0.0f, s);
    for (int i = 0, j = 0; i < root.num_children; ++i) {
      if (pool_[root.first_child + i].vertex().is_pass()) continue;
      root_priors_[i] = sum > 0 ? static_cast<float>(std::max(0.0f, w.scores[j]) / sum) : 0.0f;
      ++j;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Expansion, selection, one simulation.

bool Search::Impl::expand(Worker& w, Node& node, const Board& board, Color to_move, Vertex last,
                          Vertex second_last, int move_number) {
  w.candidates.clear();
  for (int16_t p : board.empty_points()) {
    const Vertex v(p);
    if (!board.is_eye(v, to_move) && board.legal(v, to_move) == Legality::kLegal) w.candidates.push_back(v);
  }
  const int count = static_cast<int>(w.candidates.size()) + 1;  // and pass
  const int32_t first = pool_.allocate(count);
  if (first < 0) {
    node.state.store(Node::kLeaf, std::memory_order_release);
    return false;
  }
  const double even = options_.prior_even;
  float best = 0;
  if (w.guesser && !w.candidates.empty()) {
    w.scores.resize(w.candidates.size());
    const Position position{&board, to_move, last, second_last, move_number};
    w.guesser->score(position, w.candidates, w.scores);
    if (!w.guesser->gives_probabilities()) {
      // Scores of any scale: a softmax turns them into weights.
      const float top = *std::max_element(w.scores.begin(), w.scores.end());
      for (float& s : w.scores) s = std::exp(s - top);
    }
    for (float s : w.scores) best = std::max(best, s);
  }
  for (int i = 0; i < count - 1; ++i) {
    Node& c = pool_[first + i];
    c.move = static_cast<int16_t>(w.candidates[i].index());
    double bonus = 0;
    if (best > 0) bonus = options_.prior_weight * std::sqrt(std::max(0.0f, w.scores[i]) / best);
    c.prior_visits = static_cast<float>(even + bonus);
    c.prior_wins = static_cast<float>(even / 2 + bonus);
  }
  Node& pass = pool_[first + count - 1];
  pass.move = static_cast<int16_t>(Vertex::pass().index());
  pass.prior_visits = static_cast<float>(even);
  pass.prior_wins = static_cast<float>(even * kPassPriorWinrate);
  node.first_child = first;
  node.num_children = static_cast<uint16_t>(count);
  node.state.store(Node::kExpanded, std::memory_order_release);
  return true;
}

inline double Search::Impl::child_value(const Node& c, double log_parent) const {
  // With W, n the direct wins and visits (priors included), A, r the AMAF ones and e = equiv:
  //   β·A/r + (1 − β)·W/n = (A·e + W·(e + r)) / (r·e + n·e + n·r)   (one division).
  // Single precision: one divss per child (values differ from double by < 1e-6).
  const float n = static_cast<float>(c.visits.load(std::memory_order_relaxed)) + c.prior_visits;
  const float w = 0.5f * static_cast<float>(c.half_wins.load(std::memory_order_relaxed)) + c.prior_wins;
  const float r = static_cast<float>(c.amaf_visits.load(std::memory_order_relaxed));
  const float a = 0.5f * static_cast<float>(c.amaf_half_wins.load(std::memory_order_relaxed));
  const float e = rave_equiv_;
  const float denominator = r * e + n * e + n * r;
  double value = denominator > 0 ? (a * e + w * (e + r)) / denominator : 0.5f;
  if (options_.uct_c > 0) value += options_.uct_c * std::sqrt(log_parent / (n + 1));
  return value;
}

int32_t Search::Impl::select_child(const Node& node, bool at_root) const {
  const Node* children = &pool_[node.first_child];  // contiguous
  if (options_.uct_c == 0) {
    // The same choice as child_value() without a division: compare the fractions num / den
    // of the RAVE blend by cross-multiplying (den > 0; an empty child counts as 1/2).
    float best_num = -1, best_den = 1;
    int32_t best = -1;
    const float e = rave_equiv_;
    for (int i = 0; i < node.num_children; ++i) {
      if (at_root && !root_allowed_[i]) continue;
      const Node& c = children[i];
      const float n = static_cast<float>(c.visits.load(std::memory_order_relaxed)) + c.prior_visits;
      const float w = 0.5f * static_cast<float>(c.half_wins.load(std::memory_order_relaxed)) + c.prior_wins;
      const float r = static_cast<float>(c.amaf_visits.load(std::memory_order_relaxed));
      const float a = 0.5f * static_cast<float>(c.amaf_half_wins.load(std::memory_order_relaxed));
      float den = r * e + n * e + n * r;
      float num = a * e + w * (e + r);
      if (!(den > 0)) {
        num = 0.5f;
        den = 1;
      }
      if (num * best_den > best_num * den) {
        best_num = num;
        best_den = den;
        best = node.first_child + i;
      }
    }
    return best;
  }
  const double log_parent = options_.uct_c > 0 ? std::log(node.visits.load(std::memory_order_relaxed) + 1.0) : 0;
  int32_t best = -1;
  double best_value = -1e300;
  for (int i = 0; i < node.num_children; ++i) {
    if (at_root && !root_allowed_[i]) continue;
    const double v = child_value(children[i], log_parent);
    if (v > best_value) {
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
  w.path.clear();
  w.path.push_back(root_);
  Node* node = &pool_[root_];
  node->visits.fetch_add(1, std::memory_order_relaxed);
  Color color = root_color_;
  Vertex last = root_last_, second_last = root_second_last_;
  const int max_depth = root_board_.size() * root_board_.size();
  for (int depth = 0; depth < max_depth; ++depth) {
    if (!node->expanded()) {
      uint8_t leaf = Node::kLeaf;
      if (node->n() < options_.expand_visits || pool_.full() ||
          !node->state.compare_exchange_strong(leaf, Node::kExpanding, std::memory_order_acquire) ||
          !expand(w, *node, policy.board(), color, last, second_last, root_move_number_ + depth)) {
        break;
      }
    }
    const int32_t child = select_child(*node, depth == 0);
    if (child < 0) break;
    node = &pool_[child];
    node->visits.fetch_add(1, std::memory_order_relaxed);  // the virtual loss
    const Vertex v = node->vertex();
    policy.play(v);
    w.moves.push_back({color, v});
    w.path.push_back(child);
    second_last = last;
    last = v;
    color = opponent(color);
  }
  const size_t tree_moves = w.moves.size();
  const PlayoutResult result = run_playout(policy, w.rng, -1, &w.moves);
  const double margin = result.score.margin(komi_);
  const int black_half = margin > 0 ? 2 : margin == 0 ? 1 : 0;
  add_ownership(policy.board(), w.owner_sum);

  // Direct values: each node's result for the player who moved into it.
  pool_[root_].half_wins.fetch_add(half_wins_for(opponent(root_color_), black_half), std::memory_order_relaxed);
  for (size_t d = 1; d < w.path.size(); ++d) {
    pool_[w.path[d]].half_wins.fetch_add(half_wins_for(w.moves[d - 1].color, black_half), std::memory_order_relaxed);
  }
  // AMAF: scanning the simulation backwards leaves first_color[v] = the colour that played v
  // first from move j on; at j = depth of a path node, update that node's children.
  const int nv = root_board_.geometry().num_vertices();
  std::fill(w.first_color.begin(), w.first_color.begin() + nv, 0);
  for (size_t j = w.moves.size(); j-- > 0;) {
    const Move& m = w.moves[j];
    if (m.vertex.is_point()) w.first_color[m.vertex.index()] = static_cast<uint8_t>(m.color);
    if (j >= tree_moves) continue;
    const Node& parent = pool_[w.path[j]];
    const uint8_t mover = static_cast<uint8_t>(m.color);
    const int half = half_wins_for(m.color, black_half);
    Node* children = &pool_[parent.first_child];  // contiguous
    const uint8_t* first = w.first_color.data();
    for (int k = 0; k < parent.num_children; ++k) {
      Node& c = children[k];
      // Branch-free: pass (index 0) never matches, as first_color[0] stays 0.
      const int32_t hit = first[c.move] == mover;
      racy_add(c.amaf_visits, hit);
      racy_add(c.amaf_half_wins, hit * half);
    }
  }
}

void Search::Impl::run_worker(int index, const SearchLimits& limits, int64_t playout_limit,
                              const AnalysisCallback* analysis) {
  Worker& w = *workers_[index];
  auto last_report = Clock::now();
  while (!stop_.load(std::memory_order_relaxed)) {
    if (limits.stop && limits.stop->load(std::memory_order_relaxed)) break;
    if (limits.seconds > 0 && seconds_since(start_) >= limits.seconds) break;
    if (playout_limit > 0 && tickets_.fetch_add(1, std::memory_order_relaxed) >= playout_limit) break;
    simulate(w);
    ++w.simulations;
    done_.fetch_add(1, std::memory_order_relaxed);
    if (index == 0 && analysis && analysis->on_update &&
        std::chrono::duration<double, std::milli>(Clock::now() - last_report).count() >= analysis->interval_ms) {
      analysis->on_update(snapshot());
      last_report = Clock::now();
    }
  }
  stop_.store(true, std::memory_order_relaxed);
}

SearchResult Search::Impl::search(const Game& game, Color to_play, const SearchLimits& given,
                                  const AnalysisCallback* analysis) {
  start_ = Clock::now();
  cpu_start_ = process_cpu_seconds();
  SearchLimits limits = given;
  if (limits.playouts <= 0 && limits.visits <= 0 && limits.seconds <= 0 && !limits.stop) {
    limits.playouts = options_.playouts;
    limits.visits = options_.visits;
  }
  prepare_root(game, to_play);
  // One ticket per new simulation: the visits budget becomes the visits the root still lacks.
  int64_t tickets = std::max<int64_t>(0, limits.playouts);
  if (limits.visits > 0) {
    const int64_t lacking = std::max<int64_t>(1, limits.visits - pool_[root_].n());
    tickets = tickets > 0 ? std::min(tickets, lacking) : lacking;
  }
  const int nv = root_board_.geometry().num_vertices();
  const size_t reserve = static_cast<size_t>(4 * root_board_.size() * root_board_.size() + 16);
  for (auto& w : workers_) {
    w->first_color.assign(nv, 0);
    w->owner_sum.assign(nv, 0);
    w->simulations = 0;
    if (w->moves.capacity() < reserve) w->moves.reserve(reserve);
    if (w->path.capacity() < reserve) w->path.reserve(reserve);
  }
  tickets_.store(0);
  done_.store(0);
  stop_.store(false);
  searching_ = true;
  if (pool_[root_].expanded()) {
    std::vector<std::thread> threads;
    for (int t = 1; t < options_.threads; ++t) {
      threads.emplace_back([this, t, &limits, tickets] { run_worker(t, limits, tickets, nullptr); });
    }
    run_worker(0, limits, tickets, analysis);
    for (auto& t : threads) t.join();
  }
  searching_ = false;
  // Ownership over this search's simulations.
  const int64_t n = done_.load();
  ownership_.assign(nv, 0.0f);
  if (n > 0) {
    for (int v = 0; v < nv; ++v) {
      int64_t s = 0;
      for (auto& w : workers_) s += w->owner_sum[v];
      ownership_[v] = static_cast<float>(static_cast<double>(s) / static_cast<double>(n));
    }
  }
  SearchResult result = snapshot();
  return result;
}

std::vector<Vertex> Search::Impl::principal_variation(int32_t from) const {
  std::vector<Vertex> pv;
  int32_t node = from;
  while (node >= 0 && pv.size() < 32) {
    const Node& n = pool_[node];
    pv.push_back(n.vertex());
    if (!n.expanded()) break;
    int32_t best = -1;
    int32_t best_visits = 0;
    for (int k = 0; k < n.num_children; ++k) {
      const int32_t v = pool_[n.first_child + k].n();
      if (v > best_visits) {
        best_visits = v;
        best = n.first_child + k;
      }
    }
    node = best;
  }
  return pv;
}

SearchResult Search::Impl::snapshot() const {
  SearchResult r;
  r.playouts = done_.load(std::memory_order_relaxed);
  r.seconds = seconds_since(start_);
  r.cpu_seconds = process_cpu_seconds() - cpu_start_;
  r.tree_nodes = pool_.used();
  r.tree_full = pool_.full();
  const Node& root = pool_[root_];
  r.root_visits = root.n();
  if (root.expanded()) {
    const double log_parent = std::log(root.n() + 1.0);
    for (int i = 0; i < root.num_children; ++i) {
      if (!root_allowed_[i]) continue;
      const Node& c = pool_[root.first_child + i];
      MoveStats s;
      s.move = c.vertex();
      s.visits = c.n();
      s.prior = root_priors_[i];
      if (s.visits == 0 && s.prior == 0) continue;
      s.winrate = s.visits > 0 ? 0.5 * c.half_wins.load(std::memory_order_relaxed) / s.visits : 0.5;
      s.value = child_value(c, log_parent);
      s.amaf_visits = c.amaf_visits.load(std::memory_order_relaxed);
      s.amaf_winrate = s.amaf_visits > 0 ? 0.5 * c.amaf_half_wins.load(std::memory_order_relaxed) / s.amaf_visits : 0.5;
      s.pv = principal_variation(root.first_child + i);
      r.children.push_back(std::move(s));
    }
  }
  std::stable_sort(r.children.begin(), r.children.end(), [](const MoveStats& a, const MoveStats& b) {
    return a.visits != b.visits ? a.visits > b.visits : a.value > b.value;
  });
  if (!r.children.empty()) {
    r.move = r.children[0].move;
    r.winrate = r.children[0].winrate;
  } else {
    r.move = Vertex::pass();
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Playing a game to its end.

EndEstimate Search::Impl::estimate_end(const Game& game, int playouts) {
  const Board& board = game.board();
  const int nv = board.geometry().num_vertices();
  EndEstimate e;
  e.playouts = std::max(1, playouts);
  std::vector<int32_t> sum(nv, 0);
  PlayoutPolicy& policy = *workers_[0]->policy;
  const std::vector<Move>& moves = game.moves();
  const Vertex last = moves.empty() ? Vertex::none() : moves.back().vertex;
  const Vertex second_last = moves.size() < 2 ? Vertex::none() : moves[moves.size() - 2].vertex;
  Rng rng = end_rng_;  // the same playouts for the same position
  for (int i = 0; i < e.playouts; ++i) {
    policy.reset(board, game.to_move(), last, second_last);
    run_playout(policy, rng);
    add_ownership(policy.board(), sum);
  }
  e.ownership.assign(nv, 0.0f);
  for (int v = 0; v < nv; ++v) e.ownership[v] = static_cast<float>(sum[v]) / static_cast<float>(e.playouts);
  e.status = classify_stones(board, e.ownership);
  score_end(board, game.rules().komi, e);
  return e;
}

SearchResult Search::Impl::genmove(const Game& game, Color to_play, const SearchLimits& limits, bool cleanup,
                                   const AnalysisCallback* analysis) {
  SearchResult r = search(game, to_play, limits, analysis);
  const Board& board = game.board();
  const int size = board.size();
  const int end_playouts = size <= 9 ? 1000 : size <= 13 ? 600 : 300;
  const bool opponent_passed = !game.moves().empty() && game.moves().back().vertex.is_pass() &&
                               game.moves().back().color == opponent(to_play);
  auto best_non_pass = [&](auto accept) -> const MoveStats* {
    for (const MoveStats& s : r.children) {
      if (!s.move.is_pass() && s.visits > 0 && accept(s.move)) return &s;
    }
    return nullptr;
  };
  auto choose = [&](const MoveStats* s) {
    r.move = s ? s->move : Vertex::pass();
    r.winrate = s ? s->winrate : r.winrate;
  };
  bool cleaning = false;
  if (cleanup) {
    const EndEstimate e = estimate_end(game, end_playouts);
    // Liberties of opponent stones estimated dead: playing there captures them.
    std::vector<uint8_t> target(e.status.size(), 0);
    bool any_dead = false;
    for (size_t i = 0; i < e.status.size(); ++i) {
      const Vertex v(static_cast<int>(i));
      if (e.status[i] != PointStatus::kDead || board.color(v) != opponent(to_play)) continue;
      any_dead = true;
      for (Vertex n : board.neighbours(v)) {
        if (board.is_empty(n)) target[n.index()] = 1;
      }
    }
    cleaning = any_dead;
    if (any_dead) {
      // The most visited target, else any legal target point, else the best other move.
      if (const MoveStats* s = best_non_pass([&](Vertex v) { return target[v.index()] != 0; })) {
        choose(s);
        return r;
      }
      for (int16_t p : board.empty_points()) {
        const Vertex v(p);
        if (target[p] && !board.is_eye(v, to_play) && game.legal(v, to_play) == Legality::kLegal) {
          r.move = v;
          return r;
        }
      }
      if (const MoveStats* s = best_non_pass([](Vertex) { return true; })) {
        choose(s);
        return r;
      }
    }
  }
  if (!cleaning && opponent_passed) {
    const EndEstimate e = estimate_end(game, end_playouts);
    const double margin = to_play == Color::kBlack ? e.area_margin : -e.area_margin;
    // Pass when it wins under area scoring with the dead stones removed, or when the search sees
    // no hope in going on (so that a lost game still ends).
    if (margin > 0 || r.winrate < 0.05) {
      r.move = Vertex::pass();
      return r;
    }
    choose(best_non_pass([](Vertex) { return true; }));
  }
  if (options_.resign_threshold > 0 && r.playouts > 0 && r.winrate < options_.resign_threshold &&
      !(opponent_passed && r.move.is_pass())) {
    r.resign = true;
  }
  return r;
}

// ---------------------------------------------------------------------------------------------

absl::StatusOr<double> search_playouts_per_second(const SearchOptions& options, int size, int64_t playouts,
                                                  double* cpu_seconds) {
  auto search = Search::create(options);
  if (!search.ok()) return search.status();
  Game game(size);
  SearchLimits limits;
  limits.playouts = playouts;
  const SearchResult r = (*search)->search(game, Color::kBlack, limits);
  if (cpu_seconds) *cpu_seconds = r.cpu_seconds;
  return r.seconds > 0 ? static_cast<double>(r.playouts) / r.seconds : 0.0;
}

}  // namespace hane
