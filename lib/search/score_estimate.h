// The score estimate users ask for in milliseconds (GTP estimate_score, `hane play`, `hane
// score`): the classes of the whole-board maps (features/influence.h) with a dead-stone guess,
// optionally from a few fast playouts.
//
// Dead stones: the tactics reader's (features/influence.h dead_stones_by_tactics: chains in atari
// that cannot escape, or left in atari), and with playouts > 0 also every chain whose mean
// playout owner, seen from its own colour, is below -dead_threshold (0: the chain ends up the
// opponent's in more than half of the playouts; Search::estimate_end's EndEstimate::status,
// which final_score uses, asks for 0.4), the most surely dead first, except a chain touching an
// opposing chain already called dead (of two chains in a capturing race, one dies). The maps
// are then made without the dead stones, and every point counts for the side its class names
// (static_margin): territory 1, framework `framework_weight`, contested and open 0; living
// stones 1 under area counting; dead stones for the opponent (twice under territory counting,
// point and prisoner). With `ownership_weight` w > 0 and playouts, each empty point counts
// (1 - w) x its class's value + w x its mean playout owner (+1 Black .. -1 White) instead.
// The sum is rounded to whole points before komi is taken off, so margins read as GTP's
// final_score does ("B+12.5", "W+3.5", "0").
//
// The defaults were chosen with `hane score` on the KGS train split (1,500 positions three
// quarters through counted games; README.md, "Estimating the score"): dead_threshold 0 named
// 79.0% of the winners, 0.1 78.9%, 0.2 78.1%, 0.4 75.7%, -0.1 78.2%; ownership_weight 0.5
// beat 0 and 1; 64 playouts did as well as 128 and 256; blending the stones' values with
// their playout owners, or calling uncertain chains without eye space dead, named fewer.
#pragma once

#include <string_view>
#include <vector>

#include "features/influence.h"
#include "go/game.h"
#include "search/search.h"

namespace hane {

struct ScoreEstimateOptions {
  /// Playouts behind the dead-stone guess (the search's policy); 0: the tactics reader alone.
  int playouts = 0;
  /// What a framework point counts, in points (0..1).
  double framework_weight = 0.5;
  /// The share of the playout owner in an empty point's value (0..1); used only with playouts.
  double ownership_weight = 0.5;
  /// A chain is dead when its mean playout owner from its own colour is below minus this (-1..1).
  double dead_threshold = 0;
  /// Territory counting (Japanese: territory and prisoners) instead of area counting.
  bool territory = false;
};

struct ScoreEstimate {
  /// Black − White − komi (the game's rules.komi), in points: whole points minus komi.
  double margin = 0;
  /// The maps and classes, made without the dead stones (maps.dead holds them).
  BoardMaps maps;
  /// Mean playout owner per Vertex::index() (+1 Black .. −1 White); empty without playouts.
  std::vector<float> ownership;
  int playouts = 0;
};

/// The settings of the playout policy `policy` (a spec, "rules") behind the estimate's
/// playouts: `settings` with POLICY.safe_capture = 1 ("rules.safe_capture") added where the
/// policy has that setting and `settings` does not set it (the capture and save rules refuse
/// a capture that leaves the capturing chain, joined to others, in atari: playout/rules.h).
/// Chosen on the KGS train split (README.md, "Estimating the score": 4,000 positions, 79.7%
/// of the winners named against 78.8% without). The engine's own playouts keep theirs.
PolicyOptions estimate_policy_options(std::string_view policy, PolicyOptions settings);

/// The estimate of `game`'s position. `search` runs the playouts (Search::estimate_end, so the
/// same position gives the same answer); with no search or options.playouts == 0 the estimate
/// is static. Never fails: an empty board gives −komi, any size 2..25.
ScoreEstimate estimate_score(const Game& game, Search* search, const ScoreEstimateOptions& options);

}  // namespace hane
