#include "go/zobrist.h"

#include "util/hash.h"

namespace hane::zobrist {
namespace {

constexpr Table make_table() {
  Table t{};
  uint64_t state = 0x68616E65ull;  // "hane"
  for (auto& keys : t.stone) {
    keys[0] = splitmix64_next(state);
    keys[1] = splitmix64_next(state);
  }
  t.white_to_move = splitmix64_next(state);
  return t;
}

}  // namespace

constinit const Table kTable = make_table();

}  // namespace hane::zobrist
