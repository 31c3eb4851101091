#include "features/pattern_tracker.h"

#include <algorithm>

namespace hane {

void PatternTracker::reset(const Board& board) {
  stride_ = board.stride();
  for (int i = 0; i < kMaxPatternPoints; ++i) offsets_[i] = kPatternOffsets[i].dy * stride_ + kPatternOffsets[i].dx;
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
  epoch_ = 0;
  num_touched_ = num_dirty_ = num_changed_ = 0;
}

inline void PatternTracker::mark(int v) {
  if (marked_[v] == epoch_ || state_[v] == point_state::kWall) return;
  marked_[v] = epoch_;
  touched_[num_touched_++] = static_cast<int16_t>(v);
}

inline void PatternTracker::set_state(int v, uint8_t s) {
  const uint8_t old = state_[v];
  if (old == s) return;
  state_[v] = s;
  ++num_changed_;
  const uint64_t delta = old ^ s;
  // Point i of the pattern around w = v - offset[i] is v.
  for (int i = 0; i < kMaxPatternPoints; ++i) {
    const int w = v - offsets_[i];
    codes_[w] ^= delta << (4 * i);
    mark(w);
  }
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
  num_touched_ = num_dirty_ = num_changed_ = 0;
  if (!move.is_point()) return;
  if (++epoch_ == 0) {  // wrapped: forget old marks
    std::fill(marked_.begin(), marked_.end(), 0u);
    epoch_ = 1;
  }
  const int v = move.index();
  const int s = stride_;
  const std::span<const int16_t> removed = board.last_removed();

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

  // The dirty list: changed codes at empty points, the played point, the emptied points.
  for (int i = 0; i < num_touched_; ++i) {
    if (state_[touched_[i]] == point_state::kEmpty) dirty_[num_dirty_++] = touched_[i];
  }
  if (marked_[v] != epoch_ || state_[v] != point_state::kEmpty) {
    dirty_[num_dirty_++] = static_cast<int16_t>(v);
    marked_[v] = epoch_;
  }
  for (int r : removed) {
    // A marked removed point is empty, so it is already listed (or it is v).
    if (marked_[r] != epoch_) {
      dirty_[num_dirty_++] = static_cast<int16_t>(r);
      marked_[r] = epoch_;
    }
  }
}

}  // namespace hane
