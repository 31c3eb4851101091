#include "search/score_estimate.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "playout/policy_settings.h"

namespace hane {
namespace {

// Adds to `dead` the chains whose mean playout owner from their own colour is below
// -threshold, the most surely dead first; a chain touching an opposing chain already in `dead`
// stays alive (of two chains in a capturing race, one dies).
void add_playout_dead(const Board& board, const std::vector<float>& ownership, double threshold, PointSet& dead) {
  std::vector<std::pair<double, Vertex>> candidates;
  const Geometry& g = board.geometry();
  for (int y = 0; y < g.size; ++y) {
    for (int x = 0; x < g.size; ++x) {
      const Vertex v = g.at(x, y);
      if (!board.is_stone(v) || board.chain_head(v) != v || dead.test(static_cast<size_t>(v.index()))) continue;
      double sum = 0;
      Vertex s = v;
      do {
        sum += ownership[static_cast<size_t>(s.index())];
        s = board.next_in_chain(s);
      } while (s != v);
      const double own = (board.color(v) == Color::kBlack ? 1 : -1) * sum / board.chain_size(v);
      if (own < -threshold) candidates.emplace_back(own, v);
    }
  }
  std::sort(candidates.begin(), candidates.end());
  for (const auto& [own, head] : candidates) {
    const Color opp = opponent(board.color(head));
    bool races_a_dead_chain = false;
    Vertex s = head;
    do {
      for (const Vertex n : board.neighbours(s)) {
        if (board.color(n) == opp && dead.test(static_cast<size_t>(n.index()))) races_a_dead_chain = true;
      }
      s = board.next_in_chain(s);
    } while (s != head && !races_a_dead_chain);
    if (races_a_dead_chain) continue;
    do {
      dead.set(static_cast<size_t>(s.index()));
      s = board.next_in_chain(s);
    } while (s != head);
  }
}

}  // namespace

PolicyOptions estimate_policy_options(std::string_view policy, PolicyOptions settings) {
  const std::string key = std::string(policy.substr(0, policy.find(':'))) + ".safe_capture";  // "rules-gamma.safe_capture"
  if (settings.settings.contains(key)) return settings;
  PolicyOptions with = settings;
  with.settings.emplace(key, "1");
  return check_policy_settings(policy, with).ok() ? with : settings;
}

ScoreEstimate estimate_score(const Game& game, Search* search, const ScoreEstimateOptions& options) {
  const Board& board = game.board();
  ScoreEstimate e;
  PointSet dead = dead_stones_by_tactics(board, game.to_move());
  if (search && options.playouts > 0) {
    EndEstimate end = search->estimate_end(game, options.playouts);
    add_playout_dead(board, end.ownership, options.dead_threshold, dead);
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
      const double o = e.ownership[static_cast<size_t>(v.index())];
      if (!board.is_empty(v)) continue;
      const PointClass c = e.maps.at(v);
      const Color owner = point_owner(c);
      const double weight = c == PointClass::kBlackFramework || c == PointClass::kWhiteFramework ? options.framework_weight : 1.0;
      const double value = owner == Color::kBlack ? weight : owner == Color::kWhite ? -weight : 0.0;
      total += w * (o - value);
    }
  }
  e.margin = std::round(total) - komi;
  return e;
}

}  // namespace hane
