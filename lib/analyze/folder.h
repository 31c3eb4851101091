// The output folder of `hane analyze`: its games' files under names that stay the same from
// run to run, a summary of every game in the folder, and nothing written over a file that
// analyze did not write.
//
// Layout:
//   analyze.json    the marker (util/files.h: OwnedFolder) and the register of the folder's
//                   games: per name (STEM), the game it belongs to {source (absolute path),
//                   entry (archive member), tree (game in the file), hash}
//   files.txt       every file analyze wrote here, a name a line, noted before it is written
//   analyze.lock    locked (flock) while a run reads and rewrites analyze.json or summary.json
//   STEM.sgf, STEM.json, STEM-ownership.svg, STEM-winrate.dat/.gp/.svg: a game's files
//   summary.json    every game of the folder whose STEM.json is written, and per player
//
// Names: a game keeps the name the register gives it, so a rerun with fewer, more or other
// inputs writes each game's files where they were; a game read from another file with the same
// moves (the same hash: a copy, or the STEM.sgf analyze wrote) is the same game and keeps its
// name too (its own STEM.sgf as input is then left out: analyze never writes over an input). A new game gets its file's (or archive
// entry's) stem, with "-N" for the N-th game of a file of several, then the first of NAME,
// NAME-2, NAME-3... that no other game holds, whose files do not exist unless analyze wrote
// them, and none of which is an input file.
//
// Several runs at once: the register and the summary are read, merged and rewritten under an
// exclusive lock of analyze.lock (flock(2): released by the kernel when a run dies), and every
// file is replaced atomically (util/files.h), so two runs into one folder keep each other's
// games; the summary written last holds every game finished by then.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "util/files.h"

namespace hane {

/// A game to analyse, as the register knows it.
struct AnalysisGameKey {
  std::string source;  // the file or archive as given
  std::string entry;   // the archive member, "" for a plain file
  int tree = 0;        // the game tree in its file, from 0
  uint64_t hash = 0;   // the moves' hash (corpus/corpus.h)
};

class AnalysisFolder {
 public:
  static constexpr const char* kMarker = "analyze.json";

  /// Opens `dir`, made when missing. Errors: InvalidArgument for a folder that holds files but
  /// no analyze.json (it is left as it is); Internal for I/O errors.
  static absl::StatusOr<AnalysisFolder> open(const std::string& dir);

  const std::string& dir() const { return folder_.dir(); }
  OwnedFolder& files() { return folder_; }

  /// The name (STEM) of each game, in order, from the register (see the top of this file);
  /// new names are registered. `inputs`: every input file, never written: a game whose
  /// registered files include one gets "" (the caller leaves it out, saying why). Errors:
  /// Internal for I/O errors.
  absl::StatusOr<std::vector<std::string>> assign_names(const std::vector<AnalysisGameKey>& games,
                                                        const std::vector<std::string>& inputs);

  /// The game's JSON from an earlier run when it holds `settings` and `hash`, else null.
  nlohmann::json finished(const std::string& stem, const nlohmann::json& settings, uint64_t hash);

  /// Writes STEM.sgf, STEM-ownership.svg, with `plots` the win-rate graph (report.h), and
  /// STEM.json last (the mark of a finished game). Returns why the graph was not drawn ("" when
  /// it was or was not asked for) in `plot_problem`. Errors: FailedPrecondition for a file
  /// analyze did not write (nothing more is written), Internal for I/O errors.
  absl::Status write_game(const std::string& stem, const std::string& sgf, const std::string& svg,
                          const nlohmann::json& game, bool plots, std::string* plot_problem);

  /// Writes summary.json over every game of the folder whose JSON is written: {games: [{stem,
  /// source, entry, black, white, result, moves, final_score, warnings, settings, players}],
  /// players (report.h: players_summary), games_analysed, games_with_warnings}, plus the
  /// entries of `extra`. Returns it. Errors: Internal for I/O errors.
  absl::StatusOr<nlohmann::json> write_summary(const nlohmann::json& extra);

 private:
  explicit AnalysisFolder(OwnedFolder folder) : folder_(std::move(folder)) {}
  template <typename F>
  absl::Status locked(F&& work);

  OwnedFolder folder_;
};

}  // namespace hane
