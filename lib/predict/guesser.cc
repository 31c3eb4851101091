#include "predict/guesser.h"

namespace hane {

int legal_moves(const Board& board, Color to_move, std::span<Vertex> out) {
  int n = 0;
  for (int16_t v : board.empty_points()) {
    if (board.legal(Vertex(v), to_move) == Legality::kLegal) out[n++] = Vertex(v);
  }
  return n;
}

}  // namespace hane
