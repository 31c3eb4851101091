// hane train tree: grow a decision tree over questions about a candidate move's surroundings.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>

#include "cluster/cluster.h"
#include "eval/plot.h"
#include "train/tree_train.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct TreeFlags {
  CorpusFlags corpus;
  std::string out;
  int leaves = 100000;
  int64_t positions = 0;
  double negatives = 0.1;
  int64_t validation_positions = 20000;
  int64_t min_leaf = 20;
  double prior = -1;  // 10 / negatives
  double patience = 1.5;
  bool no_early_stop = false;
  std::string orientation = "canonical";
  bool no_ladders = false;
  std::vector<int> snapshots;
  uint64_t seed = 1;
  std::string json_path;
};

void train_tree(const TreeFlags& f) {
  const auto start = std::chrono::steady_clock::now();
  auto since_start = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  for (int n : f.snapshots) check_extra_output("--snapshots", snapshot_path(f.out, n), FileKind::kModel);
  for (const std::string& p : learning_curve_files(model_stem(f.out))) check_extra_output("--out", p, FileKind::kOther);
  // Read every split at once: the training games are those of --split, the validation games
  // (for the curve and the early stop) those of the validation split.
  TrainingGames games = read_training_games(f.corpus);
  std::vector<CorpusGame>& train = games.train;
  std::vector<CorpusGame>& validation = games.validation;
  const CorpusStats& stats = games.stats;
  if (validation.empty() && cluster::is_root()) {
    std::fprintf(stderr, "hane: warning: no validation games: no validation curve, no early stop\n");
  }
  const double read_seconds = since_start();

  TreeFeatureOptions features;
  features.canonical = f.orientation == "canonical";
  features.ladders = !f.no_ladders;
  TreeSampleOptions so;
  so.positions = f.positions;
  so.negatives = f.negatives;
  so.features = features;
  so.seed = f.seed;
  so.threads = f.corpus.threads;
  so.progress = !f.corpus.quiet && cluster::is_root();  // (rank 0 speaks for all)
  so.share_over_ranks = true;  // with several ranks: each samples its share of the games
  TreeSample sample = sample_tree_inputs(train, so);
  so.share_over_ranks = false;  // the validation sample is whole on every rank
  TreeSample val;
  if (!validation.empty() && f.validation_positions > 0) {
    so.positions = f.validation_positions;
    so.negatives = 1;
    so.whole_positions = true;
    so.seed = f.seed + 1;
    so.what = "sampling validation positions";
    val = sample_tree_inputs(validation, so);
  }
  const int64_t num_train = static_cast<int64_t>(train.size()), num_validation = static_cast<int64_t>(validation.size());
  std::vector<CorpusGame>().swap(train);  // the samples hold all that growth needs
  std::vector<CorpusGame>().swap(validation);
  const double sample_seconds = since_start() - read_seconds;
  const int64_t sample_bytes = static_cast<int64_t>(sample.rows.size() * sizeof(TreeRow));
  const int64_t val_bytes =
      static_cast<int64_t>(val.rows.size() * sizeof(TreeRow) + val.position_start.size() * sizeof(int64_t));
  if (!f.corpus.quiet && cluster::is_root()) std::fprintf(stderr,
               "sample: %s positions, %s of %s candidates kept (%.0f MB); validation: %s positions, %s candidates "
               "(%.0f MB); %.1f s\n",
               with_thousands(sample.positions).c_str(), with_thousands(static_cast<int64_t>(sample.rows.size())).c_str(),
               with_thousands(sample.legal_moves).c_str(), sample_bytes / 1e6, with_thousands(val.positions).c_str(),
               with_thousands(static_cast<int64_t>(val.rows.size())).c_str(), val_bytes / 1e6, sample_seconds);
  int64_t candidates_kept = static_cast<int64_t>(sample.rows.size());  // on every rank
  cluster::allreduce_sum(std::span(&candidates_kept, 1));
  if (candidates_kept == 0) throw std::runtime_error("the sample is empty: no positions drawn");

  TreeTrainOptions o;
  o.max_leaves = f.leaves;
  o.min_leaf = f.min_leaf;
  o.prior_strength = f.prior >= 0 ? f.prior : 10 / f.negatives;
  o.early_stop = !f.no_early_stop;
  o.patience = f.patience;
  o.snapshots = f.snapshots;
  o.features = features;
  o.threads = f.corpus.threads;
  o.progress = !f.corpus.quiet && cluster::is_root();
  TreeTrainResult result = [&] {
    InterruptScope scope("stopping growth, keeping the tree so far and its snapshots");
    return grow_tree(sample, val, o);
  }();

  const nlohmann::json training = {
      {"split", f.corpus.split},
      {"inputs", f.corpus.paths},
      {"games", num_train},
      {"validation_games", num_validation},
      {"positions_sampled", sample.positions},
      {"candidates", sample.legal_moves},
      {"candidates_kept", candidates_kept},
      {"negatives_kept", f.negatives},
      {"validation_positions", val.positions},
      {"validation_candidates", val.rows.size()},
      {"sample_bytes", sample_bytes + val_bytes},
      {"seed", f.seed},
      {"ranks", cluster::size()},
      {"read_seconds", read_seconds},
      {"sample_seconds", sample_seconds},
  };
  auto finish = [&](DecisionTree& t) {
    const nlohmann::json growth = t.training["growth"];
    t.training = training;
    t.training["growth"] = growth;
  };
  finish(result.tree);
  if (!cluster::is_root()) return;  // rank 0 writes the model and the report
  if (absl::Status s = save_tree(result.tree, f.out); !s.ok()) throw std::runtime_error(std::string(s.message()));
  std::vector<std::string> snapshot_files;
  for (size_t i = 0; i < result.snapshots.size(); ++i) {
    finish(result.snapshots[i]);
    snapshot_files.push_back(snapshot_path(f.out, result.snapshot_leaves[i]));
    if (absl::Status s = save_tree(result.snapshots[i], snapshot_files.back()); !s.ok()) {
      throw std::runtime_error(std::string(s.message()));
    }
  }
  for (int s : f.snapshots) {
    if (std::find(result.snapshot_leaves.begin(), result.snapshot_leaves.end(), s) == result.snapshot_leaves.end()) {
      std::fprintf(stderr, "hane: warning: no snapshot at %d leaves: growth stopped at %d\n", s, result.curve.back().leaves);
    }
  }

  const double seconds = since_start();
  std::printf("grew a decision tree on %s games (%s positions sampled, %s candidates kept) in %.1f s "
              "(read %.1f s, sample %.1f s, growth %.1f s)\n",
              with_thousands(num_train).c_str(), with_thousands(sample.positions).c_str(),
              with_thousands(candidates_kept).c_str(), seconds, read_seconds, sample_seconds,
              result.seconds);
  const int64_t grown = result.curve.back().leaves;
  if (grown == result.tree.num_leaves()) {
    std::printf("tree: %s leaves%s, depth %d\n", with_thousands(grown).c_str(),
                result.stopped_early ? " (stopped: validation no longer improving)" : "", result.tree.depth());
  } else {
    // The tree kept is the one of the best validation log-likelihood along the growth.
    std::printf("tree: %s leaves, the best on validation (grown to %s, then cut back to it%s), depth %d\n",
                with_thousands(result.tree.num_leaves()).c_str(), with_thousands(grown).c_str(),
                result.stopped_early ? "; stopped: validation no longer improving" : "", result.tree.depth());
  }
  if (!val.rows.empty()) {
    for (const TreeCurvePoint& c : result.curve) {
      if (c.leaves == result.tree.num_leaves()) {
        std::printf("validation (%s positions): top-1 %.2f%%, log-lik %.4f\n", with_thousands(val.positions).c_str(),
                    100 * c.top1, c.log_likelihood);
      }
    }
  }
  std::printf("wrote %s", f.out.c_str());
  for (const std::string& s : snapshot_files) std::printf(", %s", s.c_str());
  std::printf("\n");
  if (!val.rows.empty()) {
    // The curve every 1,000 leaves (and the first and last measurements).
    std::vector<LearningPoint> curve;
    for (size_t i = 0; i < result.curve.size(); ++i) {
      const TreeCurvePoint& c = result.curve[i];
      if (i == 0 || i + 1 == result.curve.size() || c.leaves % 1000 == 0) curve.push_back({double(c.leaves), c.top1, c.log_likelihood});
    }
    std::printf("%s\n", write_learning_curve(model_stem(f.out), "decision tree: validation as it grows", "leaves", curve).c_str());
  }

  if (!f.json_path.empty()) {
    nlohmann::json report = {
        {"model", f.out},
        {"leaves", result.tree.num_leaves()},
        {"depth", result.tree.depth()},
        {"training", result.tree.training},
        {"validation_curve", curve_json(result.curve)},
        {"snapshots", snapshot_files},
        {"seconds", seconds},
        {"corpus", corpus_stats_json(stats)},
    };
    write_json(f.json_path, report);
  }
}

}  // namespace

void add_train_tree_command(CLI::App* train) {
  auto f = std::make_shared<TreeFlags>();
  CLI::App* cmd = train->add_subcommand(
      "tree", "Decision tree: grow, greedily, a tree of questions about a candidate move's surroundings (points "
              "within distance 3, liberties, captures, ataris, ladders, distance to the last moves, edge lines); "
              "each leaf holds the chance that a move reaching it is played.");
  add_corpus_flags(cmd, f->corpus, "train");
  cmd->add_option("--out,-o", f->out, "Model file to write")->required();
  cmd->add_option("--leaves", f->leaves, "Leaf budget")->check(CLI::Range(1, 1 << 30))->capture_default_str();
  cmd->add_option("--positions", f->positions, "Training positions to sample at random (0: all)")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->add_option("--negatives", f->negatives,
                  "Fraction of the not-played legal moves of a sampled position kept (each counts 1/fraction)")
      ->check(CLI::Range(1e-4, 1.0))
      ->capture_default_str();
  cmd->add_option("--validation-positions", f->validation_positions,
                  "Validation positions (every legal move) for the curve and the early stop (0: none)")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->add_option("--min-leaf", f->min_leaf, "Least sample candidates in each side of a split")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--prior", f->prior,
                  "Smoothing strength k of a leaf's ratio towards its parent's, in candidates seen (default: "
                  "10 / negatives, the weight of 10 sampled candidates)")
      ->check(non_negative_number());
  cmd->add_option("--patience", f->patience,
                  "Stop when the tree has grown by this factor since its best validation log-likelihood")
      ->check(CLI::Range(1.0, 100.0))
      ->capture_default_str();
  cmd->add_flag("--no-early-stop", f->no_early_stop, "Grow to the leaf budget whatever the validation says");
  cmd->add_option("--orientation", f->orientation,
                  "Frame of the point questions: canonical (turned to a standard side) or board")
      ->check(CLI::IsMember({"canonical", "board"}))
      ->capture_default_str();
  cmd->add_flag("--no-ladders", f->no_ladders, "Do not read ladders (faster guesses, no ladder question)");
  CLI::Option* snapshots = cmd->add_option("--snapshots", f->snapshots,
                                           "Also write the tree as it was at these leaf counts, to OUT with -LEAVES before the extension")
                                ->delimiter(',');
  one_value_each(snapshots, "N[,N...]");
  cmd->add_option("--seed", f->seed, "Seed of the sampling")->capture_default_str();
  cmd->add_option("--json", f->json_path, "Also write a JSON summary: sample, growth, validation curve, files");
  cmd->callback([f] { train_tree(*f); });
}

}  // namespace hane::tools
