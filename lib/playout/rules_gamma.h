// `rules-gamma:MODEL`: the `rules` policy (rules.h) whose pattern answer is learned. Instead of
// one of the MoGo 3x3 matches around the last move at random, it draws among the empty
// neighbours of the last move (8-neighbourhood; of the second-last move too with
// `rules-gamma.pattern_second`) with probability proportional to their gammas in a gamma model
// (predict/gamma.h), against a background that stands for the rest of the board:
//
//   P(neighbour v) = g(v) / (sum of the g of the neighbours + B),   B = b * g_empty * E,
//   g(v) = gamma(3x3 pattern of v) * gamma(distance to the last move) * gamma(distance to the
//          second-last move),
//
// where E is the number of empty points, g_empty the gamma of the empty 3x3 pattern (a far
// move's typical strength) and b the setting `rules-gamma.background` (default 0.25, the best
// of 0.05, 0.25 and 1 in docs/strength.md section 7). With probability B / (sum + B) the rule
// has no move and the policy goes on to its random move.
// A drawn neighbour that is illegal, fills an own eye or is a refused self-atari is dropped and
// the draw repeated among the others.
//
// This is the candidate-list design of Leela 0.x's playouts (a short list of local moves scored
// by learned pattern weights, random moves otherwise) on top of the rules' tactics. To cost what
// a MoGo lookup costs, the pattern is read from a table by the neighbours' colours alone: each
// stone counts as having 3 or more liberties (the model's liberty bucket 3), since captures,
// escapes and two-liberty fights are the earlier rules' work. With `rules-gamma.liberties` 1
// the pattern is the model's own, liberty buckets included (a pattern code and a hash lookup
// per neighbour).
#pragma once

#include <array>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "playout/registry.h"
#include "predict/gamma.h"

namespace hane {

/// The learned pattern answer's weights, built once from a gamma model.
struct LocalGammas {
  /// [colour to move: 0 Black, 1 White][neighbour_colours() key (features/mogo3x3.h)]: the
  /// gamma of the 3x3 pattern with every stone at 3+ liberties. 2 x 2^16 entries.
  std::array<std::vector<float>, 2> pattern;
  /// The same keys' pattern indices into GammaModel::gammas (for simulation balancing).
  std::array<std::vector<int32_t>, 2> pattern_index;
  /// [move_distance() 0..4] to the last move / to the second-last move: the distance gamma
  /// (1 where the model has none).
  std::array<float, 5> distance{1, 1, 1, 1, 1};
  std::array<float, 5> distance2{1, 1, 1, 1, 1};
  /// The gamma of the empty 3x3 pattern.
  float empty = 1;
  /// With `rules-gamma.liberties` 1: the model itself, whose patterns are then read with the
  /// liberty buckets of the neighbouring chains (null otherwise).
  std::shared_ptr<const GammaModel> model;
};

/// The table of `model`'s pattern and distance gammas (about 0.5 MB).
LocalGammas local_gammas(const GammaModel& model);

/// The registry's factory: `rules-gamma:MODEL`, MODEL a gamma model file (kind "gamma"), the
/// settings of rules.h under "rules-gamma." plus `rules-gamma.background` (b >= 0) and
/// `rules-gamma.liberties` (0 or 1). Errors name the path or the setting.
absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_rules_gamma_policy(std::string_view model,
                                                                       const PolicyOptions& options);

}  // namespace hane
