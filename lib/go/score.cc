#include "go/score.h"

#include <algorithm>
#include <array>

namespace hane {
namespace {

// Flood-fills the region of `start` over points accepted by `inside`; returns its points and
// marks them in `visited`.
template <typename Inside>
std::vector<int> flood(const Board& b, int start, std::vector<bool>& visited, Inside inside) {
  std::vector<int> region{start};
  visited[start] = true;
  for (size_t i = 0; i < region.size(); ++i) {
    for (Vertex n : b.neighbours(Vertex(region[i]))) {
      const int j = n.index();
      if (!visited[j] && b.color(n) != Color::kWall && inside(j)) {
        visited[j] = true;
        region.push_back(j);
      }
    }
  }
  return region;
}

// Counts stones (if `stones_count`) and the empty regions that reach one colour only, with
// colours read through `colour(index)`.
template <typename ColourAt>
Score count(const Board& b, ColourAt colour, bool stones_count) {
  Score s;
  const int stride = b.stride();
  std::array<bool, Geometry::kMaxVertices> visited{};
  std::array<int16_t, Geometry::kMaxVertices> stack;
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      const int v = b.at(x, y).index();
      const Color c = colour(v);
      if (c != Color::kEmpty) {
        if (stones_count) (c == Color::kBlack ? s.black : s.white) += 1;
        continue;
      }
      if (visited[v]) continue;
      bool reaches_black = false, reaches_white = false;
      int size = 0, top = 0;
      stack[top++] = static_cast<int16_t>(v);
      visited[v] = true;
      while (top > 0) {
        const int p = stack[--top];
        ++size;
        for (int n : {p - stride, p - 1, p + 1, p + stride}) {
          const Color nc = colour(n);
          if (nc == Color::kBlack) reaches_black = true;
          if (nc == Color::kWhite) reaches_white = true;
          if (nc == Color::kEmpty && !visited[n]) {
            visited[n] = true;
            stack[top++] = static_cast<int16_t>(n);
          }
        }
      }
      if (reaches_black != reaches_white) (reaches_black ? s.black : s.white) += size;
    }
  }
  return s;
}

std::vector<Color> colours(const Board& b) {
  std::vector<Color> c(b.geometry().num_vertices());
  for (size_t v = 0; v < c.size(); ++v) c[v] = b.color(Vertex(static_cast<int>(v)));
  return c;
}

}  // namespace

Score area_score(const Board& board) {
  return count(board, [&](int v) { return board.color(Vertex(v)); }, true);
}

Score territory_score(const Board& board, std::span<const Vertex> dead) {
  std::vector<Color> colour = colours(board);
  Score s;
  for (Vertex v : dead) {
    const Color c = colour[v.index()];
    if (!is_player(c)) continue;
    (c == Color::kBlack ? s.white : s.black) += 1;  // a dead stone is a prisoner
    colour[v.index()] = Color::kEmpty;
  }
  const Score territory = count(board, [&](int v) { return colour[v]; }, false);
  s.black += territory.black + board.prisoners(Color::kBlack);
  s.white += territory.white + board.prisoners(Color::kWhite);
  return s;
}

std::vector<bool> benson_alive(const Board& board) {
  const int n = board.geometry().num_vertices();
  std::vector<bool> alive(n, false);
  for (Color c : {Color::kBlack, Color::kWhite}) {
    // Chains of c (by head) and the c-enclosed regions: maximal connected sets of points
    // that are not c stones.
    std::vector<int> heads;
    std::vector<bool> is_head(n, false);
    for (int v = 0; v < n; ++v) {
      if (board.color(Vertex(v)) == c && board.chain_head(Vertex(v)).index() == v) {
        heads.push_back(v);
        is_head[v] = true;
      }
    }
    struct Region {
      std::vector<int> points;
      std::vector<int> bordering;  // heads of the c chains next to the region
      std::vector<int> vital_to;   // heads for which every empty point is a liberty
    };
    std::vector<Region> regions;
    std::vector<bool> visited(n, false);
    for (int v = 0; v < n; ++v) {
      const Color vc = board.color(Vertex(v));
      if (vc == Color::kWall || vc == c || visited[v]) continue;
      Region r;
      r.points = flood(board, v, visited, [&](int j) { return board.color(Vertex(j)) != c; });
      for (int p : r.points) {
        for (Vertex nb : board.neighbours(Vertex(p))) {
          if (board.color(nb) == c) r.bordering.push_back(board.chain_head(nb).index());
        }
      }
      std::sort(r.bordering.begin(), r.bordering.end());
      r.bordering.erase(std::unique(r.bordering.begin(), r.bordering.end()), r.bordering.end());
      for (int h : r.bordering) {
        const bool vital = std::all_of(r.points.begin(), r.points.end(), [&](int p) {
          return board.color(Vertex(p)) != Color::kEmpty || board.has_liberty(Vertex(h), Vertex(p));
        });
        if (vital) r.vital_to.push_back(h);
      }
      regions.push_back(std::move(r));
    }
    std::vector<bool> chain_in(n, false), region_in(regions.size(), true);
    for (int h : heads) chain_in[h] = true;
    for (bool changed = true; changed;) {
      changed = false;
      // Remove chains with fewer than two vital regions still in the set.
      for (int h : heads) {
        if (!chain_in[h]) continue;
        int vital = 0;
        for (size_t r = 0; r < regions.size(); ++r) {
          if (region_in[r] && std::binary_search(regions[r].bordering.begin(), regions[r].bordering.end(), h) &&
              std::find(regions[r].vital_to.begin(), regions[r].vital_to.end(), h) != regions[r].vital_to.end()) {
            ++vital;
          }
        }
        if (vital < 2) {
          chain_in[h] = false;
          changed = true;
        }
      }
      // Remove regions that border a removed chain.
      for (size_t r = 0; r < regions.size(); ++r) {
        if (!region_in[r]) continue;
        for (int h : regions[r].bordering) {
          if (!chain_in[h]) {
            region_in[r] = false;
            changed = true;
            break;
          }
        }
      }
    }
    for (int v = 0; v < n; ++v) {
      if (board.color(Vertex(v)) == c && chain_in[board.chain_head(Vertex(v)).index()]) alive[v] = true;
    }
  }
  return alive;
}

}  // namespace hane
