#include "search/ownership.h"

#include <cmath>

#include "go/score.h"

namespace hane {
namespace {
constexpr float kSure = 0.4f;  // |chain ownership| above this is settled (see EndEstimate)
}  // namespace

void add_ownership(const Board& board, std::span<int32_t> sum) {
  const int size = board.size();
  for (int y = 0; y < size; ++y) {
    const Vertex row = board.at(0, y);
    for (int x = 0; x < size; ++x) {
      const Vertex v(row.index() + x);
      const Color c = area_owner(board, v);
      sum[v.index()] += c == Color::kBlack ? 1 : c == Color::kWhite ? -1 : 0;
    }
  }
}

std::vector<PointStatus> classify_stones(const Board& board, std::span<const float> ownership) {
  const int n = board.geometry().num_vertices();
  std::vector<PointStatus> status(n, PointStatus::kEmpty);
  // Mean ownership of each chain from its own colour's side, stored at the chain's head.
  std::vector<float> own(n, 0);
  for (int i = 0; i < n; ++i) {
    const Vertex v(i);
    if (!board.geometry().on_board(v) || !board.is_stone(v) || board.chain_head(v) != v) continue;
    const float sign = board.color(v) == Color::kBlack ? 1.0f : -1.0f;
    double total = 0;
    Vertex s = v;
    do {
      total += ownership[s.index()];
      s = board.next_in_chain(s);
    } while (s != v);
    own[i] = sign * static_cast<float>(total / board.chain_size(v));
  }
  auto uncertain = [&](Vertex stone) { return std::abs(own[board.chain_head(stone).index()]) <= kSure; };
  // True if every liberty of the chain of `a` is a liberty of the chain of `b`.
  auto libs_within = [&](Vertex a, Vertex b) {
    Vertex s = a;
    do {
      for (Vertex lib : board.neighbours(s)) {
        if (board.is_empty(lib) && !board.has_liberty(b, lib)) return false;
      }
      s = board.next_in_chain(s);
    } while (s != a);
    return true;
  };
  // The basic seki, whatever the playouts say: two opposing chains sharing all their liberties
  // (at least two), so that whoever fills one puts itself in atari.
  auto mutual_seki = [&](Vertex a, Vertex b) {
    return board.liberties(a) >= 2 && board.liberties(a) == board.liberties(b) && libs_within(a, b);
  };
  for (int i = 0; i < n; ++i) {
    const Vertex v(i);
    if (!board.geometry().on_board(v) || !board.is_stone(v) || board.chain_head(v) != v) continue;
    const float o = own[i];
    // Seki: all liberties shared with an opponent chain (mutual_seki), or, for an uncertain
    // chain, a liberty shared with an opponent chain that is uncertain too.
    const Color opp = opponent(board.color(v));
    bool seki = false;
    Vertex s = v;
    do {
      for (Vertex lib : board.neighbours(s)) {
        if (!board.is_empty(lib)) continue;
        for (Vertex m : board.neighbours(lib)) {
          if (board.color(m) != opp) continue;
          if ((std::abs(o) <= kSure && uncertain(m)) || mutual_seki(v, m)) seki = true;
        }
      }
      s = board.next_in_chain(s);
    } while (s != v && !seki);
    const PointStatus st = seki                      ? PointStatus::kSeki
                           : std::abs(o) <= kSure    ? (o >= 0 ? PointStatus::kAlive : PointStatus::kDead)
                           : o > 0                   ? PointStatus::kAlive
                                                     : PointStatus::kDead;
    s = v;
    do {
      status[s.index()] = st;
      s = board.next_in_chain(s);
    } while (s != v);
  }
  return status;
}

void score_end(const Board& board, double komi, EndEstimate& estimate) {
  std::vector<Vertex> dead;
  Board cleaned = board;
  for (size_t i = 0; i < estimate.status.size(); ++i) {
    if (estimate.status[i] != PointStatus::kDead) continue;
    dead.push_back(Vertex(static_cast<int>(i)));
    cleaned.set_stone(Vertex(static_cast<int>(i)), Color::kEmpty);
  }
  estimate.area_margin = area_score(cleaned).margin(komi);
  estimate.territory_margin = territory_score(board, dead).margin(komi);
}

}  // namespace hane
