#include "gtp/player.h"

namespace hane::gtp {

ScoreEstimate MoveGenerator::estimate_score(const Game& game, bool territory) {
  ScoreEstimateOptions o;
  o.territory = territory;
  return hane::estimate_score(game, nullptr, o);
}

}  // namespace hane::gtp
