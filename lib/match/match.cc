#include "match/match.h"

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cluster/cluster.h"
#include "match/report.h"
#include "match/results_store.h"
#include "match/runner.h"

namespace hane {
namespace {

std::string utc_time() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

nlohmann::json load_average() {
  std::ifstream f("/proc/loadavg");
  double a = 0, b = 0, c = 0;
  if (!(f >> a >> b >> c)) return nullptr;
  return nlohmann::json::array({a, b, c});
}

nlohmann::json settings_json(const MatchOptions& o) {
  nlohmann::json s;
  for (const EngineSpec& e : o.engines) s["engines"].push_back({{"name", e.name}, {"argv", e.argv}});
  s["gauntlet"] = o.gauntlet;
  s["seed"] = o.seed;
  s["size"] = o.game.size;
  s["komi"] = o.game.komi;
  s["rules"] = o.game.rules_name;
  s["handicap"] = o.game.handicap;
  s["max_moves"] = o.game.max_moves;
  s["time"] = {o.game.time.main_s, o.game.time.period_s, o.game.time.stones};
  nlohmann::json openings = nlohmann::json::array();
  for (const Opening& op : o.openings) {
    std::string moves;
    for (const Move& m : op.moves) absl::StrAppend(&moves, to_gtp(m.vertex, o.game.size), " ");
    openings.push_back({op.name, moves});
  }
  s["openings"] = openings;
  return s;
}

absl::Status check_options(const MatchOptions& o) {
  const int n = static_cast<int>(o.engines.size());
  if (n < 2) return absl::InvalidArgumentError("a match needs at least two engines");
  std::set<std::string> names;
  for (const EngineSpec& e : o.engines) {
    if (!names.insert(e.name).second) return absl::InvalidArgumentError(absl::StrCat("engine name '", e.name, "' given twice"));
    if (e.name.find_first_of("/\\ ") != std::string::npos)
      return absl::InvalidArgumentError(absl::StrCat("engine name '", e.name, "' may not hold '/', '\\' or spaces"));
  }
  if (o.sprt && (n != 2 || o.gauntlet)) return absl::InvalidArgumentError("--sprt needs exactly two engines");
  if (o.out_dir.empty()) return absl::InvalidArgumentError("no output folder");
  if (o.game.handicap == 1)
    return absl::InvalidArgumentError("handicap 1: no fixed handicap of one stone (GTP's fixed_handicap places 2 to 9); "
                                      "for Black moving first without komi, give --komi 0.5 or 0");
  if (o.game.handicap >= 2 && fixed_handicap_points(o.game.size, o.game.handicap).empty())
    return absl::InvalidArgumentError(absl::StrCat("handicap ", o.game.handicap, " is not allowed on ", o.game.size, "x", o.game.size));
  if (o.game.handicap >= 2 && !o.openings.empty())
    return absl::InvalidArgumentError("openings are played from the empty board: use --openings or --handicap, not both");
  for (const Opening& op : o.openings) {
    Game g(o.game.size, Rules{false, Superko::kPositional, o.game.komi});
    for (const Move& m : op.moves) {
      if (m.color != g.to_move() || g.play(m.vertex, m.color) != Legality::kLegal)
        return absl::InvalidArgumentError(absl::StrCat("opening ", op.name, ": move ", to_gtp(m.vertex, o.game.size),
                                                       " is illegal or out of turn"));
    }
  }
  return absl::OkStatus();
}

std::string progress_note(const std::vector<GameResult>& games, const ReportContext& ctx) {
  if (ctx.pairings.size() != 1) return "";
  const PairingCounts c = count_pairing(games, 0, ctx.pairings[0]);
  const Interval ci = wilson_interval(c.wdl);
  const auto elo = elo_from_score(c.wdl.score());
  const EloInterval eci = elo_interval(ci);
  std::string note = absl::StrFormat("score %.1f%%", 100 * c.wdl.score());
  if (elo && eci.lo && eci.hi) {
    absl::StrAppendFormat(&note, ", Elo %+.0f ± %.0f", *elo, (*eci.hi - *eci.lo) / 2);
  } else if (elo) {
    absl::StrAppendFormat(&note, ", Elo %+.0f", *elo);
  } else {
    note += c.wdl.score() >= 1 ? ", Elo +inf" : ", Elo -inf";
  }
  if (ctx.sprt) {
    const SprtState s = sprt_state(c, *ctx.sprt);
    absl::StrAppendFormat(&note, ", LLR %.2f [%.2f, %.2f]", s.llr, ctx.sprt->lower(), ctx.sprt->upper());
  }
  return note;
}

// The report, at rank 0 (written to the folder too); the other ranks get only `interrupted`.
absl::StatusOr<MatchOutcome> finish_match(const MatchOptions& o, ResultsStore* store, size_t scheduled,
                                          const std::vector<GameResult>& results, int64_t played, ReportContext& ctx,
                                          const std::atomic<bool>* interrupt, bool decided) {
  MatchOutcome out;
  // Agreed by every rank (a Ctrl-C may reach only some), before the other ranks leave.
  out.interrupted = cluster::any(interrupt && *interrupt);
  if (!cluster::is_root()) return out;  // rank 0 reports
  out.games_left = decided ? 0 : static_cast<int64_t>(scheduled) - static_cast<int64_t>(results.size());
  ctx.provenance["load_average_end"] = load_average();
  ctx.provenance["finished"] = utc_time();
  ctx.provenance["games_this_run"] = played;
  ctx.provenance["ranks"] = cluster::size();
  out.report = match_report_json(results, ctx);
  out.report["interrupted"] = out.interrupted;
  out.report["games_left"] = out.games_left;
  out.text = match_report_text(out.report);
  if (o.plots) out.text += "\n" + write_plots(results, ctx, o.out_dir) + "\n";
  if (out.interrupted) {
    out.text += absl::StrCat("\ninterrupted: ", out.games_left, " games to go; run the same command again to resume\n");
  }
  if (absl::Status s = store->write_file("report.json", out.report.dump(2) + "\n"); !s.ok()) return s;
  if (absl::Status s = store->write_file("report.txt", out.text); !s.ok()) return s;
  return out;
}

}  // namespace

absl::StatusOr<MatchOutcome> run_match(const MatchOptions& o, const std::atomic<bool>* interrupt) {
  if (absl::Status s = check_options(o); !s.ok()) return s;
  const std::vector<Pairing> pairings = make_pairings(static_cast<int>(o.engines.size()), o.gauntlet);
  const std::vector<GameAssignment> schedule = make_schedule(pairings, o.games, o.openings, o.seed);

  // Resuming: rank 0 opens (and repairs) the folder; every rank learns the games left.
  auto opened = open_store_on_ranks(o.out_dir, settings_json(o), schedule);
  if (!opened.ok()) return opened.status();
  ResultsStore* store = opened->store.get();  // rank 0 only
  std::vector<GameResult> results = store ? store->loaded() : std::vector<GameResult>{};
  std::vector<const GameAssignment*> pending;
  for (const GameAssignment& a : schedule) {
    if (!opened->done.contains(a.index)) pending.push_back(&a);
  }

  ReportContext ctx;
  for (const EngineSpec& e : o.engines) {
    ctx.names.push_back(e.name);
    ctx.specs.push_back(e.spec);
  }
  ctx.pairings = pairings;
  ctx.sprt = o.sprt;
  ctx.games_scheduled = static_cast<int64_t>(schedule.size());
  ctx.provenance = o.provenance;
  ctx.provenance["cores"] = std::thread::hardware_concurrency();
  ctx.provenance["load_average_start"] = load_average();
  ctx.provenance["started"] = utc_time();
  ctx.provenance["games_before_this_run"] = results.size();

  // Every engine must start and answer before any game.
  const uint64_t first_seed = schedule.empty() ? 1 : schedule.front().seed;
  auto identity = check_engines(o.engines, first_seed, o.game.command_timeout_s, interrupt);
  if (!identity.ok()) return identity.status();
  ctx.gtp_names = identity->names;
  ctx.gtp_versions = identity->versions;

  // Running: each game recorded as it ends, the SPRT checked after each.
  auto sprt_decided = [&] {
    return o.sprt && sprt_state(count_pairing(results, 0, pairings[0]), *o.sprt).decision != "continue";
  };
  RunnerOptions run;
  run.engines = o.engines;
  run.game = o.game;
  run.parallel = o.parallel;
  run.stderr_dir = o.out_dir + "/stderr";
  run.progress = o.progress;
  GameSink sink;
  sink.record = [&](GameResult&& g) -> absl::Status {
    if (absl::Status s = store->record(g); !s.ok()) return s;
    results.push_back(std::move(g));
    return absl::OkStatus();
  };
  sink.done = sprt_decided;
  sink.note = [&] { return progress_note(results, ctx); };
  auto played = play_games(run, pending, sink, interrupt);
  if (!played.ok()) return played.status();
  return finish_match(o, store, schedule.size(), results, *played, ctx, interrupt, sprt_decided());
}

}  // namespace hane
