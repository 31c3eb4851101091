// What the GTP engine asks of a move generator: a move for a colour within a budget, live
// analysis, the end-of-game estimate for scoring, the quick score estimate, priors and
// explanations for people. The MCTS
// (search_player.h) is the real one; the random player (random_player.h) is the cheap one the
// protocol tests play whole games with. Results use the search's types (search/search.h).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "go/game.h"
#include "search/score_estimate.h"
#include "search/search.h"
#include "search/time_control.h"

namespace hane::gtp {

/// What genmove / analysis may use, and how to stop early.
struct Request {
  Color color = Color::kBlack;
  /// The mover's clock (time_settings / time_left); nullptr or kind kNone: no time limit, the
  /// generator's own budget applies.
  const TimeControl* clock = nullptr;
  /// kgs-genmove_cleanup: do not pass while opponent stones that look dead are on the board.
  bool cleanup = false;
  /// The game is scored by territory (Japanese counting), not by area: for the pass decision.
  bool territory = false;
  /// Set from another thread (gogui-interrupt; new input during analysis): stop and answer with
  /// the best result so far.
  const std::atomic<bool>* stop = nullptr;
  /// Live analysis: called about every `report_interval` seconds from the calling thread
  /// during genmove (the caller reports the final result itself).
  std::function<void(const SearchResult&)> report;
  double report_interval = 1.0;
};

class MoveGenerator {
 public:
  virtual ~MoveGenerator() = default;

  /// Short description for logs, e.g. "mcts softmax 3000 playouts".
  virtual std::string name() const = 0;

  /// A move for request.color in `game` (not changed meanwhile): result.move is legal in
  /// `game` (superko included) or pass, unless result.resign.
  virtual SearchResult genmove(const Game& game, const Request& request) = 0;

  /// Analyses `game` for request.color until *request.stop is set (at once if request.stop is
  /// null), calling request.report at least once. The default reports one genmove result,
  /// then waits for the stop.
  virtual void analyze(const Game& game, const Request& request);

  /// Dead stones, seki and the final score of the position (search.h's EndEstimate).
  virtual EndEstimate estimate_end(const Game& game) = 0;

  /// The quick score estimate of GTP estimate_score (search/score_estimate.h), counted by
  /// territory when `territory`, else by area, with the game's komi. The default is static:
  /// the tactics reader's dead stones, no playouts (well under a millisecond on 19x19).
  virtual ScoreEstimate estimate_score(const Game& game, bool territory);

  /// Black's ownership per Vertex::index() in [-1, 1], from the last search when there was one.
  virtual std::vector<float> ownership(const Game& game) { return estimate_end(game).ownership; }

  /// The guesser's probability of each point for `color`, per Vertex::index() (0 where
  /// illegal); empty if the generator has no guesser.
  virtual std::vector<float> priors(const Game& /*game*/, Color /*color*/) { return {}; }

  /// Why `move` is liked for `color` in `game` (before the move): a short phrase in a player's
  /// words ("the guesser's 1st choice (31%)"), or "" if there is none. With `model_words`, the
  /// guesser's own account comes first (its pattern, features or the tree's questions).
  virtual std::string explain(const Game& /*game*/, Color /*color*/, Vertex /*move*/, bool /*model_words*/ = false) {
    return "";
  }

  /// A new game or a changed one (boardsize, clear_board, loadsgf, komi, rules, undo): drop
  /// whatever was kept about the old one.
  virtual void new_game() {}
};

}  // namespace hane::gtp
