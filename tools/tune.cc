// hane tune: tune engine settings together by SPSA over games (lib/match/spsa.h, tune.h), then
// optionally verify the tuned settings against the start with an SPRT match.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "cluster/cluster.h"
#include "engine_process/gtp_client.h"
#include "match/match.h"
#include "match/tune.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/tune_keys.h"
#include "tools/version.h"
#include "util/files.h"

namespace hane::tools {
namespace {

std::atomic<bool> g_interrupted{false};

void on_signal(int) { g_interrupted = true; }

struct TuneFlags {
  std::string engine;
  std::vector<std::string> params;
  std::string against;
  int64_t games = 1000;
  int pairs = 4;
  int size = 9;
  double komi = 7.5;
  int max_moves = 0;
  double move_timeout = 60;
  uint64_t seed = 1;
  int parallel = 0;
  double a_ratio = 0.1, alpha = 0.602, gamma = 0.101;
  int64_t verify = 0;
  std::string verify_sprt = "elo0=0,elo1=30";
  std::string out = "tune";
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

// The tuned engine as given: its name, whether it is hane's, and the text after "hane:"/"gtp:".
struct BaseEngine {
  std::string name;
  bool hane = false;
  std::string rest;  // ARGS of hane:ARGS, or the command line of gtp:COMMAND
};

BaseEngine parse_base(const std::string& text) {
  auto spec = parse_engine_spec(text, "hane", 0);
  if (!spec.ok()) throw UsageError("--engine: " + std::string(spec.status().message()));
  BaseEngine b;
  b.name = text.find('=') < text.find(':') ? spec->name : "tuned";
  if (b.name.find_first_of("/\\ +-") != std::string::npos)
    throw UsageError("--engine: the name '" + b.name + "' may not hold '/', '\\', spaces, '+' or '-'");
  b.hane = spec->spec.starts_with("hane:");
  b.rest = spec->spec.substr(b.hane ? 5 : 4);
  return b;
}

double parse_number(const std::string& param, const std::string& what, const std::string& text) {
  double v = 0;
  if (!absl::SimpleAtod(text, &v) || !std::isfinite(v))
    throw UsageError("--param " + param + ": " + what + " '" + text + "' is not a number");
  return v;
}

// KEY=START:MIN:MAX[:C_END[:R_END]]; C_END defaults to (MAX - MIN) / 20 and R_END to 0.002.
SpsaParam parse_param(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError("--param " + text + ": expected KEY=START:MIN:MAX[:C_END[:R_END]]");
  SpsaParam p;
  p.key = text.substr(0, eq);
  while (p.key.starts_with("-")) p.key.erase(0, 1);
  const std::vector<std::string> parts = absl::StrSplit(text.substr(eq + 1), ':');
  if (parts.size() < 3 || parts.size() > 5)
    throw UsageError("--param " + text + ": expected KEY=START:MIN:MAX[:C_END[:R_END]]");
  p.start = parse_number(text, "START", parts[0]);
  p.min = parse_number(text, "MIN", parts[1]);
  p.max = parse_number(text, "MAX", parts[2]);
  if (!(p.min < p.max)) throw UsageError("--param " + text + ": MIN must be below MAX");
  if (p.start < p.min || p.start > p.max) throw UsageError("--param " + text + ": START is outside [MIN, MAX]");
  p.c_end = parts.size() > 3 ? parse_number(text, "C_END", parts[3]) : (p.max - p.min) / 20;
  p.r_end = parts.size() > 4 ? parse_number(text, "R_END", parts[4]) : 0.002;
  if (!(p.c_end > 0)) throw UsageError("--param " + text + ": C_END must be above 0");
  if (!(p.r_end >= 0)) throw UsageError("--param " + text + ": R_END must be at least 0");
  return p;
}

// A gtp: engine's KEY is a "{KEY}" placeholder of its command line.
std::vector<bool> check_gtp_keys(const BaseEngine& base, const std::vector<SpsaParam>& params) {
  for (const SpsaParam& p : params) {
    if (base.rest.find("{" + p.key + "}") == std::string::npos)
      throw UsageError("--param " + p.key + ": a gtp: engine's command line must hold {" + p.key + "}");
    if (p.key == "seed") throw UsageError("--param seed: {seed} is the game's seed");
  }
  return std::vector<bool>(params.size(), false);
}

// The engine's spec with `values`: hane ARGS plus --KEY VALUE / --policy-set KEY=VALUE, or the
// gtp command with {KEY} replaced.
std::string spec_text(const BaseEngine& base, const std::vector<SpsaParam>& params, const std::vector<std::string>& values) {
  if (!base.hane) {
    std::string line = base.rest;
    for (size_t i = 0; i < params.size(); ++i) {
      const std::string hole = "{" + params[i].key + "}";
      for (size_t p; (p = line.find(hole)) != std::string::npos;) line.replace(p, hole.size(), values[i]);
    }
    return "gtp:" + line;
  }
  std::string args = base.rest;
  for (size_t i = 0; i < params.size(); ++i) {
    const bool policy_key = params[i].key.find('.') != std::string::npos;
    absl::StrAppend(&args, args.empty() ? "" : " ", policy_key ? "--policy-set " + params[i].key + "=" : "--" + params[i].key + " ",
                    values[i]);
  }
  return "hane:" + args;
}

int run(const TuneFlags& f, const std::string& command_line) {
  const std::string exe = self_exe();
  const BaseEngine base = parse_base(f.engine);
  std::vector<SpsaParam> params;
  for (const std::string& t : f.params) {
    params.push_back(parse_param(t));
    for (size_t i = 0; i + 1 < params.size(); ++i) {
      if (params[i].key == params.back().key) throw UsageError("--param " + params.back().key + " given twice");
    }
  }
  const std::vector<bool> integer = base.hane ? check_hane_keys(base.rest, params) : check_gtp_keys(base, params);
  std::optional<EngineSpec> against;
  if (!f.against.empty()) {
    auto a = parse_engine_spec(f.against, exe, 1);
    if (!a.ok()) throw UsageError("--against: " + std::string(a.status().message()));
    if (f.against.find('=') >= f.against.find(':')) a->name = "against";
    if (a->name.find_first_of("/\\ ") != std::string::npos)
      throw UsageError("--against: the name '" + a->name + "' may not hold '/', '\\' or spaces");
    if (a->name == base.name + "+" || a->name == base.name + "-") throw UsageError("--against: the name " + a->name + " is taken");
    against = std::move(*a);
  }
  std::optional<SprtParams> sprt;
  if (f.verify > 0) {
    try {
      sprt = parse_sprt(f.verify_sprt);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--verify-sprt: ") + e.what());
    }
  }

  TuneOptions o;
  o.params = params;
  o.integer = integer;
  o.name = base.name;
  o.engine = [&](const std::string& name, const std::vector<std::string>& values) {
    return parse_engine_spec(name + "=" + spec_text(base, params, values), exe, 0);
  };
  o.against = against;
  o.games = f.games;
  o.pairs = f.pairs;
  o.schedule = {f.a_ratio, f.alpha, f.gamma};
  o.game.size = f.size;
  o.game.komi = f.komi;
  o.game.max_moves = f.max_moves;
  o.game.move_timeout_s = f.move_timeout;
  o.seed = f.seed;
  o.parallel = f.parallel;
  o.out_dir = f.out;
  o.progress = !f.quiet;
  o.plots = !f.no_plots;
  o.settings = {{"engine", base.name + "=" + (base.hane ? "hane:" : "gtp:") + base.rest}};
  o.provenance = {{"command", command_line}, {"hane_version", kVersion}, {"hane_commit", kCommit}};

  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C ends the program at once
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGUSR1, &sa, nullptr);  // forwarded by mpirun to every rank (util/interrupt.h)
  auto outcome = run_tune(o, &g_interrupted);
  if (!outcome.ok()) {
    if (outcome.status().code() == absl::StatusCode::kInvalidArgument) throw UsageError(std::string(outcome.status().message()));
    throw std::runtime_error(std::string(outcome.status().message()));
  }
  const std::string tuned = spec_text(base, params, outcome->values);
  std::vector<std::string> start_values;
  for (size_t i = 0; i < params.size(); ++i) start_values.push_back(engine_value(params[i].start, integer[i]));
  const std::string start = spec_text(base, params, start_values);
  std::string text = outcome->text;
  nlohmann::json report = outcome->report;
  if (cluster::is_root()) {
    if (outcome->finished) {
      absl::StrAppend(&text, "\ntuned: -e ", base.name, "='", tuned, "'\n");
      if (base.hane) absl::StrAppend(&text, "       hane gtp ", tuned.substr(5), "\n");
    } else {
      // Not the tuned settings: where the run stopped (run_tune's text says how to resume).
      absl::StrAppend(&text, "\nnot finished; theta so far: -e ", base.name, "='", tuned, "'\n");
    }
    report["tuned_engine"] = tuned;
    report["start_engine"] = start;
  }
  bool interrupted = outcome->interrupted;
  if (f.verify > 0 && outcome->finished && !interrupted) {
    // The SPRT match of the tuned settings against the start, in OUT/verify (resumable too).
    MatchOptions m;
    for (const auto& [name, spec] : {std::pair{std::string("tuned"), tuned}, std::pair{std::string("start"), start}}) {
      auto e = parse_engine_spec(name + "=" + spec, exe, 0);
      if (!e.ok()) throw std::runtime_error(std::string(e.status().message()));
      m.engines.push_back(std::move(*e));
    }
    m.games = f.verify;
    m.game = o.game;
    m.seed = f.seed;
    m.parallel = f.parallel;
    m.sprt = sprt;
    m.out_dir = f.out + "/verify";
    m.progress = !f.quiet;
    m.plots = !f.no_plots;
    m.provenance = o.provenance;
    auto v = run_match(m, &g_interrupted);
    if (!v.ok()) throw std::runtime_error("verify: " + std::string(v.status().message()));
    if (cluster::is_root()) {
      absl::StrAppend(&text, "\nverification (", m.out_dir, "):\n", v->text);
      report["verify"] = v->report;
    }
    interrupted = v->interrupted;
  } else if (f.verify > 0 && cluster::is_root()) {
    absl::StrAppend(&text, "\nverification: not played (the tuning has not finished)\n");
  }
  std::fputs(text.c_str(), stdout);
  if (cluster::is_root()) {
    // The report again, with the tuned command line and the verification (run_tune wrote it
    // first, and files.txt lists it).
    for (const std::string& path : {f.out + "/report.json", f.json_path}) {
      if (path.empty()) continue;
      if (absl::Status s = write_file_atomically(path, report.dump(2) + "\n"); !s.ok()) {
        throw std::runtime_error(std::string(s.message()));
      }
    }
  }
  return interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto flags = std::make_shared<TuneFlags>();
  CLI::App* cmd = app.add_subcommand(
      "tune",
      "Tune engine settings together by SPSA over games (fishtest's schedule), then optionally verify the result "
      "with an SPRT match against the start. Rerun the same command to resume.");
  cmd->add_option("-e,--engine", flags->engine,
                  "the engine to tune: hane:ARGS (KEY: a hane gtp option that takes a number, or a --policy-set key of its "
                  "policy) or gtp:COMMAND LINE (KEY: a {KEY} placeholder in it)")
      ->required();
  cmd->add_option("--param", flags->params,
                  "KEY=START:MIN:MAX[:C_END[:R_END]]: a setting to tune, repeatable; C_END (the perturbation at the end) and "
                  "R_END (the learning rate at the end) as in fishtest (default C_END (MAX-MIN)/20, R_END 0.002)")
      ->required();
  cmd->add_option("--against", flags->against,
                  "NAME=SPEC: play theta+c and theta-c each against this engine instead of against each other");
  cmd->add_option("-n,--games", flags->games, "games of the tuning (rounded up to whole batches)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--pairs", flags->pairs, "colour-swapped game pairs per SPSA step (per side, with --against)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--size", flags->size, "board size")->check(CLI::Range(2, 25))->capture_default_str();
  cmd->add_option("--komi", flags->komi, "komi, points")->capture_default_str();
  cmd->add_option("--max-moves", flags->max_moves, "moves after which a game is adjudicated or void; 0: 3 x size^2")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--move-timeout", flags->move_timeout, "seconds a genmove may take (then forfeit)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--seed", flags->seed, "seed of the flips and of the per-game seeds")->capture_default_str();
  cmd->add_option("-p,--parallel", flags->parallel, "games at once; 0: one per core (under mpirun, per rank)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--a-ratio", flags->a_ratio, "SPSA's stability constant A as a fraction of the game pairs")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--alpha", flags->alpha, "SPSA's learning-rate decay exponent")->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--gamma", flags->gamma, "SPSA's perturbation decay exponent")->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--verify", flags->verify, "after the tuning, at most this many games of the tuned settings against the start, with the SPRT (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--verify-sprt", flags->verify_sprt, "the verification's SPRT (as match --sprt)")->capture_default_str();
  cmd->add_option("-o,--out", flags->out, "output folder (a rerun resumes it): results.jsonl, sgf/, trajectory, report, plots, verify/")
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
