// Running a tournament: engines checked before any game, games played in parallel from the
// deterministic schedule, each finished game written as SGF and then appended to the results
// file, the SPRT checked after every game, and resuming from the results file.
//
// Output folder layout:
//   match.json       the settings that fix the schedule (a rerun must match them)
//   results.jsonl    one JSON object per finished game (see result.h), in finishing order
//   sgf/NNNNNN.sgf   one SGF per game in results.jsonl (game index, 6 digits)
//   files.txt        the SGFs the match wrote, a name a line, each noted before it is written
//   stderr/          what each engine wrote to stderr, per game: "<index>-<engine>.stderr"
//   report.json, report.txt, progress.dat, elo.svg, llr.svg
// A folder that holds files but no match.json is refused: the match never deletes or
// overwrites files it did not write. On resume a truncated last line of results.jsonl (a
// killed run) is dropped, SGFs that files.txt lists of games not in the results are deleted and
// missing SGFs are rewritten from the results, so the two always agree; games in progress when
// the run stopped are played again. Other files in sgf/ are left alone, except that a file named
// as the SGF of a game still to be played, and not written by the match, stops the run.
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

/// Runs (or resumes) the match. Errors: InvalidArgument for bad options (openings with a
/// handicap, an opening with an illegal move), an out_dir that holds another match's
/// settings or files but no match, or a file in sgf/ the match did not write (see above); FailedPrecondition naming the engine when one does not start or answer `name`
/// (checked before any game); Internal for I/O errors on out_dir.
/// When `interrupt` becomes true, games in progress are abandoned (not recorded), engines
/// are stopped and the outcome says interrupted.
/// With several ranks (cluster/cluster.h) every rank must call it with the same options
/// (`parallel` counts per rank); rank 0 writes out_dir and gets the full outcome, the other
/// ranks get only `interrupted` (agreed by all ranks; report empty, text empty, games_left 0).
absl::StatusOr<MatchOutcome> run_match(const MatchOptions& options, const std::atomic<bool>* interrupt);

}  // namespace hane
