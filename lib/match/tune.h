// Tuning engine settings by SPSA over games (spsa.h gives the arithmetic and its sources).
//
// The run is cut into batches of `pairs` game pairs. Batch b draws flips (spsa_flips(seed, b))
// and plays, with the SPSA step at the pairs done so far:
//   without an opponent: `pairs` colour-swapped pairs of plus (theta + c_k flip) against minus
//     (theta - c_k flip); the batch's result is plus's W - L;
//   against an opponent X: `pairs` colour-swapped pairs of plus against X and as many of minus
//     against X (the minus game uses the seed of the plus game it mirrors); the result is
//     (plus's W - L) - (minus's W - L), whose mean equals the direct pairs' (each side's
//     score against X moves with its strength).
// Then theta moves (Spsa::update, k advances by `pairs`). A void game counts 0; a forfeit is a
// loss of the side that forfeited (the referee's result). Each game has its own seed as in a
// match (SplitMix64 of the run's seed and the game's index).
//
// Output folder, kept by the results store of a match (results_store.h, StoreKind tune.json):
//   tune.json            the settings (a rerun must match them)
//   results.jsonl        one line per game (match/result.h) plus "tune": {batch, plus, minus},
//                        the values the engines were given
//   sgf/, stderr/, files.txt   as in a match
//   trajectory.dat       per batch: pairs done, theta of every parameter, result, running Elo
//   report.json, report.txt, and with gnuplot theta-<key>.svg per parameter and elo.svg
// Resume: the trajectory is replayed from results.jsonl batch by batch (the recorded values
// must be those the replay computes); the first incomplete batch plays its missing games.
// Under several ranks (cluster/cluster.h) each batch's games are spread over the ranks (game j
// on rank j mod ranks), and every rank gets every result, so all compute the same theta: the
// run is the one a single process makes (for deterministic engines, the same games).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "match/engine.h"
#include "match/referee.h"
#include "match/spsa.h"
#include "nlohmann/json.hpp"

namespace hane {

struct TuneOptions {
  std::vector<SpsaParam> params;
  /// Per parameter: the engines get values rounded to whole numbers.
  std::vector<bool> integer;
  /// The engine named `name` playing with `values` (one text per parameter, as spsa.h's
  /// engine_value writes them).
  std::function<absl::StatusOr<EngineSpec>(const std::string& name, const std::vector<std::string>& values)> engine;
  std::string name = "tuned";        // the tuned engine's name: NAME+ and NAME- in games
  std::optional<EngineSpec> against;
  int64_t games = 1000;               // the most games of the run (rounded up to whole batches)
  int pairs = 4;                      // pairs per batch
  SpsaSchedule schedule;
  GameSettings game;
  uint64_t seed = 1;
  int parallel = 0;                   // games at once per rank; 0 = one per core
  std::string out_dir;
  bool progress = true;
  bool plots = true;
  nlohmann::json settings;            // what else fixes the run (engine specs...): kept in tune.json
  nlohmann::json provenance;
};

struct TuneOutcome {
  nlohmann::json report;
  std::string text;
  bool interrupted = false;
  bool finished = false;               // every batch played
  std::vector<double> theta;
  std::vector<std::string> values;     // theta as the engines would get it
};

/// Runs (or resumes) the tuning. Errors: InvalidArgument for bad options, an out_dir holding
/// another run (naming the setting that differs, with both values) or files but no tune.json,
/// or a file in sgf/ the run did not write where a game still to be played goes;
/// FailedPrecondition naming the engine when one does not start (checked before any game) or a
/// game cannot be played; Internal for I/O errors. When `interrupt` becomes true
/// the games in progress are abandoned and the outcome says interrupted. Every rank calls it
/// with the same options; rank 0 writes and gets the report, the others only `interrupted`,
/// `finished` and `theta`.
absl::StatusOr<TuneOutcome> run_tune(const TuneOptions& options, const std::atomic<bool>* interrupt);

}  // namespace hane
