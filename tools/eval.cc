// hane eval: measure guessers on held-out games.
#include <cstdio>
#include <memory>

#include "eval/evaluate.h"
#include "predict/load.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct EvalFlags {
  CorpusFlags corpus;
  std::vector<std::string> models;
  std::string json_path;
};

void print_header() {
  std::printf("%-22s %9s %7s %7s %7s %7s %9s %9s %9s\n", "guesser", "positions", "top1", "top3", "top5", "top10",
              "log-lik", "µs/guess", "ratio/s");
}

void print_row(const std::string& name, const EvalResult& r) {
  char ll[32] = "-";
  if (r.has_probabilities) std::snprintf(ll, sizeof ll, "%.3f", r.mean_log_likelihood());
  std::printf("%-22s %9lld %6.2f%% %6.2f%% %6.2f%% %6.2f%% %9s %9.2f %9.0f\n", name.c_str(),
              static_cast<long long>(r.positions), 100 * r.accuracy(1), 100 * r.accuracy(3), 100 * r.accuracy(5),
              100 * r.accuracy(10), ll, r.us_per_guess(), r.ratio());
}

void run_eval(const EvalFlags& f) {
  std::vector<std::unique_ptr<Guesser>> guessers;
  for (const std::string& m : f.models) {
    auto g = load_guesser(m);
    if (!g.ok()) throw std::runtime_error(std::string(g.status().message()));
    guessers.push_back(std::move(*g));
  }
  CorpusStats stats;
  const std::vector<CorpusGame> games = load_corpus(f.corpus.paths, f.corpus.options(), &stats);
  print_corpus_summary(stats);
  if (games.empty()) throw std::runtime_error("no games to evaluate on (see the rejections above)");
  EvalOptions o;
  o.threads = f.corpus.threads;
  o.progress = !f.corpus.quiet;
  std::vector<EvalResult> results;
  for (const auto& g : guessers) results.push_back(evaluate(*g, games, o));

  std::printf("%s games, split %s; log-lik: mean ln P(played move) in nats; ratio: top1 / seconds per guess\n\n",
              with_thousands(static_cast<int64_t>(games.size())).c_str(), f.corpus.split.c_str());
  print_header();
  for (size_t i = 0; i < guessers.size(); ++i) print_row(guessers[i]->name(), results[i]);
  std::printf("\ntop-1 by game phase (moves):\n%-22s", "guesser");
  for (const char* p : kPhaseNames) std::printf(" %9s", p);
  std::printf("\n");
  for (size_t i = 0; i < guessers.size(); ++i) {
    std::printf("%-22s", guessers[i]->name().c_str());
    for (int p = 0; p < kNumPhases; ++p) {
      const EvalResult& r = results[i];
      std::printf(" %8.2f%%", r.phase_positions[p] ? 100 * r.phase_top1[p] / r.phase_positions[p] : 0.0);
    }
    std::printf("\n");
  }
  if (!f.json_path.empty()) {
    auto entry = [&](size_t i) {
      nlohmann::json j = eval_json(results[i]);
      j["model"] = f.models[i];
      j["guesser"] = guessers[i]->name();
      j["games"] = games.size();
      j["split"] = f.corpus.split;
      return j;
    };
    nlohmann::json report;
    if (guessers.size() == 1) {
      report = entry(0);
    } else {
      for (size_t i = 0; i < guessers.size(); ++i) report["models"].push_back(entry(i));
    }
    report["corpus"] = corpus_stats_json(stats);
    write_json(f.json_path, report);
  }
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto flags = std::make_shared<EvalFlags>();
  CLI::App* cmd = app.add_subcommand(
      "eval", "Measure guessers on held-out games: top-1/3/5/10 accuracy, log-likelihood, µs per guess, ratio.");
  add_corpus_flags(cmd, flags->corpus, "test");
  cmd->add_option("--model,-m", flags->models, "Model file to measure, or 'uniform' (random legal move); repeat to compare")
      ->required();
  cmd->add_option("--json", flags->json_path,
                  "Also write the results as JSON: with one --model an object with positions, top1, top3, top5, "
                  "top10, log_likelihood, us_per_guess, ratio, by_phase; with several, {\"models\": [...]}");
  cmd->callback([flags] { run_eval(*flags); });
}

}  // namespace hane::tools
