#include "train/softmax_train.h"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "corpus/replay.h"
#include "go/random.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {

// ---------------------------------------------------------------------------------------------
// PositionCache and the loss.

PositionCache::PositionCache(uint32_t num_fixed) : num_fixed_(num_fixed) {
  if (num_fixed > 256) throw std::invalid_argument("PositionCache: at most 256 fixed features");
}

void PositionCache::add(std::span<uint32_t> ids, std::span<const uint32_t> offsets, int played) {
  const int n = static_cast<int>(offsets.size()) - 1;
  order_.resize(n);
  for (int i = 0; i < n; ++i) {
    auto first = ids.begin() + offsets[i], last = ids.begin() + offsets[i + 1];
    std::sort(first, last);
    uint64_t h = 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(last - first + 1);
    for (auto it = first; it != last; ++it) h = (h ^ *it) * 0x100000001B3ull + (h >> 29);
    order_[i] = {h, static_cast<uint32_t>(i)};
  }
  std::sort(order_.begin(), order_.end());
  std::vector<uint32_t>& out = scratch_;
  out.assign(2, 0);  // number of classes, played class
  uint32_t classes = 0;
  auto same = [&](uint32_t a, uint32_t b) {
    return std::equal(ids.begin() + offsets[a], ids.begin() + offsets[a + 1], ids.begin() + offsets[b],
                      ids.begin() + offsets[b + 1]);
  };
  // Within a run of equal hashes, candidates are grouped by comparing ids (collisions stay apart).
  done_.assign(n, 0);
  for (int i = 0; i < n; ++i) {
    if (done_[i]) continue;
    const uint32_t a = order_[i].second;
    uint32_t count = 0;
    bool has_played = false;
    for (int j = i; j < n && order_[j].first == order_[i].first; ++j) {
      if (done_[j] || !same(a, order_[j].second)) continue;
      done_[j] = 1;
      ++count;
      has_played |= static_cast<int>(order_[j].second) == played;
    }
    if (has_played) out[1] = classes;
    // Sorted ids: the fixed ones (< num_fixed_) first, packed four to a word.
    const auto first = ids.begin() + offsets[a], last = ids.begin() + offsets[a + 1];
    const auto patterns = std::lower_bound(first, last, num_fixed_);
    const uint32_t num_fixed = static_cast<uint32_t>(patterns - first), num_patterns = static_cast<uint32_t>(last - patterns);
    out.push_back(count | (num_fixed << 16) | (num_patterns << 24));
    for (uint32_t k = 0; k < num_fixed; k += 4) {
      uint32_t word = 0;
      for (uint32_t j = k; j < std::min(num_fixed, k + 4); ++j) word |= first[j] << (8 * (j - k));
      out.push_back(word);
    }
    out.insert(out.end(), patterns, last);
    ++classes;
  }
  out[0] = classes;
  // Into the current block, or a new one: blocks are never reallocated, so positions stay put.
  if (blocks_.empty() || block_used_ + out.size() > kBlockWords) {
    blocks_.push_back(std::make_unique<uint32_t[]>(std::max(kBlockWords, out.size())));
    block_used_ = 0;
  }
  uint32_t* dst = blocks_.back().get() + block_used_;
  std::copy(out.begin(), out.end(), dst);
  block_used_ += out.size();
  positions_.push_back(dst);
}

std::vector<PositionCache::Class> PositionCache::classes(size_t i, int* played) const {
  const uint32_t* p = positions_[i];
  if (played) *played = static_cast<int>(p[1]);
  std::vector<Class> out(p[0]);
  p += 2;
  for (Class& c : out) {
    const uint32_t head = *p++;
    c.count = head & 0xFFFF;
    const uint32_t num_fixed = (head >> 16) & 0xFF, num_patterns = head >> 24;
    for (uint32_t j = 0; j < num_fixed; ++j) c.ids.push_back((p[j / 4] >> (8 * (j % 4))) & 0xFF);
    p += (num_fixed + 3) / 4;
    c.ids.insert(c.ids.end(), p, p + num_patterns);
    p += num_patterns;
  }
  return out;
}

namespace {
// Calls fn(id) for each id of the class at `p` (its head word first); returns the next class.
template <class Fn>
inline const uint32_t* for_each_id(const uint32_t* p, Fn&& fn) {
  const uint32_t head = *p++;
  const uint32_t num_fixed = (head >> 16) & 0xFF, num_patterns = head >> 24;
  for (uint32_t k = 0; k < num_fixed; k += 4) {
    uint32_t word = *p++;
    for (uint32_t j = k; j < std::min(num_fixed, k + 4); ++j, word >>= 8) fn(word & 0xFF);
  }
  for (uint32_t j = 0; j < num_patterns; ++j) fn(p[j]);
  return p + num_patterns;
}
}  // namespace

PositionLoss position_loss(const uint32_t* position, const Eigen::VectorXf& weights, SparseGradient* grad, float scale) {
  const int n = static_cast<int>(position[0]);
  const int played = static_cast<int>(position[1]);
  thread_local Eigen::ArrayXf scores, counts, expd;
  thread_local std::vector<const uint32_t*> classes;
  scores.resize(n);
  counts.resize(n);
  classes.resize(n);
  const uint32_t* p = position + 2;
  for (int j = 0; j < n; ++j) {
    classes[j] = p;
    counts[j] = static_cast<float>(*p & 0xFFFF);
    float s = 0;
    p = for_each_id(p, [&](uint32_t id) { s += weights[id]; });
    scores[j] = s;
  }
  const float max = scores.maxCoeff();
  expd = (scores - max).exp() * counts;
  const double z = expd.cast<double>().sum();
  PositionLoss out;
  out.loss = -(static_cast<double>(scores[played]) - max - std::log(z));
  const float s_played = scores[played];
  double greater = 0, equal = 0;
  for (int j = 0; j < n; ++j) {
    greater += scores[j] > s_played ? counts[j] : 0;
    equal += scores[j] == s_played ? counts[j] : 0;
  }
  out.top1 = std::clamp((1 - greater) / equal, 0.0, 1.0);
  if (grad) {
    const float inv_z = static_cast<float>(1.0 / z);
    for (int j = 0; j < n; ++j) {
      const float d = scale * (expd[j] * inv_z - (j == played ? 1.0f : 0.0f));
      for_each_id(classes[j], [&](uint32_t id) { grad->add(id, d); });
    }
  }
  return out;
}

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

// The features of every legal move of a position.
struct PositionFeatures {
  std::vector<Vertex> moves;
  std::vector<CandidateFeatures> features;
  int num_moves = 0;
  int played = -1;
  BoardStates states;
};

// Calls fn(PositionFeatures&) for every sampled non-pass position of `game`.
template <class Fn>
void for_each_position(const CorpusGame& game, FeatureSet set, const Sampler& sampler, PositionFeatures& pf, Fn&& fn) {
  auto keep = [&](const Position& p) { return sampler.keep(game.hash, p.move_number); };
  (void)replay_choices(game.record, [&](const Position& p, Vertex played, std::span<const Vertex> legal) {
    const Board& b = *p.board;
    pf.num_moves = static_cast<int>(legal.size());  // legal lies in pf.moves
    pf.features.resize(pf.num_moves);
    pf.states.fill(b);
    pf.played = -1;
    for (int i = 0; i < pf.num_moves; ++i) {
      const Vertex v = pf.moves[i];
      candidate_features(set, p, v, pf.states.diamond_code(v, b.stride()), &pf.states, &pf.features[i]);
      if (v == played) pf.played = i;
    }
    if (pf.played >= 0) fn(pf);
  }, pf.moves, keep);
}

// Runs fn(thread, game) over `games` on `threads` threads, game i on thread i % threads (so the
// result does not depend on timing), with a progress line.
template <class Fn>
void parallel_games(const std::vector<CorpusGame>& games, int threads, const std::string& what, bool progress, Fn&& fn) {
  std::atomic<int64_t> done{0};
  Progress line(what, "games", static_cast<int64_t>(games.size()));
  run_workers(
      threads,
      [&](int t) {
        for (size_t i = t; i < games.size(); i += threads) {
          fn(t, games[i]);
          ++done;
        }
      },
      progress ? std::function<void()>([&] { line.update(done); }) : nullptr);
  if (progress) line.finish();
}

// Pattern keys -> feature ids. Fixed features are ids 0..num_fixed-1, then each kind's keys
// in increasing key order.
struct Dictionary {
  int num_fixed = 0;
  std::array<absl::flat_hash_map<uint64_t, uint32_t>, kNumPatternKinds> ids;
  std::array<std::vector<uint64_t>, kNumPatternKinds> keys;
  std::array<uint32_t, kNumPatternKinds> first{};
  uint32_t size = 0;

  // Appends the ids of `f` to `out`.
  void ids_of(const CandidateFeatures& f, std::vector<uint32_t>& out) const {
    for (int i = 0; i < f.num_fixed; ++i) out.push_back(f.fixed[i]);
    for (int k = 0; k < kNumPatternKinds; ++k) {
      if (!f.has_key(static_cast<PatternKind>(k))) continue;
      const auto it = ids[k].find(f.keys[k]);
      if (it != ids[k].end()) out.push_back(it->second);
    }
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
    classes.emplace_back(h, 1 + (f.num_fixed + 3) / 4 + std::popcount(f.key_mask));
  }
  std::sort(classes.begin(), classes.end());
  size_t words = 2;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (i == 0 || classes[i].first != classes[i - 1].first) words += classes[i].second;
  }
  return 4 * words + 8;  // data, pointer
}

struct Caches {
  std::vector<PositionCache> parts;        // one per thread
  std::vector<const uint32_t*> positions;  // every position of every part
  size_t bytes = 0;

  void index() {
    positions.clear();
    bytes = 0;
    for (PositionCache& c : parts) {
      for (size_t i = 0; i < c.size(); ++i) positions.push_back(c.position(i));
      bytes += c.bytes();
    }
    bytes += positions.capacity() * sizeof(const uint32_t*);
  }
};

// Extracts the sampled positions of `games` into `caches` with ids from `dict`.
void extract(const std::vector<CorpusGame>& games, FeatureSet set, const Sampler& sampler, const Dictionary& dict,
             int threads, const std::string& what, bool progress, Caches& caches) {
  caches.parts.clear();
  for (int t = 0; t < threads; ++t) caches.parts.emplace_back(static_cast<uint32_t>(dict.num_fixed));
  std::vector<PositionFeatures> pfs(threads);
  std::vector<std::vector<uint32_t>> ids(threads), offsets(threads);
  parallel_games(games, threads, what, progress, [&](int t, const CorpusGame& game) {
    for_each_position(game, set, sampler, pfs[t], [&](PositionFeatures& pf) {
      ids[t].clear();
      offsets[t].assign(1, 0);
      for (int i = 0; i < pf.num_moves; ++i) {
        dict.ids_of(pf.features[i], ids[t]);
        offsets[t].push_back(static_cast<uint32_t>(ids[t].size()));
      }
      caches.parts[t].add(ids[t], offsets[t], pf.played);
    });
  });
  caches.index();
}

struct Validation {
  double top1 = 0;
  double log_likelihood = 0;
};

Validation validate(const Caches& val, const Eigen::VectorXf& w, int threads) {
  std::vector<double> top1(threads, 0), ll(threads, 0);
  {
    std::vector<std::jthread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        for (size_t i = t; i < val.positions.size(); i += threads) {
          const PositionLoss r = position_loss(val.positions[i], w, nullptr, 0);
          top1[t] += r.top1;
          ll[t] -= r.loss;
        }
      });
    }
  }
  Validation v;
  const double n = static_cast<double>(std::max<size_t>(1, val.positions.size()));
  for (int t = 0; t < threads; ++t) {
    v.top1 += top1[t] / n;
    v.log_likelihood += ll[t] / n;
  }
  return v;
}

int64_t count_positions(const std::vector<CorpusGame>& games) {
  int64_t n = 0;
  for (const CorpusGame& g : games) n += g.positions;
  return n;
}

}  // namespace

SoftmaxModel train_softmax(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
                           const SoftmaxTrainOptions& o, const std::function<void(const SoftmaxEpoch&)>& on_epoch) {
  if (o.batch_size < 1 || o.max_epochs < 1 || o.learning_rate <= 0 || o.min_count < 1 || o.epoch_fraction <= 0 ||
      o.epoch_fraction > 1 || (o.select != "top1" && o.select != "loglik")) {
    throw std::invalid_argument("train_softmax: bad options");
  }
  if (train.empty()) throw std::runtime_error("no training games");
  const auto start = Clock::now();
  const int threads = thread_count(o.threads);
  const FeatureSet set = o.feature_set;
  auto note = [&](const char* fmt, auto... args) {
    if (o.progress) {
      std::fprintf(stderr, fmt, args...);
      std::fflush(stderr);
    }
  };

  // 1. How many positions fit: the bytes of a position, bounded on a pilot of a few games. The
  // validation positions take at most a tenth of the budget.
  const int64_t train_positions = std::max<int64_t>(1, count_positions(train));
  int64_t budget_positions = o.max_positions > 0 ? o.max_positions : train_positions;
  int64_t validation_positions = o.validation_positions;
  {
    PositionFeatures pf;
    size_t bytes = 0;
    int64_t n = 0;
    for (size_t i = 0; i < train.size() && n < 20'000; i += std::max<size_t>(1, train.size() / 100)) {
      for_each_position(train[i], set, Sampler{}, pf, [&](PositionFeatures& p) {
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
  }
  const Sampler train_sampler{std::min(1.0, static_cast<double>(budget_positions) / train_positions), o.seed};
  const int64_t validation_total = std::max<int64_t>(1, count_positions(validation));
  const Sampler val_sampler{std::min(1.0, static_cast<double>(validation_positions) / validation_total), o.seed + 1};

  // 2. Count pattern keys over the sampled training positions.
  std::vector<KeyCounts> counts(threads);
  {
    std::vector<PositionFeatures> pfs(threads);
    parallel_games(train, threads, "counting patterns", o.progress, [&](int t, const CorpusGame& game) {
      for_each_position(game, set, train_sampler, pfs[t], [&](PositionFeatures& pf) {
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
  Dictionary dict;
  dict.num_fixed = num_fixed_features(set);
  dict.size = static_cast<uint32_t>(dict.num_fixed);
  nlohmann::json patterns_seen = nlohmann::json::object(), patterns_kept = nlohmann::json::object();
  for (int k = 0; k < kNumPatternKinds; ++k) {
    if (!uses_pattern_kind(set, static_cast<PatternKind>(k))) continue;
    std::vector<uint64_t>& keys = dict.keys[k];
    for (const auto& [key, c] : counts[0][k]) {
      if (c >= o.min_count) keys.push_back(key);
    }
    std::sort(keys.begin(), keys.end());
    dict.first[k] = dict.size;
    dict.ids[k].reserve(keys.size());
    for (size_t j = 0; j < keys.size(); ++j) dict.ids[k].emplace(keys[j], static_cast<uint32_t>(dict.size + j));
    dict.size += static_cast<uint32_t>(keys.size());
    const std::string name(pattern_kind_name(static_cast<PatternKind>(k)));
    patterns_seen[name] = counts[0][k].size();
    patterns_kept[name] = keys.size();
    note("%s patterns: %s seen, %s kept (seen >= %lld times)\n", name.c_str(),
         with_thousands(static_cast<int64_t>(counts[0][k].size())).c_str(),
         with_thousands(static_cast<int64_t>(keys.size())).c_str(), static_cast<long long>(o.min_count));
    counts[0][k] = {};
  }
  counts.clear();

  // 3. Cache the positions.
  Caches train_cache, val_cache;
  extract(train, set, train_sampler, dict, threads, "caching training positions", o.progress, train_cache);
  extract(validation, set, val_sampler, dict, threads, "caching validation positions", o.progress, val_cache);
  note("cached %s training positions (%.2f GB) and %s validation positions (%.2f GB) in %.0f s\n",
       with_thousands(static_cast<int64_t>(train_cache.positions.size())).c_str(), train_cache.bytes / 1e9,
       with_thousands(static_cast<int64_t>(val_cache.positions.size())).c_str(), val_cache.bytes / 1e9,
       seconds_since(start));
  if (train_cache.positions.empty()) throw std::runtime_error("no training positions");

  // 4. Epochs of lazy Adam.
  const int64_t n_weights = dict.size;
  Eigen::VectorXf w = Eigen::VectorXf::Zero(n_weights), m = Eigen::VectorXf::Zero(n_weights),
                  v = Eigen::VectorXf::Zero(n_weights);
  Eigen::VectorXf best_w = w;
  std::vector<SparseGradient> grads;
  for (int t = 0; t < threads; ++t) grads.emplace_back(n_weights);
  std::vector<double> batch_loss(threads, 0);
  std::vector<int> merged;
  std::vector<uint8_t> in_merged(n_weights, 0);
  double lr = o.learning_rate;
  int64_t step = 0;
  Rng rng(o.seed);
  std::vector<uint32_t> order(train_cache.positions.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint32_t>(i);
  const size_t per_epoch = std::max<size_t>(1, static_cast<size_t>(o.epoch_fraction * order.size()));

  nlohmann::json epochs = nlohmann::json::array();
  double best_metric = -1e300;
  int best_epoch = 0, bad_epochs = 0;
  Validation best_val;
  for (int epoch = 1; epoch <= o.max_epochs; ++epoch) {
    const auto epoch_start = Clock::now();
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(static_cast<uint32_t>(i))]);
    const size_t num_batches = (per_epoch + o.batch_size - 1) / o.batch_size;
    double epoch_loss = 0;
    Progress line("epoch " + std::to_string(epoch), "positions", static_cast<int64_t>(per_epoch));
    size_t batch = 0;
    auto update = [&]() noexcept {
      // Sum the threads' gradients over the union of their entries, then one Adam step.
      merged.clear();
      for (const SparseGradient& g : grads) {
        for (int id : g.touched) {
          if (!in_merged[id]) in_merged[id] = 1, merged.push_back(id);
        }
      }
      Eigen::ArrayXf g = grads[0].g(merged).array();
      for (int t = 1; t < threads; ++t) g += grads[t].g(merged).array();
      g += static_cast<float>(o.l2) * w(merged).array();
      ++step;
      const float b1 = static_cast<float>(o.beta1), b2 = static_cast<float>(o.beta2);
      const Eigen::ArrayXf m_new = b1 * m(merged).array() + (1 - b1) * g;
      const Eigen::ArrayXf v_new = b2 * v(merged).array() + (1 - b2) * g.square();
      const double correction = std::sqrt(1 - std::pow(o.beta2, step)) / (1 - std::pow(o.beta1, step));
      const float step_size = static_cast<float>(lr * correction);
      w(merged) = (w(merged).array() - step_size * m_new / (v_new.sqrt() + static_cast<float>(o.epsilon))).matrix();
      m(merged) = m_new.matrix();
      v(merged) = v_new.matrix();
      for (int id : merged) in_merged[id] = 0;
      for (SparseGradient& gr : grads) gr.clear();
      for (double& l : batch_loss) epoch_loss += l, l = 0;
      ++batch;
      if (o.progress) line.update(static_cast<int64_t>(std::min(per_epoch, batch * o.batch_size)));
    };
    std::barrier sync(threads, update);
    auto work = [&](int t) {
      for (size_t b = 0; b < num_batches; ++b) {
        const size_t first = b * o.batch_size, last = std::min(per_epoch, first + o.batch_size);
        const float scale = 1.0f / static_cast<float>(last - first);
        for (size_t i = first + t; i < last; i += threads) {
          batch_loss[t] += position_loss(train_cache.positions[order[i]], w, &grads[t], scale).loss;
        }
        sync.arrive_and_wait();
      }
    };
    {
      std::vector<std::jthread> pool;
      for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
      work(0);
    }
    if (o.progress) line.finish();
    const Validation val = validate(val_cache, w, threads);
    SoftmaxEpoch e;
    e.epoch = epoch;
    e.train_loss = epoch_loss / static_cast<double>(per_epoch);
    e.validation_top1 = val.top1;
    e.validation_log_likelihood = val.log_likelihood;
    e.learning_rate = lr;
    e.seconds = seconds_since(epoch_start);
    note("epoch %d: train loss %.4f, validation top-1 %.2f%%, log-lik %.4f, step size %.2g, %.0f s\n", epoch,
         e.train_loss, 100 * e.validation_top1, e.validation_log_likelihood, lr, e.seconds);
    epochs.push_back({{"epoch", epoch},
                      {"train_loss", e.train_loss},
                      {"validation_top1", e.validation_top1},
                      {"validation_log_likelihood", e.validation_log_likelihood},
                      {"learning_rate", lr},
                      {"seconds", e.seconds}});
    if (on_epoch) on_epoch(e);
    // Without validation positions, the training loss decides.
    const double metric = val_cache.positions.empty() ? -e.train_loss
                          : o.select == "top1"        ? val.top1
                                                      : val.log_likelihood;
    if (metric > best_metric) {
      best_metric = metric;
      best_epoch = epoch;
      best_val = val;
      best_w = w;
      bad_epochs = 0;
    } else {
      lr *= o.lr_decay;
      if (++bad_epochs >= o.patience) break;
    }
    if (interrupted()) break;  // Ctrl-C (util/interrupt.h): keep the best epoch so far
  }

  // 5. The model: the best epoch's weights.
  SoftmaxModel model;
  model.feature_set = set;
  model.fixed.assign(best_w.data(), best_w.data() + dict.num_fixed);
  for (int k = 0; k < kNumPatternKinds; ++k) {
    model.patterns[k].reserve(dict.keys[k].size());
    for (size_t j = 0; j < dict.keys[k].size(); ++j) model.patterns[k].emplace(dict.keys[k][j], best_w[dict.first[k] + j]);
  }
  model.training = {
      {"games", train.size()},
      {"validation_games", validation.size()},
      {"train_positions", train_positions},
      {"positions_cached", train_cache.positions.size()},
      {"validation_positions_cached", val_cache.positions.size()},
      {"cache_gb", (train_cache.bytes + val_cache.bytes) / 1e9},
      {"patterns_seen", patterns_seen},
      {"patterns_kept", patterns_kept},
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
        {"memory_gb", o.memory_gb},
        {"max_positions", o.max_positions},
        {"validation_positions", o.validation_positions},
        {"epoch_fraction", o.epoch_fraction},
        {"select", o.select},
        {"threads", threads},
        {"seed", o.seed}}},
      {"epochs", epochs},
      {"best_epoch", best_epoch},
      {"validation_top1", best_val.top1},
      {"validation_log_likelihood", best_val.log_likelihood},
      {"seconds", seconds_since(start)},
  };
  return model;
}

}  // namespace hane
