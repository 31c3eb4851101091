// Ladder reads (ladder.h).
#include "features/ladder.h"

#include <cassert>
#include <array>
#include <memory>

#include "features/tactics_internal.h"

namespace hane {

using tactics_internal::LadderAnswers;
using tactics_internal::merged_liberties;
using tactics_internal::move_ladders;
using tactics_internal::Neighbourhood;
using tactics_internal::SmallPointSet;
using tactics_internal::saved_chains;

namespace {

// Per thread, allocated on first use: the board a read on a const board copies it to (reads
// play their moves on it and take them back), and the log of the moves being read.
Board& scratch() {
  thread_local std::unique_ptr<Board> board = std::make_unique<Board>(Geometry::kMinSize);
  return *board;
}
Board::UndoLog& undo_log() {
  thread_local Board::UndoLog log;
  return log;
}

class LadderReader {
 public:
  LadderReader(Vertex target, Color attacker, const LadderLimits& limits)
      : target_(target), attacker_(attacker), defender_(opponent(attacker)), limits_(limits), log_(undo_log()) {}

  // `b` holds the target with 1 or 2 liberties. The read plays its moves on `b` and takes each
  // back (Board::undo): `b` is unchanged on return.
  bool captured(Board& b) {
    const int libs = b.liberties(target_);
    if (libs == 1) return !defender_escapes(b, 0);
    if (libs == 2) return attacker_captures(b, 0);
    return false;
  }

 private:
  bool out_of_budget(int ply) { return ++nodes_ > limits_.max_nodes || ply > limits_.max_plies; }

  // True if a chain of `victim` next to the empty point m is in atari (m captures it).
  static bool captures_next_to(const Board& b, Vertex m, Color victim) {
    for (Vertex n : b.neighbours(m)) {
      if (b.color(n) == victim && b.liberties(n) == 1) return true;
    }
    return false;
  }

  // Liberties of the target after the defender plays the legal move m (at most 3).
  int target_liberties_after(const Board& b, Vertex m) const {
    if (b.has_liberty(target_, m)) return liberties_after(b, m, defender_, 3);
    // m captures next to the target: each captured stone touching the target is a new liberty.
    // (The count stops at 3: a list of 4 holds it.)
    SmallPointSet<4> libs(b);
    libs.add(b.first_liberty(target_).index());
    const Vertex target_head = b.chain_head(target_);
    for (Vertex n : b.neighbours(m)) {
      if (b.color(n) != attacker_ || b.liberties(n) != 1) continue;
      const Vertex head = b.chain_head(n);
      Vertex s = head;
      do {
        for (Vertex u : b.neighbours(s)) {
          if (b.color(u) == defender_ && b.chain_head(u) == target_head) {
            if (libs.add(s.index()) && libs.count() >= 3) return 3;
            break;
          }
        }
        s = b.next_in_chain(s);
      } while (s != head);
    }
    return libs.count();
  }

  // The target has one liberty and the defender is to move. True if some defender move gets
  // the target out (3+ liberties, or 2 and no atari then works).
  bool defender_escapes(Board& b, int ply) {
    if (out_of_budget(ply)) return true;
    std::array<Vertex, 32> moves;
    int num_moves = 0;
    auto push = [&](Vertex m) {
      for (int i = 0; i < num_moves; ++i) {
        if (moves[i] == m) return;
      }
      if (num_moves < static_cast<int>(moves.size())) moves[num_moves++] = m;
    };
    // Counter-captures: attacking chains in atari that touch the target.
    const Vertex head = b.chain_head(target_);
    Vertex s = head;
    do {
      for (Vertex u : b.neighbours(s)) {
        if (b.color(u) == attacker_ && b.liberties(u) == 1) push(b.first_liberty(u));
      }
      s = b.next_in_chain(s);
    } while (s != head);
    push(b.first_liberty(target_));  // running
    // Moves that leave the target 2 liberties need reading; 3+ is an escape; 1 fails.
    std::array<Vertex, 32> reads;
    int num_reads = 0;
    for (int i = 0; i < num_moves; ++i) {
      const Vertex m = moves[i];
      if (b.legal(m, defender_) != Legality::kLegal) continue;
      const int libs = target_liberties_after(b, m);
      if (libs >= 3) return true;
      if (libs == 2) reads[num_reads++] = m;
    }
    for (int i = 0; i < num_reads; ++i) {
      b.play_legal(reads[i], defender_, log_);
      // A suicide (where allowed) fails; 3+ liberties escape; 2 escape if no atari works.
      const bool escapes = b.color(target_) == defender_ &&
                           (b.liberties(target_) >= 3 || (b.liberties(target_) == 2 && !attacker_captures(b, ply + 1)));
      b.undo(log_);
      if (escapes) return true;
    }
    return false;
  }

  // The target has two liberties and the attacker is to move. True if an atari on one of them
  // leads to a capture.
  bool attacker_captures(Board& b, int ply) {
    if (out_of_budget(ply)) return false;
    std::array<Vertex, 2> libs;
    b.liberties_of(target_, libs);
    std::array<Vertex, 2> reads;
    int num_reads = 0;
    for (int i = 0; i < 2; ++i) {
      const Vertex m = libs[i], other = libs[1 - i];
      if (b.legal(m, attacker_) != Legality::kLegal) continue;
      // After the atari at m the defender runs at `other`. Its liberties there, counted before
      // m is played, include m. If m captures nothing, the atari cannot lower the rest: the
      // chains the run captures have `other` as their only liberty, so they do not touch m.
      // (A capture at m could give them liberties.) So 4+ now means the run escapes with 3+
      // after the atari: this atari fails without reading.
      if (!captures_next_to(b, m, defender_) && b.legal(other, defender_) == Legality::kLegal &&
          liberties_after(b, other, defender_, 4) >= 4) {
        continue;
      }
      reads[num_reads++] = m;
    }
    for (int i = 0; i < num_reads; ++i) {
      b.play_legal(reads[i], attacker_, log_);
      // Not an atari after all (a suicide where allowed) fails.
      const bool captures = b.liberties(target_) == 1 && !defender_escapes(b, ply + 1);
      b.undo(log_);
      if (captures) return true;
    }
    return false;
  }

  Vertex target_;
  Color attacker_;
  Color defender_;
  LadderLimits limits_;
  Board::UndoLog& log_;
  int nodes_ = 0;
};


}  // namespace

namespace tactics_internal {

int saved_chains(const Board& board, Color c, const Neighbourhood& nb, int libs_after, std::array<Vertex, 16>& out,
                 int* saved_stones) {
  int n = 0;
  int stones = 0;
  auto add = [&](Vertex head) {
    for (int i = 0; i < n; ++i) {
      if (out[i] == head) return;
    }
    if (n < static_cast<int>(out.size())) out[n++] = head;
    stones += board.chain_size(head);
  };
  if (libs_after >= 2) {
    for (int i = 0; i < nb.num_own; ++i) {
      if (board.liberties(Vertex(nb.own[i])) == 1) add(Vertex(nb.own[i]));
    }
  }
  // Atari chains elsewhere that touch a captured chain gain its stones as liberties.
  for (int i = 0; i < nb.num_opp; ++i) {
    const Vertex head(nb.opp[i]);
    if (board.liberties(head) != 1) continue;
    Vertex s = head;
    do {
      for (Vertex u : board.neighbours(s)) {
        if (board.color(u) == c && board.liberties(u) == 1 && !nb.is_own(board.chain_head(u).index())) {
          add(board.chain_head(u));
        }
      }
      s = board.next_in_chain(s);
    } while (s != head);
  }
  if (saved_stones) *saved_stones = stones;
  return n;
}


LadderAnswers move_ladders(const Board& board, Vertex v, Color c, const Neighbourhood& nb, int libs, bool captures,
                           const std::array<Vertex, 16>& saved, int num_saved, bool want_capture, bool want_escape,
                           const LadderLimits& limits, Board* in_place) {
  const Color opp = opponent(c);
  LadderAnswers out;
  struct Read {
    Vertex chain;
    bool escape;  // a saved chain (attacker: opp) or an atari target (attacker: c)
  };
  std::array<Read, 20> reads;
  int num_reads = 0;
  if (want_escape) {
    for (int i = 0; i < num_saved && !out.escape; ++i) {
      if (nb.is_own(saved[i].index())) {
        if (libs >= 3) out.escape = true;  // joined at v: its liberties are the move's
        else reads[num_reads++] = {saved[i], true};
      } else {
        reads[num_reads++] = {saved[i], true};  // freed by a capture: look on the board after
      }
    }
    if (out.escape) num_reads = 0;
  }
  if (want_capture) {
    for (int i = 0; i < nb.num_opp; ++i) {
      const Vertex target(nb.opp[i]);
      if (board.liberties(target) != 2) continue;
      // The target runs at its other liberty. As in LadderReader::attacker_captures: if the
      // atari captures nothing and the run has 4+ liberties before it, it has 3+ after it.
      std::array<Vertex, 2> two;
      board.liberties_of(target, two);
      const Vertex other = two[0] == v ? two[1] : two[0];
      if (!captures && board.legal(other, opp) == Legality::kLegal && liberties_after(board, other, opp, 4) >= 4) {
        continue;
      }
      reads[num_reads++] = {target, false};
    }
  }
  if (num_reads == 0) return out;
  assert(!in_place || in_place == &board);  // in place means on `board` itself
  Board* work = in_place;
  if (!work) {
    work = &scratch();
    *work = board;
  }
  Board& after = *work;
  Board::UndoLog& log = undo_log();
  after.play_legal(v, c, log);
  for (int i = 0; i < num_reads; ++i) {
    const Read& r = reads[i];
    if (r.escape ? out.escape : out.capture) continue;
    const int chain_libs = after.liberties(r.chain);
    bool captured;
    if (r.escape && chain_libs >= 3) {
      captured = false;
    } else if (chain_libs < 1 || chain_libs > 2) {
      captured = false;
    } else {
      captured = LadderReader(r.chain, r.escape ? opp : c, limits).captured(after);
    }
    if (r.escape && !captured) out.escape = true;
    if (!r.escape && captured) out.capture = true;
  }
  after.undo(log);
  return out;
}

}  // namespace tactics_internal

namespace {

bool captured_on(const Board& board, Board* in_place, Vertex chain, Color attacker, const LadderLimits& limits) {
  if (board.color(chain) != opponent(attacker)) return false;
  const int libs = board.liberties(chain);
  if (libs < 1 || libs > 2) return false;
  assert(!in_place || in_place == &board);
  Board* work = in_place;
  if (!work) {
    work = &scratch();
    *work = board;
  }
  // The read plays on *work and leaves it unchanged.
  return LadderReader(chain, attacker, limits).captured(*work);
}

bool capture_on(const Board& board, Board* in_place, Vertex v, Color c, const LadderLimits& limits) {
  const Neighbourhood nb(board, v, c);
  bool captures = false;
  for (int i = 0; i < nb.num_opp; ++i) captures |= board.liberties(Vertex(nb.opp[i])) == 1;
  const std::array<Vertex, 16> none{};
  return move_ladders(board, v, c, nb, 0, captures, none, 0, true, false, limits, in_place).capture;
}

bool escape_on(const Board& board, Board* in_place, Vertex v, Color c, const LadderLimits& limits) {
  const Neighbourhood nb(board, v, c);
  const int libs = merged_liberties(board, v, c, nb, 3);
  std::array<Vertex, 16> saved;
  const int num_saved = saved_chains(board, c, nb, libs, saved, nullptr);
  return move_ladders(board, v, c, nb, libs, false, saved, num_saved, false, true, limits, in_place).escape;
}

}  // namespace

bool ladder_captured(const Board& board, Vertex chain, Color attacker, const LadderLimits& limits) {
  return captured_on(board, nullptr, chain, attacker, limits);
}

bool ladder_capture(const Board& board, Vertex v, Color c, const LadderLimits& limits) {
  return capture_on(board, nullptr, v, c, limits);
}

bool ladder_escape(const Board& board, Vertex v, Color c, const LadderLimits& limits) {
  return escape_on(board, nullptr, v, c, limits);
}

bool ladder_captured_in_place(Board& board, Vertex chain, Color attacker, const LadderLimits& limits) {
  return captured_on(board, &board, chain, attacker, limits);
}

bool ladder_capture_in_place(Board& board, Vertex v, Color c, const LadderLimits& limits) {
  return capture_on(board, &board, v, c, limits);
}

bool ladder_escape_in_place(Board& board, Vertex v, Color c, const LadderLimits& limits) {
  return escape_on(board, &board, v, c, limits);
}

}  // namespace hane
