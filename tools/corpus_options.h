// The corpus options every command that reads games shares (filters, split, threads...).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "corpus/corpus.h"

namespace hane::tools {

struct CorpusFlags {
  std::vector<std::string> paths;
  int board_size = 19;
  std::string min_rank;
  std::string handicap = "any";
  int min_moves = 0;
  bool exclude_bots = false;
  std::string bots_file;
  std::string split;
  bool strict = false;
  bool no_dedup = false;
  int threads = 0;
  int64_t max_games = 0;
  bool quiet = false;

  /// The options for read_corpus; throws std::runtime_error with a clear message on bad values.
  CorpusOptions options() const;
};

/// Adds PATH... and the corpus options to `cmd`; `default_split` is what --split defaults to.
/// Without `threads_option` there is no --threads (the command's engine has its own; games are
/// read with one thread per core).
void add_corpus_flags(CLI::App* cmd, CorpusFlags& flags, const std::string& default_split, bool threads_option = true);

/// Prints a short summary of what was read (games read/kept, rejections by reason) to stderr.
void print_corpus_summary(const CorpusStats& stats);

/// The statistics as JSON: games_read, games_kept, positions, rejected (reason -> count), ...
nlohmann::json corpus_stats_json(const CorpusStats& stats);

/// The error when no game is left to work on: "no training games (see the rejections above)",
/// and when the --size filter left out every game, the sizes seen and the --size to use.
std::string no_games_message(const CorpusStats& stats, const CorpusFlags& flags, const std::string& what);

/// The games a trainer learns from and those it is measured on.
struct TrainingGames {
  std::vector<CorpusGame> train;       // the games of --split (all: every game)
  std::vector<CorpusGame> validation;  // see read_training_games
  CorpusStats stats;
};

/// The trainers' common start (train boost, gamma, joseki, softmax, tree): reads the corpus once
/// with every split (so --max-games counts the same games whatever --split), prints its summary,
/// notes the games' board sizes for the model file (note_training_board_sizes), and splits the
/// games: `train` those of --split, `validation` those of the validation split when --split is
/// train or test, none with --split all; with --split validation, none, or with
/// `halve_validation` the validation split halved by game hash (splitmix64, odd: validation), so
/// that a model can be trained and measured on games a base trained on the train split never
/// saw. Throws std::runtime_error (no_games_message) when no training game is left.
TrainingGames read_training_games(const CorpusFlags& flags, bool halve_validation = false);

/// Writes `report` to `path`, or throws std::runtime_error naming the file.
void write_json(const std::string& path, const nlohmann::json& report);

}  // namespace hane::tools
