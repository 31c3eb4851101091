// The output folder of a match or a tuning run: the settings that fix its schedule, the games
// played, one SGF per game, and what a resume keeps or removes. The runner (runner.h) plays
// games, the store records them, and run_match (match.h) and run_tune (tune.h) join the two.
//
// Layout (a tuning run's settings file is tune.json: StoreKind):
//   match.json       the settings that fix the schedule (a rerun must give the same ones,
//                    unless the folder holds no recorded game yet)
//   results.jsonl    one JSON object per finished game (see result.h), in finishing order,
//                    with the owner's own entries (a tuning run's "tune")
//   sgf/NNNNNN.sgf   one SGF per game in results.jsonl (game index, 6 digits)
//   files.txt        the files the store wrote, a name a line, each noted before it is written
//                    (util/files.h: OwnedFolder)
//   stderr/          what each engine wrote to stderr, per game (the referee writes it)
//   and the files the owner writes with write_file (report.json, report.txt, plots...).
// The store never deletes or overwrites a file it did not write: a folder that holds files but
// no match.json is refused. On opening, a truncated last line of results.jsonl (a killed run)
// is dropped, SGFs that files.txt lists of games not in the results are deleted and missing
// SGFs are rewritten from the results, so the two always agree; games in progress when a run
// stopped are played again. Other files in sgf/ are left alone, but a file named as the SGF of
// a game still to be played and not written by the store is refused (it would be overwritten).
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "match/referee.h"
#include "match/result.h"
#include "nlohmann/json.hpp"
#include "util/files.h"

namespace hane {

/// Whose folder it is: the settings file that marks it, and the names messages use.
struct StoreKind {
  std::string settings_file = "match.json";
  std::string what = "match";     // "DIR holds a match with other settings"
  std::string command = "match";  // the prefix of lines on stderr
};

class ResultsStore {
 public:
  /// Opens (making it when new) the folder `dir` for the games of `schedule` under `settings`
  /// (any JSON object; kept in the settings file), repairing it as above. A results line of a
  /// game beyond the schedule (a rerun with fewer games) is kept in the file but not loaded; a
  /// line that does not fit its scheduled game is dropped (both with a line on stderr).
  /// Errors: InvalidArgument naming the folder and, for other settings, the first setting that
  /// differs with both values, or naming a file that is not the store's; Internal for I/O errors.
  static absl::StatusOr<std::unique_ptr<ResultsStore>> open(const std::string& dir, const nlohmann::json& settings,
                                                            std::span<const GameAssignment> schedule,
                                                            const StoreKind& kind = {});
  ~ResultsStore();
  ResultsStore(const ResultsStore&) = delete;
  ResultsStore& operator=(const ResultsStore&) = delete;

  /// The games recorded before this run, in schedule order.
  const std::vector<GameResult>& loaded() const { return loaded_; }
  /// The results lines of those games by game index, with the owner's entries (`extra`).
  const std::map<int64_t, nlohmann::json>& loaded_lines() const { return loaded_lines_; }
  /// Writes the game's SGF (noted in files.txt first), then appends its results line (with the
  /// entries of `extra`, an object, added), in that order, so that a resume never finds a
  /// result without its SGF. Internal on I/O errors.
  absl::Status record(const GameResult& g, const nlohmann::json& extra = nullptr);
  /// Writes `content` to `dir/name` whole (util/files.h: noted in files.txt, a flushed
  /// temporary file renamed over it): the owner's reports and plots, of fixed names.
  absl::Status write_file(const std::string& name, const std::string& content);

  const std::string& dir() const { return dir_; }
  std::string stderr_dir() const { return dir_ + "/stderr"; }

  /// "sgf/000015.sgf": where the SGF of game `index` is, relative to the folder.
  static std::string sgf_name(int64_t index);

 private:
  ResultsStore(std::string dir, OwnedFolder folder, StoreKind kind)
      : dir_(std::move(dir)), folder_(std::move(folder)), kind_(std::move(kind)) {}
  absl::Status prepare(const nlohmann::json& settings, std::span<const GameAssignment> schedule);
  absl::Status write_sgf(const GameResult& g);

  std::string dir_;
  OwnedFolder folder_;
  StoreKind kind_;
  std::vector<GameResult> loaded_;
  std::map<int64_t, nlohmann::json> loaded_lines_;
  std::FILE* results_file_ = nullptr;
};

/// The store across ranks (cluster/cluster.h): rank 0 opens the folder (`store` is set there
/// only); every rank gets the indices of the games already recorded (`done`), or rank 0's
/// error. Each rank also makes `dir/stderr` on its own machine. Every rank must call it.
struct OpenedStore {
  std::unique_ptr<ResultsStore> store;  // rank 0 only
  std::set<int64_t> done;
};
absl::StatusOr<OpenedStore> open_store_on_ranks(const std::string& dir, const nlohmann::json& settings,
                                                std::span<const GameAssignment> schedule, const StoreKind& kind = {});

}  // namespace hane
