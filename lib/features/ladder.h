// Ladders: can a chain be captured by a chase of ataris? One of the tactical facts
// (tactics.h, whose conventions hold here), read by the guessers' features, the playouts
// (playout/rules.h) and the tree (search.h, prune_ladders).
//
// A ladder read is a search in which the attacker may only play ataris (on one of the two
// liberties of the target chain) and the defender may only extend the target at its single
// liberty or capture an attacking chain in atari that touches the target. After a defender
// move the target escapes with >= 3 liberties, is captured with <= 1, and the attacker must
// atari again with 2. Ladder breakers, the defender's counter-captures, simple ko (through
// Board::legal) and the edge all come out of the search itself. The search plays its moves
// with Board::play_legal(v, c, log) and takes each back with Board::undo, on one per-thread copy
// of the board (or, with the *_in_place functions, on the caller's own board: no copy at all);
// both sides' obvious failures (an atari after which the defender's extension reaches 3
// liberties) are pruned without playing.
#pragma once

#include "go/board.h"

namespace hane {

/// Bounds of a ladder read. When either is exceeded the read gives up and the attacker is
/// deemed to fail (the target "escapes"): a capture must be proven within the limits.
struct LadderLimits {
  int max_plies = 200;   // depth of the search, in moves of either side
  int max_nodes = 2000;  // positions visited in one read
};

/// True if the attacker captures the chain of `chain` (a stone of opponent(attacker)) in a
/// ladder. With 1 liberty the defender is to move (can it run or counter-capture?); with 2
/// liberties the attacker is to move (does an atari start a working ladder?). False for chains
/// with 3 or more liberties.
bool ladder_captured(const Board& board, Vertex chain, Color attacker, const LadderLimits& limits = {});

/// Ladder capture (AlphaGo tree feature): `c` playing `v` puts at least one opponent chain in
/// atari and one of those chains is then captured in a ladder, the opponent to move.
bool ladder_capture(const Board& board, Vertex v, Color c, const LadderLimits& limits = {});

/// Ladder escape (AlphaGo tree feature): `c` playing `v` saves at least one of its chains from
/// atari (see MoveFacts::saved_stones) and at least one saved chain cannot then be captured in
/// a ladder, the opponent to move (3+ liberties, or 2 and every ladder fails).
bool ladder_escape(const Board& board, Vertex v, Color c, const LadderLimits& limits = {});

/// The same three answers, read on `board` itself instead of a per-thread copy of it: the read
/// plays its moves on `board` and takes them back (Board::undo), so `board` is unchanged on
/// return, and nothing else may read it meanwhile. For callers that own their board (the
/// playout policies): a 19x19 board copy costs more than most playout ladder reads.
bool ladder_captured_in_place(Board& board, Vertex chain, Color attacker, const LadderLimits& limits = {});
bool ladder_capture_in_place(Board& board, Vertex v, Color c, const LadderLimits& limits = {});
bool ladder_escape_in_place(Board& board, Vertex v, Color c, const LadderLimits& limits = {});

}  // namespace hane
