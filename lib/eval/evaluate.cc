#include "eval/evaluate.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "cluster/cluster.h"
#include "corpus/replay.h"
#include "util/hash.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {

int phase_of(int move_number) {
  if (move_number <= 30) return 0;
  if (move_number <= 100) return 1;
  if (move_number <= 200) return 2;
  return 3;
}

void EvalResult::add(const EvalResult& o) {
  positions += o.positions;
  for (int k = 0; k <= kMaxK; ++k) top[k] += o.top[k];
  log_likelihood += o.log_likelihood;
  guess_seconds += o.guess_seconds;
  for (int p = 0; p < kNumPhases; ++p) {
    phase_positions[p] += o.phase_positions[p];
    phase_top1[p] += o.phase_top1[p];
  }
}

namespace {

using Clock = std::chrono::steady_clock;

// Every guesser guesses at each position in turn (so that their times are taken under the same
// load), each into its own result.
void evaluate_game(std::span<const std::unique_ptr<Guesser>> guessers, const CorpusGame& game,
                   std::span<EvalResult> results, std::vector<Vertex>& moves, std::vector<float>& scores) {
  (void)replay(game.record, [&](const Position& p, Vertex played) {
    if (played.is_pass()) return;
    const Board& b = *p.board;
    moves.resize(b.empty_points().size());
    scores.resize(moves.size());
    for (size_t g = 0; g < guessers.size(); ++g) {
      Guesser& guesser = *guessers[g];
      EvalResult& r = results[g];
      // The timed guess: list the legal moves, score them, and rank the best ten.
      const auto start = Clock::now();
      const int n = legal_moves(b, p.to_move, moves);
      guesser.score(p, std::span(moves.data(), n), std::span(scores.data(), n));
      std::array<float, EvalResult::kMaxK> best;
      const int k = std::min(n, EvalResult::kMaxK);
      std::partial_sort_copy(scores.begin(), scores.begin() + n, best.begin(), best.begin() + k, std::greater<float>());
      r.guess_seconds += std::chrono::duration<double>(Clock::now() - start).count();

      int index = -1;
      for (int i = 0; i < n; ++i) {
        if (moves[i] == played) index = i;
      }
      ++r.positions;
      const int phase = phase_of(p.move_number);
      ++r.phase_positions[phase];
      if (index < 0) continue;  // cannot happen for a replayed legal move; counts as a miss
      const float s = scores[index];
      int greater = 0, equal = 0;
      for (int i = 0; i < n; ++i) {
        greater += scores[i] > s;
        equal += scores[i] == s;
      }
      for (int kk = 1; kk <= EvalResult::kMaxK; ++kk) {
        r.top[kk] += std::clamp(static_cast<double>(kk - greater) / equal, 0.0, 1.0);
      }
      r.phase_top1[phase] += std::clamp(static_cast<double>(1 - greater) / equal, 0.0, 1.0);
      if (guesser.gives_probabilities()) r.log_likelihood += std::log(std::max(s, 1e-30f));
    }
  });
}

// Sums over ranks (doubles in rank order).
void reduce_over_ranks(EvalResult& total) {
  std::vector<int64_t> counts = {total.positions};
  counts.insert(counts.end(), total.phase_positions.begin(), total.phase_positions.end());
  std::vector<double> sums(total.top.begin(), total.top.end());
  sums.push_back(total.log_likelihood);
  sums.push_back(total.guess_seconds);
  sums.insert(sums.end(), total.phase_top1.begin(), total.phase_top1.end());
  cluster::allreduce_sum(counts);
  cluster::allreduce_sum(sums);
  total.positions = counts[0];
  std::copy(counts.begin() + 1, counts.end(), total.phase_positions.begin());
  std::copy(sums.begin(), sums.begin() + total.top.size(), total.top.begin());
  total.log_likelihood = sums[total.top.size()];
  total.guess_seconds = sums[total.top.size() + 1];
  std::copy(sums.begin() + total.top.size() + 2, sums.end(), total.phase_top1.begin());
}

}  // namespace

std::vector<EvalResult> evaluate(std::span<const Guesser* const> guessers, const std::vector<CorpusGame>& all_games,
                                 const EvalOptions& options) {
  // With several ranks, this rank's games (by the stable game hash, mixed so that its low bits
  // spread evenly); the sums are reduced below.
  std::vector<const CorpusGame*> games;
  for (const CorpusGame& g : all_games) {
    if (static_cast<int>(splitmix64(g.hash) % static_cast<uint64_t>(cluster::size())) == cluster::rank()) {
      games.push_back(&g);
    }
  }
  const size_t m = guessers.size();
  const int threads = thread_count(options.threads);
  std::vector<std::vector<EvalResult>> results(threads, std::vector<EvalResult>(m));
  std::vector<std::vector<std::unique_ptr<Guesser>>> clones(threads);
  for (auto& c : clones) {
    for (const Guesser* g : guessers) c.push_back(g->clone());
  }
  std::vector<std::vector<Vertex>> moves(threads);
  std::vector<std::vector<float>> scores(threads);
  std::string what = "evaluating ";
  for (size_t g = 0; g < m; ++g) what += (g ? ", " : "") + guessers[g]->name();
  Progress progress(what, "games", static_cast<int64_t>(games.size()));
  parallel_for(
      games.size(), threads, [&](int w, size_t i) { evaluate_game(clones[w], *games[i], results[w], moves[w], scores[w]); },
      options.progress ? std::function<void(int64_t)>([&](int64_t done) { progress.update(done); }) : nullptr);
  if (options.progress) progress.finish();
  std::vector<EvalResult> totals(m);
  for (size_t g = 0; g < m; ++g) {
    for (const std::vector<EvalResult>& r : results) totals[g].add(r[g]);
    if (cluster::size() > 1) reduce_over_ranks(totals[g]);
    totals[g].has_probabilities = guessers[g]->gives_probabilities();
  }
  return totals;
}

EvalResult evaluate(const Guesser& guesser, const std::vector<CorpusGame>& games, const EvalOptions& options) {
  const Guesser* one[] = {&guesser};
  return evaluate(one, games, options)[0];
}

nlohmann::json eval_json(const EvalResult& r) {
  nlohmann::json j;
  j["positions"] = r.positions;
  for (int k : {1, 3, 5, 10}) j["top" + std::to_string(k)] = r.accuracy(k);
  j["log_likelihood"] = r.has_probabilities ? nlohmann::json(r.mean_log_likelihood()) : nlohmann::json();
  j["us_per_guess"] = r.us_per_guess();
  j["ratio"] = r.ratio();
  for (int p = 0; p < kNumPhases; ++p) {
    j["by_phase"][kPhaseNames[p]] = {
        {"positions", r.phase_positions[p]},
        {"top1", r.phase_positions[p] ? r.phase_top1[p] / r.phase_positions[p] : 0.0}};
  }
  return j;
}

}  // namespace hane
