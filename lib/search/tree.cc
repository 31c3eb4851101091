#include "search/tree.h"

#include <algorithm>

namespace hane::search_internal {

NodePool::NodePool(size_t max_bytes)
    : max_chunks_(std::max<size_t>(1, max_bytes / (sizeof(Node) * kChunk))), chunks_(max_chunks_) {}

int32_t NodePool::allocate(int count) {
  std::lock_guard<std::mutex> lock(mutex_);
  int32_t start = next_;
  size_t chunk = static_cast<size_t>(start >> kChunkBits);
  if ((start & (kChunk - 1)) + count > kChunk) {
    ++chunk;  // the rest of this chunk stays unused
    start = static_cast<int32_t>(chunk << kChunkBits);
  }
  if (chunk >= max_chunks_) {
    full_.store(true, std::memory_order_relaxed);
    return -1;
  }
  if (chunk >= allocated_chunks_) {
    chunks_[chunk] = std::make_unique<Node[]>(kChunk);
    allocated_chunks_ = chunk + 1;
  }
  next_ = start + count;
  for (int32_t i = start; i < next_; ++i) {
    Node& n = (*this)[i];
    n.visits.store(0, std::memory_order_relaxed);
    n.half_wins.store(0, std::memory_order_relaxed);
    n.amaf_visits.store(0, std::memory_order_relaxed);
    n.amaf_half_wins.store(0, std::memory_order_relaxed);
    n.prior_visits = n.prior_wins = 0;
    n.first_child = -1;
    n.move = 1;
    n.num_children = 0;
    n.state.store(Node::kLeaf, std::memory_order_relaxed);
  }
  used_nodes_.fetch_add(count, std::memory_order_relaxed);
  return start;
}

void NodePool::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  next_ = 0;
  used_nodes_.store(0, std::memory_order_relaxed);
  full_.store(false, std::memory_order_relaxed);
}

}  // namespace hane::search_internal
