// Learning the joseki dictionary (predict/joseki.h) from game records.
//
// Every position before a move of a game's opening (moves 1..max_moves) is read in each of its
// four corners (features/corner.h): the corner's key for the side to move, and the move played,
// as a local index when it fell in the corner's box or as a tenuki otherwise (a pass too). A
// corner is read while its box holds at most max_stones stones; from the first position with
// more, it is left alone for the rest of the game. So a corner whose position stays while play
// goes on elsewhere counts an occurrence, a tenuki, at every move: a reply's share (count over
// occurrences) is the chance that a strong player plays it when the position stands, and a
// settled corner draws few moves.
//
// Kept: the local positions seen in at least min_games distinct games (one game can show a
// position in several corners, or at many moves while it stands), and of each, the replies
// played in at least min_reply_games distinct games; rarer replies stay counted among the
// occurrences (with the tenuki) but are not stored.
//
// Measured on the validation games: how often the corner position before a move is in the
// dictionary, and for the moves played in the corner's box, whether the dictionary's most
// played reply (or any of its replies) is the move.
#pragma once

#include <cstdint>
#include <vector>

#include "corpus/corpus.h"
#include "predict/joseki.h"

namespace hane {

struct JosekiTrainOptions {
  /// The board size trained for; games of other sizes are skipped (and counted).
  int board_size = 19;
  /// Side of the corner box, points (features/corner.h).
  int region = 9;
  /// Positions before moves 1..max_moves are read.
  int max_moves = 80;
  /// A corner is read while its box holds at most this many stones.
  int max_stones = 20;
  /// Local positions seen in fewer distinct games are dropped.
  int64_t min_games = 10;
  /// Replies played in fewer distinct games (of a kept position) are not stored.
  int64_t min_reply_games = 2;
  bool progress = true;
};

/// The validation figures (see the top of this file).
struct JosekiValidation {
  int64_t games = 0;
  int64_t occurrences = 0;     // corner positions read
  double known = 0;            // share of them in the dictionary
  int64_t local_moves = 0;     // occurrences whose move was in the corner's box
  double known_local = 0;      // share of the local moves whose position is in the dictionary
  /// Of those known local moves, the share where the most played reply is the move (ties
  /// split evenly), and where the move is among the kept replies.
  double top1 = 0;
  double listed = 0;
};

/// The dictionary of `train`, measured on `validation` (which may be empty). The dictionary's
/// `training` JSON holds the options, the counts (games used and skipped, occurrences, distinct
/// and kept positions, kept replies) and the validation figures. Ctrl-C (util/interrupt.h,
/// inside an InterruptScope) stops counting after the current game and keeps what was counted.
/// Errors (std::invalid_argument): options out of range (as JosekiDictionary::create, and
/// min_games, min_reply_games >= 1).
JosekiDictionary train_joseki(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
                              const JosekiTrainOptions& options);

/// The figures of `dictionary` on `games` (see the top of this file).
JosekiValidation measure_joseki(const JosekiDictionary& dictionary, const std::vector<CorpusGame>& games);

}  // namespace hane
