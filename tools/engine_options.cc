#include "tools/engine_options.h"

#include <cstdlib>
#include <filesystem>

#include "playout/policy_settings.h"
#include "tools/cli.h"
#include "tools/policy_options.h"

namespace hane::tools {
namespace {

// "uniform, rules, softmax:MODEL, guesser:MODEL", from the registry.
std::string policy_list() {
  std::string out;
  for (const PolicyKind& k : policy_kinds()) {
    out += (out.empty() ? "" : ", ") + std::string(k.name) + (k.argument.empty() ? "" : ":" + std::string(k.argument));
  }
  return out;
}

}  // namespace

std::string patterns_dir() {
  if (const char* env = std::getenv("HANE_PATTERNS"); env && *env) return env;
  return HANE_PATTERNS_DIR;
}

void add_engine_options(CLI::App* cmd, EngineFlags& flags, bool quiet_option) {
  flags.options = gtp::default_engine_options(patterns_dir());
  flags.app = cmd;
  gtp::EngineOptions& o = flags.options;
  SearchOptions& s = o.search;
  const std::string group = "Engine";
  cmd->add_option("--playouts", o.playouts,
                  "New simulations per move, not counting the reused subtree's (default " + std::to_string(s.playouts) +
                      " when no --visits, no --time-per-move and no clock); with a clock too, the smaller budget wins")
      ->check(positive_number())
      ->group(group);
  cmd->add_option("--visits", o.visits,
                  "Root visits per move, the reused subtree's included (as Pachi's -t =N); with --playouts or a clock "
                  "too, the first limit reached stops")
      ->check(positive_number())
      ->group(group);
  cmd->add_option("--time-per-move", o.time_per_move, "Seconds per move; with --playouts or --visits too, the first reached stops")
      ->check(positive_number())
      ->group(group);
  cmd->add_option_function<std::string>(
         "--policy", [&flags](const std::string& v) { flags.options.search.policy = v, flags.default_policy = false; },
         "Playout policy: " + policy_list() + " (e.g. softmax:" + patterns_dir() +
             "/kgs-softmax-rollout.model; default " + o.search.policy + ")")
      ->group(group);
  add_repeatable(cmd, "--policy-set", flags.policy_settings, "KEY=VALUE",
                 "A playout policy's own setting, keys prefixed by the policy's name (e.g. rules.capture=0.9 for rules, "
                 "rules-gamma.capture=0.9 for rules-gamma); each key once",
                 Repeats::kDistinctKeys)
      ->group(group);
  cmd->add_option_function<std::string>(
         "--prior", [&flags](const std::string& v) { flags.options.search.prior = v, flags.default_prior = false; },
         "Guesser model for the priors of new tree nodes, or none (default " + o.search.prior +
             (o.large_board_search && o.large_board_search->prior != o.search.prior
                  ? " on boards under " + std::to_string(kLargeBoard) + ", " + o.large_board_search->prior + " on " +
                        std::to_string(kLargeBoard) + " and more"
                  : std::string()) +
             ")")
      ->group(group);
  cmd->add_option("--joseki", s.joseki,
                  "Joseki dictionary (hane train joseki) whose replies get extra virtual wins in new tree nodes, or none")
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--joseki-weight", s.joseki_weight,
                  "Virtual wins of a joseki reply played every time its corner position occurred; a reply of share s "
                  "gets this times sqrt(s)")
      ->check(non_negative_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--threads", s.threads, "Search threads")->check(CLI::Range(1, 256))->capture_default_str()->group(group);
  cmd->add_option("--seed", s.seed, "Seed of the search's random numbers")->capture_default_str()->group(group);
  cmd->add_option("--prior-weight", s.prior_weight, "Virtual wins of the guesser prior at the most likely move")
      ->check(non_negative_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_flag("--prior-absolute", s.prior_absolute,
                "Priors on an absolute scale: --prior-weight * sqrt(p) virtual wins, not * sqrt(p / p_max)")
      ->group(group);
  cmd->add_option("--prior-even", s.prior_even, "Virtual visits at win rate 0.5 for every new child")
      ->check(non_negative_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--strategic-weight", s.strategic_weight,
                  "Weight of the strategic prior: the guesser's probabilities times exp(weight * term), the term the "
                  "move's strategic kind by game phase and the empty triangle, at the root and its children; 0 = off")
      ->check(non_negative_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--rave-equiv", s.rave_equiv, "RAVE equivalence: visits after which AMAF and direct values weigh the same")
      ->check(positive_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--amaf-distance", s.amaf_distance,
                  "AMAF weight of earlier moves: 1 + N * (moves left after it) / (moves left after the node), as Pachi's distance_rave")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->group(group);
  cmd->add_flag_callback("--no-amaf-ko-threats", [&s] { s.amaf_ko_threats = false; },
                         "No AMAF credit to the ko threats of a ko fight that starts at a node (Pachi's threat_rave=0)")
      ->group(group);
  cmd->add_option("--criticality", s.criticality,
                  "Weight of criticality at the root's children (Coulom 2009, as Pachi's crit_rave = 1.1): a child's "
                  "AMAF wins rise with how much owning its point goes with winning; 0 = off")
      ->check(non_negative_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--criticality-min-visits", s.criticality_min_visits,
                  "Simulations through a root child in the search before its criticality counts (Pachi's crit_min_playouts)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->group(group);
  cmd->add_flag("--last-good-reply", s.last_good_reply,
                "Playouts first play the replies that won the last simulations after the same one or two moves "
                "(LGRF-2, Baier & Drake 2010); off: it lost its SPRT on 19x19")
      ->group(group);
  cmd->add_option("--uct-c", s.uct_c, "UCB exploration constant")->check(non_negative_number())->capture_default_str()->group(group);
  cmd->add_flag("--prune-ladders", s.prune_ladders,
                "Leave out of new tree nodes the moves that run from a working ladder (as the ladder reader shows)")
      ->group(group);
  cmd->add_option("--expand-visits", s.expand_visits, "Visits a leaf needs before it is expanded")
      ->check(positive_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--max-tree-mb", s.max_tree_mb, "Memory for the tree, MB (then it stops growing)")
      ->check(positive_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--resign", s.resign_threshold, "Resign below this win rate (0: never)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--resign-moves", o.resign_moves,
                  "Resign only after this many moves in a row below --resign (never before size*size/4 moves)")
      ->check(positive_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_flag("--dynamic-komi", o.dynamic_komi.enabled,
                "Dynamic komi when far ahead or behind: the playouts play for a margin beyond the real komi, "
                "rising while the win rate is high, falling (at most --dynamic-komi-losing points) while it is low, "
                "back to the real komi by the end (Baudis 2011's situational komi)")
      ->group(group);
  cmd->add_option("--dynamic-komi-share", o.dynamic_komi.share,
                  "With --dynamic-komi: share of the expected margin taken as extra komi")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--dynamic-komi-losing", o.dynamic_komi.max_losing,
                  "With --dynamic-komi: the most points the goal falls below the real komi when behind")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str()
      ->group(group);
  cmd->add_flag_callback("--no-reuse-tree", [&s] { s.reuse_tree = false; }, "Start every search from an empty tree")
      ->group(group);
  cmd->add_option("--time-lag", s.time_lag, "Seconds kept in reserve per move under a clock (network, process delays)")
      ->check(non_negative_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--end-playouts", o.end_playouts, "Playouts behind dead stones, the final score and genmove's pass and cleanup decisions")
      ->check(positive_number())
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--estimate-playouts", o.estimate_playouts,
                  "Playouts behind estimate_score's dead-stone guess (with the whole-board maps; the engine's policy "
                  "with rules.safe_capture=1); 0: the maps and the tactics reader alone")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str()
      ->group(group);
  if (quiet_option) {
    cmd->add_flag("--quiet", flags.quiet, "Nothing on stderr but warnings and errors (no line naming the engine, none per move)");
  }
}

namespace {

// The search on large boards: what the user gave applies to every board size; the large-board
// defaults (gtp::default_engine_options) fill the rest, for the fields they may set.
SearchOptions large_board_options(const EngineFlags& flags, const SearchOptions& user, const SearchOptions& large) {
  auto given = [&](const char* name) { return flags.app && flags.app->count(name) > 0; };
  SearchOptions o = user;
  if (!given("--policy") && !given("--policy-set")) {
    o.policy = large.policy;
    o.policy_options = large.policy_options;
  }
  if (!given("--prior")) o.prior = large.prior;
  if (!given("--prior-weight")) o.prior_weight = large.prior_weight;
  if (!given("--prior-even")) o.prior_even = large.prior_even;
  if (!given("--rave-equiv")) o.rave_equiv = large.rave_equiv;
  return o;
}

}  // namespace

// The options with the --policy-set settings parsed, after the checks of the command line
// (UsageError): the policy spec and its settings, settings no policy in use reads, the prior file.
gtp::EngineOptions checked_engine_options(const EngineFlags& flags) {
  gtp::EngineOptions o = flags.options;
  SearchOptions& s = o.search;
  PolicyFlags policy;
  policy.settings = flags.policy_settings;
  s.policy_options = policy.options();
  check_settings_used(s.policy_options, {s.policy});
  if (!flags.default_policy) {
    check_policy_spec(s.policy, s.policy_options);
  } else if (absl::Status st = check_policy_settings(s.policy, s.policy_options); !st.ok()) {
    throw UsageError("--policy-set: " + std::string(st.message()));
  }
  if (o.large_board_search) o.large_board_search = large_board_options(flags, s, *o.large_board_search);
  std::error_code ec;
  if (!flags.default_prior && s.prior != "none" && s.prior != "uniform" && !std::filesystem::exists(s.prior, ec)) {
    throw UsageError("--prior " + s.prior + ": no such model file (or none)");
  }
  if (s.joseki != "none" && !std::filesystem::exists(s.joseki, ec)) {
    throw UsageError("--joseki " + s.joseki + ": no such dictionary file (or none)");
  }
  return o;
}

absl::StatusOr<std::unique_ptr<gtp::SearchPlayer>> make_player(const EngineFlags& flags, std::ostream* log) {
  const gtp::EngineOptions options = checked_engine_options(flags);
  // Shipped defaults may be missing (or need a policy another build has): fall back then, but
  // never silently replace what the user asked for.
  if (flags.default_policy && flags.default_prior) return gtp::make_search_player(options, true, log);
  auto player = gtp::make_search_player(options, false, log);
  if (player.ok() || (!flags.default_policy && !flags.default_prior)) return player;
  gtp::EngineOptions o = options;
  (flags.default_policy ? o.search.policy : o.search.prior) = flags.default_policy ? "uniform" : "none";
  auto fallback = gtp::make_search_player(o, false, log);
  if (fallback.ok() && log) {
    *log << "hane: warning: " << player.status().message() << "; playing with policy " << o.search.policy
         << " and prior " << o.search.prior << std::endl;
  }
  return fallback.ok() ? std::move(fallback) : std::move(player);
}

}  // namespace hane::tools
