// Corpus games from SGF texts, for the tests of guessers and trainers (one helper instead of a
// copy in each test file).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "corpus/corpus.h"
#include "sgf/record.h"

namespace hane::testing {

/// One CorpusGame per SGF text (a text that does not read is a test failure), all in `split`,
/// game i with hash `first_hash + i` (distinct hashes, as a corpus gives, for the samplers that
/// draw by game hash).
inline std::vector<CorpusGame> games_from(const std::vector<std::string>& sgfs, Split split = Split::kTrain,
                                          uint64_t first_hash = 0) {
  std::vector<CorpusGame> games;
  for (const std::string& sgf : sgfs) {
    auto r = read_game(sgf);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) continue;
    CorpusGame g;
    g.record = *r;
    g.split = split;
    g.hash = first_hash + games.size();
    games.push_back(std::move(g));
  }
  return games;
}

}  // namespace hane::testing
