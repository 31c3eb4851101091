// Internal to lib/features: the chains around a candidate point and the pieces that the move
// facts (tactics.cc), the ladder reads (ladder.cc) and nakade (nakade.cc) share. Not a public
// interface: the headers tactics.h, ladder.h and nakade.h are.
#pragma once

#include <algorithm>
#include <array>

#include "features/tactics.h"
#include "go/board.h"

namespace hane::tactics_internal {

inline constexpr int kWords = (Board::kMaxVertices + 63) / 64;

// The chains around a candidate point, deduplicated by head.
struct Neighbourhood {
  std::array<int, 4> own{};  // heads of `c` chains next to v
  std::array<int, 4> opp{};  // heads of opponent chains next to v
  int num_own = 0;
  int num_opp = 0;
  int empties = 0;

  Neighbourhood(const Board& b, Vertex v, Color c) {
    const Color o = opponent(c);
    for (Vertex n : b.neighbours(v)) {
      const Color nc = b.color(n);
      if (nc == Color::kEmpty) {
        ++empties;
      } else if (nc == c) {
        add(own, num_own, b.chain_head(n).index());
      } else if (nc == o) {
        add(opp, num_opp, b.chain_head(n).index());
      }
    }
  }
  bool is_own(int head) const {
    for (int i = 0; i < num_own; ++i) {
      if (own[i] == head) return true;
    }
    return false;
  }

 private:
  static void add(std::array<int, 4>& heads, int& n, int head) {
    for (int i = 0; i < n; ++i) {
      if (heads[i] == head) return;
    }
    heads[n++] = head;
  }
};

// A set of vertex indices that counts its distinct members.
class PointSet {
 public:
  explicit PointSet(const Board& b) : words_((b.geometry().num_vertices() + 63) / 64) {
    std::fill_n(bits_.begin(), words_, uint64_t{0});
  }
  // Adds p; true if it was new.
  bool add(int p) {
    uint64_t& w = bits_[p >> 6];
    const uint64_t m = uint64_t{1} << (p & 63);
    if (w & m) return false;
    w |= m;
    ++count_;
    return true;
  }
  int count() const { return count_; }

 private:
  std::array<uint64_t, kWords> bits_;
  int words_;
  int count_ = 0;
};

// Distinct points, at most kMax: for counts capped low, a short list beats a board-wide bitset.
template <int kMax>
class SmallPointSet {
 public:
  explicit SmallPointSet(const Board&) {}
  // Adds p; true if it was new. Precondition: fewer than kMax points held, or p held.
  bool add(int p) {
    for (int i = 0; i < count_; ++i) {
      if (points_[i] == p) return false;
    }
    points_[count_++] = static_cast<int16_t>(p);
    return true;
  }
  int count() const { return count_; }

 private:
  std::array<int16_t, kMax> points_;
  int count_ = 0;
};

/// Liberties of the chain `c` forms by playing v (neighbourhood `nb`), capped at `cap`.
int merged_liberties(const Board& b, Vertex v, Color c, const Neighbourhood& nb, int cap);

/// Up to 16 own chains in atari saved by the move: their heads (on `board`); sets
/// `*saved_stones` (if not null) to their stones.
int saved_chains(const Board& board, Color c, const Neighbourhood& nb, int libs_after, std::array<Vertex, 16>& out,
                 int* saved_stones);

struct LadderAnswers {
  bool capture = false;
  bool escape = false;
};

// Ladder capture and escape (as declared in ladder.h) of `c` playing v: `libs` is the
// merged chain's liberties after the move (capped, >= 3 meaning 3+), `captures` whether the
// move captures, `saved` the chains it saves. Each answer is decided without a board when it
// can be; otherwise the move is played on `*in_place` (which must be `board` itself) or, when
// null, on a per-thread copy of `board`, and the reads play on that board and take their moves
// back (Board::undo); `board` is unchanged on return.
LadderAnswers move_ladders(const Board& board, Vertex v, Color c, const Neighbourhood& nb, int libs, bool captures,
                           const std::array<Vertex, 16>& saved, int num_saved, bool want_capture, bool want_escape,
                           const LadderLimits& limits, Board* in_place = nullptr);

}  // namespace hane::tactics_internal
