// The MCTS as a GTP move generator (search/search.h), with its budget, and the guesser that
// gives heat maps and explanations. EngineOptions describes an engine the same way everywhere
// (`hane gtp`, `hane play`, `hane match`).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "gtp/player.h"
#include "predict/guesser.h"

namespace hane::gtp {

struct EngineOptions {
  /// Policy, prior, threads, seed and the search's other knobs. search.playouts is the budget
  /// per move when neither `playouts` nor `time_per_move` is given and no clock runs.
  SearchOptions search;
  /// New simulations per move (0: not given). With a clock as well, the smaller budget wins.
  int64_t playouts = 0;
  /// Seconds per move (0: not given). With `playouts` as well, the first reached stops.
  double time_per_move = 0;
  /// Playouts behind the dead-stone and final-score estimate.
  int end_playouts = 1000;
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
  SearchResult genmove(const Game& game, const Request& request) override;
  /// Searches without a budget until the stop flag, reporting every interval.
  void analyze(const Game& game, const Request& request) override;
  EndEstimate estimate_end(const Game& game) override;
  std::vector<float> ownership(const Game& game) override;
  std::vector<float> priors(const Game& game, Color color) override;
  /// The guesser's view of the move: its rank and probability ("the guesser's 2nd choice
  /// (12%)"); with `model_words`, Guesser::explain's phrase before it.
  std::string explain(const Game& game, Color color, Vertex move, bool model_words = false) override;
  void new_game() override;

  const EngineOptions& options() const { return options_; }

 private:
  SearchPlayer(const EngineOptions& options, std::unique_ptr<Search> search, std::unique_ptr<Guesser> guesser);
  SearchLimits limits(const Game& game, const Request& request) const;

  EngineOptions options_;
  std::unique_ptr<Search> search_;
  std::unique_ptr<Guesser> guesser_;  // the prior's model, for priors() and explain()
};

/// The player `options` describe. When `fallback` is set and the policy or prior cannot be
/// used (a missing model file, a policy this build does not have), plays without what fails
/// (uniform policy, no prior) with a warning on `log`, instead of failing.
absl::StatusOr<std::unique_ptr<SearchPlayer>> make_search_player(EngineOptions options, bool fallback,
                                                                  std::ostream* log);

}  // namespace hane::gtp
