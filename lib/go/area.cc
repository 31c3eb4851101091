#include "go/area.h"

namespace hane {

AreaPoints area_points(const Board& board, std::span<const Vertex> dead) {
  Board cleaned = board;
  for (const Vertex v : dead) cleaned.set_stone(v, Color::kEmpty);
  std::vector<int8_t> owner(static_cast<size_t>(board.geometry().num_vertices()), -1);  // -1 unseen
  std::vector<Vertex> region, stack;
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Vertex start = board.at(x, y);
      if (cleaned.color(start) != Color::kEmpty || owner[static_cast<size_t>(start.index())] >= 0) continue;
      region.clear();
      stack.assign(1, start);
      owner[static_cast<size_t>(start.index())] = 0;
      bool black = false, white = false;
      while (!stack.empty()) {
        const Vertex v = stack.back();
        stack.pop_back();
        region.push_back(v);
        for (const Vertex m : cleaned.neighbours(v)) {
          const Color c = cleaned.color(m);
          black |= c == Color::kBlack;
          white |= c == Color::kWhite;
          if (c == Color::kEmpty && owner[static_cast<size_t>(m.index())] < 0) {
            owner[static_cast<size_t>(m.index())] = 0;
            stack.push_back(m);
          }
        }
      }
      if (black == white) continue;  // dame, or nothing on the board
      for (const Vertex v : region) owner[static_cast<size_t>(v.index())] = black ? 1 : 2;
    }
  }
  AreaPoints out;
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Vertex v = board.at(x, y);
      const int8_t o = owner[static_cast<size_t>(v.index())];
      if (o == 1) out.black.push_back(v);
      if (o == 2) out.white.push_back(v);
    }
  }
  return out;
}

}  // namespace hane
