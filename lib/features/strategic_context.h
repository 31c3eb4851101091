// The whole-board facts a move guesser asks of a position, computed once per position and read
// for every candidate: the influence maps and point classes (influence.h, with the tactics
// reader's dead stones removed), the distance from every point to the nearest stone of each
// colour, and the game phase. Used by the `strategic` softmax feature set (predict/
// softmax_features.h).
//
// The families, each of which a model may use or leave out (for ablation, and for cost):
//   class      the candidate point's class from the mover's view: own territory, own
//              framework, contested, open, the opponent's framework, the opponent's territory;
//   influence  the distance-decay influence of each side at the point, in bins (0, < 1, < 2,
//              < 4, < 8, >= 8 influence points; a stone two steps away gives 1);
//   kind       the move's strategic kind (influence.h strategic_kind: secures, extends its
//              framework, reduces, invades, contests, takes open ground);
//   nearest    the Manhattan distance to the nearest own and to the nearest opponent stone
//              (1..7, 8 or more, no stone), after Fuego's feature set (M. Müller and others,
//              Fuego; as in the "distance to the nearest stone" features of Wistuba and
//              Schmidt-Thieme, "Move Prediction in Go — Modelling Feature Interactions Using
//              Latent Factors", KI 2013);
//   phase      the game phase in steps of 30 moves (Wistuba and Schmidt-Thieme 2013), crossed
//              with the candidate's line (1..4, 5 or more): the phase alone is the same for
//              every candidate of a position and would change no probability;
//   opponent   the point's tactics for the opponent, as if it were the opponent's move there
//              (features/tactics.h move_facts with ladders read): it would capture, give
//              atari, capture in a ladder, save a chain in atari, escape a ladder. With the
//              mover's own ladder facts (the tree set's) these give both sides' ladder status
//              at the point, as KataGo's inputs mark the ladder-capturable stones of both
//              colours (D. J. Wu, "Accelerating Self-Play Learning in Go", 2019). Needs no
//              map: its cost is a second move_facts() per candidate (a ladder read where one
//              is due).
//
// Costs on a 19x19 middle game (bench/features_bench.cc, BM_StrategicContext): class or kind
// need every map (25-37 µs a position), influence alone the distance-decay map (6.5 µs),
// nearest 3.6 µs, phase and opponent nothing (opponent costs per candidate instead).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "features/influence.h"
#include "go/position.h"

namespace hane {

enum class StrategicFamily : uint8_t { kClass, kInfluence, kKind, kNearest, kPhase, kOpponent };
inline constexpr int kNumStrategicFamilies = 6;
/// A set of families: bit f for StrategicFamily f.
using StrategicFamilies = uint8_t;
inline constexpr StrategicFamilies kAllStrategicFamilies = (1u << kNumStrategicFamilies) - 1;
constexpr bool has_family(StrategicFamilies set, StrategicFamily f) { return (set >> static_cast<int>(f)) & 1; }

/// "class", "influence", "kind", "nearest", "phase", "opponent".
std::string_view strategic_family_name(StrategicFamily f);
/// "all", "none", or names separated by commas ("class,nearest"); nullopt for an unknown name.
std::optional<StrategicFamilies> parse_strategic_families(std::string_view text);
/// The names of `set` separated by commas, "all" when every family is in, "none" for none.
std::string strategic_families_string(StrategicFamilies set);

/// Bins (see the header comment). Exposed for the feature indices and the tests.
inline constexpr int kInfluenceBins = 6;  // 0, < 1, < 2, < 4, < 8, >= 8
int influence_bin(float influence);
inline constexpr int kNearestBins = 9;    // 1..7, 8+, no stone
inline constexpr int kNearestNone = 255;  // nearest(): no stone of that colour on the board
int nearest_bin(int distance);
inline constexpr int kPhaseBins = 10;     // moves 1-30, 31-60, ..., 271+
int phase_bin(int move_number);

class StrategicContext {
 public:
  explicit StrategicContext(StrategicFamilies families = kAllStrategicFamilies) : families_(families) {}

  /// Computes what the families need for `p`.
  void set_position(const Position& p);

  StrategicFamilies families() const { return families_; }
  /// The maps of the last position: every map when class or kind is in, else only the
  /// influence when influence is in.
  const BoardMaps& maps() const { return maps_; }
  /// Manhattan distance from `v` to the nearest stone of `c` (dead ones too), kNearestNone if
  /// `c` has none (valid when nearest is in).
  int nearest(Color c, Vertex v) const {
    return (c == Color::kBlack ? nearest_black_ : nearest_white_)[static_cast<size_t>(v.index())];
  }
  int move_number() const { return move_number_; }

 private:
  StrategicFamilies families_;
  BoardMaps maps_;
  std::array<uint8_t, Board::kMaxVertices> nearest_black_{};
  std::array<uint8_t, Board::kMaxVertices> nearest_white_{};
  int move_number_ = 1;
};

/// The Manhattan distance from every point of `board` to the nearest stone of `c` (0 on the
/// stones; kNearestNone everywhere when `c` has no stone), by two raster passes (the city-block
/// distance transform of A. Rosenfeld and J. L. Pfaltz, "Sequential operations in digital
/// picture processing", J. ACM 13(4), 1966). Distances above 254 are not needed on a 25x25
/// board (at most 48).
void nearest_stone_distances(const Board& board, Color c, std::array<uint8_t, Board::kMaxVertices>& out);

}  // namespace hane
