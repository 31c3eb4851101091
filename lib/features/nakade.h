// Nakade: the killing eye shapes of 3 to 6 points and their vital points (tactics.h's
// conventions hold here). A fact of the guessers' features (MoveFacts::nakade_size) and a rule
// of the playouts (playout/rules.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "go/board.h"

namespace hane {

/// The classic killing eye shapes of 3 to 6 points, each with one vital point (playing it
/// kills for the attacker and makes two eyes for the defender). Square four has no vital
/// point (it is one eye however it is played) and is not listed.
enum class EyeShape : uint8_t {
  kNone,
  kStraightThree,  // ...        vital point: the middle
  kBentThree,      // .. / .     vital point: the corner
  kPyramidFour,    // T shape    vital point: the point with 3 neighbours in the space
  kCrossedFive,    // + shape    vital point: the centre
  kBulkyFive,      // 2x2 + 1    vital point: the square's point next to the extra point
  kRabbitySix,     // + and a diagonal filled: vital point: the centre
};
std::string_view eye_shape_name(EyeShape s);

struct EyeSpace {
  EyeShape shape = EyeShape::kNone;
  Vertex vital = Vertex::none();
  int size = 0;                // points in the region, 3..6
  Color owner = Color::kEmpty; // the colour that encloses it
};

/// The eye space holding the empty point `v`: the 4-connected region of empty points around
/// `v`, if it has 3 to 6 points, every orthogonal neighbour of the region is a stone of one
/// colour (the owner) or the edge, and its shape is one of the killing shapes above. nullopt
/// otherwise (including when `v` is not empty). Opponent stones already inside an eye space
/// are not considered: only wholly empty regions qualify. Costs at most 7 points visited.
std::optional<EyeSpace> nakade_shape(const Board& board, Vertex v);

/// True if `v` (empty) is the vital point of a killing eye space (the nakade feature of
/// MoveFacts); sets `size` (3..6) and `owner` then. Open areas are rejected without a fill.
bool nakade_vital(const Board& board, Vertex v, int* size, Color* owner);
/// The same, with nakade_possible() of `black_diamond` (v's diamond12 code) as a further
/// filter before any flood fill.
bool nakade_vital(const Board& board, Vertex v, uint64_t black_diamond, int* size, Color* owner);
/// The same without the cheap filters (for tests of the filters).
bool nakade_vital_unfiltered(const Board& board, Vertex v, int* size, Color* owner);

/// A necessary condition for nakade_vital() at the centre of the diamond12 code `diamond12`
/// (of either colour): killing eye spaces lie within distance 2 of their vital point, so the
/// centre's empty component within the diamond must be one of them, with the centre as its
/// vital point. One lookup in a 4096-entry table of the diamond's empty points (each entry
/// computed on first use with nakade_shape() on the drawn region). Thread-safe.
bool nakade_possible(uint64_t diamond12);

}  // namespace hane
