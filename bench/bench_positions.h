// Positions the micro-benchmarks share.
#pragma once

#include <cstdint>

#include "go/board.h"
#include "playout/uniform.h"

namespace hane::bench {

/// A mid-game position: `moves` uniformly random moves (see random_move) from the empty board,
/// Black first, seeded. Random play leaves more chains in atari than a real game does.
inline Board random_midgame(uint64_t seed, int moves = 150, int size = 19) {
  Board b(size);
  Rng rng(seed);
  Color c = Color::kBlack;
  for (int i = 0; i < moves; ++i) {
    b.play(random_move(b, c, rng), c);
    c = opponent(c);
  }
  return b;
}

}  // namespace hane::bench
