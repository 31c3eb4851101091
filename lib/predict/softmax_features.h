// Features of the linear-softmax guesser (softmax.h): what a candidate move "has".
//
// A candidate has a few fixed features (small indices into a table that depends on the feature
// set: response, save atari, nakade, distances...) and at most one pattern key per pattern
// kind (a canonical code: rotated, mirrored and colour-swapped copies share a key). A trained
// model gives every fixed feature and every pattern key in its dictionaries a weight; the
// candidate's score is the sum of its features' weights, and its probability the softmax of
// the scores over all legal moves of the position.
//
// Feature sets, chosen at training time and recorded in model files:
//
//   rollout  After the AlphaGo rollout policy (Silver et al., "Mastering the game of Go with
//            deep neural networks and tree search", Nature 2016, Extended Data Table 4):
//            response (the move is within Manhattan distance 2 of the previous move, i.e. in
//            its 12-point diamond), neighbour (one of the 8 points around the previous move:
//            orthogonal or diagonal), save atari (MoveFacts::saved_stones > 0: the move gives
//            a chain of the player in atari two or more liberties, by extending or capturing),
//            nakade (the vital point of a 3-6 point killing eye space, by size and by whose
//            eye it is), the response pattern (the diamond12 around the move with the previous
//            move's point marked, for moves within its diamond), and the 3x3 pattern around
//            the move. Unlike AlphaGo the 3x3 pattern is active for response moves too: it is
//            the back-off for rare response patterns (dropped by the minimum count).
//            Everything is local: a candidate's features change only when a point within
//            distance 3 of it changes, or through the liberties of chains next to it, or when
//            the previous move moves (the incremental policy in playout/softmax.h relies on this).
//   tree     Everything in rollout, plus: self-atari (by the size of the chain left in atari),
//            capture (by size), ko capture, capture of the previous move's stone, atari,
//            atari on the previous move's chain, ladder capture and ladder escape (read with
//            the ladder reader of tactics.h), liberties after the move, distance to the
//            previous and to the second-previous move (Coulom's |dx|+|dy|+max(|dx|,|dy|),
//            "Computing Elo Ratings of Move Patterns in the Game of Go", ICGA J. 2007), the
//            line (distance to the edge), and two more pattern kinds for every move: the
//            diamond12 and the 24-point pattern of Manhattan radius 3 (diamond12 plus the 12
//            points at distance 3; liberties included as everywhere; cf. the spatial patterns
//            of Pachi, Baudiš and Gailly, "Pachi: State of the Art Open Source Go Program",
//            ACG 2011).
//   strategic Everything in tree, plus whole-board features read from the position's maps
//            (features/strategic_context.h): the candidate's class (own territory, framework,
//            contested, open, the opponent's framework or territory), both sides' influence
//            bins, the move's strategic kind (secures, extends, reduces, invades, contests,
//            takes open ground), the distance to the nearest own and opponent stone, and the
//            game phase (30-move steps) crossed with the line, and the point's tactics for the
//            opponent (its capture, atari, ladder capture, save atari and ladder escape
//            there: both sides' ladder status). A model records the families it
//            uses (model file header "strategic_families"); the indices of the others stay
//            unused. Needs a StrategicContext set to the position (about 30 µs on 19x19 with
//            the maps); not for playouts.
//
// Point states, shapes and symmetries are those of features/pattern.h (kPatternVersion).
// Codes are relative to the player to move: a White-to-move code is swap_colors() of the
// Black-to-move code, so one weight serves both colours.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "features/pattern.h"
#include "features/radius3.h"
#include "features/strategic_context.h"
#include "go/board.h"
#include "go/position.h"

namespace hane {

/// Version of the softmax features (the meaning of fixed indices and pattern keys). Model files
/// record it with kPatternVersion; bump it whenever a feature's definition changes.
inline constexpr int kSoftmaxFeatureVersion = 1;

enum class FeatureSet : uint8_t { kRollout, kTree, kStrategic };
/// "rollout", "tree" or "strategic".
std::string_view feature_set_name(FeatureSet set);
std::optional<FeatureSet> parse_feature_set(std::string_view name);

/// Pattern dictionaries. Each candidate has at most one key of each kind.
enum class PatternKind : uint8_t {
  k3x3,       // canonical 3x3 around the move (every move)
  kResponse,  // canonical diamond12 with the previous move's point marked (moves within its diamond)
  kDiamond,   // canonical diamond12 (tree: every move)
  kRadius3,   // canonical 24-point pattern of radius 3, hashed to 64 bits (tree: every move)
};
inline constexpr int kNumPatternKinds = 4;
/// "3x3", "response", "diamond12", "radius3".
std::string_view pattern_kind_name(PatternKind kind);
/// Whether `set` uses pattern kind `kind`.
bool uses_pattern_kind(FeatureSet set, PatternKind kind);

/// Fixed features: indices 0..num_fixed_features(set)-1. The rollout set is a prefix of the
/// tree set. Groups marked "one of" give a candidate at most one feature of the group.
namespace fixed_feature {
inline constexpr uint16_t kResponse = 0;         // previous move within Manhattan distance 2
inline constexpr uint16_t kNeighbourOrth = 1;    // previous move orthogonally adjacent
inline constexpr uint16_t kNeighbourDiag = 2;    // previous move diagonally adjacent
inline constexpr uint16_t kSaveAtari = 3;
inline constexpr uint16_t kNakade = 4;           // + 2 * (size - 3) + (own eye ? 1 : 0); 8 features
inline constexpr int kNumRollout = 12;
inline constexpr uint16_t kSelfAtari = 12;       // one of: chain of 1, 2, 3+ stones left in atari
inline constexpr uint16_t kCapture = 15;         // one of: 1, 2, 3-6, 7+ stones captured
inline constexpr uint16_t kCaptureKo = 19;       // takes a ko
inline constexpr uint16_t kCaptureLast = 20;     // captures the chain of the previous move
inline constexpr uint16_t kAtari = 21;           // puts an opponent chain in atari
inline constexpr uint16_t kAtariLast = 22;       // puts the previous move's chain in atari
inline constexpr uint16_t kLadderCapture = 23;
inline constexpr uint16_t kLadderEscape = 24;
inline constexpr uint16_t kLiberties = 25;       // one of: 2, 3, 4+ liberties after the move
inline constexpr uint16_t kDistance = 28;        // one of: move_distance 2..16, 17+ (16 features)
inline constexpr uint16_t kDistance2 = 44;       // the same to the second-previous move
inline constexpr uint16_t kLine = 60;            // one of: line 1..5 (none from line 6)
inline constexpr int kNumTree = 65;
// Strategic (features/strategic_context.h for the bins):
inline constexpr uint16_t kClass = 65;           // one of: own territory, own framework, contested, open,
                                                 //   opponent framework, opponent territory (6)
inline constexpr uint16_t kInfluenceOwn = 71;    // one of: influence_bin of the mover's influence (6)
inline constexpr uint16_t kInfluenceOpp = 77;    // one of: the opponent's (6)
inline constexpr uint16_t kKind = 83;            // one of: secure, extend, reduce, invade, contest, open (6)
inline constexpr uint16_t kNearestOwn = 89;      // one of: nearest_bin to the mover's nearest stone (9)
inline constexpr uint16_t kNearestOpp = 98;      // one of: the same to the opponent's (9)
inline constexpr uint16_t kPhaseLine = 107;      // one of: 5 * phase_bin + min(line, 5) - 1 (50)
/// The strategic set's size before the opponent family: model files with this many fixed
/// weights are read as models without it.
inline constexpr int kNumStrategicBeforeOpponent = 157;
inline constexpr uint16_t kOppCapture = 157;     // the opponent would capture here
inline constexpr uint16_t kOppAtari = 158;       // the opponent would give atari here
inline constexpr uint16_t kOppLadderCapture = 159;  // ... and capture in a ladder
inline constexpr uint16_t kOppSaveAtari = 160;   // the opponent would save a chain in atari here
inline constexpr uint16_t kOppLadderEscape = 161;   // ... and escape the ladder
inline constexpr int kNumStrategic = 162;
inline constexpr int kMax = kNumStrategic;
}  // namespace fixed_feature

/// Number of fixed features of `set` (12, 65 or 162).
int num_fixed_features(FeatureSet set);
/// A readable name of fixed feature `index` ("response", "distance 5", "line 2"...).
std::string fixed_feature_name(int index);

/// The features of one candidate move.
struct CandidateFeatures {
  static constexpr int kMaxFixed = 28;  // tree 16, strategic 7 + 5
  std::array<uint16_t, kMaxFixed> fixed{};
  int num_fixed = 0;
  /// keys[k] is valid when bit k of key_mask is set.
  std::array<uint64_t, kNumPatternKinds> keys{};
  uint8_t key_mask = 0;

  void add_fixed(uint16_t f) { fixed[num_fixed++] = f; }
  void set_key(PatternKind k, uint64_t key) {
    keys[static_cast<int>(k)] = key;
    key_mask |= static_cast<uint8_t>(1u << static_cast<int>(k));
  }
  bool has_key(PatternKind k) const { return (key_mask >> static_cast<int>(k)) & 1; }
};

/// The features of `ctx.to_move` playing the legal move `v` under feature set `set`.
/// `black_diamond` is the diamond12 code around `v` for Black to move (PatternTracker::
/// black_code or BoardStates::diamond_code); `states` the board's states (needed by the tree
/// set for the radius-3 pattern; may be null for rollout). Rollout costs a few tens of ns;
/// tree adds move_facts() with ladders (about 1 µs when a ladder must be read). `strategic`
/// (strategic set only, required there) must have been set to `ctx` (set_position); its
/// families decide which strategic features a candidate gets.
void candidate_features(FeatureSet set, const Position& ctx, Vertex v, uint64_t black_diamond,
                        const BoardStates* states, CandidateFeatures* out,
                        const StrategicContext* strategic = nullptr);

/// Only the features that depend on the previous move (rollout: response, neighbour, the
/// response pattern), added to `out`. candidate_features() includes them; for the rollout set
/// the score of a candidate is the score of its features without a previous move plus the
/// score of these (the incremental policy keeps the two apart).
void response_features(const Position& ctx, Vertex v, uint64_t black_diamond, CandidateFeatures* out);

}  // namespace hane
