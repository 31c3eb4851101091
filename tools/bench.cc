// hane bench: the speed of every playout policy (playouts/s, µs per move) on 9x9 and 19x19, one
// thread, printed and optionally written as JSON.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "playout/registry.h"
#include "search/search.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "tools/engine_options.h"
#include "tools/policy_options.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct BenchOptions {
  double seconds = 2.0;
  uint64_t seed = 1;
  std::string json_path;
  PolicyFlags policy;
  bool search = false;         // --search: in-search rates too
  std::string prior = "none";  // --search-prior
  bool quiet = false;          // --quiet: accepted as everywhere; bench writes only results and warnings
};

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct Measured {
  double playouts_per_second = 0;      // wall clock
  double cpu_playouts_per_second = 0;  // this thread's CPU time
  double us_per_move = 0, cpu_us_per_move = 0;
  double moves_per_playout = 0;
};

// Playouts with `policy` from the empty board of `size` for about `seconds` (at least one).
Measured measure(PlayoutPolicy& policy, int size, const BenchOptions& o) {
  const Board empty(size);
  Rng rng(o.seed);
  int64_t playouts = 0, moves = 0;
  const double cpu_start = thread_cpu_seconds();
  const auto start = Clock::now();
  double elapsed = 0;
  do {
    policy.reset(empty, Color::kBlack);
    moves += run_playout(policy, rng).moves;
    ++playouts;
    elapsed = since(start);
  } while (elapsed < o.seconds);
  const double cpu = thread_cpu_seconds() - cpu_start;
  Measured m;
  m.playouts_per_second = playouts / elapsed;
  m.cpu_playouts_per_second = cpu > 0 ? playouts / cpu : 0;
  m.us_per_move = 1e6 * elapsed / std::max<int64_t>(1, moves);
  m.cpu_us_per_move = 1e6 * cpu / std::max<int64_t>(1, moves);
  m.moves_per_playout = static_cast<double>(moves) / playouts;
  return m;
}

// With no --policy: uniform, rules (when registered), softmax with the shipped rollout model and
// gamma with the shipped gamma model.
std::vector<std::string> default_specs() {
  std::vector<std::string> specs = {"uniform"};
  const std::vector<std::string> names = policy_names();
  if (std::find(names.begin(), names.end(), "rules") != names.end()) specs.push_back("rules");
  const std::string model = patterns_dir() + "/kgs-softmax-rollout.model";
  if (std::filesystem::exists(model)) {
    specs.push_back("softmax:" + model);
  } else {
    std::fprintf(stderr, "hane: warning: %s not found, softmax left out\n", model.c_str());
  }
  const std::string gamma = patterns_dir() + "/kgs-gamma.model";
  if (std::filesystem::exists(gamma)) {
    specs.push_back("rules-gamma:" + gamma);
    specs.push_back("gamma:" + gamma);
  } else {
    std::fprintf(stderr, "hane: warning: %s not found, rules-gamma and gamma left out\n", gamma.c_str());
  }
  return specs;
}

// In-search rates: a search from the empty board and an empty tree with a budget of 20,000 new
// simulations (the --playouts budget) on 9x9 and 5,000 on 19x19, one thread, each policy with the
// --search-prior. With no tree to reuse, --visits N would run the same N simulations; in a game
// it counts the kept subtree's visits too, as Pachi's `-t =N` does.
void bench_search(const BenchOptions& o, const std::vector<std::string>& specs, const std::vector<std::string>& names,
                  nlohmann::json& report) {
  std::printf("\nin search: a search from the empty board and an empty tree, budget --playouts N (N new "
              "simulations), one thread, prior %s (wall clock; CPU time in brackets)\n",
              o.prior.c_str());
  for (size_t i = 0; i < specs.size(); ++i) {
    SearchOptions s;
    s.policy = specs[i];
    s.policy_options = o.policy.options();
    s.prior = o.prior;
    s.seed = o.seed;
    for (const auto& [size, playouts] : {std::pair{9, int64_t{20000}}, std::pair{19, int64_t{5000}}}) {
      double cpu = 0;
      const absl::StatusOr<double> rate = search_playouts_per_second(s, size, playouts, &cpu);
      if (!rate.ok()) throw std::runtime_error(std::string(rate.status().message()));
      const double cpu_rate = cpu > 0 ? playouts / cpu : 0;
      std::printf("  %-10s %2dx%-2d  %10.0f (CPU %8.0f) playouts/s over %s playouts\n", names[i].c_str(), size, size,
                  *rate, cpu_rate, with_thousands(playouts).c_str());
      std::fflush(stdout);
      report["search"][names[i]][std::to_string(size)] = {{"playouts_per_second", *rate},
                                                          {"cpu_playouts_per_second", cpu_rate}};
    }
  }
}

void run(const BenchOptions& o) {
  const std::vector<std::string> specs = o.policy.specs.empty() ? default_specs() : o.policy.specs;
  check_settings_used(o.policy.options(), specs);
  std::error_code ec;
  if (o.search && o.prior != "none" && o.prior != "uniform" && !std::filesystem::exists(o.prior, ec)) {
    throw UsageError("--search-prior " + o.prior + ": no such model file (or none)");
  }
  // Models of other board sizes than those measured (9x9, 19x19) are said.
  for (const std::string& spec : specs) {
    if (spec.find(':') != std::string::npos) warn_if_model_not_for(spec.substr(spec.find(':') + 1), {9, 19}, "bench plays on");
  }
  if (o.search && o.prior != "none") warn_if_model_not_for(o.prior, {9, 19}, "bench --search plays on");
  // Every policy (and model) is made first: a wrong one fails before any benchmarking.
  std::vector<std::unique_ptr<PlayoutPolicy>> policies;
  for (const std::string& spec : specs) policies.push_back(o.policy.make(spec));
  // Report names: the policy's name, or the whole spec where two share a name.
  std::vector<std::string> names;
  for (size_t i = 0; i < policies.size(); ++i) {
    const std::string name = policies[i]->name();
    const bool shared = std::count_if(policies.begin(), policies.end(), [&](const auto& p) { return p->name() == name; }) > 1;
    names.push_back(shared ? specs[i] : name);
  }

  nlohmann::json report;
  std::printf("playouts from the empty board, one thread, %g s each (wall clock; CPU time of the thread in "
              "brackets)\n", o.seconds);
  int width = 10;
  for (const std::string& n : names) width = std::max(width, static_cast<int>(n.size()));
  std::printf("  %-*s %5s  %22s  %20s  %8s\n", width, "policy", "board", "playouts/s", "µs per move", "moves");
  for (size_t i = 0; i < policies.size(); ++i) {
    report["policy_specs"][names[i]] = specs[i];
    for (int size : {9, 19}) {
      const Measured m = measure(*policies[i], size, o);
      std::printf("  %-*s %2dx%-2d  %10.0f (CPU %8.0f)  %8.3f (CPU %7.3f)  %8.1f\n", width, names[i].c_str(), size, size,
                  m.playouts_per_second, m.cpu_playouts_per_second, m.us_per_move, m.cpu_us_per_move,
                  m.moves_per_playout);
      std::fflush(stdout);
      const std::string key = std::to_string(size);
      report["policies"][names[i]][key] = {{"playouts_per_second", m.playouts_per_second},
                                           {"cpu_playouts_per_second", m.cpu_playouts_per_second},
                                           {"us_per_move", m.us_per_move},
                                           {"cpu_us_per_move", m.cpu_us_per_move},
                                           {"moves_per_playout", m.moves_per_playout}};
      // Kept from earlier versions: the uniform policy's rate.
      if (specs[i] == "uniform") report["playouts_per_second"][key] = m.playouts_per_second;
    }
  }
  if (o.search) bench_search(o, specs, names, report);
  if (!o.json_path.empty()) write_json(o.json_path, report);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Measure playout policies: playouts/s, µs per move and moves per playout on 9x9 and 19x19, one "
               "thread. Default: uniform, rules, softmax with patterns/kgs-softmax-rollout.model, rules-gamma and "
               "gamma with patterns/kgs-gamma.model.");
  add_policy_flags(cmd, options->policy, true);
  cmd->add_option("--seconds", options->seconds, "Time spent on each measurement, in seconds")
      ->capture_default_str();
  cmd->add_option("--seed", options->seed, "PRNG seed")->capture_default_str();
  cmd->add_option("--json", options->json_path,
                  "Also write the results to this JSON file: policies: {NAME: {\"9\"|\"19\": {playouts_per_second, "
                  "cpu_playouts_per_second, us_per_move, cpu_us_per_move, moves_per_playout}}}, policy_specs "
                  "{NAME: SPEC}, and playouts_per_second {\"9\", \"19\"} of the uniform policy");
  cmd->add_flag("--search", options->search,
                "Also measure each policy inside the search: a search from the empty board with a --playouts budget "
                "(new simulations) of 20,000 on 9x9 and 5,000 on 19x19 (JSON: search: {NAME: {\"9\"|\"19\": {playouts_per_second, "
                "cpu_playouts_per_second}}})");
  cmd->add_option("--search-prior", options->prior, "Guesser model for the priors in --search, or none")
      ->capture_default_str();
  cmd->add_flag("--quiet", options->quiet, "Nothing on stderr but warnings and errors (bench prints only results)");
  cmd->callback([options] { run(*options); });
}

}  // namespace hane::tools
