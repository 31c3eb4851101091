// Sampling the decision-tree trainers' training and validation candidates (tree_train.h,
// boost_train.h): each candidate's question inputs (predict/tree_questions.h) and its label.
//
// Sample. Positions of the training games are drawn at random (each kept with probability
// positions / total); of each drawn position the played move is always kept and every other
// legal move with probability `negatives`, counting 1 / negatives times (an unbiased estimate of
// "seen", in memory proportional to the sample: 32 bytes a kept candidate, about 830 bytes a
// position at negatives = 0.1 on 19x19). With negatives = 1 every legal move is kept; at equal
// memory, more positions with fewer of their other moves measured better on KGS (more played
// moves to learn from). Validation positions keep every legal move, so that top-1 and the
// log-likelihood of the normalised guess are measured exactly as `hane eval` does.
//
// On the KGS train split (6.4M positions, negatives 0.1: 167M candidates, 5.4 GB) sampling
// takes about 70 s on two cores.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "corpus/corpus.h"
#include "predict/tree_questions.h"

namespace hane {

/// One candidate of the sample, packed in 32 bytes: the 24 point states two to a byte, then
/// one byte per move-level input, then the label.
struct TreeRow {
  static constexpr int kScalars = kTreeInputs - kRadius3Points;
  std::array<uint8_t, kRadius3Points / 2> points{};
  std::array<uint8_t, kScalars> scalars{};
  uint8_t played = 0;

  TreeRow() = default;
  TreeRow(const TreeInputs& in, bool is_played) : played(is_played) {
    for (int i = 0; i < kRadius3Points / 2; ++i) points[i] = static_cast<uint8_t>(in.v[2 * i] | (in.v[2 * i + 1] << 4));
    for (int i = 0; i < kScalars; ++i) scalars[i] = in.v[kRadius3Points + i];
  }
  uint8_t value(int input) const {
    return input < kRadius3Points ? (points[input >> 1] >> (4 * (input & 1))) & 0xF : scalars[input - kRadius3Points];
  }
  bool answer(TreeQuestion q) const { return (q.values >> value(q.input)) & 1; }
  TreeInputs inputs() const {
    TreeInputs in;
    for (int i = 0; i < kTreeInputs; ++i) in.v[i] = value(i);
    return in;
  }
};
static_assert(sizeof(TreeRow) == 32, "a sample row should stay 32 bytes");

struct TreeSample {
  std::vector<TreeRow> rows;
  /// With whole positions (validation): position i holds rows [position_start[i],
  /// position_start[i + 1]). Empty for training samples.
  std::vector<int64_t> position_start;
  int64_t positions = 0;         // positions drawn
  int64_t legal_moves = 0;       // legal moves of the drawn positions (rows before thinning)
  double negative_weight = 1;    // how many candidates a kept non-played row stands for
};

struct TreeSampleOptions {
  /// Positions to draw (each kept with probability positions / total); 0 = all of them.
  int64_t positions = 0;
  /// Fraction of the non-played legal moves kept, in (0, 1].
  double negatives = 1;
  /// Keep position boundaries (position_start), for measuring top-1.
  bool whole_positions = false;
  TreeFeatureOptions features;
  uint64_t seed = 1;
  int threads = 0;  // 0: one per core
  bool progress = true;
  std::string what = "sampling positions";
  /// With several ranks (cluster/cluster.h), sample only game i with i mod ranks = this rank
  /// (the rows of a game do not depend on who samples it); positions and legal_moves are then
  /// the totals over ranks, rows this rank's.
  bool share_over_ranks = false;
};

/// Replays `games` and computes the inputs of the sampled candidates, in two passes: the first
/// counts each game's rows (drawing the same random numbers), the second writes them in place,
/// so memory is exactly the sample's. The rows come in game order and are the same for a seed
/// (each game draws from its own generator) whatever the number of threads.
TreeSample sample_tree_inputs(const std::vector<CorpusGame>& games, const TreeSampleOptions& options);

}  // namespace hane
