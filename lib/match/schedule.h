// The deterministic schedule of a tournament: which engines play which game, with which
// colours, opening and seed. The same options always give the same schedule, so a run that
// stops can be resumed by playing the games missing from the results file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "go/game.h"
#include "match/referee.h"

namespace hane {

/// An opening: the first moves of a game record (alternating colours, Black first).
struct Opening {
  std::string name;
  std::vector<Move> moves;
};

/// The two engines of a pairing; `first` is the one whose score is reported.
struct Pairing {
  int first = 0, second = 1;
};

/// The seed of game `index` of a run with `seed`: 1..2^31-1 (engines read seeds as a C int, as
/// GNU Go's --seed), SplitMix64 of (seed, index).
uint64_t game_seed(uint64_t seed, int64_t index);

/// Round robin (every pair i < j, in order) or gauntlet (engine 0 against each other engine).
std::vector<Pairing> make_pairings(int num_engines, bool gauntlet);

/// `games_per_pairing` games for every pairing, played as pairs: pair p of a pairing plays
/// opening p mod (number of openings) twice, first with `first` as Black, then with colours
/// swapped. Games are ordered pair by pair, pairing by pairing within a pair round, so all
/// pairings progress together. Each game's seed, 1..2^31-1, is SplitMix64 of (seed, game index).
std::vector<GameAssignment> make_schedule(const std::vector<Pairing>& pairings, int64_t games_per_pairing,
                                          const std::vector<Opening>& openings, uint64_t seed);

}  // namespace hane
