#include "train/pattern_train.h"

#include "corpus/replay.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {

namespace {

struct Counts {
  uint64_t seen = 0;
  uint64_t played = 0;
};
using CountMap = absl::flat_hash_map<uint64_t, Counts>;

struct ThreadCounts {
  CountMap c3, cd;
  int64_t positions = 0;
};

void count_game(const CorpusGame& game, PatternShape shape, ThreadCounts& t, std::vector<Vertex>& moves) {
  const bool diamond = shape == PatternShape::kDiamond12;
  (void)replay_choices(game.record, [&](const Position& p, Vertex played, std::span<const Vertex> legal) {
    const Board& b = *p.board;
    ++t.positions;
    for (size_t i = 0; i < legal.size(); ++i) {
      const uint64_t raw = pattern_code(b, legal[i], p.to_move, PatternShape::kDiamond12);
      const bool is_played = legal[i] == played;
      Counts& c3 = t.c3[canonical(shrink(raw, PatternShape::k3x3), PatternShape::k3x3)];
      ++c3.seen;
      c3.played += is_played;
      if (diamond) {
        Counts& cd = t.cd[canonical(raw, PatternShape::kDiamond12)];
        ++cd.seen;
        cd.played += is_played;
      }
    }
  }, moves);
}

void merge(CountMap& into, const CountMap& from) {
  for (const auto& [code, c] : from) {
    Counts& d = into[code];
    d.seen += c.seen;
    d.played += c.played;
  }
}

}  // namespace

PatternTable train_pattern_table(const std::vector<CorpusGame>& games, const PatternTableOptions& options) {
  const int threads = thread_count(options.threads);
  std::vector<ThreadCounts> counts(threads);
  std::vector<std::vector<Vertex>> moves(threads);
  Progress progress("counting patterns", "games", static_cast<int64_t>(games.size()));
  parallel_for(
      games.size(), threads, [&](int w, size_t i) { count_game(games[i], options.shape, counts[w], moves[w]); },
      options.progress ? std::function<void(int64_t)>([&](int64_t done) { progress.update(done); }) : nullptr);
  if (options.progress) progress.finish();
  ThreadCounts& total = counts[0];
  for (int t = 1; t < threads; ++t) {
    merge(total.c3, counts[t].c3);
    merge(total.cd, counts[t].cd);
    total.positions += counts[t].positions;
    counts[t] = {};
  }

  PatternTable table;
  table.shape = options.shape;
  table.prior_strength = options.prior_strength;
  uint64_t seen = 0, played = 0;
  for (const auto& [code, c] : total.c3) {
    seen += c.seen;
    played += c.played;
  }
  const double k = options.prior_strength;
  table.overall_ratio = seen > 0 ? static_cast<double>(played) / static_cast<double>(seen) : 0;
  for (const auto& [code, c] : total.c3) {
    table.ratio3x3[code] = static_cast<float>((c.played + k * table.overall_ratio) / (c.seen + k));
  }
  int64_t kept = 0;
  for (const auto& [code, c] : total.cd) {
    if (static_cast<int64_t>(c.seen) < options.min_seen) continue;
    const double prior = table.score(code);  // its 3x3 back-off (code is canonical: same 3x3 class)
    table.ratio_diamond[code] = static_cast<float>((c.played + k * prior) / (c.seen + k));
    ++kept;
  }
  table.training = {
      {"games", games.size()},
      {"positions", total.positions},
      {"candidates_seen", seen},
      {"patterns_3x3", total.c3.size()},
      {"patterns_diamond12", total.cd.size()},
      {"patterns_diamond12_kept", kept},
      {"min_seen", options.min_seen},
  };
  return table;
}

}  // namespace hane
