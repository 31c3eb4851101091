// hane dataset stats: what a corpus holds, and what was left out and why.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>
#include <memory>

#include "tools/commands.h"
#include "tools/corpus_options.h"
#include "util/progress.h"

namespace hane::tools {
namespace {

struct StatsFlags {
  CorpusFlags corpus;
  std::string json_path;
};

void print_stats(const CorpusStats& s, int64_t max_games) {
  const double mb = s.source.bytes / 1e6;
  std::printf("games read        %12s\n", with_thousands(s.games_read).c_str());
  std::printf("games kept        %12s\n", with_thousands(s.games_kept).c_str());
  if (s.other_split > 0) std::printf("in other splits   %12s\n", with_thousands(s.other_split).c_str());
  std::printf("positions (moves) %12s   (%s passes besides)\n", with_thousands(s.positions).c_str(),
              with_thousands(s.passes).c_str());
  if (s.games_kept > 0) {
    std::printf("handicap games    %12s   (%.1f%%)\n", with_thousands(s.handicap_games).c_str(),
                100.0 * s.handicap_games / s.games_kept);
    std::printf("with warnings     %12s\n", with_thousands(s.games_with_warnings).c_str());
  }
  auto print_examples = [](const std::map<std::string, Rejections>& by_kind) {
    if (by_kind.empty()) std::printf("  none\n");
    for (const auto& [kind, r] : by_kind) {
      std::printf("  %-28s %10s\n", kind.c_str(), with_thousands(r.count).c_str());
      for (const std::string& e : r.examples) std::printf("      %s\n", e.c_str());
    }
  };
  std::printf("\nrejected games by reason:\n");
  print_examples(s.rejected);
  if (s.games_lost_in_collections > 0) {
    std::printf("  (%s of the sgf syntax rejections are games lost in files of several games;\n"
                "   reading resumed after each)\n",
                with_thousands(s.games_lost_in_collections).c_str());
  }
  std::printf("\nkept games with warnings, by kind (a game counts once per kind):\n");
  print_examples(s.warnings);
  std::printf("\nrules replayed with (kept games):");
  for (const auto& [rules, n] : s.rules) std::printf("  %s: %s", rules.c_str(), with_thousands(n).c_str());
  std::printf("\n");
  std::printf("\nboard sizes (valid games):");
  for (const auto& [size, n] : s.board_sizes) std::printf("  %dx%d: %s", size, size, with_thousands(n).c_str());
  std::printf("\nyears:");
  for (const auto& [year, n] : s.years) std::printf("  %s: %s", year.c_str(), with_thousands(n).c_str());
  // Ranks by strength: kyu from the weakest, dan, professional dan; unknown last.
  std::vector<std::pair<std::string, int64_t>> ranks(s.ranks.begin(), s.ranks.end());
  auto strength = [](const std::string& text) {
    const Rank r = parse_rank(text);
    return !r.known() ? 1000 : r.pro > 0 ? 100 + r.pro : r.amateur;
  };
  std::stable_sort(ranks.begin(), ranks.end(),
                   [&](const auto& a, const auto& b) { return strength(a.first) < strength(b.first); });
  std::printf("\nranks (players):");
  for (const auto& [rank, n] : ranks) std::printf("  %s: %s", rank.c_str(), with_thousands(n).c_str());
  std::printf("\n\nread %s entries, %.1f MB of SGF (%.1f MB of input) in %.2f s: %s games/s, %.1f MB/s\n",
              with_thousands(s.source.entries).c_str(), mb, s.source.input_bytes / 1e6, s.seconds,
              with_thousands(static_cast<int64_t>(s.games_read / s.seconds)).c_str(), mb / s.seconds);
  if (max_games > 0) {
    // The readers work ahead in parallel: entries past the last counted game were opened too.
    std::printf("(--max-games %s: the games above are the first %s counted; entries are all that were opened)\n",
                with_thousands(max_games).c_str(), with_thousands(max_games).c_str());
  }
}

}  // namespace

void add_dataset_command(CLI::App& app) {
  CLI::App* dataset = app.add_subcommand("dataset", "Look at game-record corpora.");
  dataset->require_subcommand(1);
  auto flags = std::make_shared<StatsFlags>();
  CLI::App* stats = dataset->add_subcommand(
      "stats", "Read every game (parse, replay, filter, deduplicate, split) and report what the corpus holds.");
  add_corpus_flags(stats, flags->corpus, "all");
  stats->add_option("--json", flags->json_path, "Also write the statistics to this JSON file");
  stats->callback([flags] {
    const CorpusStats s = read_corpus(flags->corpus.paths, flags->corpus.options(), [](CorpusGame&&) {});
    print_stats(s, flags->corpus.max_games);
    if (!flags->json_path.empty()) write_json(flags->json_path, corpus_stats_json(s));
  });
}

}  // namespace hane::tools
