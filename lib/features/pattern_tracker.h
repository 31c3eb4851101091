// Pattern codes of every point of a board, kept up to date move by move.
//
// The tracker stores, for every index of the padded board, the point's state nibble and the
// diamond12 code around it for Black to move (the 3x3 code is its low 32 bits, White's codes
// its swap_colors(); see pattern.h). After each Board::play it finds the points whose state
// changed, which are the only ones that can change a pattern:
//   - the played point, and each stone removed by the play (last_removed());
//   - every stone of a chain whose liberty bucket (1 / 2 / 3+) changed. A chain's liberties
//     change only when a point next to it changes emptiness, so only chains adjacent to the
//     played point or to a removed stone are examined; a chain is walked only if the cached
//     state of the adjacent stone no longer matches (so big safe chains cost nothing).
// Each changed point then patches the codes of the 12 points within distance 2 of it: one xor
// of (old ^ new state) into the nibble that sees it. Codes are kept for occupied points too, so
// a point emptied by a capture already has its correct code.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "features/pattern.h"
#include "go/board.h"

namespace hane {

class PatternTracker {
 public:
  PatternTracker() = default;
  /// Starts tracking `board` (same as reset(board)).
  explicit PatternTracker(const Board& board) { reset(board); }

  /// Recomputes every code from scratch (after construction, setup stones, undo, or any
  /// change other than one Board::play). Clears the dirty list.
  void reset(const Board& board);

  /// Brings the codes up to date after `board.play(move, c)` (or play_legal) returned with
  /// `move` played (pass included). `board` must be the tracked board with exactly that one
  /// play since the last reset() or update().
  void update(const Board& board, Vertex move);

  /// The raw code of `shape` around the on-board point `v` for `to_move` to play. Matches
  /// pattern_code(board, v, to_move, shape) for every on-board point, empty or not.
  uint64_t code(Vertex v, PatternShape shape, Color to_move = Color::kBlack) const {
    const uint64_t c = shrink(codes_[v.index()], shape);
    return to_move == Color::kWhite ? swap_colors(c) : c;
  }
  /// The diamond12 code for Black to move, as stored.
  uint64_t black_code(Vertex v) const { return codes_[v.index()]; }

  /// The points of the last update() whose candidacy or pattern changed, each once, in no
  /// particular order: the played point (occupied now, unless the move was a suicide), every
  /// empty point whose diamond12 code changed (hence every one whose 3x3 code changed), and
  /// every point emptied by a capture or suicide (listed even if its code did not change).
  /// Empty after reset() and after a pass. An incremental guesser drops the occupied ones and
  /// rescores the rest.
  std::span<const int16_t> dirty() const { return {dirty_.data(), static_cast<size_t>(num_dirty_)}; }

  /// Whether the 3x3 code of `p`, a point of dirty(), changed in the last update() (else only
  /// the points at distance 2 in a straight line, lane 2 of its diamond, did; or it is the
  /// played or an emptied point that no changed point within distance 1 sees).
  bool changed_3x3(int p) const { return near_[p] == epoch_; }

  /// Number of point states changed by the last update() (for benchmarks and tests).
  int num_changed_points() const { return num_changed_; }

 private:
  // Records a new state for `v` (no-op if unchanged); the codes are patched later.
  void set_state(int v, uint8_t s) {
    const uint8_t old = state_[v];
    if (old == s) return;
    state_[v] = s;
    changed_[num_changed_] = static_cast<int16_t>(v);
    delta_[num_changed_++] = static_cast<uint8_t>(old ^ s);
  }
  // Re-reads the states of the chain of the stone at `v` if its cached state is stale.
  void refresh_chain(const Board& board, int v);

  std::array<int, kMaxPatternPoints> offsets_{};  // index offsets of the pattern points
  std::array<uint8_t, Board::kMaxVertices> state_{};
  std::array<uint64_t, Board::kMaxVertices> codes_{};
  // The points whose state changed in the last update, and old ^ new state of each.
  std::array<int16_t, Board::kMaxVertices> changed_{};
  std::array<uint8_t, Board::kMaxVertices> delta_{};
  int num_changed_ = 0;
  // Points already considered for the dirty list in this update hold the current epoch; those
  // whose 3x3 code changed hold it in near_ too.
  std::array<uint32_t, Board::kMaxVertices> marked_{};
  std::array<uint32_t, Board::kMaxVertices> near_{};
  uint32_t epoch_ = 0;
  std::array<int16_t, Board::kMaxVertices> dirty_{};
  int num_dirty_ = 0;
};

}  // namespace hane
