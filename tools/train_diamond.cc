// hane train diamond: the pattern table (train/pattern_train.h).
#include <cstdio>
#include <memory>

#include "cluster/cluster.h"
#include "train/pattern_train.h"
#include "tools/cli.h"
#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct DiamondFlags {
  CorpusFlags corpus;
  std::string out;
  std::string shape = "diamond12";
  double prior = 4.0;
  int64_t min_seen = 3;
};

void train_diamond(const DiamondFlags& f) {
  // Counting is one pass; several ranks would each count everything and write --out at once.
  if (cluster::size() > 1) throw UsageError("train diamond runs on one process (start it without mpirun)");
  const auto start = std::chrono::steady_clock::now();
  CorpusStats stats;
  const std::vector<CorpusGame> games = load_corpus(f.corpus.paths, f.corpus.options(), &stats);
  print_corpus_summary(stats);
  note_training_board_sizes(stats.kept_board_sizes);
  if (games.empty()) throw std::runtime_error(no_games_message(stats, f.corpus, "training games"));
  PatternTableOptions o;
  o.shape = f.shape == "3x3" ? PatternShape::k3x3 : PatternShape::kDiamond12;
  o.prior_strength = f.prior;
  o.min_seen = f.min_seen;
  o.threads = f.corpus.threads;
  o.progress = !f.corpus.quiet;
  PatternTable table = train_pattern_table(games, o);
  table.training["split"] = f.corpus.split;
  table.training["inputs"] = f.corpus.paths;
  if (absl::Status s = save_pattern_table(table, f.out); !s.ok()) throw std::runtime_error(std::string(s.message()));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("trained a %s table on %s games (%s positions, split %s) in %.1f s\n", f.shape.c_str(),
              with_thousands(static_cast<int64_t>(games.size())).c_str(),
              with_thousands(table.training["positions"].get<int64_t>()).c_str(), f.corpus.split.c_str(), seconds);
  std::printf("patterns: %s 3x3, %s diamond12 seen, %s kept (seen >= %lld)\n",
              with_thousands(static_cast<int64_t>(table.ratio3x3.size())).c_str(),
              with_thousands(table.training["patterns_diamond12"].get<int64_t>()).c_str(),
              with_thousands(static_cast<int64_t>(table.ratio_diamond.size())).c_str(),
              static_cast<long long>(f.min_seen));
  std::printf("wrote %s\n", f.out.c_str());
}

}  // namespace

void add_train_diamond_command(CLI::App* train) {
  auto diamond = std::make_shared<DiamondFlags>();
  CLI::App* cmd = train->add_subcommand(
      "diamond", "Pattern table: count how often each local pattern (12-point diamond with liberties, "
                 "backed off to 3x3) is played when it could be.");
  add_corpus_flags(cmd, diamond->corpus, "train");
  cmd->add_option("--out,-o", diamond->out, "Model file to write")->required();
  cmd->add_option("--shape", diamond->shape, "Largest pattern: diamond12 or 3x3")
      ->check(CLI::IsMember({"diamond12", "3x3"}))
      ->capture_default_str();
  cmd->add_option("--prior", diamond->prior, "Smoothing strength k: how many sightings the back-off counts as")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->add_option("--min-seen", diamond->min_seen, "Leave out diamond patterns seen fewer times (they use the 3x3 ratio)")
      ->check(non_negative_number())
      ->capture_default_str();
  cmd->callback([diamond] { train_diamond(*diamond); });
}

}  // namespace hane::tools
