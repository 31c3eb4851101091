#include "train/position_cache.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hane {

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
  // Blocks double from 256 KB up to 64 MB, so that many small caches (one per shard) stay small.
  if (blocks_.empty() || block_used_ + out.size() > block_words_) {
    block_words_ = std::max(out.size(), blocks_.empty() ? kFirstBlockWords : std::min(kBlockWords, 2 * block_words_));
    blocks_.push_back(std::make_unique_for_overwrite<uint32_t[]>(block_words_));
    allocated_words_ += block_words_;
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

}  // namespace hane
