// Tactical facts about a candidate move: captures, ataris given and escaped, self-atari,
// liberties after the move, ladders, nakade vital points and move distances.
//
// These are the "tactical" inputs of the move guessers: the AlphaGo rollout and tree policies
// (Silver et al., "Mastering the game of Go with deep neural networks and tree search", Nature
// 2016, Extended Data Table 4: save atari, self-atari, atari, ladder capture/escape, ...) and
// the decision tree's questions. Ladders (ladder.h) and nakade (nakade.h) have headers of their
// own, included here. All facts of a move except ladders are computed from the
// liberty sets of the neighbouring chains without playing the move (a few tens of ns); ladders
// play moves on scratch copies of the board and cost more.
//
// Conventions: `v` is the candidate point, `c` the colour that plays it (black or white), and
// the move must be legal (Board::legal(v, c) == Legality::kLegal, v a point, not pass).
// "Chain" means a maximal 4-connected group of stones of one colour; "in atari" means with
// exactly one liberty.
#pragma once

#include <cstdint>

#include "features/ladder.h"
#include "features/nakade.h"
#include "go/board.h"

namespace hane {

// ---------------------------------------------------------------------------------------------
// Move-level facts computed without playing.

/// Number of opponent stones that `c` playing `v` captures (0 if none): the stones of every
/// opponent chain next to `v` whose only liberty is `v`. Several chains add up.
int capture_size(const Board& board, Vertex v, Color c);

/// Liberties of the chain that `c` forms by playing `v` (the stone merged with its neighbouring
/// own chains), counting the points freed by the move's captures; at most `cap` (cap >= 1), so
/// the work stops once `cap` distinct liberties are found. 0 only for a suicide, which is legal
/// only on boards that allow it. Exact for cap >= the true count.
int liberties_after(const Board& board, Vertex v, Color c, int cap = 4);

// ---------------------------------------------------------------------------------------------
// Distances (plain helpers on the board geometry; a and b are on-board points).

/// |dx| + |dy|.
int manhattan_distance(const Geometry& g, Vertex a, Vertex b);
/// |dx| + |dy| + max(|dx|, |dy|): the move-distance feature of R. Coulom, "Computing Elo
/// Ratings of Move Patterns in the Game of Go" (ICGA Journal 2007), also used by Pachi.
/// 0 for a == b, 2 for adjacent points, 3 for diagonal ones.
int move_distance(const Geometry& g, Vertex a, Vertex b);
/// The line `v` is on: 1 on the edge, 2 next to it, ... (1 + distance to the nearest edge).
int edge_line(const Geometry& g, Vertex v);

// ---------------------------------------------------------------------------------------------
// Everything about one candidate.

enum class LadderReading : uint8_t { kSkip, kRead };

/// Facts about `c` playing the legal move `v`, in at most 16 bytes. Counts of stones are
/// exact; chains and liberties are capped as noted.
struct MoveFacts {
  static constexpr int kLibertyCap = 4;

  /// Opponent stones captured by the move (capture_size()).
  uint16_t capture_size = 0;
  /// Stones in the move's chain after the move: 1 + the sizes of the own chains it joins.
  uint16_t chain_size = 0;
  /// Save atari: stones of own chains that were in atari before the move and have >= 2
  /// liberties after it, whether joined by the move or freed by its captures (a capture next
  /// to an atari chain elsewhere). 0 if the move saves nothing.
  uint16_t saved_stones = 0;
  /// Atari: opponent stones left with exactly one liberty by the move, i.e. the opponent
  /// chains next to `v` that had 2 liberties (v and one other). Counted whether or not the move
  /// is itself a self-atari; read with `self_atari` to tell a throw-in (the opponent may capture
  /// the stone and undo the atari) from a safe atari. Captures never add liberties to other
  /// opponent chains, so no other chain can be in or out of atari because of the move. 0 for a
  /// suicide (legal only where allowed), which gives the point back.
  uint16_t atari_stones = 0;
  uint8_t captured_chains = 0;  // opponent chains captured, 0..4
  uint8_t atari_chains = 0;     // opponent chains put in atari, 0..4
  /// Liberties of the move's chain after the move (captures included), capped at kLibertyCap
  /// (4 means "4 or more"). 0 only for a suicide on a board that allows it.
  uint8_t liberties = 0;
  /// edge_line(v): 1 on the edge.
  uint8_t line = 0;
  /// 3..6 if `v` is the vital point of a killing eye space (nakade_shape()), else 0.
  uint8_t nakade_size = 0;
  /// Self-atari: the move's chain has exactly one liberty after the move (captures included).
  /// Its size is chain_size. A move that captures can be a self-atari (taking a ko, capturing
  /// into a snapback); see capture_size and ko.
  bool self_atari : 1 = false;
  /// The move captures exactly one stone and leaves a lone stone with one liberty: it takes a
  /// ko, and the opponent may not retake at once (Board's simple ko).
  bool ko : 1 = false;
  /// The nakade point is in an eye space that `c` encloses (a defending move) rather than
  /// the opponent (an attacking move). Meaningful when nakade_size > 0.
  bool nakade_own : 1 = false;
  /// Ladder facts below were computed (LadderReading::kRead); otherwise they are false.
  bool ladders_read : 1 = false;
  bool ladder_capture : 1 = false;  // see ladder_capture()
  bool ladder_escape : 1 = false;   // see ladder_escape()

  bool captures() const { return capture_size > 0; }
  bool save_atari() const { return saved_stones > 0; }
  bool atari() const { return atari_chains > 0; }
};

/// All facts about `c` playing the legal move `v`. Without ladders the cost is a few tens of
/// ns (neighbour chains' liberty counts; liberty sets only next to chains of few liberties; a
/// walk of the captured stones; for nakade, a flood fill of at most 7 points only where the
/// neighbours' empty counts allow a vital point). With ladders, a move that gives atari or
/// saves an atari chain is first decided without playing when it can be (the atari'd chain
/// runs to 4+ liberties; the saved chain has 3+); otherwise it costs one board copy plus the
/// read (about 1 us on 19x19).
MoveFacts move_facts(const Board& board, Vertex v, Color c, LadderReading ladders = LadderReading::kSkip,
                     const LadderLimits& limits = {});

/// The self-atari the playout policies refuse (playout/rules.h): `c` playing the legal move `v`
/// captures nothing and leaves its chain, of at least `min_stones` stones after the move, with
/// one liberty. The same as MoveFacts::self_atari && capture_size == 0 && chain_size >=
/// min_stones, without the other facts (a point with 2+ empty neighbours is decided at once).
bool is_self_atari(const Board& board, Vertex v, Color c, int min_stones = 1);

/// MoveFacts::saved_stones > 0 for `c` playing the legal move `v`, decided without move_facts()
/// when no neighbouring chain is in atari (the common case).
bool saves_atari(const Board& board, Vertex v, Color c);

}  // namespace hane
