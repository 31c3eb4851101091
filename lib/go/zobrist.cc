#include "go/zobrist.h"

namespace hane::zobrist {
namespace {

constexpr uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr Table make_table() {
  Table t{};
  uint64_t state = 0x68616E65ull;  // "hane"
  for (auto& keys : t.stone) {
    keys[0] = splitmix64(state);
    keys[1] = splitmix64(state);
  }
  t.white_to_move = splitmix64(state);
  return t;
}

}  // namespace

constinit const Table kTable = make_table();

}  // namespace hane::zobrist
