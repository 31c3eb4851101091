// Search: creation, the run loop and threads, the root's statistics, the end-of-game estimate.
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
#include "predict/joseki.h"
#include "predict/load.h"
#include "search/ownership.h"
#include "search/search_impl.h"

namespace hane {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double process_cpu_seconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }


}  // namespace

Search::Impl::Impl(const SearchOptions& options, std::unique_ptr<PlayoutPolicy> policy, std::unique_ptr<Guesser> guesser,
                   std::shared_ptr<const JosekiDictionary> joseki)
    : options_(options), rave_equiv_(static_cast<float>(options.rave_equiv)),
      amaf_weights_{options.amaf_distance, options.amaf_ko_threats}, pool_(static_cast<size_t>(options.max_tree_mb) << 20),
      joseki_(std::move(joseki)) {
  for (int t = 0; t < options.threads; ++t) {
    auto w = std::make_unique<Worker>();
    w->policy = t == 0 ? std::move(policy) : workers_[0]->policy->clone();
    if (guesser) w->guesser = t == 0 ? std::move(guesser) : workers_[0]->guesser->clone();
    workers_.push_back(std::move(w));
  }
  if (options.last_good_reply) {
    for (auto& w : workers_) {
      auto lgr = std::make_unique<LastGoodReplyPolicy>(std::move(w->policy));
      w->last_good_reply = lgr.get();
      w->policy = std::move(lgr);
    }
  }
  reseed(options.seed);
}

void Search::Impl::reseed(uint64_t seed) {
  for (size_t t = 0; t < workers_.size(); ++t) {
    workers_[t]->rng.reseed(seed ^ (0xA24BAED4963EE407ull * static_cast<uint64_t>(t + 1)));
  }
  end_rng_.reseed(seed ^ 0x5851F42D4C957F2Dull);
}

std::vector<float> Search::Impl::ownership() const {
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

absl::StatusOr<std::unique_ptr<Search>> Search::create(const SearchOptions& options) {
  if (options.threads < 1 || options.threads > 256) {
    return absl::InvalidArgumentError(absl::StrCat("search threads must be 1..256, got ", options.threads));
  }
  if (options.max_tree_mb < 1) {
    return absl::InvalidArgumentError(absl::StrCat("search tree memory must be >= 1 MB, got ", options.max_tree_mb));
  }
  if (!(options.rave_equiv > 0) || options.prior_weight < 0 || options.prior_even < 0 || options.uct_c < 0 ||
      options.amaf_distance < 0 || options.expand_visits < 1 || options.playouts < 0 || options.visits < 0 ||
      !(options.joseki_weight >= 0) || !(options.criticality >= 0) || options.criticality_min_visits < 0) {
    return absl::InvalidArgumentError(
        "search options out of range: rave_equiv > 0, prior_weight, prior_even, uct_c, amaf_distance, playouts, visits, "
        "joseki_weight, criticality, criticality_min_visits >= 0, expand_visits >= 1");
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
  std::shared_ptr<const JosekiDictionary> joseki;
  if (!options.joseki.empty() && options.joseki != "none") {
    auto d = load_joseki(options.joseki);
    if (!d.ok()) return d.status();
    joseki = std::move(*d);
  }
  return std::unique_ptr<Search>(
      new Search(std::make_unique<Impl>(options, std::move(*policy), std::move(guesser), std::move(joseki))));
}

Search::Search(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Search::~Search() = default;
const SearchOptions& Search::options() const { return impl_->options(); }
SearchResult Search::search(const Game& game, Color to_play, const SearchLimits& limits,
                            const AnalysisCallback* analysis) {
  return impl_->search(game, to_play, limits, analysis);
}
std::vector<float> Search::ownership() const { return impl_->ownership(); }
EndEstimate Search::estimate_end(const Game& game, int playouts) { return impl_->estimate_end(game, playouts); }
void Search::clear() { impl_->clear(); }
void Search::set_extra_komi(double black_points) { impl_->set_extra_komi(black_points); }
void Search::reseed(uint64_t seed) { impl_->reseed(seed); }
Guesser* Search::guesser() { return impl_->guesser(); }

SearchLimits Search::limits_for(const Game& game, const TimeControl& clock, bool budget_too) const {
  SearchLimits limits;
  const int size = game.board().size();
  const auto t = clock.move_time(static_cast<int>(game.moves().size()) + 1, size * size, options().time_lag);
  if (t) {
    limits.seconds = t->worst;
    limits.desired_seconds = t->desired;
  }
  if (!t || budget_too) {
    limits.playouts = options().playouts;
    limits.visits = options().visits;
  }
  return limits;
}

// ---------------------------------------------------------------------------------------------
// The run loop and threads.

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
    if (index == 0 && limits.desired_seconds > 0 && (w.simulations & 15) == 0 && clock_says_stop(limits)) break;
    if (index == 0 && analysis && analysis->on_update &&
        std::chrono::duration<double, std::milli>(Clock::now() - last_report).count() >= analysis->interval_ms) {
      analysis->on_update(snapshot());
      last_report = Clock::now();
    }
  }
  stop_.store(true, std::memory_order_relaxed);
}

bool Search::Impl::clock_says_stop(const SearchLimits& limits) const {
  RootProgress p;
  p.elapsed = seconds_since(start_);
  p.playouts = done_.load(std::memory_order_relaxed);
  const Node& root = pool_[root_];
  if (!root.expanded()) return false;
  int32_t best = -1;
  for (int i = 0; i < root.num_children; ++i) {
    if (!root_allowed_[i]) continue;
    const int64_t n = pool_[root.first_child + i].n();
    if (n > p.best_visits) {
      p.second_visits = p.best_visits;
      p.best_visits = n;
      best = root.first_child + i;
    } else if (n > p.second_visits) {
      p.second_visits = n;
    }
  }
  if (best >= 0) {
    const double log_parent = std::log(root.n() + 1.0);
    const double best_value = child_value(pool_[best], log_parent, true);
    for (int i = 0; i < root.num_children && p.best_has_top_value; ++i) {
      const Node& c = pool_[root.first_child + i];
      if (!root_allowed_[i] || 4 * c.n() < p.best_visits || root.first_child + i == best) continue;
      if (child_value(c, log_parent, true) > best_value) p.best_has_top_value = false;
    }
  }
  return should_stop({limits.desired_seconds, limits.seconds > 0 ? limits.seconds : limits.desired_seconds}, p);
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
    if (static_cast<int>(w->amaf.color.size()) != nv) w->amaf = search_internal::AmafScratch(nv);
    if (w->ko_captures.capacity() < reserve) w->ko_captures.reserve(reserve);
    w->owner_sum.assign(nv, 0);
    w->margin_sum = 0;
    w->simulations = 0;
    if (w->moves.capacity() < reserve) w->moves.reserve(reserve);
    if (w->path.capacity() < reserve) w->path.reserve(reserve);
  }
  criticality_.clear();
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
  result.desired_seconds = limits.desired_seconds;
  result.max_seconds = limits.seconds;
  if (n > 0) {
    double sum = 0;
    for (auto& w : workers_) sum += w->margin_sum;
    result.score_mean = sum / static_cast<double>(n) + extra_komi_;
  }
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
      s.value = child_value(c, log_parent, true);
      s.criticality = criticality_.criticality(s.move);
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
// The end of the game: dead stones and the score.

EndEstimate Search::Impl::estimate_end(const Game& game, int playouts) {
  const Board& board = game.board();
  const int nv = board.geometry().num_vertices();
  EndEstimate e;
  e.playouts = std::max(1, playouts);
  std::vector<int32_t> sum(nv, 0);
  // Without the learnt replies (they follow this search's simulations, not the position).
  Worker& w = *workers_[0];
  PlayoutPolicy& policy = w.last_good_reply ? w.last_good_reply->inner() : *w.policy;
  const Position at = position_of(game, game.to_move());
  Rng rng = end_rng_;  // the same playouts for the same position
  for (int i = 0; i < e.playouts; ++i) {
    policy.reset(board, game.to_move(), at.last_move, at.second_last_move);
    run_playout(policy, rng);
    add_ownership(policy.board(), sum);
  }
  e.ownership.assign(nv, 0.0f);
  for (int v = 0; v < nv; ++v) e.ownership[v] = static_cast<float>(sum[v]) / static_cast<float>(e.playouts);
  e.status = classify_stones(board, e.ownership);
  score_end(board, game.rules().komi, e);
  return e;
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
