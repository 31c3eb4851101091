// Move facts without playing (tactics.h): captures, liberties after the move, self-atari, save
// atari, distances, and move_facts(), which also asks ladder.h and nakade.h.
#include "features/tactics.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdlib>
#include <span>
#include <vector>

#include "features/tactics_internal.h"

namespace hane {

static_assert(sizeof(MoveFacts) <= 16, "MoveFacts is documented as at most 16 bytes");

namespace tactics_internal {

namespace {

// True if a neighbour of `p` is `v` or a stone of one of the chains merged at `v`.
bool touches_merged(const Board& b, Vertex p, Vertex v, Color c, const Neighbourhood& nb) {
  for (Vertex u : b.neighbours(p)) {
    if (u == v) return true;
    if (b.color(u) == c && nb.is_own(b.chain_head(u).index())) return true;
  }
  return false;
}

}  // namespace

namespace {

// merged_liberties() past its fast paths, counting in a Set that holds at least `cap` points.
template <class Set>
int merged_liberties_counted(const Board& b, Vertex v, Color c, const Neighbourhood& nb, int cap, bool captures) {
  Set libs(b);
  for (Vertex n : b.neighbours(v)) {
    if (b.is_empty(n)) libs.add(n.index());
  }
  if (libs.count() >= cap) return cap;
  // Each own chain has at most cap liberties here (more returned cap already).
  std::array<Vertex, 16> small;
  std::vector<Vertex> large;
  for (int i = 0; i < nb.num_own; ++i) {
    const Vertex head(nb.own[i]);
    const int n = b.liberties(head);
    std::span<Vertex> out(small.data(), std::min<size_t>(n, small.size()));
    if (n > static_cast<int>(small.size())) {
      large.resize(n);
      out = std::span<Vertex>(large);
    }
    const int got = b.liberties_of(head, out);
    for (int j = 0; j < got; ++j) {
      if (out[j] != v && libs.add(out[j].index()) && libs.count() >= cap) return cap;
    }
  }
  if (captures) {
    for (int i = 0; i < nb.num_opp; ++i) {
      const Vertex head(nb.opp[i]);
      if (b.liberties(head) != 1) continue;
      Vertex s = head;
      do {
        if (touches_merged(b, s, v, c, nb) && libs.add(s.index()) && libs.count() >= cap) return cap;
        s = b.next_in_chain(s);
      } while (s != head);
    }
  }
  return libs.count();
}

}  // namespace

int merged_liberties(const Board& b, Vertex v, Color c, const Neighbourhood& nb, int cap) {
  // A joined chain keeps all its liberties but v; captures only add liberties.
  for (int i = 0; i < nb.num_own; ++i) {
    if (b.liberties(Vertex(nb.own[i])) - 1 >= cap) return cap;
  }
  bool captures = false;
  for (int i = 0; i < nb.num_opp; ++i) {
    if (b.liberties(Vertex(nb.opp[i])) == 1) captures = true;
  }
  // Fast path: a lone stone that captures nothing has its empty neighbours.
  if (nb.num_own == 0 && !captures) return std::min(nb.empties, cap);
  // The count stops at cap, so a set of cap points is enough.
  if (cap <= 8) return merged_liberties_counted<SmallPointSet<8>>(b, v, c, nb, cap, captures);
  return merged_liberties_counted<PointSet>(b, v, c, nb, cap, captures);
}

}  // namespace tactics_internal

using tactics_internal::LadderAnswers;
using tactics_internal::merged_liberties;
using tactics_internal::move_ladders;
using tactics_internal::Neighbourhood;
using tactics_internal::saved_chains;

int capture_size(const Board& board, Vertex v, Color c) {
  const Neighbourhood nb(board, v, c);
  int stones = 0;
  for (int i = 0; i < nb.num_opp; ++i) {
    if (board.liberties(Vertex(nb.opp[i])) == 1) stones += board.chain_size(Vertex(nb.opp[i]));
  }
  return stones;
}

bool is_self_atari(const Board& board, Vertex v, Color c, int min_stones) {
  if (board.empty_neighbours(v) >= 2) return false;
  const Neighbourhood nb(board, v, c);
  for (int i = 0; i < nb.num_opp; ++i) {
    if (board.liberties(Vertex(nb.opp[i])) == 1) return false;  // a capture
  }
  int stones = 1;
  for (int i = 0; i < nb.num_own; ++i) stones += board.chain_size(Vertex(nb.own[i]));
  return stones >= min_stones && merged_liberties(board, v, c, nb, 2) == 1;
}

int liberties_after(const Board& board, Vertex v, Color c, int cap) {
  assert(cap >= 1);
  return merged_liberties(board, v, c, Neighbourhood(board, v, c), cap);
}

// ---------------------------------------------------------------------------------------------
// Distances.

int manhattan_distance(const Geometry& g, Vertex a, Vertex b) {
  return std::abs(g.x(a) - g.x(b)) + std::abs(g.y(a) - g.y(b));
}

int move_distance(const Geometry& g, Vertex a, Vertex b) {
  const int dx = std::abs(g.x(a) - g.x(b)), dy = std::abs(g.y(a) - g.y(b));
  return dx + dy + std::max(dx, dy);
}

int edge_line(const Geometry& g, Vertex v) {
  const int x = g.x(v), y = g.y(v);
  return 1 + std::min(std::min(x, y), std::min(g.size - 1 - x, g.size - 1 - y));
}

// ---------------------------------------------------------------------------------------------
// Everything about one candidate.

MoveFacts move_facts(const Board& board, Vertex v, Color c, LadderReading ladders, const LadderLimits& limits) {
  assert(board.legal(v, c) == Legality::kLegal && v.is_point());
  const Neighbourhood nb(board, v, c);
  MoveFacts f;
  int chain = 1;
  for (int i = 0; i < nb.num_own; ++i) chain += board.chain_size(Vertex(nb.own[i]));
  f.chain_size = static_cast<uint16_t>(chain);
  bool own_atari = false;
  for (int i = 0; i < nb.num_own; ++i) {
    if (board.liberties(Vertex(nb.own[i])) == 1) own_atari = true;
  }
  const int libs = merged_liberties(board, v, c, nb, MoveFacts::kLibertyCap);
  int captured = 0, captured_chains = 0, atari = 0, atari_chains = 0;
  for (int i = 0; i < nb.num_opp; ++i) {
    const Vertex head(nb.opp[i]);
    const int chain_libs = board.liberties(head);
    if (chain_libs == 1) {
      captured += board.chain_size(head);
      ++captured_chains;
    } else if (chain_libs == 2 && libs > 0) {  // a suicide (where legal) gives v back
      atari += board.chain_size(head);
      ++atari_chains;
    }
  }
  f.capture_size = static_cast<uint16_t>(captured);
  f.captured_chains = static_cast<uint8_t>(captured_chains);
  f.atari_stones = static_cast<uint16_t>(atari);
  f.atari_chains = static_cast<uint8_t>(atari_chains);
  f.liberties = static_cast<uint8_t>(libs);
  f.self_atari = libs == 1;
  f.ko = libs == 1 && captured == 1 && chain == 1;
  f.line = static_cast<uint8_t>(edge_line(board.geometry(), v));

  std::array<Vertex, 16> saved;
  int num_saved = 0;
  if (own_atari || captured > 0) {
    int stones = 0;
    num_saved = saved_chains(board, c, nb, libs, saved, &stones);
    f.saved_stones = static_cast<uint16_t>(stones);
  }

  // Vital points have at least two empty neighbours and touch at most one colour, and in
  // every killing shape the vital point's neighbours have at most 2 neighbours in the space (all
  // of their empty neighbours): open areas fail this at once, without a flood fill.
  bool maybe_vital = nb.empties >= 2 && (nb.num_own == 0 || nb.num_opp == 0);
  if (maybe_vital) {
    for (Vertex n : board.neighbours(v)) {
      if (board.is_empty(n) && board.empty_neighbours(n) > 2) maybe_vital = false;
    }
  }
  if (maybe_vital) {
    if (const auto eye = nakade_shape(board, v); eye && eye->vital == v) {
      f.nakade_size = static_cast<uint8_t>(eye->size);
      f.nakade_own = eye->owner == c;
    }
  }

  if (ladders == LadderReading::kRead) {
    f.ladders_read = true;
    if (atari_chains > 0 || num_saved > 0) {
      const LadderAnswers answers =
          move_ladders(board, v, c, nb, libs, captured > 0, saved, num_saved, atari_chains > 0, num_saved > 0, limits);
      f.ladder_capture = answers.capture;
      f.ladder_escape = answers.escape;
    }
  }
  return f;
}

bool saves_atari(const Board& board, Vertex v, Color c) {
  // As MoveFacts::saved_stones > 0: an own chain next to v in atari that the move gives 2+
  // liberties, or an own chain in atari elsewhere touching an opponent chain the move captures.
  const Color opp = opponent(c);
  bool own_atari = false, captures = false;
  for (Vertex n : board.neighbours(v)) {
    const Color nc = board.color(n);
    if (nc == c && board.liberties(n) == 1) own_atari = true;
    if (nc == opp && board.liberties(n) == 1) captures = true;
  }
  if (own_atari && liberties_after(board, v, c, 2) >= 2) return true;
  if (!captures) return false;
  for (Vertex n : board.neighbours(v)) {
    if (board.color(n) != opp || board.liberties(n) != 1) continue;
    Vertex s = n;
    do {
      for (Vertex u : board.neighbours(s)) {
        if (board.color(u) != c || board.liberties(u) != 1) continue;
        // Chains next to v are joined by the move: they count above, not here.
        const Vertex head = board.chain_head(u);
        bool next_to_v = false;
        for (Vertex w : board.neighbours(v)) next_to_v |= board.color(w) == c && board.chain_head(w) == head;
        if (!next_to_v) return true;
      }
      s = board.next_in_chain(s);
    } while (s != n);
  }
  return false;
}

}  // namespace hane
