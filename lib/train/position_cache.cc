#include "train/position_cache.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace hane {

struct PositionCache::Spill {
  std::string dir;
  int fd = -1;
  size_t bytes = 0;  // of the file
  ~Spill() {
    if (fd >= 0) ::close(fd);
  }
};

PositionCache::PositionCache(uint32_t num_fixed) : num_fixed_(num_fixed) {
  if (num_fixed > 256) throw std::invalid_argument("PositionCache: at most 256 fixed features");
}

PositionCache::PositionCache(uint32_t num_fixed, const std::string& spill_dir) : PositionCache(num_fixed) {
  auto spill = std::make_unique<Spill>();
  spill->dir = spill_dir;
  std::string path = spill_dir + "/hane-position-cache-XXXXXX";
  spill->fd = ::mkstemp(path.data());
  if (spill->fd < 0) {
    throw std::runtime_error("position cache: cannot make a file in " + spill_dir + ": " + std::strerror(errno));
  }
  ::unlink(path.c_str());  // the file lives as long as the descriptor
  spill_ = std::move(spill);
}

PositionCache::PositionCache(PositionCache&& o) noexcept { *this = std::move(o); }

PositionCache& PositionCache::operator=(PositionCache&& o) noexcept {
  if (this == &o) return *this;
  release();
  num_fixed_ = o.num_fixed_;
  spill_ = std::move(o.spill_);
  blocks_ = std::exchange(o.blocks_, {});
  block_starts_ = std::exchange(o.block_starts_, {});
  block_words_ = std::exchange(o.block_words_, 0);
  block_used_ = std::exchange(o.block_used_, 0);
  allocated_words_ = std::exchange(o.allocated_words_, 0);
  positions_ = std::exchange(o.positions_, {});
  return *this;
}

PositionCache::~PositionCache() { release(); }

void PositionCache::release() {
  for (const Block& b : blocks_) {
    if (spill_) {
      ::munmap(b.data, b.words * 4);
    } else {
      delete[] b.data;
    }
  }
  blocks_.clear();
  spill_.reset();
}

void PositionCache::new_block(size_t words) {
  uint32_t* data = nullptr;
  if (!spill_) {
    data = new uint32_t[words];
  } else {
    // Block sizes are multiples of 256 KB, so every block starts on a page. The disk space is
    // taken now (posix_fallocate), so a full disk is an error here, not a SIGBUS on a write.
    const size_t bytes = words * 4;
    if (int err = ::posix_fallocate(spill_->fd, static_cast<off_t>(spill_->bytes), static_cast<off_t>(bytes)); err != 0) {
      throw std::runtime_error("position cache: cannot grow its file in " + spill_->dir + " to " +
                               std::to_string((spill_->bytes + bytes) >> 20) + " MB: " + std::strerror(err));
    }
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, spill_->fd, static_cast<off_t>(spill_->bytes));
    if (p == MAP_FAILED) {
      throw std::runtime_error("position cache: cannot map its file in " + spill_->dir + ": " + std::strerror(errno));
    }
    spill_->bytes += bytes;
    data = static_cast<uint32_t*>(p);
  }
  blocks_.push_back({data, words});
  block_starts_.push_back(positions_.size());
}

void PositionCache::prefetch(size_t first, size_t last) const {
  last = std::min(last, positions_.size());
  if (!spill_ || first >= last) return;
  // The blocks from the one holding `first` to the one holding `last - 1`.
  size_t b = static_cast<size_t>(std::upper_bound(block_starts_.begin(), block_starts_.end(), first) - block_starts_.begin()) - 1;
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  for (; b < blocks_.size() && block_starts_[b] < last; ++b) {
    const Block& block = blocks_[b];
    const size_t next = b + 1 < blocks_.size() ? block_starts_[b + 1] : positions_.size();
    const uint32_t* from = first > block_starts_[b] ? positions_[first] : block.data;
    const uint32_t* to = last < next ? positions_[last] : block.data + (b + 1 < blocks_.size() ? block.words : block_used_);
    // Whole pages: madvise wants a page-aligned start. The reads are volatile, so they stay.
    const uintptr_t start = reinterpret_cast<uintptr_t>(from) & ~(page - 1);
    ::madvise(reinterpret_cast<void*>(start), reinterpret_cast<uintptr_t>(to) - start, MADV_WILLNEED);
    for (uintptr_t a = start; a < reinterpret_cast<uintptr_t>(to); a += page) (void)*reinterpret_cast<const volatile uint32_t*>(a);
  }
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
    // A multiple of the first block's size (256 KB), so that mapped blocks start on pages.
    const size_t need = (out.size() + kFirstBlockWords - 1) / kFirstBlockWords * kFirstBlockWords;
    block_words_ = std::max(need, blocks_.empty() ? kFirstBlockWords : std::min(kBlockWords, 2 * block_words_));
    new_block(block_words_);
    allocated_words_ += block_words_;
    block_used_ = 0;
  }
  uint32_t* dst = blocks_.back().data + block_used_;
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

PositionLoss position_loss(const uint32_t* position, const Eigen::VectorXf& weights, SparseGradient* grad, float scale,
                           int factor_dim) {
  const int n = static_cast<int>(position[0]);
  const int played = static_cast<int>(position[1]);
  const int d = factor_dim;
  const int64_t n_ids = weights.size() / (1 + d);
  const float* factors = weights.data() + n_ids;  // feature i's latent vector at i * d
  thread_local Eigen::ArrayXf scores, counts, expd;
  thread_local std::vector<const uint32_t*> classes;
  thread_local std::vector<float> sums;  // with factors: each class's sum of latent vectors
  scores.resize(n);
  counts.resize(n);
  classes.resize(n);
  if (d > 0) sums.assign(static_cast<size_t>(n) * d, 0.0f);
  const uint32_t* p = position + 2;
  for (int j = 0; j < n; ++j) {
    classes[j] = p;
    counts[j] = static_cast<float>(*p & 0xFFFF);
    float s = 0;
    if (d == 0) {
      p = for_each_id(p, [&](uint32_t id) { s += weights[id]; });
    } else {
      float* sum = sums.data() + static_cast<size_t>(j) * d;
      float squares = 0;
      p = for_each_id(p, [&](uint32_t id) {
        s += weights[id];
        const float* v = factors + static_cast<size_t>(id) * d;
        for (int c = 0; c < d; ++c) {
          sum[c] += v[c];
          squares += v[c] * v[c];
        }
      });
      float total = 0;
      for (int c = 0; c < d; ++c) total += sum[c] * sum[c];
      s += 0.5f * (total - squares);
    }
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
      const float g = scale * (expd[j] * inv_z - (j == played ? 1.0f : 0.0f));
      if (d == 0) {
        for_each_id(classes[j], [&](uint32_t id) { grad->add(id, g); });
        continue;
      }
      // d score / d v_i = (sum of the class's vectors) - v_i.
      const float* sum = sums.data() + static_cast<size_t>(j) * d;
      for_each_id(classes[j], [&](uint32_t id) {
        grad->add(id, g);
        const float* v = factors + static_cast<size_t>(id) * d;
        const uint32_t row = static_cast<uint32_t>(n_ids + static_cast<int64_t>(id) * d);
        for (int c = 0; c < d; ++c) grad->add(row + c, g * (sum[c] - v[c]));
      });
    }
  }
  return out;
}

}  // namespace hane
