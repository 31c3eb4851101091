#include "match/tune.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cluster/cluster.h"
#include "match/report.h"
#include "match/results_store.h"
#include "match/runner.h"
#include "match/result.h"
#include "match/schedule.h"
#include "match/stats.h"
#include "util/plot.h"
#include "util/progress.h"

namespace hane {
namespace {

namespace fs = std::filesystem;

constexpr int kPlus = 0, kMinus = 1, kAgainst = 2;

std::string utc_time() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// A file name part for a key: letters, digits, '-' and '_' kept, the rest '_'.
std::string file_part(const std::string& key) {
  std::string out;
  for (char ch : key) out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' ? ch : '_';
  return out;
}

// The games of batch `b`: indices b * G .. b * G + G - 1 (see tune.h for the order).
std::vector<GameAssignment> batch_games(const TuneOptions& o, int64_t b) {
  const bool against = o.against.has_value();
  const int per_pair = against ? 4 : 2;
  const int64_t g_per_batch = static_cast<int64_t>(per_pair) * o.pairs;
  std::vector<GameAssignment> out;
  for (int p = 0; p < o.pairs; ++p) {
    for (int g = 0; g < per_pair; ++g) {
      GameAssignment a;
      a.index = b * g_per_batch + static_cast<int64_t>(p) * per_pair + g;
      a.pair = b * o.pairs + p;
      const int side = against ? (g < 2 ? kPlus : kMinus) : kPlus;
      const int other = against ? kAgainst : kMinus;
      a.pairing = against && side == kMinus ? 1 : 0;
      const bool side_black = g % 2 == 0;
      a.black = side_black ? side : other;
      a.white = side_black ? other : side;
      // Against an opponent, minus's games mirror plus's: the same seeds.
      const int64_t seed_index = against ? b * g_per_batch + static_cast<int64_t>(p) * per_pair + g % 2 : a.index;
      a.seed = game_seed(o.seed, seed_index);
      out.push_back(std::move(a));
    }
  }
  return out;
}

struct Recorded {
  GameResult game;
  nlohmann::json tune;  // {batch, plus, minus}; null when the line has none
};

// What is kept of a batch for the report, the trajectory and the running Elo.
struct BatchRow {
  int64_t batch = 0, pairs_done = 0;  // pairs done after the batch
  std::vector<double> theta;          // after the batch
  std::vector<double> plus, minus;    // the values played
  double result = 0;
  int orient = 0;                     // direct: +1 plus is ahead along the path so far, -1 minus
  Wdl ahead;                          // direct: the ahead engine's games (when orient != 0)
  Wdl vs_against;                     // against: plus's and minus's games against the opponent
  double elo = 0, elo_lo = 0, elo_hi = 0, score = 0.5;
  int64_t window_games = 0;    // games behind the running Elo
  int64_t window_batches = 0;  // the batches it looks at
};

void add_points(Wdl& w, double pts) {
  if (pts == 1) ++w.wins;
  else if (pts == 0) ++w.losses;
  else ++w.draws;
}

// The running Elo at the last row: over the last quarter of the batches played (at least one).
void running_elo(std::vector<BatchRow>& rows, bool against) {
  BatchRow& last = rows.back();
  const size_t n = rows.size();
  const size_t w = std::max<size_t>(1, (n + 3) / 4);
  Wdl sum;
  for (size_t i = n - w; i < n; ++i) {
    const Wdl& x = against ? rows[i].vs_against : rows[i].ahead;
    sum.wins += x.wins, sum.draws += x.draws, sum.losses += x.losses;
  }
  const Interval ci = wilson_interval(sum);
  auto clamp = [](std::optional<double> x, double inf) { return x ? std::clamp(*x, -800.0, 800.0) : inf; };
  last.score = sum.score();
  last.elo = clamp(elo_from_score(sum.score()), sum.score() >= 1 ? 800 : -800);
  last.elo_lo = clamp(elo_from_score(ci.lo), -800);
  last.elo_hi = clamp(elo_from_score(ci.hi), 800);
  last.window_games = sum.games();
  last.window_batches = static_cast<int64_t>(w);
}

std::string elo_meaning(bool against) {
  return against ? "Elo of the tuned engines (theta +- c_k flip) against the opponent, over the last quarter of the batches"
                 : "Elo of the perturbed engine ahead along the path taken so far (sign of flip . (theta - start) / C_END) "
                   "over the one behind, over the last quarter of the batches: above 0 while the tuning climbs, "
                   "near 0 once it has converged";
}

}  // namespace

absl::StatusOr<TuneOutcome> run_tune(const TuneOptions& o, const std::atomic<bool>* interrupt) {
  if (o.params.empty()) return absl::InvalidArgumentError("no parameter to tune");
  if (o.integer.size() != o.params.size()) return absl::InvalidArgumentError("integer flags do not match the parameters");
  if (o.pairs < 1) return absl::InvalidArgumentError("--pairs must be at least 1");
  if (o.out_dir.empty()) return absl::InvalidArgumentError("no output folder");
  const bool against = o.against.has_value();
  const int64_t g_per_batch = static_cast<int64_t>(against ? 4 : 2) * o.pairs;
  const int64_t batches = std::max<int64_t>(1, (o.games + g_per_batch - 1) / g_per_batch);
  const int64_t total_pairs = batches * o.pairs;
  std::optional<Spsa> spsa;
  try {
    spsa.emplace(o.params, total_pairs, o.schedule);
  } catch (const std::invalid_argument& e) {
    return absl::InvalidArgumentError(e.what());
  }
  const size_t n = o.params.size();
  const bool root = cluster::is_root();
  const int ranks = cluster::size();
  const std::string results_path = o.out_dir + "/results.jsonl";

  nlohmann::json settings = o.settings;
  settings["params"] = nlohmann::json::array();
  for (size_t i = 0; i < n; ++i) {
    const SpsaParam& p = o.params[i];
    settings["params"].push_back({{"key", p.key}, {"start", p.start}, {"min", p.min}, {"max", p.max}, {"c_end", p.c_end},
                                  {"r_end", p.r_end}, {"integer", static_cast<bool>(o.integer[i])}});
  }
  settings["name"] = o.name;
  settings["against"] = against ? nlohmann::json{{"name", o.against->name}, {"argv", o.against->argv}} : nlohmann::json();
  settings["batches"] = batches;
  settings["pairs_per_batch"] = o.pairs;
  settings["schedule"] = {{"A_ratio", o.schedule.a_ratio}, {"alpha", o.schedule.alpha}, {"gamma", o.schedule.gamma}};
  settings["seed"] = o.seed;
  settings["size"] = o.game.size;
  settings["komi"] = o.game.komi;
  settings["rules"] = o.game.rules_name;
  settings["max_moves"] = o.game.max_moves;

  // Rank 0 opens (and repairs) the folder with the results store of a match
  // (match/results_store.h); every rank gets the recorded games.
  std::vector<GameAssignment> schedule;
  for (int64_t b = 0; b < batches; ++b) {
    for (GameAssignment& a : batch_games(o, b)) schedule.push_back(std::move(a));
  }
  auto opened = open_store_on_ranks(o.out_dir, settings, schedule,
                                    StoreKind{.settings_file = "tune.json", .what = "tuning run", .command = "tune"});
  if (!opened.ok()) return opened.status();
  ResultsStore* store = opened->store.get();  // rank 0 only
  std::map<int64_t, Recorded> loaded;
  std::string lines;
  if (root) {
    for (const auto& [idx, line] : store->loaded_lines()) lines += line.dump() + "\n";
  }
  if (ranks > 1) cluster::broadcast(lines);
  {
    std::istringstream in(lines);
    for (std::string line; std::getline(in, line);) {
      const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      auto g = game_from_json(j);
      if (g.ok()) loaded.emplace(g->index, Recorded{std::move(*g), j.value("tune", nlohmann::json())});
    }
  }

  // The engines must start before any game: the tuned engine at the start values, and the opponent.
  std::vector<std::string> start_values;
  for (size_t i = 0; i < n; ++i) start_values.push_back(engine_value(o.params[i].start, o.integer[i]));
  auto start_spec = o.engine(o.name, start_values);
  if (!start_spec.ok()) return start_spec.status();
  std::vector<EngineSpec> check_specs = {*start_spec};
  if (against) check_specs.push_back(*o.against);
  // (an interrupt meanwhile is not a failure: the batches below see it and stop.)
  if (auto checked = check_engines(check_specs, game_seed(o.seed, 0), o.game.command_timeout_s, interrupt);
      !checked.ok() && checked.status().code() != absl::StatusCode::kCancelled) {
    return checked.status();
  }

  const std::vector<double> start_theta = spsa->theta();
  std::vector<BatchRow> rows;
  int64_t played = 0, counted = 0, voids = 0, forfeits = 0;
  int64_t pending_total = 0;
  for (int64_t b = 0; b < batches; ++b) {
    for (const GameAssignment& a : batch_games(o, b)) pending_total += !loaded.contains(a.index);
  }
  if (root && !o.progress) Progress::set_enabled(false);
  std::optional<Progress> progress;
  if (root) progress.emplace("tune", "games", pending_total);
  absl::Status failure;
  bool stopped = false;
  for (int64_t b = 0; b < batches && !stopped; ++b) {
    const SpsaStep step = spsa->step(spsa_flips(o.seed, b, n));
    std::vector<std::string> plus, minus;
    for (size_t i = 0; i < n; ++i) {
      plus.push_back(engine_value(step.plus[i], o.integer[i]));
      minus.push_back(engine_value(step.minus[i], o.integer[i]));
    }
    const nlohmann::json tune_entry = {{"batch", b}, {"plus", plus}, {"minus", minus}};
    auto plus_spec = o.engine(o.name + "+", plus);
    auto minus_spec = o.engine(o.name + "-", minus);
    if (!plus_spec.ok()) return plus_spec.status();
    if (!minus_spec.ok()) return minus_spec.status();
    std::vector<EngineSpec> specs = {*plus_spec, *minus_spec};
    if (against) specs.push_back(*o.against);

    const std::vector<GameAssignment> games = batch_games(o, b);
    std::map<int64_t, GameResult> done;
    std::vector<const GameAssignment*> missing;
    for (const GameAssignment& a : games) {
      auto it = loaded.find(a.index);
      if (it == loaded.end()) {
        missing.push_back(&a);
        continue;
      }
      if (it->second.tune != tune_entry) {
        return absl::InvalidArgumentError(absl::StrCat(
            results_path, ": game ", a.index, " does not match the replayed run (batch ", b, " would play ",
            tune_entry.dump(), ", the file says ", it->second.tune.dump(), "); use another --out folder"));
      }
      done.emplace(a.index, it->second.game);
    }
    // The missing games, by the match runner (spread over the ranks as run_match spreads them);
    // rank 0 records each, then every rank gets the batch's games, so that all compute the same
    // theta.
    std::vector<GameResult> fresh;
    GameSink sink;
    sink.record = [&](GameResult&& g) -> absl::Status {
      if (absl::Status s = store->record(g, {{"tune", tune_entry}}); !s.ok()) return s;
      fresh.push_back(std::move(g));
      return absl::OkStatus();
    };
    if (!missing.empty() && !cluster::any(interrupt && *interrupt)) {
      const RunnerOptions runner{.engines = specs, .game = o.game, .parallel = o.parallel,
                                 .stderr_dir = o.out_dir + "/stderr", .progress = false};
      if (absl::StatusOr<int64_t> ran = play_games(runner, missing, sink, interrupt); !ran.ok()) failure = ran.status();
      if (!o.progress) Progress::set_enabled(false);  // the runner turns it back on
    }
    std::string shared;
    if (root) {
      nlohmann::json list = nlohmann::json::array();
      for (const GameResult& g : fresh) list.push_back(to_json(g));
      shared = list.dump();
    }
    if (ranks > 1) {
      cluster::broadcast(shared);
      if (!root) {
        const nlohmann::json list = nlohmann::json::parse(shared, nullptr, false);
        for (const nlohmann::json& gj : list.is_array() ? list : nlohmann::json::array()) {
          auto g = game_from_json(gj);
          if (!g.ok()) {
            if (failure.ok()) failure = absl::InternalError(std::string(g.status().message()));
            continue;
          }
          fresh.push_back(std::move(*g));
        }
      }
    }
    for (GameResult& g : fresh) {
      const int64_t idx = g.index;
      loaded.emplace(idx, Recorded{g, tune_entry});
      done.emplace(idx, std::move(g));
      ++played;
    }
    if (cluster::any(!failure.ok() || (interrupt && *interrupt)) || done.size() < games.size()) {
      stopped = true;
      break;
    }
    // The batch is complete: its result, and the step.
    BatchRow row;
    row.batch = b;
    row.plus = step.plus;
    row.minus = step.minus;
    double dot = 0;
    for (size_t i = 0; i < n; ++i) dot += step.flip[i] * (spsa->theta()[i] - start_theta[i]) / o.params[i].c_end;
    row.orient = dot > 1e-12 ? 1 : dot < -1e-12 ? -1 : 0;
    double result = 0;
    for (const auto& [idx, g] : done) {
      if (!g.counted()) {
        ++voids;
        continue;
      }
      ++counted;
      if (g.forfeit_engine >= 0) ++forfeits;
      if (against) {
        const int side = g.black == kAgainst ? g.white : g.black;
        const double pts = g.points(side);
        result += (side == kPlus ? 1 : -1) * (2 * pts - 1);
        add_points(row.vs_against, pts);
      } else {
        const double pts = g.points(kPlus);
        result += 2 * pts - 1;
        if (row.orient != 0) add_points(row.ahead, row.orient > 0 ? pts : 1 - pts);
      }
    }
    row.result = result;
    spsa->update(step, result, o.pairs);
    row.pairs_done = spsa->pairs_done();
    row.theta = spsa->theta();
    rows.push_back(std::move(row));
    running_elo(rows, against);
    if (root) {
      std::string note = absl::StrFormat("batch %d/%d", b + 1, batches);
      for (size_t i = 0; i < n; ++i) {
        absl::StrAppend(&note, ", ", o.params[i].key, " ", engine_value(spsa->theta()[i], false));
      }
      progress->update(played, note);
    }
  }
  if (root) {
    progress->finish();
    if (!o.progress) Progress::set_enabled(true);
  }
  if (!failure.ok()) return failure;

  TuneOutcome out;
  out.interrupted = cluster::any(interrupt && *interrupt);
  out.finished = static_cast<int64_t>(rows.size()) == batches;
  out.theta = spsa->theta();
  for (size_t i = 0; i < n; ++i) out.values.push_back(engine_value(out.theta[i], o.integer[i]));
  if (!root) return out;

  // The report.
  nlohmann::json& r = out.report;
  r["params"] = nlohmann::json::array();
  for (size_t i = 0; i < n; ++i) {
    const SpsaParam& p = o.params[i];
    r["params"].push_back({{"key", p.key}, {"start", p.start}, {"min", p.min}, {"max", p.max}, {"c_end", p.c_end},
                           {"r_end", p.r_end}, {"c", spsa->c(i)}, {"a", spsa->a(i)}, {"theta", out.theta[i]},
                           {"value", out.values[i]}, {"integer", static_cast<bool>(o.integer[i])}});
  }
  r["schedule"] = {{"A", spsa->big_a()}, {"A_ratio", o.schedule.a_ratio}, {"alpha", o.schedule.alpha},
                   {"gamma", o.schedule.gamma}, {"pairs_total", total_pairs}, {"pairs_done", spsa->pairs_done()},
                   {"pairs_per_batch", o.pairs}, {"batches", batches}, {"batches_done", rows.size()},
                   {"games_per_batch", g_per_batch}};
  r["games"] = counted;
  r["void_games"] = voids;
  r["forfeits"] = forfeits;
  r["games_this_run"] = played;
  r["against"] = against ? nlohmann::json(o.against->spec) : nlohmann::json();
  nlohmann::json elo = nullptr;
  if (!rows.empty()) {
    const BatchRow& last = rows.back();
    elo = {{"meaning", elo_meaning(against)}, {"games", last.window_games}, {"score", last.score},
           {"elo", last.elo}, {"elo_ci95", {last.elo_lo, last.elo_hi}}};
  }
  r["running_elo"] = elo;
  nlohmann::json trajectory = nlohmann::json::array();
  for (const BatchRow& row : rows) {
    trajectory.push_back({{"batch", row.batch}, {"pairs_done", row.pairs_done}, {"theta", row.theta}, {"plus", row.plus},
                          {"minus", row.minus}, {"result", row.result}, {"elo", row.elo}});
  }
  r["trajectory"] = trajectory;
  r["finished"] = out.finished;
  r["interrupted"] = out.interrupted;
  r["provenance"] = o.provenance;
  r["provenance"]["finished_at"] = utc_time();
  r["provenance"]["ranks"] = ranks;

  std::string& t = out.text;
  absl::StrAppendFormat(&t, "SPSA: %d of %d batches (%d pairs of %d; %d games counted, %d void, %d forfeits)\n",
                        rows.size(), batches, spsa->pairs_done(), total_pairs, counted, voids, forfeits);
  absl::StrAppendFormat(&t, "A %g, alpha %g, gamma %g, %d pairs per batch%s\n\n", spsa->big_a(), o.schedule.alpha,
                        o.schedule.gamma, o.pairs, against ? ", each side against " + o.against->name : "");
  absl::StrAppendFormat(&t, "%-24s %10s %10s %10s %10s %10s %10s\n", "parameter", "start", "min", "max", "c_end", "r_end", "tuned");
  for (size_t i = 0; i < n; ++i) {
    const SpsaParam& p = o.params[i];
    absl::StrAppendFormat(&t, "%-24s %10g %10g %10g %10g %10g %10s\n", p.key, p.start, p.min, p.max, p.c_end, p.r_end,
                          out.values[i]);
  }
  if (!rows.empty()) {
    const BatchRow& last = rows.back();
    if (last.window_games == 0) {
      // Without --against, a batch counts only once theta has left its start (before that no
      // side is "ahead"); every game may be void too.
      absl::StrAppendFormat(&t, "\nrunning Elo: not measured yet: none of the games of the last %d batch%s counts for it (%s)\n",
                            last.window_batches, last.window_batches == 1 ? "" : "es",
                            against ? "every one was void"
                                    : "theta was still at its start there, so neither perturbed engine was ahead; "
                                      "the steps counted every game");
    } else {
      absl::StrAppendFormat(&t, "\nrunning Elo %+.0f [%+.0f, %+.0f] over %d games: %s\n", last.elo, last.elo_lo,
                            last.elo_hi, last.window_games, elo_meaning(against));
    }
  }

  // trajectory.dat and the plots.
  const std::string data = o.out_dir + "/trajectory.dat";
  {
    std::ostringstream f;
    f << "# pairs_done result elo elo_lo elo_hi";
    for (const SpsaParam& p : o.params) f << " " << p.key << " " << p.key << "+ " << p.key << "-";
    f << "\n0 0 0 0 0";
    for (size_t i = 0; i < n; ++i) f << " " << start_theta[i] << " " << start_theta[i] << " " << start_theta[i];
    f << "\n";
    for (const BatchRow& row : rows) {
      f << row.pairs_done << " " << row.result << " " << row.elo << " " << row.elo_lo << " " << row.elo_hi;
      for (size_t i = 0; i < n; ++i) f << " " << row.theta[i] << " " << row.plus[i] << " " << row.minus[i];
      f << "\n";
    }
    if (absl::Status s = store->write_file("trajectory.dat", f.str()); !s.ok()) return s;
  }
  if (o.plots) {
    // The legends go below the plots, never over the curves.
    std::ostringstream f;
    std::vector<std::string> files;
    f << "set terminal svg size 800,540 dynamic background '#ffffff'\nset key below horizontal\nset grid\n"
      << "set xlabel 'game pairs'\n";
    for (size_t i = 0; i < n; ++i) {
      const std::string file = o.out_dir + "/theta-" + file_part(o.params[i].key) + ".svg";
      files.push_back(file);
      const int col = 6 + 3 * static_cast<int>(i);
      f << "set output " << gnuplot_quote(file) << "\n"
        << "set title " << gnuplot_quote("SPSA: " + o.params[i].key + " (theta, and the values played: theta +- c_k)")
        << " noenhanced\n"
        << "set ylabel " << gnuplot_quote(o.params[i].key) << " noenhanced\nset yrange [" << o.params[i].min << ":"
        << o.params[i].max << "]\n"
        << "plot " << gnuplot_quote(data) << " using 1:" << col + 1 << ":" << col + 2
        << " with filledcurves fs transparent solid 0.2 lc rgb '#4477aa' title 'theta +- c_k', "
        << "'' using 1:" << col << " with lines lw 2 lc rgb '#224488' title 'theta', " << o.params[i].start
        << " with lines lc rgb '#888888' title 'start'\n";
    }
    const std::string file = o.out_dir + "/elo.svg";
    files.push_back(file);
    f << "set output " << gnuplot_quote(file) << "\nset autoscale y\n"
      << "set title "
      << gnuplot_quote((against ? "running Elo against " + o.against->name : std::string("running Elo: ahead vs behind")) +
                       " (last quarter of the batches, 95% Wilson interval)")
      << " noenhanced\nset ylabel 'Elo'\n"
      << "plot " << gnuplot_quote(data) << " every ::1 using 1:4:5 with filledcurves fs transparent solid 0.25 lc rgb "
      << "'#4477aa' title '95% interval', '' every ::1 using 1:3 with lines lw 2 lc rgb '#224488' title 'Elo', 0 with "
      << "lines lc rgb '#888888' notitle\n";
    if (const std::string problem = run_gnuplot(o.out_dir + "/plots.gp", f.str()); !problem.empty()) {
      t += "\nplots: not drawn: " + problem + " (data in " + data + ")\n";
    } else {
      t += "\nplots:";
      for (const std::string& name : files) t += " " + name;
      t += "\n";
    }
  }
  if (out.interrupted) {
    absl::StrAppendFormat(&t, "\nstopped (interrupted) after %d of %d batches: run the same command again to resume\n",
                          rows.size(), batches);
  }
  if (absl::Status s = store->write_file("report.json", r.dump(2) + "\n"); !s.ok()) return s;
  if (absl::Status s = store->write_file("report.txt", t); !s.ok()) return s;
  return out;
}

}  // namespace hane
