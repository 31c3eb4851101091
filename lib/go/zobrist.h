// Zobrist keys (A. L. Zobrist, "A New Hashing Method with Application for Game Playing", 1970):
// one random 64-bit key per (vertex index, colour), fixed for every run and machine.
#pragma once

#include <array>
#include <cstdint>

#include "go/color.h"
#include "go/vertex.h"

namespace hane::zobrist {

struct Table {
  std::array<std::array<uint64_t, 2>, Geometry::kMaxVertices> stone;
  uint64_t white_to_move;  // xor-ed in for situational superko
};
extern const Table kTable;

/// The key of a `c` stone (black or white) at vertex index `v`.
inline uint64_t stone(int v, Color c) { return kTable.stone[v][static_cast<int>(c) - 1]; }

}  // namespace hane::zobrist
