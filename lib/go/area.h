// What area counting gives each side beyond its stones: the points of each colour (SGF TB /
// TW) once dead stones are removed, and White's points for Black's handicap stones.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "go/board.h"

namespace hane {

/// What White receives for Black's handicap stones under area scoring, besides komi. Counting
/// the area, Black's handicap stones would each be worth a point, so the Chinese rules (2002)
/// give White one point per handicap stone and the AGA rules (2004) one fewer (N - 1: the first
/// stone stands for White's komi-free first move). Territory scoring needs none (stones are not
/// counted), nor do Tromp-Taylor and New Zealand, which have no handicap compensation.
enum class HandicapCompensation : uint8_t {
  kNone,
  kPerStone,         // Chinese: N
  kPerStoneButOne,   // AGA: N - 1
};

/// Points White gets for `handicap` stones (0 for fewer than two stones: no handicap).
inline int handicap_compensation(HandicapCompensation rule, int handicap) {
  if (handicap < 2) return 0;
  switch (rule) {
    case HandicapCompensation::kPerStone: return handicap;
    case HandicapCompensation::kPerStoneButOne: return handicap - 1;
    default: return 0;
  }
}

/// The points each colour counts besides its living stones once `dead` stones are removed:
/// empty regions that reach stones of that colour only, and the dead stones inside them (SGF
/// TB / TW). In board order (rows from the top); dame and regions touching both colours in
/// neither.
struct AreaPoints {
  std::vector<Vertex> black, white;
};
AreaPoints area_points(const Board& board, std::span<const Vertex> dead);

}  // namespace hane
