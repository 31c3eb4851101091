// Criticality of the root's moves: how much owning a move's point goes with winning the game.
//
// R. Coulom, "Criticality: a Monte-Carlo Heuristic for Go Programs" (invited talk, University
// of Electro-Communications, Tokyo, 2009): over the playouts, the criticality of a point is
//   crit = P(winner owns) − (P(Black owns) · P(Black wins) + P(White owns) · P(White wins)),
// the covariance of "Black owns it at the end" and "Black wins" plus the same for White; near 0 for a point whose owner does not decide the game (settled, or independent of the
// result), positive for the vital point of a group or a capturing race that decides it.
//
// In the search, as Pachi's ucb1amaf `crit_rave` (uct/policy/ucb1amaf.c; P. Baudiš, MSc thesis
// 2011): once a root child has had `min_visits` simulations in this search, its AMAF statistics
// get crit · r · weight more AMAF visits that are all wins for its player (r its AMAF visits;
// with crit < 0, as many fewer), so that the tree leans toward the moves on points whose owner
// decides the game. Pachi counts a node's owner over the simulations through that node at every
// depth; hane counts them at the root's children only (the moves it chooses among), over the
// current search, in a table by vertex, so that the tree's nodes stay 36 bytes.
//
// Owner at a playout's end (the scorer's area): a stone's colour, or the colour of all the
// neighbours of an empty point (walls count for both); other empty points are neutral and
// count one half for each side. Internal to lib/search (SearchOptions::criticality).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "go/board.h"

namespace hane::search_internal {

/// Coulom's criticality from three frequencies in [0, 1] over the same playouts: Black wins,
/// the winner owns the point, Black owns it. The sum of the two players' covariances of owning
/// and winning: in [−0.5, 0.5] (neutral points and jigos count a half for each side).
double point_criticality(double black_wins, double winner_owns, double black_owns);

/// Counts, by vertex, for the root's children: simulations through the child in this search,
/// Black's half-wins among them, and the half-ownings (2 own, 1 neutral) of the child's point by
/// the winner and by Black at the simulations' ends. Threads add with relaxed atomics.
class RootCriticality {
 public:
  RootCriticality();

  /// Forgets every count (the start of a search).
  void clear();

  /// One simulation through the root child that played `move` (a point), whose playout ended on
  /// `final_board` with Black's half-wins `black_half` (2 win, 1 jigo, 0 loss).
  void add(Vertex move, const Board& final_board, int black_half);

  /// Simulations of this search through the child that played `move`.
  int32_t visits(Vertex move) const { return counts_[move.index()].visits.load(std::memory_order_relaxed); }

  /// The criticality of `move` over this search's simulations through it (0 without any).
  double criticality(Vertex move) const;

 private:
  struct Counts {
    std::atomic<int32_t> visits{0};
    std::atomic<int32_t> black_half_wins{0};
    std::atomic<int32_t> winner_half_owns{0};
    std::atomic<int32_t> black_half_owns{0};
  };
  std::unique_ptr<Counts[]> counts_;  // Board::kMaxVertices
};

}  // namespace hane::search_internal
