#include "search/score_estimate.h"

#include <algorithm>
#include <cmath>

namespace hane {

ScoreEstimate estimate_score(const Game& game, Search* search, const ScoreEstimateOptions& options) {
  const Board& board = game.board();
  ScoreEstimate e;
  PointSet dead = dead_stones_by_tactics(board, game.to_move());
  if (search && options.playouts > 0) {
    EndEstimate end = search->estimate_end(game, options.playouts);
    const Geometry& g = board.geometry();
    for (int y = 0; y < g.size; ++y) {
      for (int x = 0; x < g.size; ++x) {
        const Vertex v = g.at(x, y);
        if (!board.is_stone(v) || board.chain_head(v) != v) continue;
        double sum = 0;
        Vertex s = v;
        do {
          sum += end.ownership[static_cast<size_t>(s.index())];
          s = board.next_in_chain(s);
        } while (s != v);
        const double own = (board.color(v) == Color::kBlack ? 1 : -1) * sum / board.chain_size(v);
        if (own >= -options.dead_threshold) continue;
        do {
          dead.set(static_cast<size_t>(s.index()));
          s = board.next_in_chain(s);
        } while (s != v);
      }
    }
    e.ownership = std::move(end.ownership);
    e.playouts = end.playouts;
  }
  board_maps(board, &dead, e.maps);
  const double komi = game.rules().komi;
  const double w = e.ownership.empty() ? 0.0 : std::clamp(options.ownership_weight, 0.0, 1.0);
  if (w == 0) {
    e.margin = std::round(static_margin(board, e.maps, 0, options.territory, options.framework_weight)) - komi;
    return e;
  }
  // The static count with every empty point's value blended with its playout owner.
  double total = static_margin(board, e.maps, 0, options.territory, options.framework_weight);
  const Geometry& g = board.geometry();
  for (int y = 0; y < g.size; ++y) {
    for (int x = 0; x < g.size; ++x) {
      const Vertex v = g.at(x, y);
      if (!board.is_empty(v)) continue;
      const PointClass c = e.maps.at(v);
      const Color owner = point_owner(c);
      const double weight = c == PointClass::kBlackFramework || c == PointClass::kWhiteFramework ? options.framework_weight : 1.0;
      const double value = owner == Color::kBlack ? weight : owner == Color::kWhite ? -weight : 0.0;
      total += w * (e.ownership[static_cast<size_t>(v.index())] - value);
    }
  }
  e.margin = std::round(total) - komi;
  return e;
}

}  // namespace hane
