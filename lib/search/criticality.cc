#include "search/criticality.h"

#include "search/ownership.h"

namespace hane::search_internal {
namespace {

inline void relaxed_add(std::atomic<int32_t>& a, int32_t d) { a.fetch_add(d, std::memory_order_relaxed); }

}  // namespace

double point_criticality(double black_wins, double winner_owns, double black_owns) {
  // P(White owns) = 1 − P(Black owns) and P(White wins) = 1 − P(Black wins), neutral points
  // and jigos counting a half for each side.
  return winner_owns - (black_owns * black_wins + (1 - black_owns) * (1 - black_wins));
}

RootCriticality::RootCriticality() : counts_(new Counts[Board::kMaxVertices]) {}

void RootCriticality::clear() {
  for (int i = 0; i < Board::kMaxVertices; ++i) {
    Counts& c = counts_[i];
    c.visits.store(0, std::memory_order_relaxed);
    c.black_half_wins.store(0, std::memory_order_relaxed);
    c.winner_half_owns.store(0, std::memory_order_relaxed);
    c.black_half_owns.store(0, std::memory_order_relaxed);
  }
}

void RootCriticality::add(Vertex move, const Board& final_board, int black_half) {
  Counts& c = counts_[move.index()];
  const Color owner = area_owner(final_board, move);
  const int black_owns = owner == Color::kBlack ? 2 : owner == Color::kEmpty ? 1 : 0;
  // A jigo has no winner: the point counts a half for it, as a neutral point does.
  const int winner_owns = black_half == 1 ? 1 : black_half == 2 ? black_owns : 2 - black_owns;
  relaxed_add(c.visits, 1);
  relaxed_add(c.black_half_wins, black_half);
  relaxed_add(c.winner_half_owns, winner_owns);
  relaxed_add(c.black_half_owns, black_owns);
}

double RootCriticality::criticality(Vertex move) const {
  const Counts& c = counts_[move.index()];
  const int32_t n = c.visits.load(std::memory_order_relaxed);
  if (n <= 0) return 0;
  const double half_n = 2.0 * n;
  return point_criticality(c.black_half_wins.load(std::memory_order_relaxed) / half_n,
                           c.winner_half_owns.load(std::memory_order_relaxed) / half_n,
                           c.black_half_owns.load(std::memory_order_relaxed) / half_n);
}

}  // namespace hane::search_internal
