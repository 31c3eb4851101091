// The game runner: plays a list of scheduled games between engines, several at once, with the
// referee (referee.h: rules, faults, dead stones, clocks) and each game's seed, and hands every
// finished game to its caller, which records it (results_store.h) and decides whether to go on
// (an SPRT, an SPSA step). It keeps no files and knows nothing of resuming; run_match (match.h)
// and `hane tune` drive it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "match/engine.h"
#include "match/referee.h"
#include "match/result.h"

namespace hane {

struct RunnerOptions {
  std::vector<EngineSpec> engines;  // GameAssignment::black / white index this list
  GameSettings game;
  int parallel = 0;                 // games at once (per rank); 0 = one per core
  std::string stderr_dir;           // per game, each engine's stderr; "" for none
  bool progress = true;             // a progress line on stderr
  std::string progress_label = "match";
};

/// The engines' answers to `name` and `version`, in the order of RunnerOptions::engines.
struct EngineIdentity {
  std::vector<std::string> names, versions;
};

/// Starts every engine once (with `seed`, for engines started per game) and asks its name and
/// version, before any game; on every rank (each starts its own engines). Errors:
/// FailedPrecondition naming the engine, with its last stderr lines (prefixed by the rank under
/// several ranks); Cancelled when `interrupt` became true meanwhile (on any rank).
absl::StatusOr<EngineIdentity> check_engines(const std::vector<EngineSpec>& engines, uint64_t seed, double timeout_s,
                                             const std::atomic<bool>* interrupt);

/// What the caller does with the games (at rank 0 under several ranks).
struct GameSink {
  /// Called with each finished game, one at a time: in finishing order with one process, in
  /// schedule order within a round under several ranks. An error stops the run and is returned.
  std::function<absl::Status(GameResult&&)> record;
  /// True when no more games should start (an SPRT decided); asked before the first game and
  /// after each record. Null: never.
  std::function<bool()> done;
  /// The note on the progress line (e.g. the score so far); null for none.
  std::function<std::string()> note;
};

/// Plays `games` (each engine a process per worker, restarted after faults or per game) until
/// all are played, `sink.done()`, a failure or `interrupt`. Games in progress at an interrupt
/// are abandoned, not recorded (with one process, also those that end after it); at a failure,
/// games in progress finish and are recorded.
/// A game's `date` is set to the UTC day it ended.
/// Several ranks (cluster/cluster.h): every rank calls it with the same games; they are played in
/// rounds of 2 x parallel (the largest over ranks) games per rank, game j of a round on rank
/// j mod ranks; after each round rank 0 gathers the finished games and records them in schedule
/// order, asking done() after each (every earlier game is then finished: the schedule-order
/// prefix, so the results equal those of one process playing game after game); when done, the
/// round's later games are dropped, and every rank learns whether to stop (done, a failure, an
/// interrupt on any rank). Returns the games recorded (at rank 0; 0 on the other ranks, whose
/// failures rank 0 reports). Errors: an engine's start-up error (FailedPrecondition), the sink's.
absl::StatusOr<int64_t> play_games(const RunnerOptions& options, std::span<const GameAssignment* const> games,
                                   const GameSink& sink, const std::atomic<bool>* interrupt);

}  // namespace hane
