#include "tools/corpus_options.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "cluster/cluster.h"
#include "tools/cli.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/progress.h"

namespace hane::tools {

#ifndef HANE_DATASETS_DIR
#define HANE_DATASETS_DIR "datasets"
#endif

namespace {
bool g_quiet = false;  // --quiet of the command being run (set by CorpusFlags::options)
}  // namespace

void add_corpus_flags(CLI::App* cmd, CorpusFlags& f, const std::string& default_split, bool threads_option) {
  f.split = default_split;
  cmd->add_option("paths", f.paths, "SGF/MGT files, folders (recursive) and archives (.tar.gz, .tar.bz2, .zip)")
      ->type_name("PATH")
      ->required();
  cmd->add_option("--size", f.board_size, "Keep only games on this board size: 2..25, or 0 for any")->capture_default_str();
  cmd->add_option("--min-rank", f.min_rank, "Keep only games where both players are at least this rank (e.g. 6d, 1k)");
  cmd->add_option("--handicap", f.handicap, "Handicap games: any, only or none")
      ->check(CLI::IsMember({"any", "only", "none"}))
      ->capture_default_str();
  cmd->add_option("--min-moves", f.min_moves, "Keep only games with at least this many moves (>= 0)")->capture_default_str();
  cmd->add_flag("--exclude-bots", f.exclude_bots,
                "Leave out games of known bots (list in datasets/kgs-bots.txt, or --bots)");
  cmd->add_option("--bots", f.bots_file, "File of bot names, one per line (implies --exclude-bots)");
  cmd->add_option("--split", f.split, "Which games: train (90%), validation (5%), test (5%) or all")
      ->check(CLI::IsMember({"train", "validation", "test", "all"}))
      ->capture_default_str();
  cmd->add_flag("--strict", f.strict, "Reject records with any oddity instead of normalising them with a warning");
  cmd->add_flag("--no-dedup", f.no_dedup, "Keep games that repeat an earlier game's moves");
  if (threads_option) {
    cmd->add_option("--threads", f.threads, "Threads: 0 for one per core, else 1..cores (more is capped, with a warning)")
        ->capture_default_str();
  }
  cmd->add_option("--max-games", f.max_games,
                  "Stop after this many valid, kept, unique games counted over all splits (about 90% of them "
                  "are in the train split); 0: all")
      ->capture_default_str();
  cmd->add_flag("--quiet", f.quiet, "Nothing on stderr but warnings and errors (no progress, no summary)");
}

CorpusOptions CorpusFlags::options() const {
  CorpusOptions o;
  o.filter.board_size = board_size;
  if (!min_rank.empty()) {
    const Rank r = parse_rank(min_rank);
    if (!r.known()) throw UsageError("--min-rank: cannot read rank '" + min_rank + "' (try 6d, 2k or 1p)");
    o.filter.min_rank = r;
  }
  o.filter.handicap = handicap == "only" ? HandicapGames::kOnly : handicap == "none" ? HandicapGames::kNone : HandicapGames::kAny;
  o.filter.min_moves = min_moves;
  if (exclude_bots || !bots_file.empty()) {
    const std::string file = bots_file.empty() ? std::string(HANE_DATASETS_DIR) + "/kgs-bots.txt" : bots_file;
    auto names = read_name_list(file);
    if (!names.ok()) throw std::runtime_error(std::string(names.status().message()));
    o.filter.bots = std::move(*names);
  }
  o.split = *parse_split(split);
  o.read.strict = strict;
  o.dedup = !no_dedup;
  o.threads = threads;
  o.max_games = max_games;
  o.progress = !quiet;
  g_quiet = quiet;
  if (quiet) Progress::set_enabled(false);
  return o;
}

void print_corpus_summary(const CorpusStats& s) {
  if (!cluster::is_root()) return;  // with several ranks, rank 0 says it
  // Input that could not be read (a truncated archive, a file that fails to open) is data lost:
  // named even with --quiet, as the warnings are.
  if (const auto it = s.rejected.find("unreadable"); it != s.rejected.end()) {
    std::fprintf(stderr, "hane: warning: %s unreadable input(s), each with its file, entry and offset; their games are not read:\n",
                 with_thousands(it->second.count).c_str());
    for (const std::string& example : it->second.examples) std::fprintf(stderr, "hane: warning:   %s\n", example.c_str());
    if (it->second.count > static_cast<int64_t>(it->second.examples.size())) {
      std::fprintf(stderr, "hane: warning:   (the first %zu shown; `hane dataset stats` lists the losses)\n",
                   it->second.examples.size());
    }
  }
  if (g_quiet) return;
  std::fprintf(stderr, "games: %s read, %s kept", with_thousands(s.games_read).c_str(),
               with_thousands(s.games_kept).c_str());
  if (s.other_split > 0) std::fprintf(stderr, ", %s in other splits", with_thousands(s.other_split).c_str());
  for (const auto& [reason, r] : s.rejected) {
    std::fprintf(stderr, ", %s %s", with_thousands(r.count).c_str(), reason.c_str());
  }
  std::fprintf(stderr, "\n");
}

nlohmann::json corpus_stats_json(const CorpusStats& s) {
  nlohmann::json j;
  j["games_read"] = s.games_read;
  j["games_kept"] = s.games_kept;
  j["games_in_other_splits"] = s.other_split;
  j["positions"] = s.positions;
  j["passes"] = s.passes;
  j["handicap_games"] = s.handicap_games;
  j["games_with_warnings"] = s.games_with_warnings;
  j["games_lost_in_collections"] = s.games_lost_in_collections;
  j["rejected"] = nlohmann::json::object();
  j["rejected_examples"] = nlohmann::json::object();
  for (const auto& [reason, r] : s.rejected) {
    j["rejected"][reason] = r.count;
    j["rejected_examples"][reason] = r.examples;
  }
  j["warnings"] = nlohmann::json::object();
  j["warning_examples"] = nlohmann::json::object();
  for (const auto& [kind, w] : s.warnings) {
    j["warnings"][kind] = w.count;
    j["warning_examples"][kind] = w.examples;
  }
  j["rules"] = s.rules;
  j["ranks"] = s.ranks;
  j["years"] = s.years;
  for (const auto& [size, n] : s.board_sizes) j["board_sizes"][std::to_string(size)] = n;
  j["entries_read"] = s.source.entries;
  j["entries_skipped"] = s.source.skipped_entries;
  j["bytes"] = s.source.bytes;
  j["input_bytes"] = s.source.input_bytes;
  j["seconds"] = s.seconds;
  return j;
}

std::string no_games_message(const CorpusStats& stats, const CorpusFlags& flags, const std::string& what) {
  std::string message = "no " + what + " (see the rejections above)";
  if (flags.board_size == 0 || stats.board_sizes.empty() || stats.board_sizes.contains(flags.board_size)) return message;
  std::string sizes;
  int most = 0;
  int64_t most_games = -1;
  for (const auto& [size, n] : stats.board_sizes) {
    sizes += (sizes.empty() ? "" : ", ") + std::to_string(size) + "x" + std::to_string(size) + " (" + with_thousands(n) + ")";
    if (n > most_games) most = size, most_games = n;
  }
  return message + ": the games are on " + sizes + ", not " + std::to_string(flags.board_size) + "x" +
         std::to_string(flags.board_size) + " (--size " + std::to_string(flags.board_size) + "); try --size " +
         std::to_string(most) + ", or --size 0 for any size";
}

TrainingGames read_training_games(const CorpusFlags& flags, bool halve_validation) {
  CorpusOptions co = flags.options();
  const Split want = co.split;
  co.split = Split::kAll;
  TrainingGames out;
  std::vector<CorpusGame> all = load_corpus(flags.paths, co, &out.stats);
  print_corpus_summary(out.stats);
  note_training_board_sizes(out.stats.kept_board_sizes);
  const bool measured = want == Split::kTrain || want == Split::kTest;
  for (CorpusGame& g : all) {
    if (want == Split::kValidation && halve_validation && g.split == Split::kValidation) {
      (splitmix64(g.hash) & 1 ? out.validation : out.train).push_back(std::move(g));
    } else if (want == Split::kAll || g.split == want) {
      out.train.push_back(std::move(g));
    } else if (measured && g.split == Split::kValidation) {
      out.validation.push_back(std::move(g));
    }
  }
  if (out.train.empty()) throw std::runtime_error(no_games_message(out.stats, flags, "training games"));
  return out;
}

void write_json(const std::string& path, const nlohmann::json& report) {
  if (!cluster::is_root()) return;  // every rank holds the report; rank 0 writes it
  // Whole or not at all: an earlier report survives a kill or a full disk (util/files.h).
  if (absl::Status s = write_file_atomically(path, report.dump(2) + "\n"); !s.ok()) {
    throw std::runtime_error(std::string(s.message()));
  }
}

}  // namespace hane::tools
