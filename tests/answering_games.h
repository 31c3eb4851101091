// Synthetic 9x9 game records for the guesser trainers' tests: each move answers next to the
// opponent's last stone (its first free legal neighbour in the board's order) with probability
// 0.8, else it is a random legal point; something a small model can learn.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
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

/// `n` SGF texts of six move pairs in which White always answers directly below Black's move
/// (a model must learn to answer next to the previous move).
inline std::vector<std::string> answering_below_games(Rng& rng, int n) {
  std::vector<std::string> sgfs;
  for (int g = 0; g < n; ++g) {
    std::string sgf = "(;GM[1]SZ[9]";
    std::vector<std::pair<int, int>> used;
    for (int m = 0; m < 6; ++m) {
      int x, y;
      do {
        x = static_cast<int>(rng.below(9));
        y = static_cast<int>(rng.below(8));
      } while (std::find(used.begin(), used.end(), std::pair{x, y}) != used.end() ||
               std::find(used.begin(), used.end(), std::pair{x, y + 1}) != used.end());
      used.push_back({x, y});
      used.push_back({x, y + 1});
      sgf += ";B[" + std::string(1, static_cast<char>('a' + x)) + static_cast<char>('a' + y) + "]";
      sgf += ";W[" + std::string(1, static_cast<char>('a' + x)) + static_cast<char>('a' + y + 1) + "]";
    }
    sgfs.push_back(sgf + ")");
  }
  return sgfs;
}

}  // namespace hane::testing
