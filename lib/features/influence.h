// Whole-board maps: who holds which part of the board. A distance-decay influence map, Bouzy's
// dilation-erosion operators (territory 5/21, moyo 5/10, area 4/0) and, from them, a class for
// every point (territory, framework, contested or open ground, stones alive or dead), a static
// score and the strategic meaning of a move in words. For guesser features, search priors, the
// score estimate (GTP estimate_score) and `hane play`'s explanations.
//
// Every map is indexed by Vertex::index() (arrays of Board::kMaxVertices; off-board indices
// hold 0). Stones in the optional `dead` set (dead_stones_by_tactics(), or the caller's own
// guess, e.g. from playout ownership) count as removed from the board: they radiate nothing,
// and their points are classed as the dead stones' opponent sees them.
//
// 1. Distance-decay influence (distance_influence()). Every living stone radiates influence
//    that falls off with the Manhattan distance d (steps along the lines, |dx| + |dy|) from it:
//      w(0) = 12,  w(d) = 2 / d for 1 <= d <= R,  w(d) = 0 beyond R,
//      R = influence_radius(size) = clamp((size + 2) / 4, 1, 6)   (5 on 19x19, 3 on 13x13, 2 on 9x9).
//    So a stone gives +12 on its own point, +2 next to it, +1 two steps away, 2/3, 1/2, 2/5
//    further out. black[v] and white[v] sum the weights of each colour's stones at v (in
//    "influence points", a lone stone's own point holding 12); value(v) = black[v] - white[v]
//    is the map (Black positive, White negative). Influence passes through stones and is not
//    blocked by them (linear superposition, as in the classic source). Source: A. L. Zobrist,
//    "A model of visual organization for the game of Go", Proc. AFIPS Spring Joint Computer
//    Conference 34, 1969: stones radiate, the radiation fades with distance, and the two
//    colours' radiation cancels. Zobrist spread +/-50 from the stones by four passes that add
//    +/-1 per positive/negative neighbour; hane follows instead the explicit weights of the
//    engine it was designed from (12 on the stone, 2 next to it, 1 two steps away, out to a
//    radius that grows with the board), so that a point's value is a sum one can work out by
//    hand.
//
// 2. Bouzy's dilation-erosion (bouzy_maps()), as the GNU Go manual documents it ("Bouzy's
//    5/21 algorithm", chapter "Moyo", after B. Bouzy, "Mathematical morphology applied to
//    computer go", IJPRAI 17(2), 2003, and his thesis, 1995, p. 86). Start: +128 on every
//    living black stone, -128 on every living white stone, 0 elsewhere. Both operators update
//    every point at once from the previous values; only on-board neighbours count:
//      dilation: a point >= 0 with no neighbour < 0 gains the number of its neighbours > 0; a
//        point <= 0 with no neighbour > 0 loses the number of its neighbours < 0;
//      erosion: a point > 0 loses the number of its neighbours <= 0, a point < 0 gains the
//        number of its neighbours >= 0, neither crossing zero (it stops at 0).
//    n dilations then m erosions is the n/m operator; GNU Go calls 5/21 territory, 5/10 moyo
//    and 4/0 area. A point belongs to the colour of the sign of its value (0: to neither).
//
// 3. Classes (classify_points()): for every on-board point, in this order:
//      a living stone: kBlackStone / kWhiteStone; a stone in `dead`: kDeadBlack / kDeadWhite;
//      an empty point with territory (5/21) of a colour: that colour's territory;
//      else with moyo (5/10) of a colour: that colour's framework;
//      else contested when both colours' influence reaches it (black[v] >= 1 and white[v] >= 1:
//        a stone of each within two steps, or several further away);
//      else open (kOpen: reached by at most one colour, and held by neither).
//
// Costs on a 19x19 mid-game position (bench/features_bench.cc, BM_Influence*): see the
// benchmark rows in README.md.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <string>

#include "go/board.h"

namespace hane {

/// A set of points, by Vertex::index().
using PointSet = std::bitset<Board::kMaxVertices>;

/// R of the distance-decay map: clamp((size + 2) / 4, 1, 6) points.
int influence_radius(int board_size);
/// w(d) of the distance-decay map, influence points: 12 at d = 0, 2 / d up to the radius, 0 beyond.
float influence_weight(int distance, int radius);

/// The distance-decay influence map (see the header comment, 1).
struct InfluenceMap {
  std::array<float, Board::kMaxVertices> black{};  // sum of the black stones' w(d) at each point
  std::array<float, Board::kMaxVertices> white{};  // the same for white stones
  /// Black minus White: > 0 where Black's influence dominates.
  float value(Vertex v) const { return black[v.index()] - white[v.index()]; }
};

/// Influence of the stones of `board` not in `dead` (nullptr: every stone lives).
/// About 10 µs on 19x19 (benchmark BM_InfluenceDistance).
void distance_influence(const Board& board, const PointSet* dead, InfluenceMap& out);

/// One field of Bouzy's operators: a value per Vertex::index(), 0 off the board.
using BouzyField = std::array<int16_t, Board::kMaxVertices>;

/// Bouzy's start: +128 on living black stones, -128 on living white ones, 0 elsewhere.
void bouzy_start(const Board& board, const PointSet* dead, BouzyField& field);
/// One dilation of `field` in place (see the header comment, 2).
void bouzy_dilate(const Board& board, BouzyField& field);
/// One erosion of `field` in place (see the header comment, 2).
void bouzy_erode(const Board& board, BouzyField& field);

/// The three operators GNU Go names, computed in one sequence (4 dilations: area; one more
/// and 10 erosions: moyo; 11 more erosions: territory).
struct BouzyMaps {
  BouzyField area{};       // 4/0
  BouzyField moyo{};       // 5/10
  BouzyField territory{};  // 5/21
};
void bouzy_maps(const Board& board, const PointSet* dead, BouzyMaps& out);

/// The class of a point (see the header comment, 3).
enum class PointClass : uint8_t {
  kOpen,             // empty, held by no one and reached by at most one colour's influence
  kContested,        // empty, held by no one, reached by both colours' influence
  kBlackTerritory,   // empty, 5/21 territory of Black
  kWhiteTerritory,
  kBlackFramework,   // empty, 5/10 moyo of Black but not its territory
  kWhiteFramework,
  kBlackStone,       // a living stone
  kWhiteStone,
  kDeadBlack,        // a black stone in the dead set
  kDeadWhite,
};

/// "black territory", "white framework", "contested", "open", "dead black stone", ...
std::string_view point_class_name(PointClass c);
constexpr PointClass territory_of(Color c) { return c == Color::kBlack ? PointClass::kBlackTerritory : PointClass::kWhiteTerritory; }
constexpr PointClass framework_of(Color c) { return c == Color::kBlack ? PointClass::kBlackFramework : PointClass::kWhiteFramework; }
/// Whose the point is at the end if the classes are right: the stone's colour for a living
/// stone, the opponent's for a dead one, the owner of territory and framework; kEmpty for
/// contested and open points.
Color point_owner(PointClass c);

/// Every map of a position, and the class of every point.
struct BoardMaps {
  InfluenceMap influence;
  BouzyMaps bouzy;
  std::array<PointClass, Board::kMaxVertices> classes{};  // kOpen off the board
  PointSet dead;  // the dead stones the maps were made with
  PointClass at(Vertex v) const { return classes[v.index()]; }
};

/// The maps of `board` with the stones in `dead` removed (nullptr: none).
/// About 40 µs on 19x19 (benchmark BM_InfluenceBoardMaps).
void board_maps(const Board& board, const PointSet* dead, BoardMaps& out);

/// The tactics reader's dead stones: every chain in atari that cannot escape (features/ladder.h
/// ladder_captured, the defender to move: it can neither run nor capture its way out), and
/// every chain in atari whose owner is not to move (it ignored the atari, so it gave the chain
/// up). A ko is not told apart.
PointSet dead_stones_by_tactics(const Board& board, Color to_move);

/// A score from the classes: each side's points, Black minus White minus komi. Area counting
/// (`territory_counting` false, Chinese rules): living stones, territory and the points of the
/// opponent's dead stones are worth 1 each, framework `framework_weight` each. Territory
/// counting (Japanese rules): territory, framework (at `framework_weight`), the opponent's dead
/// stones twice (the point and the prisoner) and the prisoners taken so far
/// (Board::prisoners). Contested and open points count for no one. In points, unrounded.
double static_margin(const Board& board, const BoardMaps& maps, double komi, bool territory_counting,
                     double framework_weight = 0.5);

/// What a move means for the whole board, from the classes of the position before it.
enum class StrategicKind : uint8_t {
  kNone,     // no strategic meaning (pass, or a point the classes do not describe)
  kSecure,   // inside the mover's own territory
  kExtend,   // in the mover's framework, or next to it (within two steps) on open or contested ground
  kReduce,   // in the opponent's framework near the mover's influence (own influence >= 1 there),
             // or next to the opponent's framework or territory on open or contested ground
  kInvade,   // in the opponent's territory, or deep in its framework (own influence < 1 there)
  kContest,  // contested ground away from both colours' frameworks
  kOpen,     // open ground away from both colours' frameworks (a big point)
};

/// The kind of `c` playing `v` (a point, empty in the position of `maps`).
StrategicKind strategic_kind(const Board& board, const BoardMaps& maps, Vertex v, Color c);

/// Where `v` is, in words: "at the upper left", "at the top", "on the right", "in the
/// centre", "at the lower right"... (the board cut in thirds each way).
std::string board_region_words(const Geometry& g, Vertex v);

/// The move in words for its mover, e.g. "extends its framework on the right", "reduces
/// White's moyo at the top", "invades Black's territory at the lower left", "takes open ground
/// at the bottom"; "" for kNone.
std::string strategic_words(const Board& board, const BoardMaps& maps, Vertex v, Color c);

}  // namespace hane
