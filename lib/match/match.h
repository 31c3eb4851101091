// A tournament: the options checked, the deterministic schedule (schedule.h), the output folder
// opened or resumed (results_store.h: settings, results, SGFs), every engine checked before any
// game, the games played by the runner (runner.h) with each finished game recorded at once and
// the SPRT checked after each, then the report (report.h) and plots.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "match/engine.h"
#include "match/referee.h"
#include "match/schedule.h"
#include "match/stats.h"
#include "nlohmann/json.hpp"

namespace hane {

struct MatchOptions {
  std::vector<EngineSpec> engines;  // two or more, unique names
  bool gauntlet = false;            // engine 0 against each other; else round robin
  int64_t games = 100;              // per pairing (the most, with an SPRT)
  GameSettings game;
  std::vector<Opening> openings;
  uint64_t seed = 1;
  int parallel = 0;                 // games at once per rank; 0 = one per core
  std::optional<SprtParams> sprt;   // two engines only
  std::string out_dir;              // required
  bool progress = true;             // progress lines on stderr
  bool plots = true;
  nlohmann::json provenance;        // command line, versions...; completed by run_match
};

struct MatchOutcome {
  nlohmann::json report;  // match_report_json
  std::string text;       // match_report_text plus the plot line
  bool interrupted = false;
  int64_t games_left = 0;  // scheduled games not played (0 when finished or SPRT decided)
};

/// Runs (or resumes) the match in out_dir (its layout and what a resume keeps: results_store.h).
/// Errors: InvalidArgument for bad options (fewer than two engines, a name given twice, a
/// handicap the board does not allow, openings with a handicap, an opening with an illegal
/// move), an out_dir that holds another match's settings or files but no match, or a file in
/// sgf/ the match did not write; FailedPrecondition naming the engine when one does not start or answer `name`
/// (checked before any game); Internal for I/O errors on out_dir.
/// When `interrupt` becomes true, games in progress are abandoned (not recorded), engines
/// are stopped and the outcome says interrupted.
/// With several ranks (cluster/cluster.h) every rank must call it with the same options
/// (`parallel` counts per rank); rank 0 writes out_dir and gets the full outcome, the other
/// ranks get only `interrupted` (agreed by all ranks; report empty, text empty, games_left 0).
absl::StatusOr<MatchOutcome> run_match(const MatchOptions& options, const std::atomic<bool>* interrupt);

}  // namespace hane
