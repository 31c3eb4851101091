// hane train boost: boosted regression trees with a softmax loss over the legal moves, on the
// decision tree's question inputs, optionally on top of a trained decision tree.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>

#include "cluster/cluster.h"
#include "predict/boost.h"
#include "predict/tree.h"
#include "train/boost_train.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct BoostFlags {
  CorpusFlags corpus;
  std::string out;
  std::string base = "none";
  int rounds = 30;
  int leaves = 32;
  double learning_rate = 0.3;
  double l2 = 1;
  int64_t min_leaf = 100;
  int64_t positions = 200000;
  int64_t validation_positions = 20000;
  double sample_below = 0.001;
  double sample_rate = 0.1;
  int patience = 3;
  bool no_early_stop = false;
  std::vector<int> snapshots;
  uint64_t seed = 1;
  std::string json_path;
};

void train_boost_command(const BoostFlags& f) {
  const auto start = std::chrono::steady_clock::now();
  auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (int n : f.snapshots) check_extra_output("--snapshots", snapshot_path(f.out, n), FileKind::kModel);
  // The base first: a bad file fails before the corpus is read.
  std::unique_ptr<DecisionTree> base;
  nlohmann::json base_info;
  if (f.base != "none") {
    absl::StatusOr<ModelFile> file = read_model_file(f.base);
    if (!file.ok()) throw std::runtime_error(std::string(file.status().message()));
    absl::StatusOr<DecisionTree> tree = tree_from_file(*file, f.base);
    if (!tree.ok()) throw std::runtime_error(std::string(tree.status().message()) + " (--base takes a decision tree)");
    base = std::make_unique<DecisionTree>(std::move(*tree));
    base_info = {{"file", std::filesystem::path(f.base).filename().string()},
                 {"kind", "decision-tree"},
                 {"leaves", base->num_leaves()},
                 {"payload_fnv64", file->header.value("payload_fnv64", "")}};
  }
  // The validation games measure each round. With --split validation (boosting on games a base
  // trained on the train split never saw), that split is halved by game hash instead.
  TrainingGames games = read_training_games(f.corpus, /*halve_validation=*/true);
  std::vector<CorpusGame>& train = games.train;
  std::vector<CorpusGame>& validation = games.validation;
  const CorpusStats& stats = games.stats;
  if (validation.empty() && cluster::is_root()) {
    std::fprintf(stderr, "hane: warning: no validation games: no validation curve, no early stop\n");
  }
  const double read_seconds = since_start();

  TreeFeatureOptions features = base ? base->features : TreeFeatureOptions{};
  TreeSampleOptions so;
  so.positions = f.positions;
  so.negatives = 1;
  so.whole_positions = true;
  so.features = features;
  so.seed = f.seed;
  so.threads = f.corpus.threads;
  so.progress = !f.corpus.quiet && cluster::is_root();
  so.share_over_ranks = true;
  TreeSample sample = sample_tree_inputs(train, so);
  so.share_over_ranks = false;  // the validation sample is whole on every rank
  TreeSample val;
  if (!validation.empty() && f.validation_positions > 0) {
    so.positions = f.validation_positions;
    so.seed = f.seed + 1;
    so.what = "sampling validation positions";
    val = sample_tree_inputs(validation, so);
  }
  const int64_t num_train = static_cast<int64_t>(train.size()), num_validation = static_cast<int64_t>(validation.size());
  std::vector<CorpusGame>().swap(train);
  std::vector<CorpusGame>().swap(validation);
  const double sample_seconds = since_start() - read_seconds;
  const int64_t sample_bytes = static_cast<int64_t>(sample.rows.size() * (sizeof(TreeRow) + 20));
  if (!f.corpus.quiet && cluster::is_root()) {
    std::fprintf(stderr, "sample: %s positions, %s candidates (%.0f MB with the margins and gradients); validation: %s "
                         "positions, %s candidates; %.1f s\n",
                 with_thousands(sample.positions).c_str(), with_thousands(sample.legal_moves).c_str(), sample_bytes / 1e6,
                 with_thousands(val.positions).c_str(), with_thousands(static_cast<int64_t>(val.rows.size())).c_str(),
                 sample_seconds);
  }
  if (sample.positions == 0) throw std::runtime_error("the sample is empty: no positions drawn");

  BoostTrainOptions o;
  o.rounds = f.rounds;
  o.leaves = f.leaves;
  o.learning_rate = f.learning_rate;
  o.l2 = f.l2;
  o.min_leaf = f.min_leaf;
  o.sample_below = f.sample_below;
  o.sample_rate = f.sample_rate;
  o.early_stop = !f.no_early_stop;
  o.patience = f.patience;
  o.features = features;
  o.seed = f.seed;
  o.threads = f.corpus.threads;
  o.progress = !f.corpus.quiet && cluster::is_root();
  const RegressionTree base_tree = base ? log_tree(*base) : RegressionTree{};
  base.reset();
  BoostTrainResult result = [&] {
    InterruptScope scope("stopping after this round, keeping the best rounds so far");
    return train_boost(sample, val, base_info.is_null() ? nullptr : &base_tree, o);
  }();

  const nlohmann::json training = {
      {"split", f.corpus.split},
      {"inputs", f.corpus.paths},
      {"games", num_train},
      {"validation_games", num_validation},
      {"positions_sampled", sample.positions},
      {"candidates", sample.legal_moves},
      {"validation_positions", val.positions},
      {"validation_candidates", val.rows.size()},
      {"seed", f.seed},
      {"ranks", cluster::size()},
      {"read_seconds", read_seconds},
      {"sample_seconds", sample_seconds},
  };
  auto finish = [&](BoostedTrees& m) {
    const nlohmann::json boosting = m.training["boosting"];
    m.training = training;
    m.training["boosting"] = boosting;
    m.base = base_info;
  };
  finish(result.model);
  finish(result.grown);
  if (!cluster::is_root()) return;
  if (absl::Status s = save_boosted_trees(result.model, f.out); !s.ok()) throw std::runtime_error(std::string(s.message()));
  std::vector<std::string> snapshot_files;
  for (int r : f.snapshots) {
    if (r > result.grown.boosted_trees()) {
      std::fprintf(stderr, "hane: warning: no snapshot at %d rounds: %d were grown\n", r, result.grown.boosted_trees());
      continue;
    }
    snapshot_files.push_back(snapshot_path(f.out, r));
    if (absl::Status s = save_boosted_trees(result.grown.first(r), snapshot_files.back()); !s.ok()) {
      throw std::runtime_error(std::string(s.message()));
    }
  }
  const double seconds = since_start();
  std::printf("boosted %d trees on %s games (%s positions, %s candidates) in %.1f s (read %.1f s, sample %.1f s, "
              "boosting %.1f s)\n",
              result.grown.boosted_trees(), with_thousands(num_train).c_str(), with_thousands(sample.positions).c_str(),
              with_thousands(sample.legal_moves).c_str(), seconds, read_seconds, sample_seconds, result.seconds);
  std::printf("model: %s%d trees of at most %d leaves%s\n",
              base_info.is_null() ? "" : ("base tree of " + with_thousands(base_info["leaves"].get<int>()) + " leaves + ").c_str(),
              result.model.boosted_trees(), f.leaves,
              result.stopped_early ? " (stopped: validation no longer improving)" : "");
  if (!val.rows.empty()) {
    const BoostCurvePoint& b = result.curve[result.best_rounds];
    const BoostCurvePoint& z = result.curve[0];
    std::printf("validation (%s positions): top-1 %.2f%%, log-lik %.4f (round 0, the %s: %.2f%%, %.4f)\n",
                with_thousands(val.positions).c_str(), 100 * b.top1, b.log_likelihood,
                base_info.is_null() ? "uniform guess" : "base", 100 * z.top1, z.log_likelihood);
  }
  std::printf("wrote %s", f.out.c_str());
  for (const std::string& s : snapshot_files) std::printf(", %s", s.c_str());
  std::printf("\n");
  if (!f.json_path.empty()) {
    write_json(f.json_path, {{"model", f.out},
                             {"trees", result.model.boosted_trees()},
                             {"base", base_info},
                             {"training", result.model.training},
                             {"validation_curve", boost_curve_json(result.curve)},
                             {"snapshots", snapshot_files},
                             {"seconds", seconds},
                             {"corpus", corpus_stats_json(stats)}});
  }
}

}  // namespace

void add_train_boost_command(CLI::App* train) {
  auto f = std::make_shared<BoostFlags>();
  CLI::App* cmd = train->add_subcommand(
      "boost", "Boosted trees: regression trees over the decision tree's questions, each grown on the gradient of a "
               "softmax over the legal moves left by the ones before (optionally on top of a decision tree).");
  add_corpus_flags(cmd, f->corpus, "train");
  cmd->add_option("--out,-o", f->out, "Model file to write")->required();
  cmd->add_option("--base", f->base, "Decision-tree model whose log-probabilities are the starting margins, or none")
      ->capture_default_str();
  cmd->add_option("--rounds", f->rounds, "Boosted trees, at most")->check(CLI::Range(1, 10000))->capture_default_str();
  cmd->add_option("--leaves", f->leaves, "Leaves of each tree, at most")->check(CLI::Range(2, 1 << 16))->capture_default_str();
  cmd->add_option("--learning-rate", f->learning_rate, "Shrinkage of each tree's Newton step")
      ->check(CLI::Range(1e-4, 1.0))
      ->capture_default_str();
  cmd->add_option("--l2", f->l2, "Added to each leaf's hessian sum (regularisation)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--min-leaf", f->min_leaf, "Least sampled candidates on each side of a split")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--positions", f->positions, "Training positions sampled at random, every legal move kept (0: all)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--validation-positions", f->validation_positions,
                  "Validation positions for the curve and the early stop (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--sample-below", f->sample_below,
                  "Not-played candidates of lower probability enter a tree's rows only at --sample-rate")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--sample-rate", f->sample_rate, "Chance of such a candidate, which then weighs 1/rate")
      ->check(CLI::Range(1e-4, 1.0))
      ->capture_default_str();
  cmd->add_option("--patience", f->patience, "Stop after this many rounds without a better validation log-likelihood")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  cmd->add_flag("--no-early-stop", f->no_early_stop, "Grow every round whatever the validation says");
  CLI::Option* snapshots = cmd->add_option("--snapshots", f->snapshots,
                                           "Also write the model after these numbers of rounds, to OUT with -ROUNDS before the extension")
                                ->delimiter(',');
  one_value_each(snapshots, "N[,N...]");
  cmd->add_option("--seed", f->seed, "Seed of the sampling")->capture_default_str();
  cmd->add_option("--json", f->json_path, "Also write a JSON summary: sample, boosting, validation curve, files");
  cmd->callback([f] { train_boost_command(*f); });
}

}  // namespace hane::tools
