#include "playout/policy.h"

namespace hane {

PlayoutResult run_playout(PlayoutPolicy& policy, Rng& rng, int max_moves, std::vector<Move>* played,
                          std::vector<uint8_t>* ko_captures) {
  const int size = policy.board().size();
  if (max_moves < 0) max_moves = 3 * size * size;
  PlayoutResult result;
  policy.start_playout();
  int passes = 0;
  while (passes < 2 && result.moves < max_moves) {
    const Color c = policy.to_move();
    const Vertex v = policy.sample(rng);
    passes = v.is_pass() ? passes + 1 : 0;
    policy.play(v);
    if (played) played->push_back({c, v});
    if (ko_captures) ko_captures->push_back(!policy.board().ko_point().is_none());
    ++result.moves;
  }
  result.score = area_score(policy.board());
  return result;
}

void number_points(const Board& board, std::array<int16_t, Board::kMaxVertices>& slot_of,
                   std::vector<int16_t>& vertex_of) {
  const int n = board.size();
  slot_of.fill(-1);
  vertex_of.resize(n * n);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const int v = board.at(x, y).index();
      slot_of[v] = static_cast<int16_t>(y * n + x);
      vertex_of[y * n + x] = static_cast<int16_t>(v);
    }
  }
}

}  // namespace hane
