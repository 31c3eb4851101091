// hane match: play GTP engines against each other and report who is stronger, by how much,
// and how sure we are (lib/match/).
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "absl/strings/str_format.h"
#include "cluster/cluster.h"
#include "corpus/source.h"
#include "go/game.h"
#include "match/match.h"
#include "sgf/record.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/version.h"
#include "util/files.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

std::atomic<bool> g_interrupted{false};

void say(const char* text) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));  // async-signal-safe
  (void)ignored;
}

// The first Ctrl-C stops the games in progress; a later one waits for that clean-up (the
// engines stopped, the report written) instead of cutting it short.
void on_signal(int) {
  if (g_interrupted.exchange(true)) {
    say("\nhane: interrupted: still stopping the engines; the report follows\n");
  } else {
    say("\nhane: interrupted: stopping the games in progress, then the report (games in progress are played "
        "again on resume)\n");
  }
}

struct MatchFlags {
  std::vector<std::string> engines;
  bool gauntlet = false;
  int64_t games = 100;
  int size = 9;
  double komi = 7.5;
  int handicap = 0;
  int max_moves = 0;
  std::string time;
  double move_timeout = 60;
  std::vector<std::string> openings;
  int opening_moves = 8;
  uint64_t seed = 1;
  int parallel = 0;
  std::string sprt;
  std::string out = "match";
  std::string json_path;
  bool quiet = false;
  bool no_plots = false;
};

std::string self_exe() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "hane";
  return std::string(buf, static_cast<size_t>(n));
}

MatchTimeControl parse_time(const std::string& text) {
  MatchTimeControl t;
  if (text.empty()) return t;
  double main = 0, period = 0;
  int stones = 0;
  char tail = 0;
  int used = 0;
  const int got = std::sscanf(text.c_str(), "%lf/%lf/%d%n%c", &main, &period, &stones, &used, &tail);
  double single = 0;
  int single_used = 0;
  // MAIN alone must be the whole text ("10/x" is not 10 s).
  const bool alone = std::sscanf(text.c_str(), "%lf%n", &single, &single_used) == 1 &&
                     single_used == static_cast<int>(text.size());
  const bool full = got == 3 && used == static_cast<int>(text.size());
  if (!(alone || full) || !std::isfinite(main) || !std::isfinite(period) || main < 0 || period < 0 || stones < 0 ||
      (full && period > 0 && stones == 0))
    throw UsageError("--time: expected MAIN or MAIN/PERIOD/STONES in seconds (e.g. 60 or 30/10/5), got '" +
                                text + "'");
  if (main == 0 && period == 0) {
    throw UsageError("--time " + text + ": a clock with no time at all; leave --time out to play without a clock");
  }
  t.main_s = main;
  t.period_s = period;
  t.stones = stones;
  return t;
}

// Openings: the first `moves` moves of every game record under `paths` whose size matches,
// without setup stones, legal under the match rules. Problems are listed and counted.
std::vector<Opening> read_openings(const std::vector<std::string>& paths, int size, int moves, bool quiet) {
  std::vector<Opening> out;
  int64_t skipped = 0;
  auto skip = [&](const std::string& name, const std::string& why) {
    if (skipped++ < 10 && cluster::is_root()) std::fprintf(stderr, "hane: match: opening %s skipped: %s\n", name.c_str(), why.c_str());
  };
  const SourceStats stats = for_each_entry(
      paths,
      [&](SourceEntry&& e) {
        const std::string name = e.entry.empty() ? e.source : e.source + ":" + e.entry;
        auto record = read_game(e.data);
        if (!record.ok()) return skip(name, std::string(record.status().message()));
        if (record->board_size != size) return skip(name, "board size " + std::to_string(record->board_size));
        if (!record->setup.black.empty() || !record->setup.white.empty()) return skip(name, "setup stones (handicap)");
        Game game(size, Rules{false, Superko::kPositional, 0});
        Opening o{name, {}};
        for (const GameEvent& ev : record->events) {
          if (static_cast<int>(o.moves.size()) >= moves) break;
          if (ev.type != GameEvent::Type::kMove) return skip(name, "setup inside the moves");
          if (ev.color != game.to_move()) return skip(name, "two moves in a row by one colour");
          if (game.play(ev.vertex, ev.color) != Legality::kLegal) {
            return skip(name, "illegal move " + to_gtp(ev.vertex, size));
          }
          o.moves.push_back({ev.color, ev.vertex});
        }
        if (static_cast<int>(o.moves.size()) < moves) return skip(name, "fewer than " + std::to_string(moves) + " moves");
        out.push_back(std::move(o));
      },
      [&](const SourceError& err) { std::fprintf(stderr, "hane: match: %s\n", describe(err).c_str()); });
  if (!quiet && cluster::is_root()) {
    std::fprintf(stderr, "match: %s openings of %d moves from %s records (%s skipped, %s read errors)\n",
                 with_thousands(static_cast<int64_t>(out.size())).c_str(), moves, with_thousands(stats.entries).c_str(),
                 with_thousands(skipped).c_str(), with_thousands(stats.errors).c_str());
  }
  if (out.empty()) throw std::runtime_error("no usable openings in the --openings paths");
  return out;
}

int run(const MatchFlags& f, const std::string& command_line) {
  MatchOptions o;
  const std::string exe = self_exe();
  for (size_t i = 0; i < f.engines.size(); ++i) {
    auto e = parse_engine_spec(f.engines[i], exe, static_cast<int>(i));
    if (!e.ok()) throw UsageError(std::string(e.status().message()));
    o.engines.push_back(std::move(*e));
  }
  o.gauntlet = f.gauntlet;
  o.games = f.games;
  o.game.size = f.size;
  o.game.komi = f.komi;
  o.game.handicap = f.handicap;
  o.game.max_moves = f.max_moves;
  o.game.time = parse_time(f.time);
  o.game.move_timeout_s = f.move_timeout;
  if (!f.sprt.empty()) {
    try {
      o.sprt = parse_sprt(f.sprt);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  if (!f.openings.empty()) o.openings = read_openings(f.openings, f.size, f.opening_moves, f.quiet);
  o.seed = f.seed;
  o.parallel = f.parallel;
  o.out_dir = f.out;
  o.progress = !f.quiet;
  o.plots = !f.no_plots;
  o.provenance["command"] = command_line;
  o.provenance["hane_version"] = kVersion;
  o.provenance["hane_commit"] = kCommit;
  o.provenance["seed_delivery"] =
      "hane: engines get --seed <game seed>; gtp: engines get the seed only where their command holds {seed}";

  // The --json file, checked before any game: its folder must exist, or be the --out folder
  // (which the match makes).
  if (!f.json_path.empty()) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(f.json_path).parent_path();
    std::error_code ec;
    if (fs::weakly_canonical(f.json_path, ec) == fs::weakly_canonical(f.out, ec)) {
      throw UsageError("--json: " + f.json_path + " is the --out folder: name a file");
    }
    const bool in_out = !dir.empty() && fs::weakly_canonical(dir, ec) == fs::weakly_canonical(f.out, ec);
    if (!in_out || fs::is_directory(f.json_path, ec)) {
      if (const std::string problem = output_problem(f.json_path); !problem.empty()) throw UsageError("--json: " + problem);
    }
  }

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // (no SA_RESETHAND: a second Ctrl-C must not kill the clean-up)
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGUSR1, &sa, nullptr);  // forwarded by mpirun to every rank (util/interrupt.h)
  auto outcome = run_match(o, &g_interrupted);
  if (!outcome.ok()) {
    // InvalidArgument: the options or the --out folder (usage); Cancelled: Ctrl-C before the
    // first game (while the engines started); else the engines or the disk.
    const std::string message(outcome.status().message());
    if (outcome.status().code() == absl::StatusCode::kInvalidArgument) throw UsageError(message);
    if (outcome.status().code() == absl::StatusCode::kCancelled) {
      if (cluster::is_root()) std::fprintf(stderr, "hane: %s; no game was played\n", message.c_str());
      return kExitInterrupted;
    }
    throw std::runtime_error(message);
  }
  std::fputs(outcome->text.c_str(), stdout);
  if (!f.json_path.empty() && cluster::is_root()) {
    if (absl::Status s = write_file_atomically(f.json_path, outcome->report.dump(2) + "\n"); !s.ok()) {
      throw std::runtime_error(std::string(s.message()));
    }
  }
  return outcome->interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace

void add_match_command(CLI::App& app) {
  auto flags = std::make_shared<MatchFlags>();
  CLI::App* cmd = app.add_subcommand(
      "match",
      "Play GTP engines against each other (two: a match; more: round robin or gauntlet) and report score, Elo, "
      "intervals, SPRT. Rerun the same command to resume.");
  add_repeatable(cmd, "-e,--engine", flags->engines, "NAME=SPEC",
                 "An engine: NAME=gtp:COMMAND LINE (any GTP program; {seed} in it is replaced by each game's seed and "
                 "the program started per game) or NAME=hane:ARGS (a child `hane gtp ARGS --seed SEED` per game); two "
                 "or more, each NAME once",
                 Repeats::kAny)
      ->required();
  cmd->add_flag("--gauntlet", flags->gauntlet, "the first engine against each other one (default: round robin)");
  cmd->add_option("-n,--games", flags->games, "games per pairing (the most, with --sprt)")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--size", flags->size, "board size")->check(CLI::Range(2, 25))->capture_default_str();
  cmd->add_option("--komi", flags->komi, "komi, points (half-point komi: no draws; integer komi: jigo counts 1/2)")
      ->capture_default_str();
  cmd->add_option("--handicap", flags->handicap, "handicap stones for Black, set with fixed_handicap / set_free_handicap")
      ->check(CLI::Range(0, 9))
      ->capture_default_str();
  cmd->add_option("--max-moves", flags->max_moves,
                  "moves after which a game stops: adjudicated by area score when the engines agree on the dead "
                  "stones, else void (0: 3 x size^2)")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->add_option("--time", flags->time,
                  "time control MAIN or MAIN/PERIOD/STONES (Canadian byo-yomi), seconds, sent with time_settings and "
                  "time_left before every genmove and written to the SGFs (TM, OT); an engine loses on time when its "
                  "clock is more than " + absl::StrFormat("%g", kTimeGraceSeconds) +
                      " s below zero (a grace for pipes and process start-up) (default: none; engines use their own "
                      "budget, e.g. --playouts)");
  cmd->add_option("--move-timeout", flags->move_timeout, "seconds a genmove may take without a time control (then forfeit)")
      ->check(positive_number())
      ->capture_default_str();
  add_repeatable(cmd, "--openings", flags->openings, "PATH",
                 "SGF file, folder or archive of openings; each opening (the first --opening-moves moves) is played "
                 "twice, colours swapped",
                 Repeats::kDistinct);
  cmd->add_option("--opening-moves", flags->opening_moves, "moves taken from each opening record")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--seed", flags->seed, "seed of the schedule's per-game seeds")->capture_default_str();
  cmd->add_option("-p,--parallel", flags->parallel, "games at once (0: one per core); under mpirun, games at once on each rank")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->add_option("--sprt", flags->sprt,
                  "elo0=0,elo1=50,alpha=0.05,beta=0.05[,model=logistic|normalized][,per=pair|game]: stop when the "
                  "GSPRT decides (elo0/elo1 are logistic Elo unless model=normalized; default per pair)");
  cmd->add_option("-o,--out", flags->out, "output folder: results.jsonl, sgf/, stderr/, report, plots")
      ->capture_default_str();
  cmd->add_option("--json", flags->json_path, "also write the JSON report here");
  cmd->add_flag("-q,--quiet", flags->quiet, "nothing on stderr but warnings and errors (no progress, no summary)");
  cmd->add_flag("--no-plots", flags->no_plots, "do not draw plots with gnuplot");
  cmd->callback([flags] {
    const int rc = run(*flags, process_command_line());
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace hane::tools
