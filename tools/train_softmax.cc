// hane train softmax: learn the linear-softmax guesser (train/softmax_train.h).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "cluster/cluster.h"
#include "eval/plot.h"
#include "predict/leaf_softmax.h"
#include "train/softmax_train.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct SoftmaxFlags {
  CorpusFlags corpus;
  std::string out;
  std::string features = "rollout";
  std::string families = "all";
  std::string tree = "none";
  std::string json_path;
  SoftmaxTrainOptions train;
};

void train(SoftmaxFlags& f) {
  const auto start = std::chrono::steady_clock::now();
  if (f.families != "all" && f.features != "strategic") {
    throw UsageError("--strategic-families goes with --features strategic");
  }
  if (f.train.factor_dim > 0 && f.tree == "none") {
    throw UsageError("--factors goes with --tree (the leaf softmax): the plain softmax is a playout policy, whose "
                     "scores add up feature by feature");
  }
  // The tree first: a bad file fails before the corpus is read.
  std::optional<DecisionTree> tree;
  nlohmann::json tree_from;
  if (f.tree != "none") {
    absl::StatusOr<ModelFile> file = read_model_file(f.tree);
    if (!file.ok()) throw std::runtime_error(std::string(file.status().message()));
    absl::StatusOr<DecisionTree> t = tree_from_file(*file, f.tree);
    if (!t.ok()) throw std::runtime_error(std::string(t.status().message()) + " (--tree takes a decision tree)");
    tree = std::move(*t);
    tree_from = {{"file", std::filesystem::path(f.tree).filename().string()},
                 {"payload_fnv64", file->header.value("payload_fnv64", "")}};
  }
  if (std::error_code ec; !f.train.cache_dir.empty() && !std::filesystem::is_directory(f.train.cache_dir, ec)) {
    throw UsageError("--cache-dir " + f.train.cache_dir + ": no such directory");
  }
  for (const std::string& p : learning_curve_files(model_stem(f.out))) check_extra_output("--out", p, FileKind::kOther);
  // Train and validation games are both needed: read every split and keep those two.
  if (f.corpus.options().split != Split::kTrain) {
    throw UsageError("hane train softmax trains on --split train (and validates on the validation split)");
  }
  TrainingGames games = read_training_games(f.corpus);
  std::vector<CorpusGame>& train_games = games.train;
  std::vector<CorpusGame>& validation_games = games.validation;
  const CorpusStats& stats = games.stats;
  if (!f.corpus.quiet && cluster::is_root()) std::fprintf(stderr, "%s training games, %s validation games\n",
               with_thousands(static_cast<int64_t>(train_games.size())).c_str(),
               with_thousands(static_cast<int64_t>(validation_games.size())).c_str());

  SoftmaxTrainOptions o = f.train;
  o.feature_set = *parse_feature_set(f.features);
  o.strategic_families = *parse_strategic_families(f.families);
  o.threads = f.corpus.threads;
  o.progress = !f.corpus.quiet && cluster::is_root();  // (rank 0 speaks for all)
  // Without --tree a softmax model; with it, a leaf-softmax model (its softmax part is `model`).
  SoftmaxModel model;
  LeafSoftmaxModel leaf_model;
  {
    InterruptScope scope("stopping after this epoch, keeping the best epoch so far");
    if (tree) {
      leaf_model = train_leaf_softmax(train_games, validation_games, std::move(*tree), o);
    } else {
      model = train_softmax(train_games, validation_games, o);
    }
  }
  if (!cluster::is_root()) return;  // rank 0 writes the model and the report
  nlohmann::json& t = tree ? leaf_model.training : model.training;
  t["inputs"] = f.corpus.paths;
  t["corpus"] = corpus_stats_json(stats);
  if (tree) {
    leaf_model.tree_from = tree_from;
    if (absl::Status s = save_leaf_softmax(leaf_model, f.out); !s.ok()) throw std::runtime_error(std::string(s.message()));
  } else if (absl::Status s = save_softmax_model(model, f.out); !s.ok()) {
    throw std::runtime_error(std::string(s.message()));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const SoftmaxModel& weights = tree ? leaf_model.softmax : model;
  std::printf("trained a %ssoftmax %s model on %s games (%s of %s positions cached) in %.1f s\n",
              tree ? "leaf-" : "", f.features.c_str(), with_thousands(static_cast<int64_t>(train_games.size())).c_str(),
              with_thousands(t["positions_cached"].get<int64_t>()).c_str(),
              with_thousands(t["train_positions"].get<int64_t>()).c_str(), seconds);
  std::printf("weights: %s (%d fixed", with_thousands(t["weights"].get<int64_t>()).c_str(),
              num_fixed_features(weights.feature_set));
  for (const auto& [kind, n] : t["patterns_kept"].items()) {
    std::printf(", %s %s", with_thousands(n.get<int64_t>()).c_str(), kind.c_str());
  }
  std::printf(" patterns seen >= %lld times", static_cast<long long>(o.min_count));
  if (tree) std::printf(", %s leaves", with_thousands(static_cast<int64_t>(leaf_model.leaf_weights.size())).c_str());
  if (o.factor_dim > 0) std::printf("; %d floats of factorised pairs each", o.factor_dim);
  std::printf(")\n");
  if (t["start"].is_object()) {
    std::printf("start (%s): validation top-1 %.2f%%, log-lik %.4f\n", tree ? "the tree alone" : "uniform",
                100 * t["start"]["validation_top1"].get<double>(), t["start"]["validation_log_likelihood"].get<double>());
  }
  std::printf("%5s %10s %10s %10s %9s %7s\n", "epoch", "train loss", "val top1", "val loglik", "step", "s");
  for (const auto& e : t["epochs"]) {
    std::printf("%5d %10.4f %9.2f%% %10.4f %9.2g %7.2f%s\n", e["epoch"].get<int>(), e["train_loss"].get<double>(),
                100 * e["validation_top1"].get<double>(), e["validation_log_likelihood"].get<double>(),
                e["learning_rate"].get<double>(), e["seconds"].get<double>(),
                e["epoch"] == t["best_epoch"] ? "  <- kept" : "");
  }
  std::printf("wrote %s\n", f.out.c_str());
  std::vector<LearningPoint> curve;
  for (const auto& e : t["epochs"]) {
    curve.push_back({e["epoch"].get<double>(), e["validation_top1"].get<double>(), e["validation_log_likelihood"].get<double>()});
  }
  std::printf("%s\n", write_learning_curve(model_stem(f.out),
                                            (tree ? "leaf-softmax " : "softmax ") + f.features +
                                                ": validation after each epoch",
                                            "epoch", curve).c_str());
  if (!f.json_path.empty()) {
    nlohmann::json report = t;
    report["model"] = f.out;
    report["feature_set"] = f.features;
    if (f.features == "strategic") report["strategic_families"] = strategic_families_string(o.strategic_families);
    if (tree) report["tree"] = tree_from;
    report["total_seconds"] = seconds;
    write_json(f.json_path, report);
  }
}

}  // namespace

void add_train_softmax_command(CLI::App* train_app) {
  auto flags = std::make_shared<SoftmaxFlags>();
  CLI::App* cmd = train_app->add_subcommand(
      "softmax", "Linear softmax over legal moves of the weights of each move's features (AlphaGo-style rollout "
                 "or tree features): Adam with L2 on the train split, early stopping on the validation split.");
  add_corpus_flags(cmd, flags->corpus, "train");
  cmd->get_option("--split")->description("Which games to train on: train only (the validation split is read for early stopping; others are refused)");
  SoftmaxTrainOptions& o = flags->train;
  cmd->add_option("--out,-o", flags->out, "Model file to write")->required();
  cmd->add_option("--features", flags->features, "Feature set: rollout (fast, local), tree (adds tactics, distances, "
                                                 "diamond12 and radius-3 patterns) or strategic (tree plus whole-board "
                                                 "influence, classes, nearest stones and game phase)")
      ->check(CLI::IsMember({"rollout", "tree", "strategic"}))
      ->capture_default_str();
  cmd->add_option("--strategic-families", flags->families,
                  "With --features strategic: the families used, all or names separated by commas "
                  "(class, influence, kind, nearest, phase, opponent)")
      ->check(CLI::Validator(
          [](std::string& v) {
            return parse_strategic_families(v) ? std::string()
                                               : "not all or a list of class, influence, kind, nearest, phase, opponent";
          },
          "LIST"))
      ->capture_default_str();
  cmd->add_option("--tree", flags->tree,
                  "Decision-tree model whose leaves are features too (each leaf's weight starting at its ln p): "
                  "writes a leaf-softmax model; or none")
      ->capture_default_str();
  cmd->add_option("--factors", o.factor_dim,
                  "With --tree: factorised pairs, a latent vector of this many floats for every feature, pattern "
                  "key and leaf, a move's score adding their dot products in pairs (LFR, Wistuba and "
                  "Schmidt-Thieme 2013); 0: none")
      ->check(CLI::Range(0, kMaxFactorDim))
      ->capture_default_str();
  cmd->add_option("--factor-init", o.factor_init, "With --factors: the latent vectors start uniform in [-this, this]")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--factor-l2", o.factor_l2, "With --factors: the latent vectors' L2 strength")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->add_option("--min-count", o.min_count, "Drop pattern keys seen fewer times among the training candidates")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--epochs", o.max_epochs, "Most epochs")->check(positive_number())->capture_default_str();
  cmd->add_option("--patience", o.patience, "Stop after this many epochs without a validation improvement")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--batch", o.batch_size, "Positions per mini-batch")->check(positive_number())->capture_default_str();
  cmd->add_option("--lr", o.learning_rate, "Adam step size")->check(positive_number())->capture_default_str();
  cmd->add_option("--lr-decay", o.lr_decay, "Step size factor after an epoch without improvement")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--l2", o.l2, "L2 regularisation strength")->check(non_negative_number())->capture_default_str();
  cmd->add_option("--memory-gb", o.memory_gb, "Memory for the cached positions, GB (or disk, with --cache-dir; training positions are sampled to fit)")
      ->check(positive_number())
      ->capture_default_str();
  cmd->add_option("--cache-dir", o.cache_dir,
                  "Cache the training positions in a file of this directory (deleted when done), mapped into memory, "
                  "not in memory: --memory-gb then bounds the file, and the kernel keeps in RAM what fits; each epoch "
                  "reads it in windows of about 262,000 positions, shuffled among themselves");
  cmd->add_option("--max-positions", o.max_positions, "Cache at most about this many training positions (0: budget)")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->add_option("--validation-positions", o.validation_positions, "Validation positions to measure each epoch on (within a tenth of --memory-gb)")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->add_option("--epoch-fraction", o.epoch_fraction, "Fraction of the cached positions used per epoch (more than 0)")
      ->check(CLI::Range(1e-6, 1.0))
      ->capture_default_str();
  cmd->add_option("--select", o.select, "Keep the epoch with the best validation loglik or top1 (also what early stopping watches)")
      ->check(CLI::IsMember({"top1", "loglik"}))
      ->capture_default_str();
  cmd->add_option("--shards", o.shards,
                  "Logical shards of the games: gradients are summed per shard, then shard by shard, so the model "
                  "depends on this number but not on --threads or on the number of MPI ranks (at most this many "
                  "ranks work)")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "Seed for sampling and shuffling")->capture_default_str();
  cmd->add_option("--json", flags->json_path, "Also write the training report (epochs, sizes, options) as JSON");
  cmd->callback([flags] { train(*flags); });
}

}  // namespace hane::tools
