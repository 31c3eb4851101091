// What the decision tree may ask about a candidate move: its "question inputs", small
// categorical values computed once per candidate, and questions of the form "is input i's value
// in the set S?".
//
// Inputs (TreeInputs::v, one byte each, every value below 32):
//
//   0..23  the points within Manhattan distance 3 of the candidate (kRadius3Offsets), each a
//          tree_point state relative to the player to move: empty, off the board, own or
//          opponent stone with 1, 2, 3 or 4+ liberties
//   24..   move-level facts (TreeInput): distances to the previous two moves (R. Coulom's
//          move distance) and where they lie among the 24 points, the edge lines, the tactical
//          facts of features/tactics.h (captures, ataris, saved stones, liberties and chain size
//          after the move, ko, nakade, ladders), own and opponent stones among the 24 points,
//          distance to the nearest stone, and the move number
//
// Orientation. With TreeFeatureOptions::canonical (the default) the 24 points are read in a
// canonical frame: of the 8 symmetries of the square, the one that gives the smallest
// (distance-1..2 code, distance-3 code, previous-move offset, second-previous offset), so that
// rotated and mirrored copies of a neighbourhood get the same inputs and share the statistics
// of one leaf. The offsets in questions (and in the dump) are then offsets in that frame: "the
// point at (1,-2)" means "at (1,-2) once the neighbourhood is turned to its canonical side".
// The previous-move offsets are mapped by the same symmetry; the edge lines are orientation-free.
//
// Questions. A question is (input, set of values) and its answer is "value in set": one shift
// and one mask, whatever the input. Questions such as "is the point at (dx, dy) an opponent
// stone?", "does the chain at (dx, dy) have at most 2 liberties?", "is the move within distance
// 4 of the previous move?", "does the move capture?", "is it on the third line?" are all sets
// of values of one input. Training asks ordered inputs (tree_input_ordinal) only thresholds,
// "value <= t", and categories any set, the best of which it finds by CART's ordering of the
// categories by their ratio (L. Breiman et al., "Classification and Regression Trees", 1984,
// theorem 4.5). The use of decision trees over such questions for move guessing follows
// F. van Niekerk and S. Kroon, "Decision Trees for Computer Go Features" (IJCAI workshop on
// computer games, 2013) and van Niekerk's thesis "Decision Forests for Computer Go Feature
// Learning" (Stellenbosch, 2014).
//
// Bump kTreeFeatureVersion whenever an input, its values, the offsets or the canonical frame
// change: model files record it and stale trees are refused.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "features/pattern.h"
#include "features/radius3.h"
#include "go/board.h"
#include "go/position.h"

namespace hane {

inline constexpr int kTreeFeatureVersion = 1;

/// The state of one point, relative to the player to move, as a nibble laid out like
/// pattern.h's: bits 0-1 what is there (0 empty, 1 own stone, 2 opponent stone, 3 off the
/// board), bits 2-3 a stone's liberties bucketed 1, 2, 3, 4+ (as 0..3). So own stones are 1, 5,
/// 9, 13, opponent stones 2, 6, 10, 14; the other values (4, 7, 8, ...) never occur.
///
/// Why a second encoding beside pattern.h's (buckets 1, 2, 3+, and 0 for a chain without
/// liberties): the tree's questions may split 3 liberties from 4+, which its training found
/// useful, while pattern codes keep 3+ so that the dictionaries stay small. The shipped models
/// (patterns/kgs-tree*.model, kTreeFeatureVersion 1; the softmax and pattern tables,
/// kPatternVersion 1) were trained with these encodings: one encoding would change one of the
/// two and mean retraining them.
namespace tree_point {
inline constexpr uint8_t kEmpty = 0;
inline constexpr uint8_t kOwn = 1;
inline constexpr uint8_t kOpponent = 2;
inline constexpr uint8_t kOffBoard = 3;
inline constexpr int kValues = 16;
/// The state of a stone; `liberties` is bucketed 1, 2, 3, 4+ (a chain left without liberties by
/// a setup counts as 1).
constexpr uint8_t stone(bool own, int liberties) {
  const int bucket = liberties < 1 ? 0 : liberties > 4 ? 3 : liberties - 1;
  return static_cast<uint8_t>((own ? kOwn : kOpponent) | (bucket << 2));
}
}  // namespace tree_point

/// The move-level inputs, after the 24 points. Values as listed; "clamped" means the last value
/// also stands for every larger one.
enum class TreeInput : uint8_t {
  kLastDistance = kRadius3Points,  // move_distance to the previous move: 2..16, 17 = 17+, 18 pass, 19 none
  kSecondLastDistance,          // the same for the move before
  kLastOffset,                  // previous move's point among the 24 (0..23, in the frame), 24 elsewhere/none
  kSecondLastOffset,            // the same for the move before
  kLine,                        // edge_line: 1 = first line .. 10 (clamped)
  kOtherLine,                   // line counted along the other axis (the larger of the two), 1..10
  kCaptureStones,               // stones captured, 0..15 (clamped)
  kAtariStones,                 // opponent stones put in atari, 0..15 (clamped)
  kAtariChains,                 // opponent chains put in atari, 0..4
  kSavedStones,                 // own stones saved from atari, 0..15 (clamped)
  kLiberties,                   // liberties of the move's chain after it, 0..4 (4 = 4+); 1 = self-atari
  kChainSize,                   // stones of the move's chain after it, 1..15 (clamped)
  kKo,                          // 1 if the move takes a ko
  kNakade,                      // 0; vital point of an opponent's eye space of 3..6 points = 1..4; own = 5..8
  kLadder,                      // 1 ladder capture, 2 ladder escape, 3 both (0 if not read)
  kOwnNear,                     // own stones among the 24 points, 0..24
  kOpponentNear,                // opponent stones among the 24 points, 0..24
  kNearestStone,                // Manhattan distance to the nearest stone 1..15 (clamped; 15 if none)
  kMoveNumber,                  // (move number - 1) / 10, 0..31 (clamped): 0 = moves 1-10
  kEnd,
};
inline constexpr int kTreeInputs = static_cast<int>(TreeInput::kEnd);

/// Number of distinct values input `i` takes (all values are below it; at most 32).
int tree_input_values(int input);
/// True for inputs whose values are ordered (distances, counts, lines, move number): training
/// asks them only "value <= t" (or its complement), never an arbitrary set. The points, the
/// previous moves' offsets, ko, nakade and ladder are categories: any set of values.
bool tree_input_ordinal(int input);
/// "(1,-2)" for points, "last_move_distance", "captures" ... for the others.
std::string tree_input_name(int input);
/// A value as text: "empty", "edge", "own2", "opp4+" for points; "pass", "17+", "(1,0)", "11-20" ...
std::string tree_value_name(int input, int value);

struct TreeInputs {
  std::array<uint8_t, kTreeInputs> v{};
};

/// "Is input `input`'s value in `values`?" (bit k of `values` = value k).
struct TreeQuestion {
  uint8_t input = 0;
  uint32_t values = 0;
  bool operator==(const TreeQuestion&) const = default;
};

inline bool answer(const TreeInputs& in, TreeQuestion q) { return (q.values >> in.v[q.input]) & 1; }

/// The values input `input` can take, as a mask.
inline uint32_t tree_input_mask(int input) {
  const int n = tree_input_values(input);
  return n >= 32 ? ~uint32_t{0} : (uint32_t{1} << n) - 1;
}

/// True if `q` is a real question: a known input and a set that is neither empty nor all of
/// its values.
bool valid_question(TreeQuestion q);

/// The question as text, e.g. "(0,-1) in {opp1, opp2}" (or "not in" the complement, whichever
/// is shorter), "last_move_distance <= 4", "captures >= 1".
std::string describe(TreeQuestion q);

struct TreeFeatureOptions {
  /// Read the 24 points in the canonical frame (see the top of this file); otherwise as on
  /// the board.
  bool canonical = true;
  /// Read ladders (kLadder); otherwise kLadder is always 0. Costs about 1 µs per move that
  /// gives or escapes an atari not decided without reading.
  bool ladders = true;
};

/// The symmetry of the square that maps point i of kRadius3Offsets to point
/// kTreeSymmetries[s][i]: first mirror (x -> -x) if s >= 4, then rotate s % 4 times by 90
/// degrees clockwise as drawn, as in kPatternSymmetries (whose 12 points are the first 12 here).
extern const std::array<std::array<uint8_t, kRadius3Points>, 8> kTreeSymmetries;

/// Computes the inputs of candidate moves, one position at a time. Per position: the point
/// states of the whole board and the distance to the nearest stone (a two-pass distance
/// transform), about 3 µs on 19x19; per candidate about 150 ns on average: 24 loads, the
/// canonical frame (8 images of two 48-bit codes), move_facts() with its ladder reads (a third
/// of the time), distances. Not thread-safe: one per thread.
class TreeInputMaker {
 public:
  explicit TreeInputMaker(TreeFeatureOptions options = {}) : options_(options) {}

  const TreeFeatureOptions& options() const { return options_; }

  /// Prepares for the candidates of `position` (whose board must outlive the calls to
  /// inputs() until the next set_position()).
  void set_position(const Position& position);

  /// The inputs of `v`, a legal move of position.to_move (a point, not pass).
  void inputs(Vertex v, TreeInputs& out) const;

 private:
  TreeFeatureOptions options_;
  Position position_;
  std::array<int, kRadius3Points> delta_{};  // index offsets of the 24 points
  std::array<uint8_t, Board::kMaxVertices> state_{};
  std::array<uint8_t, Board::kMaxVertices> nearest_{};
};

}  // namespace hane
