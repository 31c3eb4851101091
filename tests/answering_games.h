// Synthetic 9x9 game records for the guesser trainers' tests: each move answers next to the
// opponent's last stone (its first free legal neighbour in the board's order) with probability
// 0.8, else it is a random legal point; something a small model can learn.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "go/board.h"
#include "go/random.h"
#include "go/vertex.h"

namespace hane::testing {

/// `games` SGF texts of up to `moves` moves each; game g uses seed `seed + g`.
inline std::vector<std::string> answering_games(uint64_t seed, int games, int moves) {
  std::vector<std::string> out;
  for (int g = 0; g < games; ++g) {
    Rng rng(seed + g);
    Board b(9);
    Color c = Color::kBlack;
    Vertex last = Vertex::none();
    std::string sgf = "(;GM[1]SZ[9]";
    for (int m = 0; m < moves; ++m) {
      Vertex v = Vertex::none();
      if (!last.is_none() && rng.uniform() < 0.8) {
        for (Vertex n : b.neighbours(last)) {
          if (b.is_empty(n) && b.legal(n, c) == Legality::kLegal) {
            v = n;
            break;
          }
        }
      }
      if (v.is_none()) {
        const auto empties = b.empty_points();
        v = Vertex(empties[rng.below(static_cast<uint32_t>(empties.size()))]);
        if (b.legal(v, c) != Legality::kLegal) continue;
      }
      b.play_legal(v, c);
      sgf += std::string(";") + (c == Color::kBlack ? "B[" : "W[") + to_sgf(v, 9) + "]";
      c = opponent(c);
      last = v;
    }
    out.push_back(sgf + ")");
  }
  return out;
}

}  // namespace hane::testing
