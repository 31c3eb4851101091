// The search tree: compact nodes whose children lie contiguously in a node pool with a memory
// cap. Internal to lib/search (search.h is the public interface).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "go/vertex.h"

namespace hane::search_internal {

/// One move of the tree (36 bytes). Statistics are from the point of view of the player who
/// played `move`. Wins are counted in half-points (win 2, jigo 1, loss 0) so they stay integral.
struct Node {
  std::atomic<int32_t> visits{0};       // simulations through the node, in flight included
  std::atomic<int32_t> half_wins{0};
  std::atomic<int32_t> amaf_visits{0};
  std::atomic<int32_t> amaf_half_wins{0};
  // Virtual visits, set before the node is published; atomic because a tree line found to
  // break superko is marked by raising them (search.h).
  std::atomic<float> prior_visits{0};
  float prior_wins = 0;                 // virtual wins among them
  int32_t first_child = -1;             // pool index, valid once state == kExpanded
  int16_t move = 1;                     // Vertex index
  uint16_t num_children = 0;
  std::atomic<uint8_t> state{0};        // kLeaf, kExpanding, kExpanded
  // The corners (bit k: corner k, features/corner.h) whose local position was in the joseki
  // dictionary at the parent, with either side to move: the only ones looked up when this node
  // is expanded (all four at a fresh root). Set before the node is published.
  uint8_t joseki_corners = 0x0F;

  static constexpr uint8_t kLeaf = 0, kExpanding = 1, kExpanded = 2;

  Vertex vertex() const { return Vertex(move); }
  bool expanded() const { return state.load(std::memory_order_acquire) == kExpanded; }
  int32_t n() const { return visits.load(std::memory_order_relaxed); }
};
static_assert(sizeof(Node) == 36, "the node's size is in search.h's comments and the memory cap");

/// Nodes in chunks of kChunk, allocated lazily up to a cap; a block of children never spans two
/// chunks. Allocation is thread-safe; reading a node by index needs no lock.
class NodePool {
 public:
  static constexpr int kChunkBits = 14;
  static constexpr int32_t kChunk = int32_t{1} << kChunkBits;

  /// A pool of at most `max_bytes` of nodes (at least one chunk of kChunk nodes, 576 KB).
  explicit NodePool(size_t max_bytes);

  Node& operator[](int32_t i) { return chunks_[i >> kChunkBits][i & (kChunk - 1)]; }
  const Node& operator[](int32_t i) const { return chunks_[i >> kChunkBits][i & (kChunk - 1)]; }

  /// Index of `count` contiguous fresh nodes (1 <= count <= kChunk), or -1 when the cap is
  /// reached.
  int32_t allocate(int count);
  /// Forgets every node (chunks stay allocated for reuse).
  void reset();

  size_t used() const { return used_nodes_.load(std::memory_order_relaxed); }
  size_t capacity() const { return max_chunks_ * static_cast<size_t>(kChunk); }
  bool full() const { return full_.load(std::memory_order_relaxed); }

 private:
  size_t max_chunks_;
  std::vector<std::unique_ptr<Node[]>> chunks_;  // sized max_chunks_, filled lazily
  std::mutex mutex_;
  int32_t next_ = 0;                               // under mutex_
  size_t allocated_chunks_ = 0;                    // under mutex_
  std::atomic<size_t> used_nodes_{0};
  std::atomic<bool> full_{false};
};

/// Makes `new_root` (an index in `pool`) the root of a rebuilt pool: its subtree is copied,
/// statistics and all, breadth first, the rest forgotten. Returns the new root's index. When
/// the copy does not fit (children blocks never span chunks, so the new packing can waste
/// more), nodes whose children find no room stay leaves and their descendants are dropped.
int32_t reroot(NodePool& pool, int32_t new_root);

}  // namespace hane::search_internal
