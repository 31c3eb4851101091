#include "search/strategic_prior.h"

#include <algorithm>
#include <cmath>

namespace hane {

bool makes_empty_triangle(const Board& board, Vertex v, Color c) {
  const int i = v.index(), s = board.stride();
  // The four 2×2 squares holding v: v, a (along x), b (along y), d (the diagonal between them).
  for (const int dx : {-1, 1}) {
    for (const int dy : {-s, s}) {
      const Color a = board.color(Vertex(i + dx)), b = board.color(Vertex(i + dy)), d = board.color(Vertex(i + dx + dy));
      const int own = (a == c) + (b == c) + (d == c);
      const int empty = (a == Color::kEmpty) + (b == Color::kEmpty) + (d == Color::kEmpty);
      if (own == 2 && empty == 1) return true;
    }
  }
  return false;
}

double strategic_kind_odds(StrategicKind kind) {
  switch (kind) {
    case StrategicKind::kOpen: return 0.62;
    case StrategicKind::kContest: return 0.37;
    case StrategicKind::kReduce: return 0.27;
    case StrategicKind::kExtend: return 0.13;
    case StrategicKind::kSecure: return -0.60;
    case StrategicKind::kInvade: return -0.76;
    case StrategicKind::kNone: return 0;
  }
  return 0;
}

double strategic_phase(int move_number, int board_points) {
  const double half = std::max(1.0, board_points / 2.0);
  return std::clamp(1.0 - (move_number - 1) / half, 0.0, 1.0);
}

double strategic_term(const Board& board, const BoardMaps& maps, Vertex v, Color c, int move_number) {
  const int points = board.size() * board.size();
  double t = strategic_kind_odds(strategic_kind(board, maps, v, c)) * strategic_phase(move_number, points);
  if (makes_empty_triangle(board, v, c)) t += kEmptyTrianglePenalty;
  return t;
}

void strategic_reweight(const Board& board, const BoardMaps& maps, Color c, int move_number, double weight,
                        std::span<const Vertex> moves, std::span<float> scores) {
  double before = 0, after = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    before += scores[i];
    scores[i] = static_cast<float>(scores[i] * std::exp(weight * strategic_term(board, maps, moves[i], c, move_number)));
    after += scores[i];
  }
  if (after <= 0) return;
  const float scale = static_cast<float>(before / after);
  for (float& s : scores) s *= scale;
}

}  // namespace hane
