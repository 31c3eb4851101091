#include "train/tree_train.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <queue>
#include <span>

#include "cluster/cluster.h"
#include "util/interrupt.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kValueSlots = 32;
using Hist = std::array<uint64_t, kTreeInputs * kValueSlots>;  // (played << 32) + not played
constexpr uint64_t kPlayedOne = uint64_t{1} << 32;
constexpr int64_t kKeepHistRows = 32768;  // leaves at least this large keep their histogram
constexpr int64_t kParallelRows = 65536;  // leaves at least this large are split by all threads

void add_rows(const TreeRow* rows, int64_t n, Hist& h) {
  for (int64_t r = 0; r < n; ++r) {
    const TreeRow& row = rows[r];
    const uint64_t inc = row.played ? kPlayedOne : 1;
    for (int i = 0; i < kRadius3Points / 2; ++i) {
      h[(2 * i) * kValueSlots + (row.points[i] & 0xF)] += inc;
      h[(2 * i + 1) * kValueSlots + (row.points[i] >> 4)] += inc;
    }
    for (int i = 0; i < TreeRow::kScalars; ++i) h[(kRadius3Points + i) * kValueSlots + row.scalars[i]] += inc;
  }
}

double log_likelihood(double played, double seen, double p) {
  double ll = 0;
  if (played > 0) ll += played * std::log(p);
  if (seen - played > 0) ll += (seen - played) * std::log1p(-p);
  return ll;
}

struct SplitChoice {
  double gain = 0;  // > 0 if a split was found
  TreeQuestion question;
  uint32_t yes_played = 0, yes_other = 0;  // sample rows on the yes side
};

struct Leaf {
  int64_t begin = 0, end = 0;    // training rows
  int64_t vbegin = 0, vend = 0;  // positions in the validation index
  uint32_t played = 0, other = 0;
  double p = 0;
  int32_t node = -1;  // the internal node this leaf hangs from (-1 for the root)
  int side = 0;       // as its child[side]
  SplitChoice best;
  std::unique_ptr<Hist> hist;  // kept for large leaves, to get a child's by subtraction
  // Sample rows in the leaf on every rank (begin..end are this rank's).
  int64_t rows() const { return int64_t{played} + other; }
};

struct GrowNode {
  TreeQuestion question;
  std::array<int32_t, 2> child{};  // internal node index, or ~leaf id
  int32_t leaf = 0;                // the leaf it replaced (its counts and probability)
};

class Grower {
 public:
  Grower(TreeSample& train, const TreeSample& validation, const TreeTrainOptions& options)
      : train_(train), val_(validation), o_(options), pool_(thread_count(options.threads)),
        weight_(train.negative_weight), scratch_(2 * pool_.threads()) {}

  TreeTrainResult run();

 private:
  double seen(uint32_t played, uint32_t other) const { return played + weight_ * other; }
  double seen(const Leaf& l) const { return seen(l.played, l.other); }

  void fill(const Leaf& leaf, Hist& h, bool parallel);
  SplitChoice best_split(const Hist& h, const Leaf& leaf) const;
  // Splits leaves_[id] into the pre-made leaves yes and no under node `node`.
  void split(int32_t id, int32_t node, int32_t yes, int32_t no, int worker, bool parallel);
  void score(Leaf& leaf, const Hist& h);
  TreeCurvePoint measure(int leaves, double gain, double seconds);
  DecisionTree make_tree(int num_nodes) const;

  TreeSample& train_;
  const TreeSample& val_;
  const TreeTrainOptions& o_;
  WorkPool pool_;
  double weight_;
  std::vector<Hist> scratch_;  // two per worker
  std::vector<Leaf> leaves_;
  std::vector<GrowNode> nodes_;
  std::vector<uint32_t> vindex_;  // validation rows, grouped by leaf
  std::vector<int32_t> vleaf_;    // the leaf of each validation row
};

void Grower::fill(const Leaf& leaf, Hist& h, bool parallel) {
  h.fill(0);
  const TreeRow* rows = train_.rows.data() + leaf.begin;
  const int64_t n = leaf.end - leaf.begin;
  // With several ranks, each counts its rows and the counts are summed (an allreduce of the
  // histogram, as in the data-parallel growth of LightGBM and XGBoost).
  auto reduce = [&] {
    if (cluster::size() > 1) cluster::allreduce_sum(std::span(reinterpret_cast<int64_t*>(h.data()), h.size()));
  };
  if (!parallel || pool_.threads() == 1) {
    add_rows(rows, n, h);
    reduce();
    return;
  }
  const int chunks = 4 * pool_.threads();
  std::vector<Hist> part(pool_.threads());
  for (Hist& p : part) p.fill(0);
  pool_.run(chunks, [&](int c, int w) {
    const int64_t a = n * c / chunks, b = n * (c + 1) / chunks;
    add_rows(rows + a, b - a, part[w]);
  });
  for (const Hist& p : part) {
    for (size_t i = 0; i < h.size(); ++i) h[i] += p[i];
  }
  reduce();
}

SplitChoice Grower::best_split(const Hist& h, const Leaf& leaf) const {
  SplitChoice best;
  if (leaf.played == 0 || leaf.rows() < 2 * o_.min_leaf) return best;
  const double k = o_.prior_strength, p = leaf.p;
  const double total_seen = seen(leaf);
  const double parent = log_likelihood(leaf.played, total_seen, p);
  uint32_t best_seen_values = 0;
  struct Value {
    double ratio;
    uint32_t played, other;
    int value;
  };
  std::array<Value, kValueSlots> values;
  for (int f = 0; f < kTreeInputs; ++f) {
    int m = 0;
    uint32_t seen_values = 0;
    const int num = tree_input_values(f);
    for (int v = 0; v < num; ++v) {
      const uint64_t e = h[f * kValueSlots + v];
      if (e == 0) continue;
      const uint32_t pl = static_cast<uint32_t>(e >> 32), ot = static_cast<uint32_t>(e);
      values[m++] = {(pl + k * p) / (seen(pl, ot) + k), pl, ot, v};
      seen_values |= uint32_t{1} << v;
    }
    if (m < 2) continue;
    // Categories: every prefix of the values ordered by ratio. Ordered values: every "<= t".
    const bool ordinal = tree_input_ordinal(f);
    if (!ordinal) {
      std::sort(values.begin(), values.begin() + m, [](const Value& a, const Value& b) {
        return a.ratio < b.ratio || (a.ratio == b.ratio && a.value < b.value);
      });
    }
    uint32_t yp = 0, yo = 0, set = 0;
    for (int j = 0; j + 1 < m; ++j) {
      yp += values[j].played;
      yo += values[j].other;
      set = ordinal ? (uint32_t{2} << values[j].value) - 1 : set | uint32_t{1} << values[j].value;
      const int64_t yes_rows = int64_t{yp} + yo;
      if (yes_rows < o_.min_leaf) continue;
      if (leaf.rows() - yes_rows < o_.min_leaf) break;
      const double ys = seen(yp, yo), ns = total_seen - ys;
      const uint32_t np = leaf.played - yp;
      const double py = (yp + k * p) / (ys + k), pn = (np + k * p) / (ns + k);
      const double gain = log_likelihood(yp, ys, py) + log_likelihood(np, ns, pn) - parent;
      if (gain > best.gain) {
        best.gain = gain;
        best.question = {static_cast<uint8_t>(f), set};
        best.yes_played = yp;
        best.yes_other = yo;
        best_seen_values = ordinal ? tree_input_mask(f) : seen_values;
      }
    }
  }
  // Ask for the smaller side, so that values never seen here go with the larger one.
  if (best.gain > 0 && 2 * seen(best.yes_played, best.yes_other) > total_seen) {
    best.question.values = best_seen_values & ~best.question.values;
    best.yes_played = leaf.played - best.yes_played;
    best.yes_other = leaf.other - best.yes_other;
  }
  return best;
}

void Grower::score(Leaf& leaf, const Hist& h) {
  leaf.best = best_split(h, leaf);
  if (leaf.best.gain > 0 && leaf.rows() >= kKeepHistRows) leaf.hist = std::make_unique<Hist>(h);
}

void Grower::split(int32_t id, int32_t node, int32_t yes, int32_t no, int worker, bool parallel) {
  Leaf& parent = leaves_[id];
  const TreeQuestion q = parent.best.question;
  TreeRow* rows = train_.rows.data();
  TreeRow* mid = std::partition(rows + parent.begin, rows + parent.end,
                                [q](const TreeRow& r) { return r.answer(q); });
  const TreeRow* vrows = val_.rows.data();
  uint32_t* vmid = std::partition(vindex_.data() + parent.vbegin, vindex_.data() + parent.vend,
                                  [&](uint32_t r) { return vrows[r].answer(q); });
  const int64_t mid_row = mid - rows, vmid_index = vmid - vindex_.data();
  for (int64_t i = parent.vbegin; i < parent.vend; ++i) vleaf_[vindex_[i]] = i < vmid_index ? yes : no;

  Leaf& y = leaves_[yes];
  Leaf& n = leaves_[no];
  const double k = o_.prior_strength;
  y.begin = parent.begin;
  y.end = n.begin = mid_row;
  n.end = parent.end;
  y.vbegin = parent.vbegin;
  y.vend = n.vbegin = vmid_index;
  n.vend = parent.vend;
  y.played = parent.best.yes_played;
  y.other = parent.best.yes_other;
  n.played = parent.played - y.played;
  n.other = parent.other - y.other;
  y.p = (y.played + k * parent.p) / (seen(y) + k);
  n.p = (n.played + k * parent.p) / (seen(n) + k);
  y.node = n.node = node;
  y.side = 1;
  n.side = 0;

  Leaf& small = y.rows() <= n.rows() ? y : n;
  Leaf& large = y.rows() <= n.rows() ? n : y;
  Hist& hs = scratch_[2 * worker];
  Hist& hl = scratch_[2 * worker + 1];
  fill(small, hs, parallel && small.rows() >= kParallelRows);
  score(small, hs);
  if (parent.hist) {
    Hist& h = *parent.hist;
    for (size_t i = 0; i < h.size(); ++i) h[i] -= hs[i];
    large.best = best_split(h, large);
    if (large.best.gain > 0 && large.rows() >= kKeepHistRows) large.hist = std::move(parent.hist);
  } else {
    fill(large, hl, parallel && large.rows() >= kParallelRows);
    score(large, hl);
  }
  parent.hist.reset();
}

TreeCurvePoint Grower::measure(int leaves, double gain, double seconds) {
  TreeCurvePoint c;
  c.leaves = leaves;
  c.train_gain = gain;
  c.seconds = seconds;
  const int64_t positions = static_cast<int64_t>(val_.position_start.size()) - 1;
  if (positions <= 0) return c;
  std::vector<float> p(leaves_.size());
  for (size_t i = 0; i < leaves_.size(); ++i) p[i] = static_cast<float>(leaves_[i].p);
  // A fixed number of chunks, summed in order: the same bits for any --threads, so early
  // stopping and the best size do not depend on it (and every rank agrees on them).
  const int chunks = static_cast<int>(std::min<int64_t>(64, positions));
  std::vector<double> top1(chunks, 0), ll(chunks, 0);
  pool_.run(chunks, [&](int chunk, int) {
    for (int64_t i = positions * chunk / chunks; i < positions * (chunk + 1) / chunks; ++i) {
      const int64_t a = val_.position_start[i], b = val_.position_start[i + 1];
      float sum = 0, pp = 0;
      for (int64_t r = a; r < b; ++r) {
        const float s = p[vleaf_[r]];
        sum += s;
        if (val_.rows[r].played) pp = s;
      }
      int greater = 0, equal = 0;
      for (int64_t r = a; r < b; ++r) {
        const float s = p[vleaf_[r]];
        greater += s > pp;
        equal += s == pp;
      }
      if (equal > 0) top1[chunk] += std::clamp((1.0 - greater) / equal, 0.0, 1.0);
      ll[chunk] += std::log(std::max(pp / sum, 1e-30f));
    }
  });
  for (int i = 0; i < chunks; ++i) {
    c.top1 += top1[i];
    c.log_likelihood += ll[i];
  }
  c.top1 /= static_cast<double>(positions);
  c.log_likelihood /= static_cast<double>(positions);
  return c;
}

// The tree of the first `num_nodes` splits, its questions numbered in pre-order (yes before
// no: a question and its yes-side follower share cache lines) and its leaves left to right.
DecisionTree Grower::make_tree(int num_nodes) const {
  DecisionTree t;
  t.features = o_.features;
  t.prior_strength = o_.prior_strength;
  auto leaf_of = [&](int32_t leaf_id) {
    const Leaf& l = leaves_[leaf_id];
    return TreeLeaf{static_cast<float>(l.p), static_cast<float>(l.played), static_cast<float>(seen(l))};
  };
  if (num_nodes == 0) {
    t.leaves.push_back(leaf_of(0));
    return t;
  }
  t.nodes.reserve(num_nodes);
  struct Item {
    int32_t parent, side, ref;
  };
  std::vector<Item> stack = {{-1, 0, 0}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    if (it.ref >= 0 && it.ref < num_nodes) {
      const GrowNode& g = nodes_[it.ref];
      const int32_t at = static_cast<int32_t>(t.nodes.size());
      t.nodes.push_back({g.question, {}});
      if (it.parent >= 0) t.nodes[it.parent].child[it.side] = at;
      stack.push_back({at, 0, g.child[0]});
      stack.push_back({at, 1, g.child[1]});
    } else {
      const int32_t leaf_id = it.ref >= 0 ? nodes_[it.ref].leaf : ~it.ref;
      t.nodes[it.parent].child[it.side] = ~static_cast<int32_t>(t.leaves.size());
      t.leaves.push_back(leaf_of(leaf_id));
    }
  }
  return t;
}

TreeTrainResult Grower::run() {
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  TreeTrainResult result;

  // The root.
  Leaf root;
  root.end = static_cast<int64_t>(train_.rows.size());
  for (const TreeRow& r : train_.rows) (r.played ? root.played : root.other) += 1;
  if (cluster::size() > 1) {
    std::array<int64_t, 2> counts = {root.played, root.other};
    cluster::allreduce_sum(counts);
    root.played = static_cast<uint32_t>(counts[0]);
    root.other = static_cast<uint32_t>(counts[1]);
  }
  root.p = root.played > 0 ? root.played / seen(root) : 0.5;
  root.p = std::clamp(root.p, 1e-9, 1 - 1e-9);
  vindex_.resize(val_.rows.size());
  for (size_t i = 0; i < vindex_.size(); ++i) vindex_[i] = static_cast<uint32_t>(i);
  vleaf_.assign(val_.rows.size(), 0);
  root.vend = static_cast<int64_t>(vindex_.size());
  leaves_.reserve(2 * static_cast<size_t>(std::max(1, o_.max_leaves)));
  leaves_.push_back(std::move(root));
  fill(leaves_[0], scratch_[0], true);
  score(leaves_[0], scratch_[0]);

  using Entry = std::pair<double, int32_t>;  // gain, leaf
  std::priority_queue<Entry> queue;
  if (leaves_[0].best.gain > o_.min_gain) queue.push({leaves_[0].best.gain, 0});

  const bool validate = val_.position_start.size() > 1;
  int num_leaves = 1;
  double gain = 0;
  int next_check = 1;
  double best_ll = -INFINITY;
  int best_leaves = 1;
  std::vector<int> snapshots = o_.snapshots;
  std::sort(snapshots.begin(), snapshots.end());
  Progress progress("growing the tree", "leaves", o_.max_leaves);
  int last_reported = 0;
  auto report = [&](const TreeCurvePoint& c) {
    last_reported = c.leaves;
    if (!o_.progress || !validate) return;
    std::fprintf(stderr, "leaves %9s: validation top-1 %.2f%%, log-lik %.4f (training gain %.0f nats, %.1f s)\n",
                 with_thousands(c.leaves).c_str(), 100 * c.top1, c.log_likelihood, c.train_gain, c.seconds);
  };
  int next_report = 1;

  for (;;) {
    if (num_leaves >= next_check) {
      const TreeCurvePoint c = validate ? measure(num_leaves, gain, elapsed()) : TreeCurvePoint{num_leaves, 0, 0, gain, elapsed()};
      result.curve.push_back(c);
      if (num_leaves >= next_report) {
        report(c);
        while (next_report <= num_leaves) {
          const int d = next_report / static_cast<int>(std::pow(10, std::floor(std::log10(next_report))));
          next_report = d == 1 ? next_report * 2 : d == 2 ? next_report / 2 * 5 : next_report * 2;
        }
      }
      if (validate && c.log_likelihood > best_ll) {
        best_ll = c.log_likelihood;
        best_leaves = num_leaves;
      }
      if (o_.progress) {
        char note[96];
        std::snprintf(note, sizeof note, "validation top-1 %.2f%%, log-lik %.4f", 100 * c.top1, c.log_likelihood);
        progress.update(num_leaves, validate ? note : "");
      }
      // Early stop, or Ctrl-C (util/interrupt.h): agreed by every rank (one collective), so
      // all leave here; an interrupt keeps the tree grown so far.
      std::array<int64_t, 2> stop = {
          validate && o_.early_stop && num_leaves >= best_leaves * o_.patience && num_leaves >= best_leaves + 64,
          interrupted()};
      cluster::allreduce_max(stop);
      if (stop[0]) {
        result.stopped_early = true;
        break;
      }
      if (stop[1]) break;
      next_check = std::max(num_leaves + 1, static_cast<int>(std::ceil(num_leaves * 1.05)));
      next_check = std::min(next_check, (num_leaves / 1000 + 1) * 1000);  // and every 1,000 leaves
      for (int s : snapshots) {
        if (s > num_leaves) {
          next_check = std::min(next_check, s);
          break;
        }
      }
      next_check = std::min(next_check, std::max(o_.max_leaves, 1));
    }
    if (num_leaves >= o_.max_leaves || queue.empty()) break;

    // Take the best leaf; if it is small, also the next best small ones (one per thread):
    // splitting a leaf never changes another's best split.
    const int room = std::min(next_check, o_.max_leaves) - num_leaves;
    std::vector<int32_t> batch;
    // (With several ranks one leaf at a time: its histograms are reduced by this thread.)
    const int at_once = cluster::size() > 1 ? 1 : pool_.threads();
    while (!queue.empty() && static_cast<int>(batch.size()) < std::min(room, at_once)) {
      const int32_t id = queue.top().second;
      const bool large = leaves_[id].rows() >= kParallelRows;
      if (large && !batch.empty()) break;
      queue.pop();
      batch.push_back(id);
      if (large) break;
    }
    struct Job {
      int32_t leaf, node, yes, no;
    };
    std::vector<Job> jobs;
    for (int32_t id : batch) {
      const int32_t node = static_cast<int32_t>(nodes_.size());
      const int32_t yes = static_cast<int32_t>(leaves_.size()), no = yes + 1;
      leaves_.emplace_back();
      leaves_.emplace_back();
      Leaf& l = leaves_[id];
      nodes_.push_back({l.best.question, {~no, ~yes}, id});
      if (l.node >= 0) nodes_[l.node].child[l.side] = node;
      gain += l.best.gain;
      jobs.push_back({id, node, yes, no});
    }
    if (jobs.size() == 1) {
      split(jobs[0].leaf, jobs[0].node, jobs[0].yes, jobs[0].no, 0, true);
    } else {
      pool_.run(static_cast<int>(jobs.size()), [&](int j, int w) {
        split(jobs[j].leaf, jobs[j].node, jobs[j].yes, jobs[j].no, w, false);
      });
    }
    for (const Job& j : jobs) {
      for (int32_t child : {j.yes, j.no}) {
        if (leaves_[child].best.gain > o_.min_gain) queue.push({leaves_[child].best.gain, child});
      }
    }
    num_leaves += static_cast<int>(jobs.size());
  }
  if (o_.progress) progress.finish();
  if (result.curve.empty() || result.curve.back().leaves != num_leaves) {
    result.curve.push_back(validate ? measure(num_leaves, gain, elapsed()) : TreeCurvePoint{num_leaves, 0, 0, gain, elapsed()});
    if (validate && result.curve.back().log_likelihood > best_ll) best_leaves = num_leaves;
  }
  if (last_reported != num_leaves) report(result.curve.back());

  const int final_leaves = validate && o_.early_stop ? best_leaves : num_leaves;
  result.tree = make_tree(final_leaves - 1);
  for (int s : o_.snapshots) {
    if (s >= 1 && s <= num_leaves) {
      result.snapshots.push_back(make_tree(s - 1));
      result.snapshot_leaves.push_back(s);
    }
  }
  result.seconds = elapsed();
  const nlohmann::json growth = {
      {"max_leaves", o_.max_leaves},
      {"grown_leaves", num_leaves},
      {"min_leaf", o_.min_leaf},
      {"prior_strength", o_.prior_strength},
      {"early_stop", o_.early_stop},
      {"patience", o_.patience},
      {"stopped_early", result.stopped_early},
      {"best_validation_leaves", validate ? best_leaves : 0},
      {"training_gain_nats", gain},
      {"seconds", result.seconds},
  };
  const nlohmann::json curve = curve_json(result.curve);
  for (DecisionTree* t : {&result.tree}) {
    t->training["growth"] = growth;
    t->validation_curve = curve;
  }
  for (DecisionTree& t : result.snapshots) {
    t.training["growth"] = growth;
    t.validation_curve = curve;
  }
  return result;
}

}  // namespace

TreeTrainResult grow_tree(TreeSample& train, const TreeSample& validation, const TreeTrainOptions& options) {
  Grower g(train, validation, options);
  return g.run();
}

nlohmann::json curve_json(const std::vector<TreeCurvePoint>& curve) {
  nlohmann::json out = nlohmann::json::array();
  for (const TreeCurvePoint& c : curve) {
    out.push_back({{"leaves", c.leaves},
                   {"top1", c.top1},
                   {"log_likelihood", c.log_likelihood},
                   {"train_gain", c.train_gain},
                   {"seconds", c.seconds}});
  }
  return out;
}

}  // namespace hane