// The strategic prior of the search (SearchOptions::strategic_weight): whole-board knowledge
// for the children of the root and of its children, after the "master agent" of the design the
// engine was drawn from, which weighs its strategic proposals by the game's phase and penalises
// the empty triangle.
//
// A move's term t, in nats:
//   t = odds(kind) · phase(move_number) + (empty triangle ? kEmptyTrianglePenalty : 0)
// where kind is the move's strategic kind (features/influence.h strategic_kind, from the
// classes of the position with the tactics reader's dead stones removed) and odds(kind) the
// log-odds weight that kind earned beside the `tree` features in the ablation model of
// patterns/README.md ("Strategic features": the tree set plus `kind`, trained on 300,483 KGS
// positions): open ground +0.62, contested +0.37, reduces +0.27, extends +0.13, secures −0.60,
// invades −0.76. phase(m) = max(0, 1 − (m − 1) / (board_points / 2)): 1 at the first move,
// 0 after move 181 on 19×19, as the design lets the strategic engine fade when the board fills.
//
// The term re-weights the guesser's proposals as one more log-linear feature would:
// p' ∝ p · exp(λ · t), λ the weight (1 = the learned odds at the first move), the sum of the
// probabilities kept. So it re-ranks moves the guesser already proposes and cannot lift a
// move the guesser rules out (a first-line move in the opening stays unlikely).
#pragma once

#include <span>

#include "features/influence.h"
#include "go/board.h"

namespace hane {

/// The empty triangle's term, nats, at any phase.
inline constexpr double kEmptyTrianglePenalty = -0.5;

/// Whether `c` playing `v` (empty) makes an empty triangle: three stones of `c`, `v` among
/// them, in a 2×2 square whose fourth point is empty.
bool makes_empty_triangle(const Board& board, Vertex v, Color c);

/// The log-odds weight of a strategic kind (the header comment); 0 for kNone.
double strategic_kind_odds(StrategicKind kind);

/// The phase factor of move `move_number` (1 = the first move) on a board of `board_points`
/// points: 1 at the start, falling linearly to 0 at half the points.
double strategic_phase(int move_number, int board_points);

/// The term t of `c` playing `v` (empty) in the position of `maps` (the header comment).
double strategic_term(const Board& board, const BoardMaps& maps, Vertex v, Color c, int move_number);

/// Multiplies each probability of `scores` (one per move of `moves`, `c` to play, >= 0) by
/// exp(weight · term) and rescales them to their former sum.
void strategic_reweight(const Board& board, const BoardMaps& maps, Color c, int move_number, double weight,
                        std::span<const Vertex> moves, std::span<float> scores);

}  // namespace hane
