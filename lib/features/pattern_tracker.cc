#include "features/pattern_tracker.h"

#include <algorithm>

namespace hane {

void PatternTracker::reset(const Board& board) {
  const int stride = board.stride();
  for (int i = 0; i < kMaxPatternPoints; ++i) offsets_[i] = kPatternOffsets[i].dy * stride + kPatternOffsets[i].dx;
  const int n = board.geometry().num_vertices();
  for (int i = 0; i < n; ++i) state_[i] = point_state_for_black(board, Vertex(i));
  std::fill(state_.begin() + n, state_.end(), point_state::kWall);
  std::fill(codes_.begin(), codes_.end(), uint64_t{0});
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const int v = board.at(x, y).index();
      uint64_t code = 0;
      for (int i = 0; i < kMaxPatternPoints; ++i) code |= uint64_t{state_[v + offsets_[i]]} << (4 * i);
      codes_[v] = code;
    }
  }
  std::fill(marked_.begin(), marked_.end(), 0u);
  std::fill(near_.begin(), near_.end(), 0u);
  epoch_ = 0;
  num_changed_ = num_dirty_ = 0;
}

void PatternTracker::refresh_chain(const Board& board, int v) {
  const uint8_t s = point_state_for_black(board, Vertex(v));
  if (s == state_[v]) return;  // every stone of the chain still has this state
  int t = v;
  do {
    set_state(t, s);
    t = board.next_in_chain(Vertex(t)).index();
  } while (t != v);
}

void PatternTracker::update(const Board& board, Vertex move) {
  num_changed_ = num_dirty_ = 0;
  if (!move.is_point()) return;
  const int v = move.index();
  const int s = board.stride();
  const std::span<const int16_t> removed = board.last_removed();

  // 1. The points whose state changed.
  set_state(v, point_state_for_black(board, move));
  for (int r : removed) set_state(r, point_state::kEmpty);
  for (int n : {v - s, v - 1, v + 1, v + s}) {
    if (is_player(board.color(Vertex(n)))) refresh_chain(board, n);
  }
  for (int r : removed) {
    for (int n : {r - s, r - 1, r + 1, r + s}) {
      if (is_player(board.color(Vertex(n)))) refresh_chain(board, n);
    }
  }

  // 2. Patch the codes that see them (point i of the pattern around p - offset[i] is p), and
  // list those of empty points as dirty, each once (marked with the epoch).
  uint32_t epoch = ++epoch_;
  if (epoch == 0) {  // wrapped: forget old marks
    std::fill(marked_.begin(), marked_.end(), 0u);
    std::fill(near_.begin(), near_.end(), 0u);
    epoch = epoch_ = 1;
  }
  int num_dirty = 0;
  for (int k = 0; k < num_changed_; ++k) {
    const int p = changed_[k];
    const uint64_t delta = delta_[k];
    for (int i = 0; i < kMaxPatternPoints; ++i) {
      const int w = p - offsets_[i];
      codes_[w] ^= delta << (4 * i);
      const bool fresh = marked_[w] != epoch;
      marked_[w] = epoch;
      if (i < pattern_points(PatternShape::k3x3)) near_[w] = epoch;
      dirty_[num_dirty] = static_cast<int16_t>(w);
      num_dirty += fresh & (state_[w] == point_state::kEmpty);
    }
  }
  // 3. The played point and the emptied points are dirty too.
  // An empty marked point is listed already; an occupied v never is.
  if (marked_[v] != epoch || state_[v] != point_state::kEmpty) dirty_[num_dirty++] = static_cast<int16_t>(v);
  marked_[v] = epoch;
  for (int r : removed) {
    if (marked_[r] != epoch) dirty_[num_dirty++] = static_cast<int16_t>(r);
    marked_[r] = epoch;
  }
  num_dirty_ = num_dirty;
}

}  // namespace hane
