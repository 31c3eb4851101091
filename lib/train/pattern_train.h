// Training the pattern table (predict/pattern_table.h): counting, over the training games,
// how often each local pattern was played when it could have been.
#pragma once

#include <vector>

#include "corpus/corpus.h"
#include "predict/pattern_table.h"

namespace hane {

struct PatternTableOptions {
  /// k3x3 or kDiamond12: the largest pattern used (3x3 is always the back-off).
  PatternShape shape = PatternShape::kDiamond12;
  /// k: how many "seen" the prior counts as.
  double prior_strength = 4.0;
  /// Diamond patterns seen fewer times than this are left out of the model file (their
  /// score is their 3x3 back-off). 3x3 patterns are always kept.
  int64_t min_seen = 3;
  /// Training threads (0: one per core).
  int threads = 0;
  bool progress = true;
};

/// Counts patterns over every position of `games` (all of them: select the split before).
PatternTable train_pattern_table(const std::vector<CorpusGame>& games, const PatternTableOptions& options);

}  // namespace hane
