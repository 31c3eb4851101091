#include "search/dynamic_komi.h"

#include <algorithm>

namespace hane {

double DynamicKomi::phase_factor(int move_number, int board_points) const {
  const double end = options_.end * board_points;
  return end > 0 ? std::max(0.0, 1.0 - move_number / end) : 0.0;
}

double DynamicKomi::for_move(int move_number, int board_points) const {
  if (!options_.enabled || phase_factor(move_number, board_points) <= 0) return 0;
  return extra_;
}

void DynamicKomi::update(double winrate, double margin, int move_number, int board_points) {
  if (!options_.enabled) return;
  const double f = phase_factor(move_number, board_points);
  // The goal shrinks to the real komi as the game nears its end: the kept extra komi is scaled
  // by f against the factor at the mover's previous move.
  const double before = phase_factor(move_number - 2, board_points);
  if (before > 0) extra_ *= f / before;
  const double target = options_.share * margin * f;
  if (winrate >= options_.high) {
    extra_ = std::max(extra_, target);
  } else if (winrate <= options_.low) {
    extra_ = std::max(std::min(extra_, target), -options_.max_losing);
  }
  if (f <= 0) extra_ = 0;
}

}  // namespace hane
