// A small, fast, seedable PRNG: xoshiro256** (Blackman and Vigna, "Scrambled Linear
// Pseudorandom Number Generators", 2018), seeded through splitmix64. Deterministic for a seed.
#pragma once

#include <bit>
#include <cstdint>

#include "util/hash.h"

namespace hane {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0x9E3779B97F4A7C15ull) { reseed(seed); }

  void reseed(uint64_t seed) {
    for (uint64_t& word : s_) word = splitmix64_next(seed);
  }

  uint64_t next() {
    const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift; bias below 2^-32 for n < 2^32).
  uint32_t below(uint32_t n) {
    return static_cast<uint32_t>((static_cast<uint64_t>(static_cast<uint32_t>(next() >> 32)) * n) >> 32);
  }

  /// Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t s_[4];
};

}  // namespace hane
