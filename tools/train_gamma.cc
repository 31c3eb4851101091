// hane train gamma: learn the gamma guesser and playout policy (train/gamma_train.h).
#include <chrono>
#include <cstdio>
#include <memory>

#include "cluster/cluster.h"
#include "gtp/search_player.h"
#include "search/search.h"
#include "train/gamma_train.h"
#include "tools/engine_options.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "tools/policy_options.h"
#include "util/hash.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct GammaFlags {
  CorpusFlags corpus;
  std::string out;
  std::string init;
  std::string json_path;
  bool balance = false;
  int64_t balance_positions = 200;
  double balance_from = 0.6;
  int64_t balance_search = 0;  // root visits of the search whose value is the target (0: the game's result)
  std::vector<std::string> policy_settings;  // --policy-set, rules-gamma.* with --balance-policy rules-gamma
  GammaTrainOptions train;
  GammaBalanceOptions balancing;
};

// Replaces each position's target (the game's result) by the value of a search of `visits` root
// visits with the shipped engine settings (gtp::default_engine_options): the probability that
// Black wins, as the search's chosen move's win rate says. The position is set up stone by
// stone (the search does not see the last move or a ko just taken). Positions are shared over
// the ranks (position i on rank i mod ranks) and their values exchanged, so every rank has all.
// Ctrl-C: the positions not yet searched keep their game result (and balancing does not start).
void search_targets(std::vector<BalancePosition>& positions, int64_t visits, uint64_t seed, bool progress) {
  gtp::EngineOptions engine = gtp::default_engine_options(patterns_dir());
  engine.search.seed = seed;
  absl::StatusOr<std::unique_ptr<Search>> search = Search::create(engine.search);
  if (!search.ok()) throw std::runtime_error("--balance-search: " + std::string(search.status().message()));
  std::unique_ptr<Progress> bar;
  if (progress) bar = std::make_unique<Progress>("searching the balancing targets", "positions",
                                                 static_cast<int64_t>(positions.size()));
  std::vector<double> value(positions.size(), 0.0);
  std::vector<int64_t> searched(positions.size(), 0);
  for (size_t i = 0; i < positions.size(); ++i) {
    if (static_cast<int>(i % cluster::size()) != cluster::rank()) continue;
    if (interrupted()) break;
    const BalancePosition& bp = positions[i];
    Game game(bp.board.size(), Rules{.komi = bp.komi});
    for (int y = 0; y < bp.board.size(); ++y) {
      for (int x = 0; x < bp.board.size(); ++x) {
        const Vertex v = bp.board.at(x, y);
        if (bp.board.color(v) != Color::kEmpty) game.set_stone(v, bp.board.color(v));
      }
    }
    game.set_to_move(bp.to_move);
    (*search)->clear();
    (*search)->reseed(splitmix64(seed + i));  // the same search on any rank
    SearchLimits limits;
    limits.visits = visits;
    const SearchResult r = (*search)->search(game, bp.to_move, limits);
    value[i] = bp.to_move == Color::kBlack ? r.winrate : 1 - r.winrate;
    searched[i] = 1;
    if (bar) bar->update(static_cast<int64_t>(i + 1));
  }
  cluster::allreduce_sum(value);
  cluster::allreduce_sum(searched);
  int64_t n = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    if (searched[i]) positions[i].target = value[i], ++n;
  }
  if (bar) bar->finish();
  if (progress) std::fprintf(stderr, "%lld of %zu targets from searches of %lld visits\n", static_cast<long long>(n),
                             positions.size(), static_cast<long long>(visits));
}

void train(GammaFlags& f) {
  const auto start = std::chrono::steady_clock::now();
  if (f.corpus.options().split != Split::kTrain) {
    throw UsageError("hane train gamma trains on --split train (and validates on the validation split)");
  }
  if (!f.init.empty() && !f.balance) throw UsageError("--init MODEL only makes sense with --balance");
  if (f.balancing.policy != "gamma" && f.balancing.policy != "rules-gamma")
    throw UsageError("--balance-policy " + f.balancing.policy + ": expected gamma or rules-gamma");
  if (!f.policy_settings.empty()) {
    if (f.balancing.policy != "rules-gamma") throw UsageError("--policy-set only goes with --balance-policy rules-gamma");
    PolicyFlags pf;
    pf.settings = f.policy_settings;
    const PolicyOptions po = pf.options();
    check_settings_used(po, {"rules-gamma"});
    absl::StatusOr<RulesOptions> r = rules_options(po, "rules-gamma");
    if (!r.ok()) throw UsageError("--policy-set: " + std::string(r.status().message()));
    if (r->pattern_second != 0) throw UsageError("--policy-set: balancing needs rules-gamma.pattern_second 0");
    f.balancing.rules = *r;
  }
  TrainingGames games = read_training_games(f.corpus);
  std::vector<CorpusGame>& train_games = games.train;
  std::vector<CorpusGame>& validation_games = games.validation;
  const CorpusStats& stats = games.stats;
  const bool progress = !f.corpus.quiet && cluster::is_root();  // (rank 0 speaks for all)
  GammaModel model;
  nlohmann::json report;
  {
    InterruptScope scope("stopping after this step, keeping the best model so far");
    if (f.init.empty()) {
      GammaTrainOptions o = f.train;
      o.progress = progress;
      model = train_gamma(train_games, validation_games, o);
    } else {
      absl::StatusOr<ModelFile> file = read_model_file(f.init);
      if (!file.ok()) throw std::runtime_error(std::string(file.status().message()));
      absl::StatusOr<GammaModel> m = gamma_model_from_file(*file, f.init);
      if (!m.ok()) throw std::runtime_error(std::string(m.status().message()));
      model = std::move(*m);
      model.training["init"] = f.init;
    }
    if (f.balance && !cluster::any(interrupted())) {  // every rank takes the same branch
      std::vector<BalancePosition> positions = balance_positions(train_games, f.balance_positions, f.balancing.seed, f.balance_from);
      if (positions.empty()) throw std::runtime_error("no positions to balance on (no training game with a B+ or W+ result)");
      if (f.balance_search > 0) search_targets(positions, f.balance_search, f.balancing.seed, progress);
      GammaBalanceOptions o = f.balancing;
      o.gradient_playouts = o.value_playouts;
      o.progress = progress;
      if (!cluster::any(interrupted())) {
        model = balance_gamma(model, positions, o);
        model.training["balance"]["targets"] =
            f.balance_search > 0 ? "search of " + std::to_string(f.balance_search) + " root visits" : "game result";
      }
    }
  }
  if (!cluster::is_root()) return;  // rank 0 writes the model and the report
  model.training["inputs"] = f.corpus.paths;
  model.training["corpus"] = corpus_stats_json(stats);
  if (absl::Status s = save_gamma_model(model, f.out); !s.ok()) throw std::runtime_error(std::string(s.message()));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const nlohmann::json& t = model.training;
  std::printf("trained a gamma model (%d patterns) on %s games in %.1f s\n", model.num_patterns(),
              with_thousands(static_cast<int64_t>(train_games.size())).c_str(), seconds);
  if (t.contains("sweeps")) {
    std::printf("%5s %13s %9s %10s %7s\n", "sweep", "train loglik", "val top1", "val loglik", "s");
    for (const auto& e : t["sweeps"]) {
      std::printf("%5d %13.4f %8.2f%% %10.4f %7.0f%s\n", e["sweep"].get<int>(), e["train_log_likelihood"].get<double>(),
                  100 * e["validation_top1"].get<double>(), e["validation_log_likelihood"].get<double>(),
                  e["seconds"].get<double>(), e["sweep"] == t["best_sweep"] ? "  <- kept" : "");
    }
  }
  if (t.contains("balance")) {
    for (const auto& p : t["balance"]["passes"]) {
      std::printf("balancing pass %d: %lld positions, mean squared error of the playout value %.4f\n", p["pass"].get<int>(),
                  static_cast<long long>(p["positions"].get<int64_t>()), p["mean_squared_error"].get<double>());
    }
  }
  std::printf("wrote %s\n", f.out.c_str());
  if (!f.json_path.empty()) {
    report = t;
    report["model"] = f.out;
    report["total_seconds"] = seconds;
    write_json(f.json_path, report);
  }
}

}  // namespace

void add_train_gamma_command(CLI::App* train_app) {
  auto flags = std::make_shared<GammaFlags>();
  CLI::App* cmd = train_app->add_subcommand(
      "gamma", "Bradley-Terry gammas of 3x3 patterns and tactical flags (the cheap learned playout policy): "
               "minorisation-maximisation on the train split, best sweep on the validation split; then, with "
               "--balance, simulation balancing on the policy's own playouts. Under mpirun the positions (MM) and "
               "the playouts (balancing) are shared over the ranks, and the model is the one a single process writes.");
  add_corpus_flags(cmd, flags->corpus, "train");
  GammaTrainOptions& o = flags->train;
  GammaBalanceOptions& b = flags->balancing;
  cmd->add_option("--out,-o", flags->out, "Model file to write")->required();
  cmd->add_option("--positions", o.max_positions, "Training positions to sample")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--validation-positions", o.validation_positions, "Validation positions to sample")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--min-count", o.min_count, "3x3 patterns seen fewer times among the training candidates share one gamma")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--sweeps", o.sweeps, "Most minorisation-maximisation sweeps")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--prior", o.prior, "Virtual wins and losses of each feature against a gamma-1 opponent")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed for sampling positions")->capture_default_str();
  cmd->add_flag("--balance", flags->balance, "Then simulation balancing on positions of the train games");
  cmd->add_option("--init", flags->init, "With --balance: start from this gamma model instead of training one");
  cmd->add_option("--balance-positions", flags->balance_positions, "Positions to balance on (one per game)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--balance-from", flags->balance_from,
                  "Balancing positions are drawn from the moves after this fraction of each game (0: anywhere)")
      ->check(CLI::Range(0.0, 0.95))
      ->capture_default_str();
  cmd->add_option("--balance-search", flags->balance_search,
                  "Targets from searches of this many root visits with the shipped engine settings instead of the "
                  "games' results (0: the results)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--balance-playouts", b.value_playouts, "Playouts per position for the value, and as many for the gradient")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--balance-rate", b.rate, "Step size on ln gamma")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--balance-passes", b.passes, "Passes over the balancing positions")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--balance-policy", b.policy,
                  "The playouts balanced: gamma (every move drawn by the gammas) or rules-gamma (the rules policy's "
                  "learned pattern answer)")
      ->capture_default_str();
  add_repeatable(cmd, "--policy-set", flags->policy_settings, "KEY=VALUE",
                 "With --balance-policy rules-gamma: a setting of its playouts, rules-gamma.KEY=VALUE (as hane gtp's); "
                 "each key once",
                 Repeats::kDistinctKeys);
  cmd->add_option("--json", flags->json_path, "Also write the training report (sweeps, balancing, options) as JSON");
  cmd->callback([flags] { train(*flags); });
}

}  // namespace hane::tools
