#include "train/tree_sample.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <span>

#include "cluster/cluster.h"
#include "corpus/replay.h"
#include "go/random.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {
namespace {

// What a game gives to the sample. Counting (rows == nullptr) draws the same random numbers as
// filling, so that a first pass can size the sample exactly and a second write each game's
// rows in place.
struct GameSample {
  int64_t rows = 0, positions = 0, legal_moves = 0;
  std::vector<int64_t> starts;  // with whole positions: each position's first row, from the game's first
};

void sample_game(const CorpusGame& game, uint64_t seed, double fraction, double negatives, bool whole,
                 TreeInputMaker& maker, TreeRow* rows, GameSample& out, std::vector<Vertex>& moves) {
  Rng rng(seed);
  out = {};
  auto keep = [&](const Position&) { return !(fraction < 1 && rng.uniform() >= fraction); };
  (void)replay_choices(game.record, [&](const Position& p, Vertex played, std::span<const Vertex> legal) {
    const int n = static_cast<int>(legal.size());  // legal lies in `moves`
    ++out.positions;
    out.legal_moves += n;
    if (whole) out.starts.push_back(out.rows);
    if (rows) maker.set_position(p);
    TreeInputs in;
    for (int i = 0; i < n; ++i) {
      const bool is_played = moves[i] == played;
      if (!is_played && negatives < 1 && rng.uniform() >= negatives) continue;
      if (rows) {
        maker.inputs(moves[i], in);
        rows[out.rows] = TreeRow(in, is_played);
      }
      ++out.rows;
    }
  }, moves, keep);
}

}  // namespace

TreeSample sample_tree_inputs(const std::vector<CorpusGame>& games, const TreeSampleOptions& options) {
  int64_t total = 0;
  for (const CorpusGame& g : games) total += g.positions;
  const double fraction =
      options.positions <= 0 || total <= 0 || options.positions >= total ? 1.0 : static_cast<double>(options.positions) / total;
  const double negatives = std::clamp(options.negatives, 1e-6, 1.0);
  const int threads = thread_count(options.threads);
  const size_t n = games.size();
  auto seed_of = [&](size_t game) { return options.seed * 0x9E3779B97F4A7C15ull + game; };
  std::vector<GameSample> per_game(n);
  std::vector<int64_t> offset(n + 1, 0);
  TreeSample sample;
  sample.negative_weight = 1 / negatives;
  // Pass 1 counts each game's rows; pass 2 writes them at the game's offset. Each pass reads
  // every game once and has its own progress line.
  for (int pass = 0; pass < 2; ++pass) {
    Progress progress(options.what + (pass == 0 ? " (pass 1 of 2: counting)" : " (pass 2 of 2)"), "games",
                      static_cast<int64_t>(n));
    std::atomic<size_t> next{0};
    std::atomic<int64_t> done{0};
    run_workers(
        threads,
        [&](int) {
          TreeInputMaker maker(options.features);
          std::vector<Vertex> moves;
          for (size_t i; (i = next++) < n;) {
            if (options.share_over_ranks && static_cast<int>(i % cluster::size()) != cluster::rank()) {
              ++done;
              continue;
            }
            TreeRow* rows = pass == 0 ? nullptr : sample.rows.data() + offset[i];
            sample_game(games[i], seed_of(i), fraction, negatives, options.whole_positions, maker, rows, per_game[i],
                        moves);
            ++done;
          }
        },
        options.progress ? std::function<void()>([&] { progress.update(done); }) : nullptr);
    if (options.progress) progress.finish();
    if (pass == 0) {
      for (size_t i = 0; i < n; ++i) offset[i + 1] = offset[i] + per_game[i].rows;
      sample.rows.resize(offset[n]);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    sample.positions += per_game[i].positions;
    sample.legal_moves += per_game[i].legal_moves;
    for (int64_t start : per_game[i].starts) sample.position_start.push_back(offset[i] + start);
  }
  if (options.whole_positions) sample.position_start.push_back(static_cast<int64_t>(sample.rows.size()));
  if (options.share_over_ranks) {
    std::array<int64_t, 2> counts = {sample.positions, sample.legal_moves};
    cluster::allreduce_sum(counts);
    sample.positions = counts[0];
    sample.legal_moves = counts[1];
  }
  return sample;
}
}  // namespace hane
