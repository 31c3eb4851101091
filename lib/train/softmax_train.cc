#include "train/softmax_train.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <span>
#include <stdexcept>
#include <thread>

#include "cluster/cluster.h"
#include "corpus/replay.h"
#include "go/random.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

uint64_t mix64(uint64_t z) { return splitmix64(z); }

// Keeps each position with probability `rate`, decided by a hash of the game, the move number
// and the seed (the same positions on every run).
struct Sampler {
  double rate = 1.0;
  uint64_t seed = 0;
  bool keep(uint64_t game_hash, int move_number) const {
    if (rate >= 1.0) return true;
    const uint64_t h = mix64(mix64(game_hash ^ seed) + static_cast<uint64_t>(move_number));
    return static_cast<double>(h >> 11) * 0x1.0p-53 < rate;
  }
};

// What a candidate's features are: the softmax feature set, and with a decision tree the leaf
// the candidate reaches.
struct FeatureSource {
  FeatureSet set = FeatureSet::kRollout;
  const DecisionTree* tree = nullptr;
  StrategicFamilies families = kAllStrategicFamilies;  // strategic set
};

// The features of every legal move of a position.
struct PositionFeatures {
  std::vector<Vertex> moves;
  std::vector<CandidateFeatures> features;
  std::vector<int32_t> leaves;  // with a tree: each move's leaf
  std::vector<TreeInputs> inputs;
  TreeInputMaker maker;
  int num_moves = 0;
  int played = -1;
  BoardStates states;
  StrategicContext strategic;
};

// Calls fn(PositionFeatures&) for every sampled non-pass position of `game`.
template <class Fn>
void for_each_position(const CorpusGame& game, const FeatureSource& src, const Sampler& sampler, PositionFeatures& pf,
                       Fn&& fn) {
  auto keep = [&](const Position& p) { return sampler.keep(game.hash, p.move_number); };
  if (src.tree) pf.maker = TreeInputMaker(src.tree->features);
  pf.strategic = StrategicContext(src.families);
  (void)replay_choices(game.record, [&](const Position& p, Vertex played, std::span<const Vertex> legal) {
    const Board& b = *p.board;
    pf.num_moves = static_cast<int>(legal.size());  // legal lies in pf.moves
    pf.features.resize(pf.num_moves);
    pf.states.fill(b);
    if (src.set == FeatureSet::kStrategic) pf.strategic.set_position(p);
    pf.played = -1;
    for (int i = 0; i < pf.num_moves; ++i) {
      const Vertex v = pf.moves[i];
      candidate_features(src.set, p, v, pf.states.diamond_code(v, b.stride()), &pf.states, &pf.features[i],
                         &pf.strategic);
      if (v == played) pf.played = i;
    }
    if (pf.played < 0) return;
    if (src.tree) {
      pf.inputs.resize(pf.num_moves);
      pf.leaves.resize(pf.num_moves);
      pf.maker.set_position(p);
      for (int i = 0; i < pf.num_moves; ++i) pf.maker.inputs(pf.moves[i], pf.inputs[i]);
      src.tree->leaves_of(pf.inputs, pf.leaves);
    }
    fn(pf);
  }, pf.moves, keep);
}

// The logical shards (SoftmaxTrainOptions::shards): a game's shard comes from its hash, and
// shard s is on rank s mod ranks, where thread i mod threads of that rank handles its i-th shard.
int shard_of(const CorpusGame& game, int shards) {
  return static_cast<int>(mix64(game.hash ^ 0x5348415244ull) % static_cast<uint64_t>(shards));
}

struct Shards {
  int count = 1;
  std::vector<int> mine;                                   // this rank's shards, in order
  std::vector<std::vector<const CorpusGame*>> train, validation;  // games by shard (this rank's only)

  Shards(const std::vector<CorpusGame>& train_games, const std::vector<CorpusGame>& validation_games, int shards)
      : count(shards), train(shards), validation(shards) {
    for (int k = 0; k < shards; ++k) {
      if (k % cluster::size() == cluster::rank()) mine.push_back(k);
    }
    auto split = [&](const std::vector<CorpusGame>& games, std::vector<std::vector<const CorpusGame*>>& out) {
      for (const CorpusGame& g : games) {
        const int k = shard_of(g, shards);
        if (k % cluster::size() == cluster::rank()) out[k].push_back(&g);
      }
    };
    split(train_games, train);
    split(validation_games, validation);
  }
};

// Runs fn(thread, shard, game) over the games of this rank's shards, shard mine[i] on thread
// i % threads, each shard's games in order (so the result does not depend on timing or on
// the number of threads), with a progress line.
template <class Fn>
void parallel_games(const Shards& shards, const std::vector<std::vector<const CorpusGame*>>& games, int threads,
                    const std::string& what, bool progress, Fn&& fn) {
  int64_t total = 0;
  for (int k : shards.mine) total += static_cast<int64_t>(games[k].size());
  std::atomic<int64_t> done{0};
  Progress line(what, "games", total);
  run_workers(
      threads,
      [&](int t) {
        for (size_t i = t; i < shards.mine.size(); i += threads) {
          const int k = shards.mine[i];
          for (const CorpusGame* g : games[k]) {
            fn(t, k, *g);
            ++done;
          }
        }
      },
      progress ? std::function<void()>([&] { line.update(done); }) : nullptr);
  if (progress) line.finish();
}

// Pattern keys -> feature ids. Fixed features are ids 0..num_fixed-1, then each kind's keys
// in increasing key order, then (with a tree) one id per leaf.
struct Dictionary {
  int num_fixed = 0;
  std::array<absl::flat_hash_map<uint64_t, uint32_t>, kNumPatternKinds> ids;
  std::array<std::vector<uint64_t>, kNumPatternKinds> keys;
  std::array<uint32_t, kNumPatternKinds> first{};
  uint32_t leaf_first = 0;
  uint32_t num_leaves = 0;
  uint32_t size = 0;

  // Appends the ids of candidate i of `pf` to `out`.
  void ids_of(const PositionFeatures& pf, int i, std::vector<uint32_t>& out) const {
    const CandidateFeatures& f = pf.features[i];
    for (int j = 0; j < f.num_fixed; ++j) out.push_back(f.fixed[j]);
    for (int k = 0; k < kNumPatternKinds; ++k) {
      if (!f.has_key(static_cast<PatternKind>(k))) continue;
      const auto it = ids[k].find(f.keys[k]);
      if (it != ids[k].end()) out.push_back(it->second);
    }
    if (num_leaves > 0) out.push_back(leaf_first + static_cast<uint32_t>(pf.leaves[i]));
  }
};

using KeyCounts = std::array<absl::flat_hash_map<uint64_t, uint32_t>, kNumPatternKinds>;

// Bytes a cached position takes at most: its raw feature tuples (before rare keys are dropped,
// which can only merge classes), each once, plus the position's header and index entry.
size_t position_bytes_bound(const PositionFeatures& pf) {
  thread_local std::vector<std::pair<uint64_t, int>> classes;  // (hash of the tuple, words)
  classes.clear();
  for (int i = 0; i < pf.num_moves; ++i) {
    const CandidateFeatures& f = pf.features[i];
    uint64_t h = f.key_mask;
    for (int j = 0; j < f.num_fixed; ++j) h = mix64(h + f.fixed[j]);
    for (int k = 0; k < kNumPatternKinds; ++k) {
      if (f.has_key(static_cast<PatternKind>(k))) h = mix64(h ^ f.keys[k]);
    }
    const bool leaf = !pf.leaves.empty();
    if (leaf) h = mix64(h ^ static_cast<uint64_t>(pf.leaves[i]));
    classes.emplace_back(h, 1 + (f.num_fixed + 3) / 4 + std::popcount(f.key_mask) + (leaf ? 1 : 0));
  }
  std::sort(classes.begin(), classes.end());
  size_t words = 2;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (i == 0 || classes[i].first != classes[i - 1].first) words += classes[i].second;
  }
  return 4 * words + 8;  // data, pointer
}

struct Caches {
  std::vector<PositionCache> shards;                    // one per logical shard (others' stay empty)
  std::vector<std::vector<const uint32_t*>> positions;  // by shard
  std::vector<int64_t> sizes;                           // positions by shard, every rank's
  int64_t total = 0;                                    // positions on every rank
  size_t bytes = 0;                                     // on this rank

  void index() {
    positions.assign(shards.size(), {});
    sizes.assign(shards.size(), 0);
    bytes = 0;
    for (size_t k = 0; k < shards.size(); ++k) {
      for (size_t i = 0; i < shards[k].size(); ++i) positions[k].push_back(shards[k].position(i));
      sizes[k] = static_cast<int64_t>(positions[k].size());
      bytes += shards[k].bytes() + positions[k].capacity() * sizeof(const uint32_t*);
    }
    cluster::allreduce_sum(sizes);
    total = 0;
    for (int64_t n : sizes) total += n;
  }
};

// Extracts the sampled positions of this rank's shards of `games` into `caches` with ids from `dict`.
void extract(const Shards& shards, const std::vector<std::vector<const CorpusGame*>>& games, const FeatureSource& src,
             const Sampler& sampler, const Dictionary& dict, int threads, const std::string& what, bool progress,
             const std::string& spill_dir, Caches& caches) {
  caches.shards.clear();
  for (int k = 0; k < shards.count; ++k) {
    // Only this rank's shards hold positions: the others need no file.
    const bool mine = std::find(shards.mine.begin(), shards.mine.end(), k) != shards.mine.end();
    if (spill_dir.empty() || !mine) {
      caches.shards.emplace_back(static_cast<uint32_t>(dict.num_fixed));
    } else {
      caches.shards.emplace_back(static_cast<uint32_t>(dict.num_fixed), spill_dir);
    }
  }
  std::vector<PositionFeatures> pfs(threads);
  std::vector<std::vector<uint32_t>> ids(threads), offsets(threads);
  parallel_games(shards, games, threads, what, progress, [&](int t, int k, const CorpusGame& game) {
    for_each_position(game, src, sampler, pfs[t], [&](PositionFeatures& pf) {
      ids[t].clear();
      offsets[t].assign(1, 0);
      for (int i = 0; i < pf.num_moves; ++i) {
        dict.ids_of(pf, i, ids[t]);
        offsets[t].push_back(static_cast<uint32_t>(ids[t].size()));
      }
      caches.shards[k].add(ids[t], offsets[t], pf.played);
    });
  });
  caches.index();
}

struct Validation {
  double top1 = 0;
  double log_likelihood = 0;
};

// Sums by shard (each shard's positions in order), reduced over ranks, then added shard by shard.
Validation validate(const Shards& shards, const Caches& val, const Eigen::VectorXf& w, int factor_dim, int threads) {
  std::vector<double> top1(shards.count, 0), ll(shards.count, 0);
  {
    std::vector<std::jthread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (size_t i = t; i < shards.mine.size(); i += threads) {
          const int k = shards.mine[i];
          for (const uint32_t* p : val.positions[k]) {
            const PositionLoss r = position_loss(p, w, nullptr, 0, factor_dim);
            top1[k] += r.top1;
            ll[k] -= r.loss;
          }
        }
      });
    }
  }
  cluster::allreduce_sum(top1);
  cluster::allreduce_sum(ll);
  Validation v;
  for (int k = 0; k < shards.count; ++k) {
    v.top1 += top1[k];
    v.log_likelihood += ll[k];
  }
  const double n = static_cast<double>(std::max<int64_t>(1, val.total));
  v.top1 /= n;
  v.log_likelihood /= n;
  return v;
}

// This rank's gradient of each of its shards, as (id, value) lists; then every shard's on every
// rank (one allgather), summed shard by shard into `total`.
struct ShardGradients {
  std::vector<std::vector<uint32_t>> ids;
  std::vector<std::vector<float>> values;
  explicit ShardGradients(int shards) : ids(shards), values(shards) {}

  void take(int k, SparseGradient& g) {
    ids[k].assign(g.touched.begin(), g.touched.end());
    values[k].resize(ids[k].size());
    for (size_t i = 0; i < ids[k].size(); ++i) values[k][i] = g.g[ids[k][i]];
    g.clear();
  }
  // Returns the bytes this rank sent.
  size_t exchange(const std::vector<int>& mine) {
    if (cluster::size() == 1) return 0;
    std::string out;
    auto put = [&](const void* p, size_t n) { out.append(static_cast<const char*>(p), n); };
    for (int k : mine) {
      const uint32_t head[2] = {static_cast<uint32_t>(k), static_cast<uint32_t>(ids[k].size())};
      put(head, sizeof head);
      put(ids[k].data(), ids[k].size() * 4);
      put(values[k].data(), values[k].size() * 4);
    }
    for (const std::string& in : cluster::allgather(out)) {
      for (size_t off = 0; off + 8 <= in.size();) {
        uint32_t head[2];
        std::memcpy(head, in.data() + off, 8);
        off += 8;
        const uint32_t k = head[0], n = head[1];
        ids[k].resize(n);
        values[k].resize(n);
        std::memcpy(ids[k].data(), in.data() + off, 4 * size_t{n});
        std::memcpy(values[k].data(), in.data() + off + 4 * size_t{n}, 4 * size_t{n});
        off += 8 * size_t{n};
      }
    }
    return out.size();
  }
  void sum_into(SparseGradient& total) const {
    for (size_t k = 0; k < ids.size(); ++k) {
      for (size_t i = 0; i < ids[k].size(); ++i) total.add(ids[k][i], values[k][i]);
    }
  }
};

int64_t count_positions(const std::vector<CorpusGame>& games) {
  int64_t n = 0;
  for (const CorpusGame& g : games) n += g.positions;
  return n;
}


// Progress notes on stderr (printf style), when `on`.
struct Note {
  bool on = true;
  template <class... Args>
  void operator()(const char* fmt, Args... args) const {
    if (on) {
      std::fprintf(stderr, fmt, args...);
      std::fflush(stderr);
    }
  }
};

// Step 1: how many positions fit, and the samplers that take that many.
struct CachePlan {
  int64_t train_positions = 0;  // in the training games
  Sampler train, validation;
};

// The bytes of a position are bounded on a pilot of a few games; the validation positions
// take at most a tenth of the budget.
CachePlan plan_cache(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
                     const SoftmaxTrainOptions& o, const FeatureSource& src, const Note& note) {
  const int64_t train_positions = std::max<int64_t>(1, count_positions(train));
  int64_t budget_positions = o.max_positions > 0 ? o.max_positions : train_positions;
  int64_t validation_positions = o.validation_positions;
  PositionFeatures pf;
  size_t bytes = 0;
  int64_t n = 0;
  for (size_t i = 0; i < train.size() && n < 20'000; i += std::max<size_t>(1, train.size() / 100)) {
    for_each_position(train[i], src, Sampler{}, pf, [&](PositionFeatures& p) {
      bytes += position_bytes_bound(p);
      ++n;
    });
  }
  if (n > 0) {
    const double per_position = static_cast<double>(bytes) / n;
    const double budget = o.memory_gb * 1e9;
    validation_positions = std::min<int64_t>(validation_positions, static_cast<int64_t>(0.1 * budget / per_position));
    const double left = budget - per_position * static_cast<double>(validation_positions);
    budget_positions = std::min<int64_t>(budget_positions, std::max<int64_t>(1000, static_cast<int64_t>(left / per_position)));
    note("feature cache: about %.0f bytes per position (bound from %lld pilot positions); room for %s training "
         "positions\n", per_position, static_cast<long long>(n), with_thousands(budget_positions).c_str());
  }
  CachePlan plan;
  plan.train_positions = train_positions;
  plan.train = Sampler{std::min(1.0, static_cast<double>(budget_positions) / train_positions), o.seed};
  const int64_t validation_total = std::max<int64_t>(1, count_positions(validation));
  plan.validation = Sampler{std::min(1.0, static_cast<double>(validation_positions) / validation_total), o.seed + 1};
  return plan;
}

// Step 2: the pattern keys' counts over the sampled training positions of this rank's shards,
// summed over the threads, then over the ranks (every rank gets every count), in counts[0].
std::vector<KeyCounts> count_keys(const Shards& shards, FeatureSet set, const Sampler& sampler, int threads,
                                  bool progress) {
  std::vector<KeyCounts> counts(threads);
  {
    std::vector<PositionFeatures> pfs(threads);
    // The strategic set adds fixed features only: its pattern keys are the tree set's.
    const FeatureSource src{set == FeatureSet::kStrategic ? FeatureSet::kTree : set};
    parallel_games(shards, shards.train, threads, "counting patterns", progress, [&](int t, int, const CorpusGame& game) {
      for_each_position(game, src, sampler, pfs[t], [&](PositionFeatures& pf) {
        for (int i = 0; i < pf.num_moves; ++i) {
          const CandidateFeatures& f = pf.features[i];
          for (int k = 0; k < kNumPatternKinds; ++k) {
            if (f.has_key(static_cast<PatternKind>(k))) ++counts[t][k][f.keys[k]];
          }
        }
      });
    });
  }
  for (int t = 1; t < threads; ++t) {
    for (int k = 0; k < kNumPatternKinds; ++k) {
      for (const auto& [key, c] : counts[t][k]) counts[0][k][key] += c;
      counts[t][k] = {};
    }
  }
  if (cluster::size() > 1) {
    std::string out;
    for (int k = 0; k < kNumPatternKinds; ++k) {
      const uint64_t n = counts[0][k].size();
      out.append(reinterpret_cast<const char*>(&n), 8);
      for (const auto& [key, c] : counts[0][k]) {
        out.append(reinterpret_cast<const char*>(&key), 8);
        out.append(reinterpret_cast<const char*>(&c), 4);
      }
    }
    const std::vector<std::string> all = cluster::allgather(out);
    out.clear();
    for (int r = 0; r < static_cast<int>(all.size()); ++r) {
      if (r == cluster::rank()) continue;
      size_t off = 0;
      for (int k = 0; k < kNumPatternKinds; ++k) {
        uint64_t n = 0;
        std::memcpy(&n, all[r].data() + off, 8);
        off += 8;
        for (uint64_t i = 0; i < n; ++i, off += 12) {
          uint64_t key = 0;
          uint32_t c = 0;
          std::memcpy(&key, all[r].data() + off, 8);
          std::memcpy(&c, all[r].data() + off + 8, 4);
          counts[0][k][key] += c;
        }
      }
    }
  }
  return counts;
}

// Step 2 (continued): the dictionary of the keys seen at least min_count times; the numbers
// of keys seen and kept by kind go to `seen` and `kept`.
Dictionary build_dictionary(KeyCounts& counts, const SoftmaxTrainOptions& o, const Note& note, nlohmann::json& seen,
                            nlohmann::json& kept) {
  const FeatureSet set = o.feature_set;
  Dictionary dict;
  dict.num_fixed = num_fixed_features(set);
  dict.size = static_cast<uint32_t>(dict.num_fixed);
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (!uses_pattern_kind(set, static_cast<PatternKind>(k))) continue;
    std::vector<uint64_t>& keys = dict.keys[k];
    for (const auto& [key, c] : counts[k]) {
      if (c >= o.min_count) keys.push_back(key);
    }
    std::sort(keys.begin(), keys.end());
    dict.first[k] = dict.size;
    dict.ids[k].reserve(keys.size());
    for (size_t j = 0; j < keys.size(); ++j) dict.ids[k].emplace(keys[j], static_cast<uint32_t>(dict.size + j));
    dict.size += static_cast<uint32_t>(keys.size());
    const std::string name(pattern_kind_name(static_cast<PatternKind>(k)));
    seen[name] = counts[k].size();
    kept[name] = keys.size();
    note("%s patterns: %s seen, %s kept (seen >= %lld times)\n", name.c_str(),
         with_thousands(static_cast<int64_t>(counts[k].size())).c_str(),
         with_thousands(static_cast<int64_t>(keys.size())).c_str(), static_cast<long long>(o.min_count));
    counts[k] = {};
  }
  return dict;
}

// Step 4's result: the best epoch and every epoch's figures.
struct Training {
  Eigen::VectorXf best_w;
  nlohmann::json epochs = nlohmann::json::array();
  int best_epoch = 0;
  Validation best_val;
  nlohmann::json start = nullptr;  // the start's validation figures, if measured
  int64_t steps = 0;
  size_t bytes_sent = 0;  // by this rank, over all steps
};

// Runs of consecutive positions of a shard, the units the windowed order shuffles.
struct Run {
  uint32_t shard = 0, first = 0, last = 0;
};
constexpr uint32_t kRunPositions = 4096;
constexpr size_t kWindowRuns = 64;

std::vector<Run> position_runs(const std::vector<int64_t>& sizes) {
  std::vector<Run> runs;
  for (size_t k = 0; k < sizes.size(); ++k) {
    for (int64_t i = 0; i < sizes[k]; i += kRunPositions) {
      runs.push_back({static_cast<uint32_t>(k), static_cast<uint32_t>(i),
                      static_cast<uint32_t>(std::min<int64_t>(sizes[k], i + kRunPositions))});
    }
  }
  return runs;
}

// Fisher-Yates, from the back.
template <class T>
void shuffle(std::span<T> v, Rng& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(static_cast<uint32_t>(i))]);
}

// The windowed order (softmax_train.h): `runs` shuffled (window w is then runs[w * kWindowRuns,
// (w + 1) * kWindowRuns)), then the positions of each window shuffled among themselves, into
// `order`. Returns where each window starts in `order`, and its end last.
std::vector<size_t> windowed_order(std::vector<Run>& runs, Rng& rng, std::vector<std::pair<uint32_t, uint32_t>>& order) {
  shuffle(std::span(runs), rng);
  order.clear();
  std::vector<size_t> starts;
  for (size_t r = 0; r < runs.size(); r += kWindowRuns) {
    const size_t first = order.size();
    starts.push_back(first);
    for (size_t j = r; j < std::min(runs.size(), r + kWindowRuns); ++j) {
      for (uint32_t i = runs[j].first; i < runs[j].last; ++i) order.emplace_back(runs[j].shard, i);
    }
    shuffle(std::span(order).subspan(first), rng);
  }
  starts.push_back(order.size());
  return starts;
}

// Reads window w of the windowed order from disk, run by run (the shards of other ranks hold
// no positions: nothing to read there).
void prefetch_window(const Caches& cache, const std::vector<Run>& runs, size_t w) {
  for (size_t j = w * kWindowRuns; j < std::min(runs.size(), (w + 1) * kWindowRuns); ++j) {
    cache.shards[runs[j].shard].prefetch(runs[j].first, runs[j].last);
  }
}

// Step 4: epochs of lazy Adam from the weights `start`; the L2 penalty pulls towards `anchor`.
// Each step's gradient: every shard's own (its positions of the batch in batch order, on the
// thread that holds the shard), summed shard by shard on every rank; so every rank makes the
// same step, whatever the numbers of threads and ranks. With validation positions the start
// is measured too ("epoch 0"), and kept if no epoch beats it.
Training run_epochs(const Shards& shards, const Caches& train_cache, const Caches& val_cache, const Eigen::VectorXf& start,
                    const Eigen::VectorXf& anchor, const SoftmaxTrainOptions& o, int threads, const Note& note,
                    const std::function<void(const SoftmaxEpoch&)>& on_epoch) {
  Training out;
  const int64_t n_weights = start.size();
  const int64_t n_ids = n_weights / (1 + o.factor_dim);  // weights; the latent vectors follow
  Eigen::VectorXf w = start, m = Eigen::VectorXf::Zero(n_weights), v = Eigen::VectorXf::Zero(n_weights);
  out.best_w = w;
  std::vector<SparseGradient> grads;
  for (int t = 0; t < threads; ++t) grads.emplace_back(n_weights);
  ShardGradients shard_grads(shards.count);
  SparseGradient total(n_weights);
  std::vector<double> shard_loss(shards.count, 0);
  double lr = o.learning_rate;
  int64_t& step = out.steps;
  size_t& bytes_sent = out.bytes_sent;
  Rng rng(o.seed);
  // Every cached position as (shard, index in the shard), the same list on every rank.
  std::vector<std::pair<uint32_t, uint32_t>> order;
  order.reserve(train_cache.total);
  for (int k = 0; k < shards.count; ++k) {
    for (int64_t i = 0; i < train_cache.sizes[k]; ++i) order.emplace_back(k, static_cast<uint32_t>(i));
  }
  const size_t per_epoch = std::max<size_t>(1, static_cast<size_t>(o.epoch_fraction * order.size()));
  const bool windows = !o.cache_dir.empty();
  std::vector<Run> runs = position_runs(train_cache.sizes);
  std::vector<size_t> window_starts;  // in `order`, with the order's end last

  double best_metric = -1e300;
  if (val_cache.total > 0) {
    const Validation val = validate(shards, val_cache, w, o.factor_dim, threads);
    note("start: validation top-1 %.2f%%, log-lik %.4f\n", 100 * val.top1, val.log_likelihood);
    out.start = {{"validation_top1", val.top1}, {"validation_log_likelihood", val.log_likelihood}};
    best_metric = o.select == "top1" ? val.top1 : val.log_likelihood;
    out.best_val = val;
  }
  int bad_epochs = 0;
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    const auto epoch_start = Clock::now();
    if (windows) {
      window_starts = windowed_order(runs, rng, order);
      prefetch_window(train_cache, runs, 0);
    } else {
      shuffle(std::span(order), rng);
    }
    size_t next_window = 1;
    const size_t num_batches = (per_epoch + o.batch_size - 1) / o.batch_size;
    std::fill(shard_loss.begin(), shard_loss.end(), 0.0);
    Progress line("epoch " + std::to_string(epoch), "positions", static_cast<int64_t>(per_epoch));
    size_t batch = 0;
    auto update = [&]() noexcept {
      // Every shard's gradient, summed in shard order, then one Adam step on its entries.
      bytes_sent += shard_grads.exchange(shards.mine);
      shard_grads.sum_into(total);
      const std::vector<int>& merged = total.touched;
      Eigen::ArrayXf g = total.g(merged).array();
      g += static_cast<float>(o.l2) * (w(merged) - anchor(merged)).array();
      if (o.factor_dim > 0 && o.factor_l2 != o.l2) {  // the latent vectors' own L2 strength
        const float extra = static_cast<float>(o.factor_l2 - o.l2);
        for (size_t i = 0; i < merged.size(); ++i) {
          if (merged[i] >= n_ids) g[static_cast<Eigen::Index>(i)] += extra * w[merged[i]];
        }
      }
      ++step;
      const float b1 = static_cast<float>(o.beta1), b2 = static_cast<float>(o.beta2);
      const Eigen::ArrayXf m_new = b1 * m(merged).array() + (1 - b1) * g;
      const Eigen::ArrayXf v_new = b2 * v(merged).array() + (1 - b2) * g.square();
      const double correction = std::sqrt(1 - std::pow(o.beta2, step)) / (1 - std::pow(o.beta1, step));
      const float step_size = static_cast<float>(lr * correction);
      w(merged) = (w(merged).array() - step_size * m_new / (v_new.sqrt() + static_cast<float>(o.epsilon))).matrix();
      m(merged) = m_new.matrix();
      v(merged) = v_new.matrix();
      total.clear();
      ++batch;
      // The next batch's window(s), read from disk before it starts.
      while (windows && next_window + 1 < window_starts.size() &&
             window_starts[next_window] < std::min(per_epoch, (batch + 1) * o.batch_size)) {
        prefetch_window(train_cache, runs, next_window++);
      }
      if (o.progress) line.update(static_cast<int64_t>(std::min(per_epoch, batch * o.batch_size)));
    };
    std::barrier sync(threads, update);
    auto work = [&](int t) {
      for (size_t b = 0; b < num_batches; ++b) {
        const size_t first = b * o.batch_size, last = std::min(per_epoch, first + o.batch_size);
        const float scale = 1.0f / static_cast<float>(last - first);
        for (size_t j = t; j < shards.mine.size(); j += threads) {
          const uint32_t k = static_cast<uint32_t>(shards.mine[j]);
          for (size_t i = first; i < last; ++i) {
            if (order[i].first != k) continue;
            shard_loss[k] +=
                position_loss(train_cache.positions[k][order[i].second], w, &grads[t], scale, o.factor_dim).loss;
          }
          shard_grads.take(static_cast<int>(k), grads[t]);
        }
        sync.arrive_and_wait();
      }
    };
    {
      std::vector<std::jthread> pool;
      for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
      work(0);
    }
    cluster::allreduce_sum(shard_loss);
    double epoch_loss = 0;
    for (double l : shard_loss) epoch_loss += l;
    if (o.progress) line.finish();
    const Validation val = validate(shards, val_cache, w, o.factor_dim, threads);
    SoftmaxEpoch e;
    e.epoch = epoch;
    e.train_loss = epoch_loss / static_cast<double>(per_epoch);
    e.validation_top1 = val.top1;
    e.validation_log_likelihood = val.log_likelihood;
    e.learning_rate = lr;
    e.seconds = seconds_since(epoch_start);
    note("epoch %d: train loss %.4f, validation top-1 %.2f%%, log-lik %.4f, step size %.2g, %.0f s\n", epoch,
         e.train_loss, 100 * e.validation_top1, e.validation_log_likelihood, lr, e.seconds);
    out.epochs.push_back({{"epoch", epoch},
                      {"train_loss", e.train_loss},
                      {"validation_top1", e.validation_top1},
                      {"validation_log_likelihood", e.validation_log_likelihood},
                      {"learning_rate", lr},
                      {"seconds", e.seconds}});
    if (on_epoch) on_epoch(e);
    // Without validation positions, the training loss decides.
    const double metric = val_cache.total == 0 ? -e.train_loss
                          : o.select == "top1"        ? val.top1
                                                      : val.log_likelihood;
    if (metric > best_metric) {
      best_metric = metric;
      out.best_epoch = epoch;
      out.best_val = val;
      out.best_w = w;
      bad_epochs = 0;
    } else {
      lr *= o.lr_decay;
      if (++bad_epochs >= o.patience) break;
    }
    // Ctrl-C (util/interrupt.h) on any rank: keep the best epoch so far.
    if (cluster::any(interrupted())) break;
  }
  return out;
}

// Step 5: the model, the best epoch's weights.
SoftmaxModel make_model(const Dictionary& dict, const Training& t, FeatureSet set, StrategicFamilies families) {
  SoftmaxModel model;
  model.feature_set = set;
  model.strategic_families = families;
  model.fixed.assign(t.best_w.data(), t.best_w.data() + dict.num_fixed);
  for (int k = 0; k < kNumPatternKinds; ++k) {
    model.patterns[k].reserve(dict.keys[k].size());
    for (size_t j = 0; j < dict.keys[k].size(); ++j) model.patterns[k].emplace(dict.keys[k][j], t.best_w[dict.first[k] + j]);
  }
  return model;
}

// Step 5 (continued): the training report of the model file: options, corpus and cache
// sizes, every epoch and the best one.
nlohmann::json training_report(const SoftmaxTrainOptions& o, int threads, size_t train_games, size_t validation_games,
                               const CachePlan& plan, const Caches& train_cache, const Caches& val_cache,
                               const nlohmann::json& seen, const nlohmann::json& kept, int64_t n_weights,
                               const Training& t, double seconds) {
  return {
      {"games", train_games},
      {"validation_games", validation_games},
      {"train_positions", plan.train_positions},
      {"positions_cached", train_cache.total},
      {"validation_positions_cached", val_cache.total},
      {"cache_gb", (train_cache.bytes + val_cache.bytes) / 1e9},
      {"patterns_seen", seen},
      {"patterns_kept", kept},
      {"weights", n_weights},
      {"options",
       {{"min_count", o.min_count},
        {"max_epochs", o.max_epochs},
        {"patience", o.patience},
        {"batch_size", o.batch_size},
        {"learning_rate", o.learning_rate},
        {"lr_decay", o.lr_decay},
        {"beta1", o.beta1},
        {"beta2", o.beta2},
        {"l2", o.l2},
        {"factor_dim", o.factor_dim},
        {"factor_init", o.factor_init},
        {"factor_l2", o.factor_l2},
        {"memory_gb", o.memory_gb},
        {"cache_on_disk", !o.cache_dir.empty()},
        {"max_positions", o.max_positions},
        {"validation_positions", o.validation_positions},
        {"epoch_fraction", o.epoch_fraction},
        {"select", o.select},
        {"threads", threads},
        {"shards", o.shards},
        {"seed", o.seed}}},
      {"start", t.start},
      {"epochs", t.epochs},
      {"best_epoch", t.best_epoch},
      {"validation_top1", t.best_val.top1},
      {"validation_log_likelihood", t.best_val.log_likelihood},
      {"seconds", seconds},
      {"ranks", cluster::size()},
      {"bytes_sent_per_step", t.steps > 0 ? static_cast<double>(t.bytes_sent) / t.steps : 0.0},
  };
}

// The softmax model and (with a tree) the leaf weights and the latent vectors.
struct Trained {
  SoftmaxModel model;
  std::vector<float> leaf_weights;
  PairFactors factors;
};

Trained train(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
              const SoftmaxTrainOptions& o, const DecisionTree* tree,
              const std::function<void(const SoftmaxEpoch&)>& on_epoch) {
  if (o.batch_size < 1 || o.shards < 1 || o.shards > 4096 || o.max_epochs < 1 || o.learning_rate <= 0 || o.min_count < 1 || o.epoch_fraction <= 0 ||
      o.epoch_fraction > 1 || (o.select != "top1" && o.select != "loglik") || o.factor_dim < 0 ||
      o.factor_dim > kMaxFactorDim || !(o.factor_init > 0) || !(o.factor_l2 >= 0)) {
    throw std::invalid_argument("train_softmax: bad options");
  }
  if (train.empty()) throw std::runtime_error("no training games");
  const auto start = Clock::now();
  const int threads = thread_count(o.threads);
  const Note note{o.progress};
  const FeatureSource src{o.feature_set, tree, o.strategic_families};

  // 1. How many positions fit.
  const CachePlan plan = plan_cache(train, validation, o, src, note);

  // 2. Count pattern keys over the sampled training positions (of this rank's shards; the
  // counts are then exchanged, so every rank has every count) and keep the frequent ones; the
  // tree's leaves come after them.
  const Shards shards(train, validation, o.shards);
  nlohmann::json seen = nlohmann::json::object(), kept = nlohmann::json::object();
  Dictionary dict;
  {
    std::vector<KeyCounts> counts = count_keys(shards, o.feature_set, plan.train, threads, o.progress);
    dict = build_dictionary(counts[0], o, note, seen, kept);
  }
  if (tree) {
    dict.leaf_first = dict.size;
    dict.num_leaves = static_cast<uint32_t>(tree->leaves.size());
    dict.size += dict.num_leaves;
  }

  // 3. Cache the positions.
  Caches train_cache, val_cache;
  extract(shards, shards.train, src, plan.train, dict, threads, "caching training positions", o.progress, o.cache_dir,
          train_cache);
  extract(shards, shards.validation, src, plan.validation, dict, threads, "caching validation positions", o.progress, {},
          val_cache);
  note("cached %s training positions (%.2f GB%s) and %s validation positions (%.2f GB) in %.0f s%s\n",
       with_thousands(train_cache.total).c_str(), train_cache.bytes / 1e9,
       o.cache_dir.empty() ? "" : (", on disk in " + o.cache_dir).c_str(), with_thousands(val_cache.total).c_str(),
       val_cache.bytes / 1e9, seconds_since(start), cluster::size() > 1 ? " (GB: on this rank)" : "");
  if (train_cache.total == 0) throw std::runtime_error("no training positions");

  // 4. Epochs of lazy Adam from 0, or from each leaf's ln p, keeping the best; the latent
  // vectors (if any) from small random values, pulled towards 0.
  const int d = o.factor_dim;
  const int64_t n_weights = int64_t{dict.size} * (1 + d);
  if (n_weights >= (int64_t{1} << 31)) throw std::invalid_argument("train_softmax: too many weights for 31-bit ids");
  Eigen::VectorXf w0 = Eigen::VectorXf::Zero(n_weights);
  for (uint32_t l = 0; l < dict.num_leaves; ++l) w0[dict.leaf_first + l] = std::log(tree->leaves[l].probability);
  const Eigen::VectorXf anchor = w0;
  Rng init_rng(o.seed ^ 0x464143544f5253ull);
  for (int64_t i = dict.size; i < n_weights; ++i) {
    w0[i] = static_cast<float>(o.factor_init * (2 * init_rng.uniform() - 1));
  }
  const Training t = run_epochs(shards, train_cache, val_cache, w0, anchor, o, threads, note, on_epoch);

  // 5. The model: the best epoch's weights, and the report.
  Trained out;
  out.model = make_model(dict, t, o.feature_set, o.strategic_families);
  out.model.training = training_report(o, threads, train.size(), validation.size(), plan, train_cache, val_cache, seen,
                                       kept, n_weights, t, seconds_since(start));
  out.leaf_weights.assign(t.best_w.data() + dict.leaf_first, t.best_w.data() + dict.leaf_first + dict.num_leaves);
  if (d > 0) {
    const float* v = t.best_w.data() + dict.size;  // feature i's vector at i * d
    PairFactors& f = out.factors;
    f.dim = d;
    f.fixed.assign(v, v + size_t{static_cast<uint32_t>(dict.num_fixed)} * d);
    for (int k = 0; k < kNumPatternKinds; ++k) {
      f.pattern_rows[k].reserve(dict.keys[k].size());
      for (size_t j = 0; j < dict.keys[k].size(); ++j) {
        const float* row = v + size_t{dict.first[k] + static_cast<uint32_t>(j)} * d;
        f.pattern_rows[k].emplace(dict.keys[k][j], static_cast<uint32_t>(f.pattern_data.size() / d));
        f.pattern_data.insert(f.pattern_data.end(), row, row + d);
      }
    }
    f.leaves.assign(v + size_t{dict.leaf_first} * d, v + size_t{dict.leaf_first + dict.num_leaves} * d);
  }
  return out;
}

}  // namespace

SoftmaxModel train_softmax(const std::vector<CorpusGame>& train_games, const std::vector<CorpusGame>& validation,
                           const SoftmaxTrainOptions& o, const std::function<void(const SoftmaxEpoch&)>& on_epoch) {
  if (o.factor_dim != 0) throw std::invalid_argument("train_softmax: factorised pairs need a tree (the leaf softmax)");
  return train(train_games, validation, o, nullptr, on_epoch).model;
}

LeafSoftmaxModel train_leaf_softmax(const std::vector<CorpusGame>& train_games,
                                    const std::vector<CorpusGame>& validation, DecisionTree tree,
                                    const SoftmaxTrainOptions& o,
                                    const std::function<void(const SoftmaxEpoch&)>& on_epoch) {
  Trained t = train(train_games, validation, o, &tree, on_epoch);
  LeafSoftmaxModel m;
  m.tree = std::move(tree);
  m.leaf_weights = std::move(t.leaf_weights);
  m.factors = std::move(t.factors);
  m.training = std::move(t.model.training);
  m.softmax = std::move(t.model);
  m.softmax.training = nlohmann::json::object();
  return m;
}

}  // namespace hane
