#include "train/boost_train.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <queue>
#include <span>
#include <stdexcept>

#include "cluster/cluster.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kValueSlots = 32;
struct Bin {
  double g = 0, h = 0, n = 0;  // weighted gradient and hessian sums, rows
};
using Hist = std::array<Bin, kTreeInputs * kValueSlots>;
constexpr int kChunks = 64;              // per-row work: fixed chunks, added in order
constexpr int64_t kParallelRows = 32768; // histograms of leaves this large are filled in chunks

template <class Row>
int walk(const RegressionTree& t, const Row& row) {
  int32_t n = t.nodes.empty() ? ~0 : 0;
  while (n >= 0) {
    const TreeNode& node = t.nodes[n];
    n = node.child[row.answer(node.question)];
  }
  return ~n;
}

void add_rows(const TreeRow* rows, const uint32_t* index, int64_t n, const float* g, const float* h, Hist& hist) {
  for (int64_t k = 0; k < n; ++k) {
    const uint32_t r = index[k];
    const TreeRow& row = rows[r];
    const double gr = g[r], hr = h[r];
    auto add = [&](int slot) {
      Bin& b = hist[slot];
      b.g += gr;
      b.h += hr;
      b.n += 1;
    };
    for (int i = 0; i < kRadius3Points / 2; ++i) {
      add((2 * i) * kValueSlots + (row.points[i] & 0xF));
      add((2 * i + 1) * kValueSlots + (row.points[i] >> 4));
    }
    for (int i = 0; i < TreeRow::kScalars; ++i) add((kRadius3Points + i) * kValueSlots + row.scalars[i]);
  }
}

struct SplitChoice {
  double gain = 0;  // > 0 if a split was found
  TreeQuestion question;
  Bin yes;  // sums on the yes side
};

struct Leaf {
  int64_t begin = 0, end = 0;  // in the index of the tree's rows
  Bin sum;                     // over every rank
  int32_t node = -1;           // the internal node it hangs from (-1: the root)
  int side = 0;
  SplitChoice best;
  std::unique_ptr<Hist> hist;
};

// Softmax of margins m[a..b) into p; returns ln p of the played row (or 0 if none).
template <class F>
double softmax(const float* m, int64_t a, int64_t b, F&& on_row) {
  float top = -INFINITY;
  for (int64_t r = a; r < b; ++r) top = std::max(top, m[r]);
  double sum = 0;
  for (int64_t r = a; r < b; ++r) sum += std::exp(static_cast<double>(m[r] - top));
  const double log_sum = std::log(sum);
  double ll = 0;
  for (int64_t r = a; r < b; ++r) {
    const double lp = m[r] - top - log_sum;
    if (on_row(r, std::exp(lp))) ll = lp;
  }
  return ll;
}

class Booster {
 public:
  Booster(const TreeSample& train, const TreeSample& val, const BoostTrainOptions& o)
      : train_(train), val_(val), o_(o), pool_(thread_count(o.threads)) {}

  BoostTrainResult run(const RegressionTree* base);

 private:
  // Gradients of every row and the rows of this round's tree (index_); the training sum of ln p.
  double gradients(int round);
  RegressionTree grow();
  void fill(const Leaf& leaf, Hist& h);
  SplitChoice best_split(const Hist& h, const Leaf& leaf) const;
  double value(const Bin& b) const { return -o_.learning_rate * b.g / (b.h + o_.l2); }
  double score(const Bin& b) const { return b.g * b.g / (b.h + o_.l2); }
  void add_tree(const RegressionTree& t, const TreeSample& s, std::vector<float>& margin);
  BoostCurvePoint measure();

  const TreeSample& train_;
  const TreeSample& val_;
  const BoostTrainOptions& o_;
  WorkPool pool_;
  std::vector<float> margin_, vmargin_, grad_, hess_;
  std::vector<uint32_t> index_, scratch_;
  std::vector<Leaf> leaves_;
};

double Booster::gradients(int round) {
  const int64_t positions = static_cast<int64_t>(train_.position_start.size()) - 1;
  const TreeRow* rows = train_.rows.data();
  const uint64_t salt = splitmix64(o_.seed * kGoldenGamma + static_cast<uint64_t>(round));
  const double weight = 1 / o_.sample_rate;
  std::vector<std::vector<uint32_t>> picked(kChunks);
  std::vector<double> ll(kChunks, 0);
  auto row_hash = [&](uint64_t h, int64_t r) {
    uint64_t words[4];
    std::memcpy(words, &rows[r], sizeof words);
    return splitmix64(splitmix64(splitmix64(splitmix64(h ^ words[0]) ^ words[1]) ^ words[2]) ^ words[3]);
  };
  pool_.run(kChunks, [&](int c, int) {
    std::vector<uint32_t>& mine = picked[c];
    for (int64_t i = positions * c / kChunks; i < positions * (c + 1) / kChunks; ++i) {
      const int64_t a = train_.position_start[i], b = train_.position_start[i + 1];
      // The draw of a row depends on the row and on its position (through the played move's
      // row and the number of candidates): equal rows of different positions, common in
      // quiet parts of the board, are drawn independently, not all in or all out together.
      uint64_t position_salt = salt + static_cast<uint64_t>(b - a);
      for (int64_t r = a; r < b; ++r) {
        if (rows[r].played) position_salt = row_hash(position_salt, r);
      }
      ll[c] += softmax(margin_.data(), a, b, [&](int64_t r, double p) {
        const bool played = rows[r].played;
        double w = 1;
        if (!played && p < o_.sample_below) {
          const uint64_t hsh = row_hash(position_salt, r);
          if (static_cast<double>(hsh >> 11) * 0x1.0p-53 >= o_.sample_rate) {
            grad_[r] = hess_[r] = 0;
            return false;
          }
          w = weight;
        }
        grad_[r] = static_cast<float>(w * (p - (played ? 1 : 0)));
        hess_[r] = static_cast<float>(w * std::max(p * (1 - p), 1e-12));
        mine.push_back(static_cast<uint32_t>(r));
        return played;
      });
    }
  });
  index_.clear();
  for (const auto& p : picked) index_.insert(index_.end(), p.begin(), p.end());
  double total = 0;
  for (double x : ll) total += x;
  return total;
}

void Booster::fill(const Leaf& leaf, Hist& h) {
  for (Bin& b : h) b = {};
  const int64_t n = leaf.end - leaf.begin;
  const uint32_t* index = index_.data() + leaf.begin;
  if (n < kParallelRows || pool_.threads() == 1) {
    add_rows(train_.rows.data(), index, n, grad_.data(), hess_.data(), h);
  } else {
    constexpr int kParts = 16;  // fixed: the sums do not depend on the threads
    std::vector<Hist> part(kParts);
    pool_.run(kParts, [&](int c, int) {
      for (Bin& b : part[c]) b = {};
      const int64_t a = n * c / kParts, e = n * (c + 1) / kParts;
      add_rows(train_.rows.data(), index + a, e - a, grad_.data(), hess_.data(), part[c]);
    });
    for (const Hist& p : part) {
      for (size_t i = 0; i < h.size(); ++i) {
        h[i].g += p[i].g;
        h[i].h += p[i].h;
        h[i].n += p[i].n;
      }
    }
  }
  if (cluster::size() > 1) cluster::allreduce_sum(std::span(reinterpret_cast<double*>(h.data()), 3 * h.size()));
}

SplitChoice Booster::best_split(const Hist& h, const Leaf& leaf) const {
  SplitChoice best;
  if (leaf.sum.n < 2 * static_cast<double>(o_.min_leaf)) return best;
  const double parent = score(leaf.sum);
  uint32_t best_seen_values = 0;
  struct Value {
    double order;
    Bin bin;
    int value;
  };
  std::array<Value, kValueSlots> values;
  for (int f = 0; f < kTreeInputs; ++f) {
    int m = 0;
    uint32_t seen_values = 0;
    const int num = tree_input_values(f);
    for (int v = 0; v < num; ++v) {
      const Bin& b = h[f * kValueSlots + v];
      if (b.n == 0) continue;
      values[m++] = {b.g / (b.h + o_.l2), b, v};
      seen_values |= uint32_t{1} << v;
    }
    if (m < 2) continue;
    const bool ordinal = tree_input_ordinal(f);
    if (!ordinal) {
      std::sort(values.begin(), values.begin() + m, [](const Value& a, const Value& b) {
        return a.order < b.order || (a.order == b.order && a.value < b.value);
      });
    }
    Bin yes;
    uint32_t set = 0;
    for (int j = 0; j + 1 < m; ++j) {
      yes.g += values[j].bin.g;
      yes.h += values[j].bin.h;
      yes.n += values[j].bin.n;
      set = ordinal ? (uint32_t{2} << values[j].value) - 1 : set | uint32_t{1} << values[j].value;
      if (yes.n < o_.min_leaf || yes.h < o_.min_hessian) continue;
      const Bin no = {leaf.sum.g - yes.g, leaf.sum.h - yes.h, leaf.sum.n - yes.n};
      if (no.n < o_.min_leaf) break;
      if (no.h < o_.min_hessian) continue;
      const double gain = score(yes) + score(no) - parent;
      if (gain > best.gain) {
        best.gain = gain;
        best.question = {static_cast<uint8_t>(f), set};
        best.yes = yes;
        best_seen_values = ordinal ? tree_input_mask(f) : seen_values;
      }
    }
  }
  // Ask for the smaller side, so that values never seen here go with the larger one.
  if (best.gain > 0 && 2 * best.yes.n > leaf.sum.n) {
    best.question.values = best_seen_values & ~best.question.values;
    best.yes = {leaf.sum.g - best.yes.g, leaf.sum.h - best.yes.h, leaf.sum.n - best.yes.n};
  }
  return best;
}

RegressionTree Booster::grow() {
  leaves_.clear();
  leaves_.reserve(2 * static_cast<size_t>(o_.leaves));
  scratch_.resize(index_.size());
  Leaf root;
  root.end = static_cast<int64_t>(index_.size());
  root.hist = std::make_unique<Hist>();
  fill(root, *root.hist);
  for (int v = 0; v < tree_input_values(0); ++v) {
    const Bin& b = (*root.hist)[v];  // input 0's bins cover every row once
    root.sum.g += b.g;
    root.sum.h += b.h;
    root.sum.n += b.n;
  }
  root.best = best_split(*root.hist, root);
  leaves_.push_back(std::move(root));
  struct GrowNode {
    TreeQuestion question;
    std::array<int32_t, 2> child;
  };
  std::vector<GrowNode> nodes;
  using Entry = std::pair<double, int32_t>;
  std::priority_queue<Entry> queue;
  if (leaves_[0].best.gain > 0) queue.push({leaves_[0].best.gain, 0});
  int num_leaves = 1;
  while (num_leaves < o_.leaves && !queue.empty()) {
    const int32_t id = queue.top().second;
    queue.pop();
    const int32_t node = static_cast<int32_t>(nodes.size());
    const int32_t yes = static_cast<int32_t>(leaves_.size()), no = yes + 1;
    leaves_.emplace_back();
    leaves_.emplace_back();
    Leaf& parent = leaves_[id];
    const TreeQuestion q = parent.best.question;
    nodes.push_back({q, {~no, ~yes}});
    if (parent.node >= 0) nodes[parent.node].child[parent.side] = node;
    // Stable partition: the rows of each leaf stay in increasing order (memory order).
    const TreeRow* rows = train_.rows.data();
    int64_t y = parent.begin, k = 0;
    for (int64_t i = parent.begin; i < parent.end; ++i) {
      const uint32_t r = index_[i];
      if (rows[r].answer(q)) {
        index_[y++] = r;
      } else {
        scratch_[k++] = r;
      }
    }
    std::copy(scratch_.begin(), scratch_.begin() + k, index_.begin() + y);
    Leaf& ly = leaves_[yes];
    Leaf& ln = leaves_[no];
    ly.begin = parent.begin;
    ly.end = ln.begin = y;
    ln.end = parent.end;
    ly.sum = parent.best.yes;
    ln.sum = {parent.sum.g - ly.sum.g, parent.sum.h - ly.sum.h, parent.sum.n - ly.sum.n};
    ly.node = ln.node = node;
    ly.side = 1;
    ln.side = 0;
    // The smaller side (by rows over every rank) is counted, the other is the difference.
    Leaf& small = ly.sum.n <= ln.sum.n ? ly : ln;
    Leaf& large = ly.sum.n <= ln.sum.n ? ln : ly;
    small.hist = std::make_unique<Hist>();
    fill(small, *small.hist);
    large.hist = std::move(parent.hist);
    for (size_t i = 0; i < large.hist->size(); ++i) {
      Bin& b = (*large.hist)[i];
      const Bin& s = (*small.hist)[i];
      b.g -= s.g;
      b.h -= s.h;
      b.n -= s.n;
    }
    for (int32_t child : {yes, no}) {
      Leaf& c = leaves_[child];
      c.best = best_split(*c.hist, c);
      if (c.best.gain > 0) {
        queue.push({c.best.gain, child});
      } else {
        c.hist.reset();
      }
    }
    ++num_leaves;
  }
  // Number the leaves in the order they were made (the nodes already are: children after parents).
  RegressionTree t;
  std::vector<int32_t> leaf_number(leaves_.size(), -1);
  for (const GrowNode& g : nodes) {
    t.nodes.push_back({g.question, g.child});
  }
  auto number = [&](int32_t leaf_id) {
    if (leaf_number[leaf_id] < 0) {
      leaf_number[leaf_id] = static_cast<int32_t>(t.values.size());
      t.values.push_back(static_cast<float>(value(leaves_[leaf_id].sum)));
    }
    return leaf_number[leaf_id];
  };
  if (t.nodes.empty()) {
    number(0);
    return t;
  }
  for (TreeNode& n : t.nodes) {
    for (int32_t& c : n.child) {
      if (c < 0) c = ~number(~c);
    }
  }
  return t;
}

void Booster::add_tree(const RegressionTree& t, const TreeSample& s, std::vector<float>& margin) {
  const int64_t n = static_cast<int64_t>(s.rows.size());
  pool_.run(kChunks, [&](int c, int) {
    for (int64_t r = n * c / kChunks; r < n * (c + 1) / kChunks; ++r) margin[r] += t.values[walk(t, s.rows[r])];
  });
}

BoostCurvePoint Booster::measure() {
  BoostCurvePoint c;
  const int64_t positions = static_cast<int64_t>(val_.position_start.size()) - 1;
  if (positions <= 0) return c;
  std::vector<double> top1(kChunks, 0), ll(kChunks, 0);
  pool_.run(kChunks, [&](int chunk, int) {
    for (int64_t i = positions * chunk / kChunks; i < positions * (chunk + 1) / kChunks; ++i) {
      const int64_t a = val_.position_start[i], b = val_.position_start[i + 1];
      float played = -INFINITY;
      for (int64_t r = a; r < b; ++r) {
        if (val_.rows[r].played) played = vmargin_[r];
      }
      int greater = 0, equal = 0;
      for (int64_t r = a; r < b; ++r) {
        greater += vmargin_[r] > played;
        equal += vmargin_[r] == played;
      }
      if (equal > 0) top1[chunk] += std::clamp((1.0 - greater) / equal, 0.0, 1.0);
      ll[chunk] += softmax(vmargin_.data(), a, b, [&](int64_t r, double) { return val_.rows[r].played != 0; });
    }
  });
  for (int i = 0; i < kChunks; ++i) {
    c.top1 += top1[i];
    c.log_likelihood += ll[i];
  }
  c.top1 /= static_cast<double>(positions);
  c.log_likelihood /= static_cast<double>(positions);
  return c;
}

BoostTrainResult Booster::run(const RegressionTree* base) {
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  if (train_.position_start.empty() && !train_.rows.empty()) {
    throw std::invalid_argument("train_boost: the training sample must hold whole positions");
  }
  if (train_.rows.size() >= (size_t{1} << 32)) throw std::invalid_argument("train_boost: more than 2^32 rows on a rank");
  BoostTrainResult result;
  result.model.features = o_.features;
  margin_.assign(train_.rows.size(), 0);
  vmargin_.assign(val_.rows.size(), 0);
  grad_.assign(train_.rows.size(), 0);
  hess_.assign(train_.rows.size(), 0);
  if (base) {
    add_tree(*base, train_, margin_);
    add_tree(*base, val_, vmargin_);
    result.model.trees.push_back(*base);
    result.model.has_base = true;
    result.model.base = nlohmann::json::object();
  }
  const bool validate = val_.position_start.size() > 1;
  std::array<double, 1> positions = {static_cast<double>(train_.position_start.empty() ? 0 : train_.position_start.size() - 1)};
  std::array<double, 1> rows_total = {static_cast<double>(train_.rows.size())};
  if (cluster::size() > 1) {
    cluster::allreduce_sum(positions);
    cluster::allreduce_sum(rows_total);
  }

  Progress progress("boosting", "rounds", o_.rounds);
  double best_ll = -INFINITY;
  std::vector<RegressionTree> grown;
  for (int round = 0;; ++round) {
    // Gradients at the current margins (the training loss before this round's tree).
    std::array<double, 2> sums = {gradients(round), static_cast<double>(index_.size())};
    if (cluster::size() > 1) cluster::allreduce_sum(sums);
    BoostCurvePoint c = validate ? measure() : BoostCurvePoint{};
    c.rounds = round;
    c.train_log_likelihood = positions[0] > 0 ? sums[0] / positions[0] : 0;
    c.rows_used = rows_total[0] > 0 ? sums[1] / rows_total[0] : 0;
    c.seconds = elapsed();
    result.curve.push_back(c);
    if (validate && c.log_likelihood > best_ll) {
      best_ll = c.log_likelihood;
      result.best_rounds = round;
    }
    if (o_.progress) {
      std::fprintf(stderr,
                   "round %3d: validation top-1 %.2f%%, log-lik %.4f; training log-lik %.4f; next tree on %.1f%% of "
                   "the rows (%.1f s)\n",
                   round, 100 * c.top1, c.log_likelihood, c.train_log_likelihood, 100 * c.rows_used, c.seconds);
      progress.update(round);
    }
    std::array<int64_t, 2> stop = {validate && o_.early_stop && round - result.best_rounds >= o_.patience,
                                   interrupted()};
    cluster::allreduce_max(stop);
    if (stop[0]) {
      result.stopped_early = true;
      break;
    }
    if (stop[1] || round >= o_.rounds) break;
    grown.push_back(grow());
    add_tree(grown.back(), train_, margin_);
    add_tree(grown.back(), val_, vmargin_);
  }
  if (o_.progress) progress.finish();
  const int keep = validate && o_.early_stop ? result.best_rounds : static_cast<int>(grown.size());
  if (!validate || !o_.early_stop) result.best_rounds = keep;
  for (RegressionTree& t : grown) result.model.trees.push_back(std::move(t));
  if (result.model.trees.empty()) {  // no base and no round: the uniform guess
    RegressionTree zero;
    zero.values = {0.0f};
    result.model.trees.push_back(zero);
  }
  result.seconds = elapsed();
  result.model.training["boosting"] = {
      {"rounds", o_.rounds},
      {"leaves", o_.leaves},
      {"learning_rate", o_.learning_rate},
      {"l2", o_.l2},
      {"min_leaf", o_.min_leaf},
      {"min_hessian", o_.min_hessian},
      {"sample_below", o_.sample_below},
      {"sample_rate", o_.sample_rate},
      {"early_stop", o_.early_stop},
      {"patience", o_.patience},
      {"grown_rounds", grown.size()},
      {"best_validation_rounds", result.best_rounds},
      {"stopped_early", result.stopped_early},
      {"seconds", result.seconds},
  };
  result.model.validation_curve = boost_curve_json(result.curve);
  result.grown = result.model;
  result.model = result.grown.first(keep);
  return result;
}

}  // namespace

BoostTrainResult train_boost(const TreeSample& train, const TreeSample& validation, const RegressionTree* base,
                             const BoostTrainOptions& options) {
  Booster b(train, validation, options);
  return b.run(base);
}

nlohmann::json boost_curve_json(const std::vector<BoostCurvePoint>& curve) {
  nlohmann::json out = nlohmann::json::array();
  for (const BoostCurvePoint& c : curve) {
    out.push_back({{"rounds", c.rounds},
                   {"top1", c.top1},
                   {"log_likelihood", c.log_likelihood},
                   {"train_log_likelihood", c.train_log_likelihood},
                   {"rows_used", c.rows_used},
                   {"seconds", c.seconds}});
  }
  return out;
}

}  // namespace hane
