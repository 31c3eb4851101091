// hane eval: measure guessers on held-out games.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cluster/cluster.h"
#include "eval/evaluate.h"
#include "eval/plot.h"
#include "predict/load.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "util/progress.h"
#include "util/text.h"

namespace hane::tools {
namespace {

struct EvalFlags {
  CorpusFlags corpus;
  std::vector<std::string> models;
  std::vector<std::string> labels;
  std::string json_path;
  std::string plot_dir;
};

// A row's name: its --label, else the model's file name ("uniform" for the baseline), or the
// model as given when another unlabelled model has the same file name.
std::string row_name(const EvalFlags& f, size_t i) {
  if (i < f.labels.size()) return f.labels[i];
  auto file_name = [&](size_t k) { return std::filesystem::path(f.models[k]).filename().string(); };
  for (size_t k = f.labels.size(); k < f.models.size(); ++k) {
    if (k != i && file_name(k) == file_name(i)) return f.models[i];
  }
  return file_name(i);
}

// Every row has its own name (a --label may not take another row's default name).
void check_row_names(const EvalFlags& f) {
  for (size_t i = 0; i < f.models.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (row_name(f, i) == row_name(f, j)) {
        throw UsageError("two rows named " + row_name(f, i) + " (--model " + f.models[j] + " and --model " + f.models[i] +
                         "): give each row its own --label");
      }
    }
  }
}

// Row names are padded by their width on a terminal (util/text.h): "黒" takes two columns.
void print_header(int width) {
  std::printf("%s %9s %7s %7s %7s %7s %9s %9s %9s\n", pad_right("model", width).c_str(), "positions", "top1", "top3",
              "top5", "top10", "log-lik", "µs/guess", "ratio/s");
}

void print_row(int width, const std::string& name, const EvalResult& r) {
  char ll[32] = "-";
  if (r.has_probabilities) std::snprintf(ll, sizeof ll, "%.3f", r.mean_log_likelihood());
  std::printf("%s %9s %6.2f%% %6.2f%% %6.2f%% %6.2f%% %9s %9.2f %9s\n", pad_right(name, width).c_str(),
              with_thousands(r.positions).c_str(), 100 * r.accuracy(1), 100 * r.accuracy(3), 100 * r.accuracy(5),
              100 * r.accuracy(10), ll, r.us_per_guess(), with_thousands(static_cast<int64_t>(r.ratio())).c_str());
}

void run_eval(const EvalFlags& f) {
  if (f.labels.size() > f.models.size()) throw CLI::ValidationError("--label", "more labels than models");
  check_row_names(f);
  if (!f.plot_dir.empty()) {
    for (const std::string& p : eval_plot_files(f.plot_dir)) check_extra_output("--plot", p, FileKind::kOther);
  }
  std::vector<std::unique_ptr<Guesser>> guessers;
  for (const std::string& m : f.models) {
    auto g = load_guesser(m);
    if (!g.ok()) throw std::runtime_error(std::string(g.status().message()));
    guessers.push_back(std::move(*g));
  }
  CorpusStats stats;
  const std::vector<CorpusGame> games = load_corpus(f.corpus.paths, f.corpus.options(), &stats);
  print_corpus_summary(stats);
  if (games.empty()) {
    throw std::runtime_error(stats.rejected.empty() ? "no games to evaluate on in split " + f.corpus.split
                                                    : "no games to evaluate on (see the rejections above)");
  }
  for (const std::string& m : f.models) warn_if_other_board_sizes(m, stats.kept_board_sizes);
  EvalOptions o;
  o.threads = f.corpus.threads;
  o.progress = !f.corpus.quiet && cluster::is_root();
  // Every model guesses each position in turn: their times are taken side by side.
  std::vector<const Guesser*> all;
  for (const auto& g : guessers) all.push_back(g.get());
  const std::vector<EvalResult> results = evaluate(all, games, o);

  std::printf("%s games, split %s; log-lik: mean ln P(played move) in nats; ratio: top1 / seconds per guess\n\n",
              with_thousands(static_cast<int64_t>(games.size())).c_str(), f.corpus.split.c_str());
  int width = 22;
  for (size_t i = 0; i < guessers.size(); ++i) width = std::max(width, display_width(row_name(f, i)));
  print_header(width);
  for (size_t i = 0; i < guessers.size(); ++i) print_row(width, row_name(f, i), results[i]);
  std::printf("\nmodels:\n");
  for (size_t i = 0; i < guessers.size(); ++i) {
    std::printf("  %s %s (%s)\n", pad_right(row_name(f, i), width).c_str(), guessers[i]->name().c_str(),
                f.models[i].c_str());
  }
  std::printf("\ntop-1 by game phase (moves):\n%s", pad_right("model", width).c_str());
  for (const char* p : kPhaseNames) std::printf(" %9s", p);
  std::printf("\n");
  for (size_t i = 0; i < guessers.size(); ++i) {
    std::printf("%s", pad_right(row_name(f, i), width).c_str());
    for (int p = 0; p < kNumPhases; ++p) {
      const EvalResult& r = results[i];
      std::printf(" %8.2f%%", r.phase_positions[p] ? 100 * r.phase_top1[p] / r.phase_positions[p] : 0.0);
    }
    std::printf("\n");
  }
  if (!f.plot_dir.empty() && cluster::is_root()) {
    std::filesystem::create_directories(f.plot_dir);
    std::vector<std::string> labels;
    for (size_t i = 0; i < guessers.size(); ++i) labels.push_back(row_name(f, i));
    std::printf("\n%s\n", write_eval_plots(labels, results, f.plot_dir).c_str());
  }
  if (!f.json_path.empty()) {
    auto entry = [&](size_t i) {
      nlohmann::json j = eval_json(results[i]);
      j["model"] = f.models[i];
      j["label"] = row_name(f, i);
      j["guesser"] = guessers[i]->name();
      j["games"] = games.size();
      j["split"] = f.corpus.split;
      return j;
    };
    nlohmann::json report;
    report["models"] = nlohmann::json::array();
    for (size_t i = 0; i < guessers.size(); ++i) report["models"].push_back(entry(i));
    report["corpus"] = corpus_stats_json(stats);
    report["ranks"] = cluster::size();  // MPI processes that shared the games
    write_json(f.json_path, report);
  }
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto flags = std::make_shared<EvalFlags>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "Measure guessers on held-out games: top-1/3/5/10 accuracy, log-likelihood, µs per guess, ratio.");
  add_corpus_flags(cmd, flags->corpus, "test");
  add_repeatable(cmd, "--model,-m", flags->models, "MODEL",
                 "Model file to measure, or 'uniform' (random legal move); several to compare, each once",
                 Repeats::kDistinct)
      ->required();
  add_repeatable(cmd, "--label", flags->labels, "NAME",
                 "Name of a table row, one per --model in their order (default: each model's file name), each different",
                 Repeats::kDistinct);
  cmd->add_option("--json", flags->json_path,
                  "Also write the results as JSON: {\"models\": [one object per --model, in order: model, label, "
                  "guesser, positions, top1, top3, top5, top10, log_likelihood, us_per_guess, ratio, by_phase], "
                  "\"corpus\": {...}, \"ranks\": MPI processes}, whether one or several models are measured");
  cmd->add_option("--plot", flags->plot_dir,
                  "Also draw the top-k accuracy curves of the models and their top-1 by game phase into this folder "
                  "(topk.dat, phases.dat, and with gnuplot topk.svg, phases.svg)");
  cmd->callback([flags] { run_eval(*flags); });
}

}  // namespace hane::tools
