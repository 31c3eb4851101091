#include "match/schedule.h"

#include "util/hash.h"

namespace hane {

uint64_t game_seed(uint64_t seed, int64_t index) {
  return splitmix64(seed ^ splitmix64(static_cast<uint64_t>(index))) % 2147483646u + 1;
}

std::vector<Pairing> make_pairings(int num_engines, bool gauntlet) {
  std::vector<Pairing> out;
  for (int i = 0; i < num_engines; ++i) {
    for (int j = i + 1; j < num_engines; ++j) {
      if (!gauntlet || i == 0) out.push_back({i, j});
    }
  }
  return out;
}

std::vector<GameAssignment> make_schedule(const std::vector<Pairing>& pairings, int64_t games_per_pairing,
                                          const std::vector<Opening>& openings, uint64_t seed) {
  std::vector<GameAssignment> out;
  const int64_t pairs = (games_per_pairing + 1) / 2;
  for (int64_t p = 0; p < pairs; ++p) {
    for (size_t q = 0; q < pairings.size(); ++q) {
      for (int g = 0; g < 2 && 2 * p + g < games_per_pairing; ++g) {
        GameAssignment a;
        a.index = static_cast<int64_t>(out.size());
        a.pairing = static_cast<int>(q);
        a.pair = p;
        a.black = g == 0 ? pairings[q].first : pairings[q].second;
        a.white = g == 0 ? pairings[q].second : pairings[q].first;
        a.seed = game_seed(seed, a.index);
        if (!openings.empty()) {
          const Opening& o = openings[static_cast<size_t>(p) % openings.size()];
          a.opening_name = o.name;
          a.opening = o.moves;
        }
        out.push_back(std::move(a));
      }
    }
  }
  return out;
}

}  // namespace hane
