// splitmix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators",
// OOPSLA 2014): the 64-bit mixer used for seeding, zobrist keys and hashing keys together.
#pragma once

#include <cstdint>

namespace hane {

inline constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

/// splitmix64's output for the state `z`: z + gamma, then the two xor-shift-multiply rounds.
/// A bijection of 64-bit words that mixes every input bit into every output bit.
constexpr uint64_t splitmix64(uint64_t z) {
  z += kGoldenGamma;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The next output of the splitmix64 generator whose state is `state` (advanced by gamma).
constexpr uint64_t splitmix64_next(uint64_t& state) {
  const uint64_t out = splitmix64(state);
  state += kGoldenGamma;
  return out;
}

}  // namespace hane
