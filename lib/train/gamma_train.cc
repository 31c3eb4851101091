#include "train/gamma_train.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "cluster/cluster.h"
#include "corpus/replay.h"
#include "features/mogo3x3.h"
#include "features/pattern.h"
#include "playout/gamma.h"
#include "playout/rules.h"
#include "playout/rules_gamma.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Sums that must give the same bits for any number of ranks are kept in fixed point (units of
// 2^-32): integer addition does not depend on the order, floating-point addition does.
int64_t fixed(double x) { return std::llrint(x * 0x1p32); }
double unfixed(int64_t x) { return static_cast<double>(x) * 0x1p-32; }

// Keeps a position with probability `rate`, by a hash of the game, the move and the seed.
bool keep(double rate, uint64_t game_hash, int move_number, uint64_t seed) {
  if (rate >= 1.0) return true;
  const uint64_t h = splitmix64(splitmix64(game_hash ^ seed) + static_cast<uint64_t>(move_number));
  return static_cast<double>(h >> 11) * 0x1.0p-53 < rate;
}

// A team: a pattern code and the flag values, packed (3 bits per group).
uint64_t team_key(const GammaFeatures& f) {
  uint64_t k = f.pattern;
  for (int g = 0; g < kNumGammaGroups; ++g) k |= static_cast<uint64_t>(f.flag[g]) << (32 + 3 * g);
  return k;
}
GammaFeatures team_features(uint64_t key) {
  GammaFeatures f;
  f.pattern = static_cast<uint32_t>(key);
  for (int g = 0; g < kNumGammaGroups; ++g) f.flag[g] = static_cast<uint8_t>((key >> (32 + 3 * g)) & 7);
  return f;
}

struct Entry {
  uint32_t team;
  uint32_t count;
};

// Positions as (team, count) lists; the played move's team comes first (count included).
struct Positions {
  std::vector<Entry> entries;
  std::vector<size_t> start{0};
  size_t size() const { return start.size() - 1; }
};

struct Extractor {
  std::unordered_map<uint64_t, uint32_t> team_of;
  std::vector<uint64_t> keys;
  std::vector<std::pair<uint32_t, uint32_t>> scratch;  // (team, is played)

  uint32_t team(const GammaFeatures& f) {
    const uint64_t k = team_key(f);
    auto [it, fresh] = team_of.try_emplace(k, static_cast<uint32_t>(keys.size()));
    if (fresh) keys.push_back(k);
    return it->second;
  }

  // Adds the sampled positions of this rank's share of `games` (every size()-th game) to `out`.
  void extract(const std::vector<CorpusGame>& games, double rate, uint64_t seed, Positions& out, const char* what,
               bool progress) {
    std::unique_ptr<Progress> bar;
    const int64_t mine = (static_cast<int64_t>(games.size()) + cluster::size() - 1 - cluster::rank()) / cluster::size();
    if (progress) bar = std::make_unique<Progress>(what, "games", mine);
    std::vector<Vertex> moves;
    int64_t done = 0, index = -1;
    for (const CorpusGame& game : games) {
      if (++index % cluster::size() != cluster::rank()) continue;  // another rank's game
      auto sampled = [&](const Position& p) { return keep(rate, game.hash, p.move_number, seed); };
      (void)replay_choices(game.record, [&](const Position& p, Vertex played, std::span<const Vertex> legal) {
        scratch.clear();
        int winner = -1;
        for (Vertex v : legal) {
          const uint32_t raw = static_cast<uint32_t>(pattern_code(*p.board, v, p.to_move, PatternShape::k3x3));
          const uint32_t t = team(gamma_features(p, v, raw));
          if (v == played) winner = static_cast<int>(t);
          scratch.push_back({t, 0});
        }
        if (winner < 0) return;
        std::sort(scratch.begin(), scratch.end());
        // Played team first, then the others with their counts.
        const size_t first = out.entries.size();
        out.entries.push_back({static_cast<uint32_t>(winner), 0});
        for (size_t i = 0; i < scratch.size();) {
          size_t j = i;
          while (j < scratch.size() && scratch[j].first == scratch[i].first) ++j;
          const uint32_t n = static_cast<uint32_t>(j - i);
          if (scratch[i].first == static_cast<uint32_t>(winner)) {
            out.entries[first].count = n;
          } else {
            out.entries.push_back({scratch[i].first, n});
          }
          i = j;
        }
        out.start.push_back(out.entries.size());
      }, moves, sampled);
      ++done;
      if (bar && done % 256 == 0) bar->update(done, with_thousands(static_cast<int64_t>(out.size())) + " positions");
    }
    if (bar) bar->finish(done, with_thousands(static_cast<int64_t>(out.size())) + " positions");
  }
};

// Makes the team numbers the same on every rank: the union of the ranks' teams, sorted by key
// (one process sorts its own), and renumbers `lists`' entries.
void unify_teams(Extractor& x, std::initializer_list<Positions*> lists) {
  std::string mine(x.keys.size() * sizeof(uint64_t), '\0');
  std::memcpy(mine.data(), x.keys.data(), mine.size());
  std::vector<uint64_t> all;
  for (const std::string& bytes : cluster::allgather(mine)) {
    const size_t n = bytes.size() / sizeof(uint64_t);
    const size_t at = all.size();
    all.resize(at + n);
    std::memcpy(all.data() + at, bytes.data(), n * sizeof(uint64_t));
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::vector<uint32_t> global(x.keys.size());
  for (size_t t = 0; t < x.keys.size(); ++t) {
    global[t] = static_cast<uint32_t>(std::lower_bound(all.begin(), all.end(), x.keys[t]) - all.begin());
  }
  for (Positions* ps : lists) {
    for (Entry& e : ps->entries) e.team = global[e.team];
  }
  x.keys = std::move(all);
  x.team_of.clear();
}

int64_t total_positions(const std::vector<CorpusGame>& games) {
  int64_t n = 0;
  for (const CorpusGame& g : games) n += g.positions;
  return n;
}

// The teams' weight indices, and the strengths of teams under a model.
struct Teams {
  std::vector<std::array<int, 1 + kNumGammaGroups>> index;
  std::vector<uint8_t> count;
  void build(const std::vector<uint64_t>& keys, const GammaModel& m) {
    index.resize(keys.size());
    count.resize(keys.size());
    for (size_t t = 0; t < keys.size(); ++t) count[t] = static_cast<uint8_t>(m.indices(team_features(keys[t]), index[t]));
  }
  void strengths(const std::vector<double>& gammas, std::vector<double>& out) const {
    out.resize(index.size());
    for (size_t t = 0; t < index.size(); ++t) {
      double s = 1;
      for (int k = 0; k < count[t]; ++k) s *= gammas[index[t][k]];
      out[t] = s;
    }
  }
};

struct Fit {
  double log_likelihood = 0;  // mean ln P(played)
  double top1 = 0;
};

// Over every rank's positions (a collective); `positions` is their number on all ranks.
Fit measure(const Positions& ps, const std::vector<double>& strength, int64_t positions) {
  std::array<int64_t, 2> sums{0, 0};  // ln P(played), top-1 (fixed point)
  for (size_t j = 0; j < ps.size(); ++j) {
    const Entry* e = &ps.entries[ps.start[j]];
    const size_t n = ps.start[j + 1] - ps.start[j];
    double total = 0, best = 0;
    for (size_t i = 0; i < n; ++i) total += e[i].count * strength[e[i].team], best = std::max(best, strength[e[i].team]);
    const double w = strength[e[0].team];
    sums[0] += fixed(std::log(w / total));
    if (w >= best) {
      double ties = 0;
      for (size_t i = 0; i < n; ++i) ties += strength[e[i].team] == best ? e[i].count : 0;
      sums[1] += fixed(1.0 / ties);
    }
  }
  cluster::allreduce_sum(sums);
  Fit f;
  if (positions == 0) return f;
  f.log_likelihood = unfixed(sums[0]) / static_cast<double>(positions);
  f.top1 = unfixed(sums[1]) / static_cast<double>(positions);
  return f;
}

int64_t global_size(const Positions& ps) {
  std::array<int64_t, 1> n{static_cast<int64_t>(ps.size())};
  cluster::allreduce_sum(n);
  return n[0];
}

}  // namespace

GammaModel train_gamma(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
                       const GammaTrainOptions& o, const std::function<void(const GammaSweep&)>& on_sweep) {
  const auto start = Clock::now();
  Extractor x;
  Positions tp, vp;
  const int64_t tn = total_positions(train), vn = total_positions(validation);
  x.extract(train, tn > 0 ? static_cast<double>(o.max_positions) / static_cast<double>(tn) : 1.0, o.seed, tp,
            "extracting training positions", o.progress);
  x.extract(validation, vn > 0 ? static_cast<double>(o.validation_positions) / static_cast<double>(vn) : 1.0, o.seed,
            vp, "extracting validation positions", o.progress);
  unify_teams(x, {&tp, &vp});
  const int64_t train_size = global_size(tp), validation_size = global_size(vp);
  if (train_size == 0) throw std::runtime_error("no training positions");
  const size_t num_teams = x.keys.size();

  // The pattern dictionary: codes seen at least min_count times among the training candidates.
  std::vector<int64_t> team_count(num_teams, 0);
  for (const Entry& e : tp.entries) team_count[e.team] += e.count;
  cluster::allreduce_sum(team_count);
  std::unordered_map<uint32_t, int64_t> seen;
  for (size_t t = 0; t < num_teams; ++t) seen[static_cast<uint32_t>(x.keys[t])] += team_count[t];
  std::vector<uint32_t> codes;
  for (const auto& [code, n] : seen) {
    if (n >= o.min_count) codes.push_back(code);
  }
  GammaModel model = GammaModel::uniform(std::move(codes));
  Teams teams;
  teams.build(x.keys, model);
  const int nw = model.num_weights();
  // Wins of each feature, and which group each weight is in (-1: patterns).
  std::vector<int64_t> win_count(nw, 0);
  for (size_t j = 0; j < tp.size(); ++j) {
    const uint32_t t = tp.entries[tp.start[j]].team;
    for (int k = 0; k < teams.count[t]; ++k) win_count[teams.index[t][k]] += 1;
  }
  cluster::allreduce_sum(win_count);
  const std::vector<double> wins(win_count.begin(), win_count.end());
  std::vector<int> group_of(nw, -1);
  for (int g = 0; g < kNumGammaGroups; ++g) {
    for (int v = 1; v < kGammaGroupValues[g]; ++v) group_of[model.flag_index(g, v)] = g;
  }

  // The validation positions, or the training ones when there are none.
  const bool own_validation = validation_size > 0;
  const Positions& check = own_validation ? vp : tp;
  const int64_t check_size = own_validation ? validation_size : train_size;
  std::vector<double> gammas(nw, 1.0), best = gammas, strength, denominator(nw);
  std::vector<int64_t> a(num_teams);  // sum over positions of count / total strength, fixed point
  double best_ll = -INFINITY;
  int best_sweep = 0;
  nlohmann::json sweeps = nlohmann::json::array();
  {
    teams.strengths(gammas, strength);
    const Fit v0 = measure(check, strength, check_size);
    if (o.progress) std::fprintf(stderr, "%lld training and %lld validation positions, %zu teams, %d patterns%s; "
                                 "uniform: validation top-1 %.2f%%, log-lik %.4f\n",
                                 static_cast<long long>(train_size), static_cast<long long>(validation_size), num_teams,
                                 model.num_patterns(), cluster::size() > 1 ? (" (" + std::to_string(cluster::size()) + " ranks)").c_str() : "",
                                 100 * v0.top1, v0.log_likelihood);
  }
  bool stop = false;
  for (int sweep = 1; sweep <= o.sweeps && !stop; ++sweep) {
    double train_ll = 0;
    for (int group = -1; group < kNumGammaGroups && !stop; ++group) {
      teams.strengths(gammas, strength);
      std::fill(a.begin(), a.end(), 0);
      std::array<int64_t, 1> ll{0};
      for (size_t j = 0; j < tp.size(); ++j) {
        const Entry* e = &tp.entries[tp.start[j]];
        const size_t n = tp.start[j + 1] - tp.start[j];
        double total = 0;
        for (size_t i = 0; i < n; ++i) total += e[i].count * strength[e[i].team];
        const double inv = 1.0 / total;
        for (size_t i = 0; i < n; ++i) a[e[i].team] += fixed(e[i].count * inv);
        if (group == -1) ll[0] += fixed(std::log(strength[e[0].team] * inv));
      }
      cluster::allreduce_sum(a);
      if (group == -1) {
        cluster::allreduce_sum(ll);
        train_ll = unfixed(ll[0]) / static_cast<double>(train_size);
      }
      std::fill(denominator.begin(), denominator.end(), 0.0);
      for (size_t t = 0; t < num_teams; ++t) {
        if (a[t] == 0) continue;
        const double at = unfixed(a[t]);
        for (int k = 0; k < teams.count[t]; ++k) {
          const int i = teams.index[t][k];
          if (group_of[i] == group) denominator[i] += at * strength[t] / gammas[i];
        }
      }
      for (int i = 0; i < nw; ++i) {
        if (group_of[i] != group) continue;
        gammas[i] = (wins[i] + o.prior) / (denominator[i] + 2 * o.prior / (gammas[i] + 1));
      }
      stop = cluster::any(interrupted());
    }
    teams.strengths(gammas, strength);
    const Fit v = measure(check, strength, check_size);
    const GammaSweep s{sweep, train_ll, v.top1, v.log_likelihood, seconds_since(start)};
    sweeps.push_back({{"sweep", s.sweep},
                      {"train_log_likelihood", s.train_log_likelihood},
                      {"validation_top1", s.validation_top1},
                      {"validation_log_likelihood", s.validation_log_likelihood},
                      {"seconds", s.seconds}});
    if (o.progress) std::fprintf(stderr, "sweep %d: train log-lik %.4f, validation top-1 %.2f%%, log-lik %.4f (%.0f s)\n",
                                 sweep, train_ll, 100 * v.top1, v.log_likelihood, s.seconds);
    if (on_sweep) on_sweep(s);
    if (v.log_likelihood > best_ll) best_ll = v.log_likelihood, best = gammas, best_sweep = sweep;
  }
  if (best_sweep == 0) best = gammas;  // interrupted in the first sweep: what there is
  for (int i = 0; i < nw; ++i) model.gammas[i] = static_cast<float>(best[i]);
  model.training = {{"trainer", "minorisation-maximisation (Hunter 2004, Coulom 2007)"},
                    {"train_positions", train_size},
                    {"validation_positions", validation_size},
                    {"teams", num_teams},
                    {"ranks", cluster::size()},
                    {"patterns", model.num_patterns()},
                    {"min_count", o.min_count},
                    {"prior", o.prior},
                    {"seed", o.seed},
                    {"sweeps", sweeps},
                    {"best_sweep", best_sweep}};
  return model;
}

std::vector<BalancePosition> balance_positions(const std::vector<CorpusGame>& games, int64_t count, uint64_t seed,
                                               double from) {
  std::vector<BalancePosition> out;
  std::vector<const CorpusGame*> usable;
  for (const CorpusGame& g : games) {
    const std::string& r = g.record.result;
    if ((r.starts_with("B+") || r.starts_with("W+")) && g.positions >= 20) usable.push_back(&g);
  }
  Rng rng(seed);
  for (size_t i = 0; i + 1 < usable.size(); ++i) std::swap(usable[i], usable[i + rng.below(static_cast<uint32_t>(usable.size() - i))]);
  for (const CorpusGame* g : usable) {
    if (static_cast<int64_t>(out.size()) >= count) break;
    const int moves = g->positions;
    const int window = std::max(1, static_cast<int>(moves * (1 - std::clamp(from, 0.0, 1.0))));
    const int at = moves - 1 - static_cast<int>(rng.below(static_cast<uint32_t>(window)));
    int seen = 0;
    bool taken = false;
    BalancePosition bp;
    (void)replay(g->record, [&](const Position& p, Vertex played) {
      if (taken || !played.is_point() || seen++ != at) return;
      bp.board = *p.board;
      bp.to_move = p.to_move;
      bp.last = p.last_move;
      bp.second_last = p.second_last_move;
      bp.komi = g->record.komi;
      bp.target = g->record.result.starts_with("B+") ? 1.0 : 0.0;
      taken = true;
    });
    if (taken) out.push_back(std::move(bp));
  }
  return out;
}

namespace {

// The playouts being balanced: set_model() gives the current gammas (before each position);
// playout() plays one playout from `bp`, returns 1 if Black wins it (area score, the position's
// komi), and with `psi` adds to it, per weight index, the score function of the learned draws
// made: the sum over draws of phi(chosen) - E_pi[phi].
class BalancedPlayouts {
 public:
  virtual ~BalancedPlayouts() = default;
  virtual void set_model(const std::shared_ptr<const GammaModel>& model) = 0;
  virtual double playout(const BalancePosition& bp, Rng& rng, std::vector<double>* psi) = 0;
};

// The gamma policy (playout/gamma.h): every move is a learned draw over all legal moves.
class GammaPlayouts final : public BalancedPlayouts {
 public:
  void set_model(const std::shared_ptr<const GammaModel>& model) override {
    model_ = model;
    policy_ = std::make_unique<GammaPolicy>(model);
  }
  double playout(const BalancePosition& bp, Rng& rng, std::vector<double>* psi) override {
    GammaPolicy& policy = *policy_;
    policy.reset(bp.board, bp.to_move, bp.last, bp.second_last);
    const int max_moves = 3 * bp.board.size() * bp.board.size();
    std::array<int, 1 + kNumGammaGroups> idx;
    int passes_in_row = 0;
    for (int m = 0; m < max_moves && passes_in_row < 2; ++m) {
      if (psi) {
        // psi -= E_pi[phi] over the candidates of the position before the move.
        const double total = policy.total_strength();
        if (total > 0) {
          for (int s = 0; s < policy.slots(); ++s) {
            const double w = policy.slot_strength(s);
            if (w <= 0) continue;
            const int k = model_->indices(policy.slot_features(s), idx);
            for (int i = 0; i < k; ++i) (*psi)[idx[i]] -= w / total;
          }
        }
      }
      const Vertex v = policy.sample(rng);
      if (psi && v.is_point()) {
        const Geometry& geometry = policy.board().geometry();
        const int slot = geometry.y(v) * policy.board().size() + geometry.x(v);
        const int k = model_->indices(policy.slot_features(slot), idx);
        for (int i = 0; i < k; ++i) (*psi)[idx[i]] += 1;
      }
      passes_in_row = v.is_pass() ? passes_in_row + 1 : 0;
      policy.play(v);
    }
    return area_score(policy.board()).margin(bp.komi) > 0 ? 1.0 : 0.0;
  }

 private:
  std::shared_ptr<const GammaModel> model_;
  std::unique_ptr<GammaPolicy> policy_;
};

// rules-gamma (playout/rules_gamma.h): the learned draws are those of its pattern answer, among
// the acceptable neighbours of the last move and the background (the rest of the board, whose
// weight holds the empty pattern's gamma), and with rules-gamma.candidates the draw of the move
// on the rest of the board among a few random points by their pattern gammas. Drawing with
// rejection, as the policy does, gives each acceptable candidate weight / (acceptable total +
// background), so that is the pi of the score function. Moves chosen by the rules before the
// pattern answer involve no learned draw.
class RulesGammaPlayouts final : public BalancedPlayouts {
 public:
  explicit RulesGammaPlayouts(const RulesOptions& options) : options_(options) {}
  void set_model(const std::shared_ptr<const GammaModel>& model) override {
    model_ = model;
    auto gammas = std::make_shared<LocalGammas>(local_gammas(*model));
    if (options_.gamma_liberties) gammas->model = model;
    gammas_ = gammas;
    policy_ = std::make_unique<RulesPolicy>(options_, std::move(gammas));
    for (int d = 2; d <= 4; ++d) {
      distance_index_[d] = model->flag_index(kGammaDistance, d - 1);
      distance2_index_[d] = model->flag_index(kGammaDistance2, d - 1);
    }
    empty_index_ = model->pattern_index(0);
  }
  double playout(const BalancePosition& bp, Rng& rng, std::vector<double>* psi) override {
    RulesPolicy& policy = *policy_;
    policy.reset(bp.board, bp.to_move, bp.last, bp.second_last);
    const int max_moves = 3 * bp.board.size() * bp.board.size();
    RulesPolicy::LearnedAnswer answer, candidates;
    std::array<RulesPolicy::LocalFeatures, 16> features;
    policy.trace_candidates(psi ? &candidates : nullptr);
    int passes_in_row = 0;
    for (int m = 0; m < max_moves && passes_in_row < 2; ++m) {
      int n = 0;
      if (psi) n = policy.learned_answer(answer, false, &features);
      const Vertex v = policy.sample(rng);
      const RulesRule rule = policy.last_rule();
      if (psi && n > 0 && (rule == RulesRule::kPattern || rule == RulesRule::kRandom)) {
        // The pattern answer drew: among the acceptable candidates and the background.
        double total = answer.background;
        int chosen = -1;
        for (int k = 0; k < n; ++k) {
          if (!policy.answer_acceptable(answer.moves[k])) {
            answer.weights[k] = 0;
            continue;
          }
          total += answer.weights[k];
          if (rule == RulesRule::kPattern && answer.moves[k] == v) chosen = k;
        }
        if (total > 0) {
          auto add = [&](const RulesPolicy::LocalFeatures& f, double x) {
            (*psi)[f.pattern] += x;
            if (f.distance >= 2) (*psi)[distance_index_[f.distance]] += x;
            if (f.distance2 >= 2) (*psi)[distance2_index_[f.distance2]] += x;
          };
          for (int k = 0; k < n; ++k) {
            if (answer.weights[k] > 0) add(features[k], -answer.weights[k] / total);
          }
          (*psi)[empty_index_] -= answer.background / total;
          if (chosen >= 0) {
            add(features[chosen], 1);
          } else {
            (*psi)[empty_index_] += 1;
          }
        }
      }
      if (psi && candidates.n > 0) {
        // The move on the rest of the board, drawn among random points by their pattern gammas.
        const std::vector<int32_t>& index = gammas_->pattern_index[policy.to_move() == Color::kBlack ? 0 : 1];
        double total = 0;
        for (int k = 0; k < candidates.n; ++k) {
          if (policy.answer_acceptable(candidates.moves[k])) {
            total += candidates.weights[k];
          } else {
            candidates.weights[k] = 0;
          }
        }
        for (int k = 0; k < candidates.n && total > 0; ++k) {
          const int i = index[neighbour_colours(policy.board(), candidates.moves[k])];
          (*psi)[i] += (candidates.moves[k] == v ? 1.0 : 0.0) - candidates.weights[k] / total;
        }
      }
      passes_in_row = v.is_pass() ? passes_in_row + 1 : 0;
      policy.play(v);
    }
    policy.trace_candidates(nullptr);
    return area_score(policy.board()).margin(bp.komi) > 0 ? 1.0 : 0.0;
  }

 private:
  RulesOptions options_;
  std::shared_ptr<const GammaModel> model_;
  std::shared_ptr<const LocalGammas> gammas_;
  std::unique_ptr<RulesPolicy> policy_;
  std::array<int, 5> distance_index_{}, distance2_index_{};
  int empty_index_ = 0;
};

GammaModel balance(const GammaModel& start, const std::vector<BalancePosition>& positions, const GammaBalanceOptions& o,
                   BalancedPlayouts& playouts) {
  const int nw = start.num_weights();
  std::vector<double> theta(nw);
  for (int i = 0; i < nw; ++i) theta[i] = std::log(start.gammas[i]);
  auto current = std::make_shared<GammaModel>(start);
  // Each playout has its own seed (of the seed, pass, position and playout), and rank r plays the
  // playouts k with k % ranks == r; value and gradient are summed exactly (fixed point), so every
  // rank makes the same step, the step one process makes.
  const int ranks = cluster::size(), rank = cluster::rank();
  auto playout_seed = [&](int pass, size_t position, int k) {
    return splitmix64(splitmix64(splitmix64(o.seed ^ static_cast<uint64_t>(pass)) + position) + static_cast<uint64_t>(k));
  };
  std::vector<double> psi(nw);
  std::vector<int64_t> g(nw);
  nlohmann::json passes = nlohmann::json::array();
  bool stop = false;
  for (int pass = 1; pass <= o.passes && !stop; ++pass) {
    std::unique_ptr<Progress> bar;
    if (o.progress) bar = std::make_unique<Progress>("balancing pass " + std::to_string(pass), "positions",
                                                     static_cast<int64_t>(positions.size()));
    double squared_error = 0;
    int64_t done = 0;
    for (size_t p = 0; p < positions.size(); ++p) {
      const BalancePosition& bp = positions[p];
      playouts.set_model(current);
      std::array<int64_t, 1> black_wins{0};
      for (int k = rank; k < o.value_playouts; k += ranks) {
        Rng rng(playout_seed(pass, p, k));
        black_wins[0] += playouts.playout(bp, rng, nullptr) > 0.5 ? 1 : 0;
      }
      cluster::allreduce_sum(black_wins);
      const double value = static_cast<double>(black_wins[0]) / std::max(1, o.value_playouts);
      std::fill(g.begin(), g.end(), 0);
      for (int k = rank; k < o.gradient_playouts; k += ranks) {
        Rng rng(playout_seed(pass, p, o.value_playouts + k));
        std::fill(psi.begin(), psi.end(), 0.0);
        const double z = playouts.playout(bp, rng, &psi);
        for (int i = 0; i < nw; ++i) g[i] += fixed((z - value) * psi[i]);
      }
      cluster::allreduce_sum(g);
      const double step = o.rate * (bp.target - value) / std::max(1, o.gradient_playouts);
      // A new model for the next position (the policies hold the current one).
      current = std::make_shared<GammaModel>(*current);
      for (int i = 0; i < nw; ++i) {
        theta[i] = std::clamp(theta[i] + step * unfixed(g[i]), -o.bound, o.bound);
        current->gammas[i] = static_cast<float>(std::exp(theta[i]));
      }
      squared_error += (bp.target - value) * (bp.target - value);
      if (bar) bar->update(done + 1);
      ++done;
      if ((stop = cluster::any(interrupted()))) break;
    }
    if (bar) bar->finish();
    const double mse = done ? squared_error / static_cast<double>(done) : 0.0;
    if (o.progress) std::fprintf(stderr, "pass %d: mean squared error of the playout value %.4f over %lld positions\n", pass,
                                 mse, static_cast<long long>(done));
    passes.push_back({{"pass", pass}, {"positions", done}, {"mean_squared_error", mse}});
  }
  GammaModel out = *current;
  out.training["balance"] = {{"method", "simulation balancing (Huang, Coulom and Lin 2010)"},
                             {"policy", o.policy},
                             {"positions", positions.size()},
                             {"value_playouts", o.value_playouts},
                             {"gradient_playouts", o.gradient_playouts},
                             {"rate", o.rate},
                             {"seed", o.seed},
                             {"ranks", cluster::size()},
                             {"passes", passes}};
  return out;
}

}  // namespace

GammaModel balance_gamma(const GammaModel& start, const std::vector<BalancePosition>& positions,
                         const GammaBalanceOptions& o) {
  if (o.policy == "rules-gamma") {
    if (o.rules.pattern_second != 0) throw std::invalid_argument("balancing rules-gamma needs pattern_second 0");
    RulesGammaPlayouts playouts(o.rules);
    return balance(start, positions, o, playouts);
  }
  GammaPlayouts playouts;
  return balance(start, positions, o, playouts);
}

}  // namespace hane
