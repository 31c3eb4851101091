#include "predict/guesser.h"

#include <cstdio>
#include <vector>

namespace hane {

std::string Guesser::explain(const Position& position, Vertex move) {
  const Board& b = *position.board;
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, position.to_move, moves));
  std::vector<float> scores(moves.size());
  score(position, moves, scores);
  int index = -1;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (moves[i] == move) index = static_cast<int>(i);
  }
  if (index < 0) return "not a legal move";
  int rank = 1;
  for (float s : scores) rank += s > scores[index];
  char buf[96];
  if (gives_probabilities()) {
    std::snprintf(buf, sizeof buf, "ranked %d of %zu legal moves (p = %.1f%%)", rank, moves.size(), 100.0 * scores[index]);
  } else {
    std::snprintf(buf, sizeof buf, "ranked %d of %zu legal moves (score %.3g)", rank, moves.size(), scores[index]);
  }
  return buf;
}

}  // namespace hane
