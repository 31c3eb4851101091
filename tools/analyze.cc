// hane analyze: review finished games with the engine (lib/analyze), writing for each game a
// copy with the win rates Sabaki reads, a JSON file, a win-rate graph and the final ownership
// map, and a summary over the games. Games are shared by --parallel workers and by MPI ranks;
// a finished game is never analysed again by a rerun with the same settings.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

#include "analyze/analyze.h"
#include "analyze/folder.h"
#include "analyze/report.h"
#include "cluster/cluster.h"
#include "gtp/search_player.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "tools/engine_options.h"
#include "tools/version.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct AnalyzeFlags {
  CorpusFlags corpus;
  /// The engine options of `hane gtp` (engine_options.h), so that the settings a match or a
  /// tuning run chose review games as they play; read into `analyze` by run_analyze.
  EngineFlags engine;
  AnalyzeOptions analyze;
  std::string out = "analysis";
  int parallel = 1;
  bool no_plots = false;
  bool default_guesser = true;
  CLI::App* command = nullptr;  // for the engine options given (settings_json)
};

// What the analysis of a game of `board_size` depends on, kept in its JSON: a rerun with the
// same settings skips it. On large boards the search's policy and prior are the large-board
// engine's (AnalyzeOptions::large_board_search), as the analysis plays.
nlohmann::json settings_json(const AnalyzeFlags& f, int board_size) {
  const AnalyzeOptions& o = f.analyze;
  const SearchOptions& search = board_size >= kLargeBoard && o.large_board_search ? *o.large_board_search : o.search;
  nlohmann::json s;
  s["visits"] = o.visits;
  if (o.playouts > 0) s["playouts"] = o.playouts;
  if (o.seconds > 0) s["seconds"] = o.seconds;
  s["mistake"] = o.mistake;
  s["policy"] = search.policy;
  s["prior"] = search.prior;
  s["guesser"] = o.guesser;
  s["seed"] = o.search.seed;
  s["end_playouts"] = o.end_playouts;
  // Every other engine option given, as given.
  const std::vector<CLI::Option*> options = f.command ? f.command->get_options() : std::vector<CLI::Option*>{};
  for (const CLI::Option* opt : options) {
    if (opt->get_group() != "Engine" || opt->count() == 0 || opt->get_lnames().empty()) continue;
    const std::string name = opt->get_lnames()[0];
    if (name == "visits" || name == "playouts" || name == "policy" || name == "prior" || name == "seed" ||
        name == "end-playouts") {
      continue;
    }
    s["engine"][name] = opt->results();
  }
  return s;
}

std::string share(double x) {
  char t[32];
  std::snprintf(t, sizeof t, "%.1f%%", 100 * x);
  return t;
}

std::string share(const nlohmann::json& x) { return x.is_null() ? "-" : share(x.get<double>()); }

void print_rejections(const CorpusStats& s) {
  if (!cluster::is_root()) return;
  for (const auto& [reason, r] : s.rejected) {
    std::fprintf(stderr, "hane: skipped %s game(s): %s\n", with_thousands(r.count).c_str(), reason.c_str());
    for (const std::string& e : r.examples) std::fprintf(stderr, "      %s\n", e.c_str());
  }
}

std::unique_ptr<Analyzer> make_analyzer(AnalyzeFlags& f, bool warn) {
  auto a = Analyzer::create(f.analyze);
  if (a.ok()) return std::move(*a);
  // The shipped models may be missing: go on without what fails, but never silently replace
  // what was asked for.
  AnalyzeOptions o = f.analyze;
  if (f.default_guesser) o.guesser = "none";
  for (SearchOptions* s : {&o.search, o.large_board_search ? &*o.large_board_search : nullptr}) {
    if (s == nullptr) continue;
    if (f.engine.default_prior) s->prior = "none";
    if (f.engine.default_policy) s->policy = "rules";
  }
  auto fallback = Analyzer::create(o);
  if (!fallback.ok()) throw std::runtime_error(std::string(a.status().message()));
  if (warn && cluster::is_root()) {
    std::fprintf(stderr, "hane: warning: %s; analysing with policy %s, prior %s, guesser %s\n",
                 std::string(a.status().message()).c_str(), o.search.policy.c_str(), o.search.prior.c_str(),
                 o.guesser.c_str());
  }
  f.analyze = o;
  return std::move(*fallback);
}

// "FILE", "ARCHIVE:ENTRY", "FILE: game N" for the N-th game of a file of several.
std::string game_name(const CorpusGame& g) {
  return g.source + (g.entry.empty() ? "" : ":" + g.entry) + (g.tree > 0 ? ": game " + std::to_string(g.tree + 1) : "");
}

// What one game's analysis leaves, as the text of its files (so that rank 0 writes them).
nlohmann::json game_files(const CorpusGame& g, const GameAnalysis& a, const AnalyzeFlags& f, const std::string& stem) {
  nlohmann::json j = analysis_json(g.record, a, settings_json(f, g.record.board_size));
  j["game_hash"] = std::to_string(g.hash);
  j["source"] = g.source;
  j["entry"] = g.entry;
  j["tree"] = g.tree;
  j["stem"] = stem;
  j["warnings"] = nlohmann::json::array();
  for (const RecordWarning& w : g.record.warnings) j["warnings"].push_back(w.kind + ": " + w.message);
  nlohmann::json files;
  files["stem"] = stem;
  files["sgf"] = annotated_sgf(g.text, g.record, a, f.analyze.mistake);
  files["svg"] = ownership_svg(g.record, a);
  files["json"] = j;
  return files;
}

// The fewest root visits a review takes: a position's win rate from n simulations has a
// standard error of up to 0.5 / sqrt(n), and a move's drop, the difference of two of them, up
// to 0.5 * sqrt(2 / n): 0.1 at 50 visits, as large as the default --mistake. Below that the
// mistakes marked would be noise.
constexpr int64_t kMinVisits = 50;

constexpr int64_t kDefaultVisits = 1000;

// The engine options read into f.analyze, after the checks of the command line (UsageError,
// exit 2, before anything loads).
void read_engine_options(AnalyzeFlags& f) {
  const gtp::EngineOptions engine = checked_engine_options(f.engine);
  f.analyze.search = engine.search;
  f.analyze.large_board_search = engine.large_board_search;
  f.analyze.visits = engine.visits;
  f.analyze.playouts = engine.playouts;
  f.analyze.seconds = engine.time_per_move;
  if (engine.visits == 0 && engine.playouts == 0 && engine.time_per_move == 0) f.analyze.visits = kDefaultVisits;
  f.analyze.end_playouts = engine.end_playouts;
  for (const auto& [name, n] : {std::pair{"--visits", f.analyze.visits}, {"--playouts", f.analyze.playouts}}) {
    if (n == 0 || n >= kMinVisits) continue;
    throw UsageError(std::string(name) + " " + std::to_string(n) + ": at least " + std::to_string(kMinVisits) +
                     " (a win rate from n visits is uncertain by up to 0.5/sqrt(n): below " + std::to_string(kMinVisits) +
                     " the drop of a move is mostly noise)");
  }
  std::error_code ec;
  const std::string& g = f.analyze.guesser;
  if (!f.default_guesser && g != "none" && g != "uniform" && !std::filesystem::exists(g, ec)) {
    throw UsageError("--guesser " + g + ": no such model file (or none)");
  }
}

void run_analyze(AnalyzeFlags& f) {
  read_engine_options(f);
  CorpusOptions corpus_options = f.corpus.options();
  corpus_options.keep_text = true;  // the annotated SGF is the game as read, with the analysis added
  if (f.parallel == 0) f.parallel = thread_count(0);
  // The output folder and the models, checked before reading the games: a folder of other
  // files is refused (usage, exit 2) and left as it is.
  std::optional<AnalysisFolder> folder;
  if (cluster::is_root()) {
    auto opened = AnalysisFolder::open(f.out);
    if (!opened.ok()) {
      if (absl::IsInvalidArgument(opened.status())) throw UsageError("--out: " + std::string(opened.status().message()));
      throw std::runtime_error(std::string(opened.status().message()));
    }
    folder.emplace(std::move(*opened));
  }
  (void)make_analyzer(f, true);
  CorpusStats stats;
  const std::vector<CorpusGame> games = load_corpus(f.corpus.paths, corpus_options, &stats);
  print_corpus_summary(stats);
  print_rejections(stats);
  if (games.empty()) throw std::runtime_error("no games to analyse" + std::string(stats.rejected.empty() ? "" : " (see the rejections above)"));
  // Games read with repairs (a file cut short, stray brackets...) are reviewed as read, and
  // said so (rejected ones were named above); their JSON and the summary count them.
  int64_t with_warnings = 0;
  for (const CorpusGame& g : games) {
    if (g.record.warnings.empty()) continue;
    ++with_warnings;
    if (!cluster::is_root()) continue;
    for (const RecordWarning& w : g.record.warnings) {
      std::fprintf(stderr, "hane: warning: %s: %s (%s); reviewed as read\n", game_name(g).c_str(), w.message.c_str(),
                   w.kind.c_str());
    }
  }

  // Rank 0 names the games (the folder's register keeps each game's name from run to run) and
  // knows what is finished (only it needs the folder); it tells the others.
  std::vector<std::string> stems(games.size());
  std::map<std::string, nlohmann::json> done;  // stem -> game JSON (rank 0)
  std::string pending(games.size(), '1');
  int64_t failed = 0;
  if (cluster::is_root()) {
    std::vector<AnalysisGameKey> keys;
    std::vector<std::string> inputs;
    for (const CorpusGame& g : games) {
      keys.push_back({g.source, g.entry, g.tree, g.hash});
      inputs.push_back(g.source);
    }
    auto named = folder->assign_names(keys, inputs);
    if (!named.ok()) throw std::runtime_error(std::string(named.status().message()));
    stems = std::move(*named);
    for (size_t i = 0; i < games.size(); ++i) {
      if (stems[i].empty()) {
        std::fprintf(stderr,
                     "hane: %s: skipped: its files in %s would overwrite an input file (a game's own analysis read "
                     "back is the same game): review the original record, or name another --out\n",
                     game_name(games[i]).c_str(), f.out.c_str());
        pending[i] = '0';
        ++failed;
        continue;
      }
      nlohmann::json j = folder->finished(stems[i], settings_json(f, games[i].record.board_size), games[i].hash);
      if (j.is_null()) continue;
      pending[i] = '0';
      done[stems[i]] = std::move(j);
    }
    if (!done.empty() && !f.corpus.quiet) {
      std::fprintf(stderr, "analyze: %zu of %zu games already analysed in %s with these settings\n", done.size(),
                   games.size(), f.out.c_str());
    }
  }
  cluster::broadcast(pending);
  {
    std::string joined;
    for (const std::string& s : stems) joined += s + "\n";
    cluster::broadcast(joined);
    std::istringstream in(joined);
    for (size_t i = 0; i < games.size(); ++i) std::getline(in, stems[i]);
  }
  std::vector<size_t> mine;  // this rank's games left, in input order
  int64_t positions = 0;
  for (size_t i = 0; i < games.size(); ++i) {
    if (pending[i] != '1') continue;
    if (static_cast<int>(splitmix64(games[i].hash) % static_cast<uint64_t>(cluster::size())) != cluster::rank()) continue;
    mine.push_back(i);
    positions += static_cast<int64_t>(games[i].record.num_moves()) + 1;
  }

  const int workers = std::max(1, std::min<int>(f.parallel, static_cast<int>(std::max<size_t>(1, mine.size()))));
  std::vector<std::unique_ptr<Analyzer>> analyzers;
  for (int w = 0; w < workers; ++w) analyzers.push_back(make_analyzer(f, false));
  InterruptScope scope("stopping; every finished game is kept (rerun to resume)");
  Progress progress("analysing", "positions", positions);
  std::atomic<int64_t> positions_done{0};
  std::string plot_problem;
  const size_t round = static_cast<size_t>(2 * workers);
  for (size_t start = 0;; start += round) {
    const bool more = start < mine.size();
    if (!cluster::any(more)) break;
    const size_t end = std::min(mine.size(), start + round);
    std::vector<std::string> results(more ? end - start : 0);
    if (more) {
      parallel_for(
          end - start, workers,
          [&](int w, size_t k) {
            const size_t i = mine[start + k];
            int64_t counted = 0;
            auto r = analyzers[static_cast<size_t>(w)]->analyze(
                games[i].record,
                [&](int n) {
                  positions_done += n - counted;
                  counted = n;
                },
                [] { return interrupted(); });
            nlohmann::json out;
            if (r.ok()) {
              out = game_files(games[i], *r, f, stems[i]);
            } else if (!absl::IsCancelled(r.status())) {
              out["stem"] = stems[i];
              out["error"] = game_name(games[i]) + ": " + std::string(r.status().message());
            }
            if (!out.is_null()) results[k] = out.dump();
          },
          [&](int64_t) { progress.update(positions_done.load()); });
    }
    // Rank 0 writes every rank's games of the round; the JSON last, as the mark of a finished game.
    std::string batch;
    for (const std::string& r : results) {
      if (!r.empty()) batch += r + '\n';
    }
    const std::vector<std::string> all = cluster::size() > 1 ? cluster::gather(batch) : std::vector<std::string>{batch};
    if (cluster::is_root()) {
      for (const std::string& part : all) {
        std::istringstream lines(part);
        for (std::string line; std::getline(lines, line);) {
          const nlohmann::json files = nlohmann::json::parse(line);
          const std::string stem = files["stem"].get<std::string>();
          if (files.contains("error")) {
            std::fprintf(stderr, "hane: %s: skipped\n", files["error"].get<std::string>().c_str());
            ++failed;
            continue;
          }
          std::string problem;
          const absl::Status written = folder->write_game(stem, files["sgf"].get<std::string>(), files["svg"].get<std::string>(),
                                                          files["json"], !f.no_plots, &problem);
          if (absl::IsFailedPrecondition(written)) {
            std::fprintf(stderr, "hane: %s: skipped: %s\n", stem.c_str(), std::string(written.message()).c_str());
            ++failed;
            continue;
          }
          if (!written.ok()) throw std::runtime_error(std::string(written.message()));
          if (!problem.empty() && plot_problem.empty()) plot_problem = problem;
          done[stem] = files["json"];
        }
      }
    }
    if (cluster::any(interrupted())) break;
  }
  progress.finish();
  if (!cluster::is_root()) return;
  if (!plot_problem.empty() && !f.corpus.quiet) std::fprintf(stderr, "analyze: win-rate graphs not drawn: %s\n", plot_problem.c_str());

  // This run's games on stdout, in input order; summary.json over every game of the folder
  // (earlier runs' and those of runs at the same time too).
  std::printf("%-28s %5s %-16s %-16s %8s %8s %9s %9s\n", "game", "moves", "black", "white", "mistk B", "mistk W",
              "top-1 B", "top-1 W");
  std::map<std::string, nlohmann::json> this_run;
  for (size_t i = 0; i < games.size(); ++i) {
    const auto it = done.find(stems[i]);
    if (stems[i].empty() || it == done.end()) continue;
    const nlohmann::json& j = it->second;
    this_run[stems[i]] = j;
    std::printf("%-28s %5zu %-16s %-16s %8lld %8lld %9s %9s\n", stems[i].c_str(), j["moves"].size(),
                j["black"].get<std::string>().substr(0, 16).c_str(), j["white"].get<std::string>().substr(0, 16).c_str(),
                static_cast<long long>(j["players"]["B"]["mistakes"].get<int64_t>()),
                static_cast<long long>(j["players"]["W"]["mistakes"].get<int64_t>()),
                share(j["players"]["B"]["guesser_top1"]).c_str(), share(j["players"]["W"]["guesser_top1"]).c_str());
  }
  const nlohmann::json players = players_summary(this_run);
  std::printf("\n%-32s %6s %6s %9s %11s %10s\n", "player", "games", "moves", "mistakes", "per 100 mv", "top-1");
  for (const auto& [player, p] : players.items()) {
    std::printf("%-32s %6lld %6lld %9lld %11.1f %10s\n", player.substr(0, 32).c_str(),
                static_cast<long long>(p["games"].get<int64_t>()), static_cast<long long>(p["moves"].get<int64_t>()),
                static_cast<long long>(p["mistakes"].get<int64_t>()), p["mistakes_per_100_moves"].get<double>(),
                share(p["guesser_top1"]).c_str());
  }
  nlohmann::json extra;
  // The settings of the games' board sizes: one object, or one per size when they differ.
  std::map<int, nlohmann::json> by_size;
  for (const CorpusGame& g : games) by_size.emplace(g.record.board_size, settings_json(f, g.record.board_size));
  extra["settings"] = by_size.empty() ? settings_json(f, 19) : by_size.begin()->second;
  for (const auto& [size, settings] : by_size) {
    if (settings != extra["settings"]) {
      extra["settings"] = nlohmann::json::object();
      for (const auto& [sz, st] : by_size) extra["settings"][std::to_string(sz) + "x" + std::to_string(sz)] = st;
      break;
    }
  }
  extra["version"] = std::string(kVersion) + " (" + kCommit + ")";
  extra["last_run"] = {{"games", games.size()},
                       {"analysed", this_run.size()},
                       {"failed", failed},
                       {"with_warnings", with_warnings},
                       {"left", games.size() - this_run.size() - static_cast<size_t>(failed)}};
  auto summary = folder->write_summary(extra);
  if (!summary.ok()) throw std::runtime_error(std::string(summary.status().message()));
  if (!f.corpus.quiet) {
    std::fprintf(stderr, "analyze: %zu game(s) of this run in %s (SGF, JSON, %s-ownership.svg); summary.json: "
                         "%lld game(s) of the folder\n",
                 this_run.size(), f.out.c_str(), f.no_plots ? "" : "-winrate.svg, ",
                 static_cast<long long>((*summary)["games_analysed"].get<int64_t>()));
  }
  if (failed > 0 && !interrupted()) throw std::runtime_error(std::to_string(failed) + " game(s) could not be analysed (named above)");
}

}  // namespace

void add_analyze_command(CLI::App& app) {
  auto flags = std::make_shared<AnalyzeFlags>();
  AnalyzeFlags& f = *flags;
  f.analyze.guesser = patterns_dir() + "/kgs-tree.model";
  f.corpus.board_size = 0;
  CLI::App* cmd = app.add_subcommand(
      "analyze",
      "Review games with the engine: win rates before and after every move, best move and its variation, the "
      "guesser's rank of the played move, mistakes; the game's SGF with the analysis added (Sabaki's SBKV), JSON, "
      "win-rate graph and ownership map per game, and a summary of every game in the output folder. Takes every "
      "engine option of hane gtp (--threads: search threads per game).");
  f.command = cmd;
  // The corpus's --threads and --quiet give way to the engine's --threads (search threads per
  // game, as in hane gtp) and a --quiet of the same meaning; games are read on every core.
  add_corpus_flags(cmd, f.corpus, "all", false);
  cmd->add_option("--mistake", f.analyze.mistake, "A move is a mistake when the mover's win rate drops by more than this (0..1)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--out,-o", f.out,
                  "Output folder: new, empty or analyze's own (analyze.json); runs add up, a rerun resumes")
      ->capture_default_str();
  cmd->add_option("--parallel,-p", f.parallel, "Games analysed at once, each with --threads search threads; 0: one per core")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  cmd->add_option_function<std::string>(
         "--guesser", [&f](const std::string& v) { f.analyze.guesser = v, f.default_guesser = false; },
         "Guesser model that ranks each played move, or none (default PATTERNS/kgs-tree.model)");
  cmd->add_flag("--no-plots", f.no_plots, "Draw no win-rate graphs with gnuplot");
  add_engine_options(cmd, f.engine, false);
  // The budget per position: --visits, default 1000 (engine_options.h has no default visits).
  cmd->get_option("--visits")->description("Root visits per position, the reused tree's included (default " +
                                           std::to_string(kDefaultVisits) + ", at least " + std::to_string(kMinVisits) +
                                           "); with --playouts or --time-per-move too, the first limit reached stops");
  cmd->get_option("--playouts")
      ->description("New simulations per position, not counting the reused subtree's (no default: --visits " +
                    std::to_string(kDefaultVisits) + " is the budget when none is given); with --visits or "
                    "--time-per-move too, the first limit reached stops");
  cmd->callback([flags] {
    flags->corpus.threads = 0;
    flags->engine.quiet = flags->corpus.quiet;
    run_analyze(*flags);
  });
}

}  // namespace hane::tools
