// Reading a corpus: every game of every input, parsed, replayed, filtered, deduplicated and
// split, with a count of everything left out and why.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "corpus/filter.h"
#include "corpus/source.h"
#include "sgf/record.h"

namespace hane {

struct CorpusOptions {
  FilterOptions filter;
  /// Which games to deliver; every other game is still read and counted.
  Split split = Split::kAll;
  /// Strict SGF reading: warnings become rejections.
  ReadOptions read;
  /// Count games with the same moves (game_hash) once.
  bool dedup = true;
  /// Parsing threads; 0 = one per core.
  int threads = 0;
  /// Stop after this many games that are valid, kept by the filters and unique, counted in
  /// every split (so the same games are read whatever `split` is; about 90% of them are in
  /// the train split); 0 = no limit.
  int64_t max_games = 0;
  /// Print progress on stderr.
  bool progress = true;
  /// Keep each delivered game's SGF text (CorpusGame::text), e.g. to write it again with
  /// additions.
  bool keep_text = false;
  SourceOptions source;
};

/// One delivered game.
struct CorpusGame {
  std::string source;  // the file (or archive) it came from
  std::string entry;   // the archive member, empty for plain files
  int tree = 0;        // index of the game tree in its file, from 0
  GameRecord record;
  uint64_t hash = 0;   // game_hash(record)
  Split split = Split::kTrain;
  int positions = 0;   // moves other than passes
  /// With CorpusOptions::keep_text, the game tree's bytes as read, from its '(' to its ')'
  /// (parser.h: ParsedTree::begin_offset; a file cut at the end: to the end of the file).
  std::string text;
};

/// Games left out for one reason (or delivered with one kind of warning), with the first few
/// of them named (file, entry, game, byte offset).
struct Rejections {
  int64_t count = 0;
  std::vector<std::string> examples;
};

struct CorpusStats {
  int64_t games_read = 0;   // game trees found, plus entries that could not be read at all
  int64_t games_kept = 0;   // delivered: valid, kept by the filters, unique, in the split
  int64_t other_split = 0;  // valid, kept and unique, but in another split
  int64_t positions = 0;    // moves other than passes in delivered games
  int64_t passes = 0;       // passes in delivered games
  int64_t handicap_games = 0;             // among delivered games
  int64_t games_with_warnings = 0;        // among delivered games
  /// Syntax errors in files of several games: each lost one game (counted in "sgf syntax"),
  /// and reading resumed after it.
  int64_t games_lost_in_collections = 0;
  std::map<std::string, Rejections> rejected;  // reason -> games
  /// Warning kind (RecordWarning::kind) -> delivered games with such a warning, the first
  /// few named (file, entry, game, byte offset, what).
  std::map<std::string, Rejections> warnings;
  /// Rules delivered games were replayed with: "Japanese", ..., or "Japanese (assumed: no
  /// RU)" / "(assumed: unknown RU)" when the default was used.
  std::map<std::string, int64_t> rules;
  std::map<std::string, int64_t> ranks;        // rank of each player of delivered games
  std::map<std::string, int64_t> years;        // year of delivered games ("unknown")
  std::map<int, int64_t> board_sizes;          // of every valid game, before filters
  std::map<int, int64_t> kept_board_sizes;     // of delivered games
  SourceStats source;
  double seconds = 0;
};

/// Reads every input (files, folders, archives; see source.h) and calls `on_game` for each
/// delivered game, in input order, on the calling thread. Never throws on bad input: each
/// problem is a rejection (reasons: "unreadable", "sgf syntax" (one per game lost to a syntax
/// error), "sgf record", with ReadOptions::strict "strict: <warning kind>", "illegal move",
/// "setup", then the filter's reasons, "duplicate") with its message kept as an example.
/// Games are replayed under the rules their RU names, else the Japanese rules (replay.h).
CorpusStats read_corpus(const std::vector<std::string>& paths, const CorpusOptions& options,
                        const std::function<void(CorpusGame&&)>& on_game);

/// All delivered games in memory (about 2 KB a game).
std::vector<CorpusGame> load_corpus(const std::vector<std::string>& paths, const CorpusOptions& options,
                                    CorpusStats* stats = nullptr);

}  // namespace hane
