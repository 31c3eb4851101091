// The MCTS as a GTP move generator (search/search.h), with its budget, and the guesser that
// gives heat maps and explanations. EngineOptions describes an engine the same way everywhere
// (`hane gtp`, `hane play`, `hane match`).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "gtp/player.h"
#include "predict/guesser.h"
#include "search/dynamic_komi.h"

namespace hane::gtp {

struct EngineOptions {
  /// Policy, prior, threads, seed and the search's other knobs. search.playouts is the budget
  /// per move when none of `playouts`, `visits` and `time_per_move` is given and no clock runs.
  SearchOptions search;
  /// Per board size: when set, the search on large boards (kLargeBoard and more) runs with
  /// these options instead of `search` (settings measured on 19×19 ship for 19×19:
  /// docs/strength.md); the budget fields (`playouts`, `visits` below) apply to both.
  std::optional<SearchOptions> large_board_search;
  /// New simulations per move (0: not given). With a clock as well, the smaller budget wins.
  int64_t playouts = 0;
  /// Root visits per move, the reused subtree included, as Pachi's `-t =N` (0: not given).
  /// With `playouts` or a clock as well, the first limit reached stops.
  int64_t visits = 0;
  /// Seconds per move (0: not given). With a count budget as well, the first reached stops.
  double time_per_move = 0;
  /// Playouts behind the dead-stone and final-score estimate, and behind genmove's pass and
  /// cleanup decisions.
  int end_playouts = 1000;
  /// Playouts behind estimate_score's dead-stone guess (search/score_estimate.h); 0: static.
  int estimate_playouts = 64;
  /// Resign only after this many of the player's moves in a row below
  /// search.resign_threshold (and never in the opening: while both the moves played and the
  /// stones on the board are fewer than size² / 4), >= 1.
  int resign_moves = 1;
  /// Dynamic komi when far ahead or behind (search/dynamic_komi.h), off by default.
  DynamicKomiOptions dynamic_komi;
};

/// The shipped defaults, the best measured at equal time (docs/strength.md): the `rules`
/// playout policy and the KGS decision tree from `patterns_dir` as prior.
EngineOptions default_engine_options(const std::string& patterns_dir);

class SearchPlayer final : public MoveGenerator {
 public:
  /// Errors: those of Search::create (unknown policy, unreadable model files, bad options).
  static absl::StatusOr<std::unique_ptr<SearchPlayer>> create(const EngineOptions& options);
  ~SearchPlayer() override;

  std::string name() const override;
  /// The search's move, then the player's decisions, taken here only: in cleanup mode
  /// (request.cleanup, kgs-genmove_cleanup) a move that captures opponent stones estimated dead
  /// (estimate_end) while there are any, never a pass while any other move is left; after the
  /// opponent's pass, pass when the game is over and passing wins under the game's scoring
  /// (request.territory) with the estimated dead stones removed, or when the best win rate is
  /// below 5% (so a lost game still ends), else play the best other move. Over: no open point
  /// is left, an empty point that touches one colour only (or none) and that the playouts give
  /// to neither side (|ownership| < 0.5); a pass in reply ends the game, so an early pass (on
  /// an empty board every point is open) is answered with a move, as GNU Go 3.8 answers it.
  /// Resign after options().resign_moves moves in a row below search.resign_threshold, never in
  /// the opening. The move is legal in `game`.
  SearchResult genmove(const Game& game, const Request& request) override;
  /// Searches without a budget until the stop flag, reporting every interval.
  void analyze(const Game& game, const Request& request) override;
  EndEstimate estimate_end(const Game& game) override;
  /// The maps with the dead stones of options().estimate_playouts playouts and of the tactics
  /// reader (search/score_estimate.h). The playouts are the engine's policy with the
  /// estimate's own settings (estimate_policy_options), run by a search of their own.
  ScoreEstimate estimate_score(const Game& game, bool territory) override;
  std::vector<float> ownership(const Game& game) override;
  std::vector<float> priors(const Game& game, Color color) override;
  /// The guesser's view of the move: its rank and probability ("the guesser's 2nd choice
  /// (12%)"); with `model_words`, Guesser::explain's phrase before it.
  std::string explain(const Game& game, Color color, Vertex move, bool model_words = false) override;
  void new_game() override;

  const EngineOptions& options() const { return options_; }
  /// The search options on a board of `size` points a side (options().large_board_search on
  /// large boards when set, else options().search, with the budget given).
  const SearchOptions& search_options(int size) const { return search_for(size).options(); }

 private:
  SearchPlayer(const EngineOptions& options, std::unique_ptr<Search> search, std::unique_ptr<Search> large);
  /// The search for a board of `size` points a side: the large-board one when there is one.
  Search& search_for(int size) const { return size >= kLargeBoard && large_ ? *large_ : *search_; }
  SearchLimits limits(const Game& game, const Request& request) const;
  void decide(const Game& game, const Request& request, SearchResult& result);
  /// The search behind estimate_score's playouts on a board of `size` points a side: the
  /// engine's policy with estimate_policy_options, no prior, one thread; the engine's own
  /// search if that cannot be made.
  Search& estimate_search(int size);
  /// A playout or visit count limits a move: given, or the default when no time is.
  bool count_budget() const { return options_.playouts > 0 || options_.visits > 0 || options_.time_per_move <= 0; }

  EngineOptions options_;
  std::unique_ptr<Search> search_;
  std::unique_ptr<Search> large_;     // with options_.large_board_search; nullptr without
  std::unique_ptr<Search> estimate_[2];  // estimate_score's playouts (small, large boards); made when asked
  bool estimate_failed_[2] = {false, false};
  int low_moves_ = 0;                 // moves in a row below the resign threshold
  DynamicKomi dynamic_komi_[2];       // Black's, White's
};

/// The player `options` describe. When `fallback` is set and the policy or prior cannot be
/// used (a missing model file, a policy this build does not have), plays without what fails
/// (uniform policy, no prior) with a warning on `log`, instead of failing.
absl::StatusOr<std::unique_ptr<SearchPlayer>> make_search_player(EngineOptions options, bool fallback,
                                                                  std::ostream* log);

}  // namespace hane::gtp
