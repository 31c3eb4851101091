#include "features/influence.h"

#include <algorithm>
#include <cstdlib>

#include "features/ladder.h"

namespace hane {
namespace {

constexpr int16_t kBouzyStone = 128;
constexpr float kReach = 1.0f;  // influence of a colour that "reaches" a point (contested, own influence)

bool living_stone(const Board& board, const PointSet* dead, Vertex v) {
  return board.is_stone(v) && !(dead && dead->test(static_cast<size_t>(v.index())));
}

}  // namespace

int influence_radius(int board_size) { return std::clamp((board_size + 2) / 4, 1, 6); }

float influence_weight(int distance, int radius) {
  if (distance < 0 || distance > radius) return 0.0f;
  return distance == 0 ? 12.0f : 2.0f / static_cast<float>(distance);
}

void distance_influence(const Board& board, const PointSet* dead, InfluenceMap& out) {
  out.black.fill(0.0f);
  out.white.fill(0.0f);
  const Geometry& g = board.geometry();
  const int n = g.size;
  const int r = influence_radius(n);
  // Weights by |dx| + |dy|, so the inner loop reads a row of them.
  std::array<float, 16> w{};
  for (int d = 0; d <= 2 * r && d < 16; ++d) w[static_cast<size_t>(d)] = influence_weight(d, r);
  for (int y0 = 0; y0 < n; ++y0) {
    for (int x0 = 0; x0 < n; ++x0) {
      const Vertex s = g.at(x0, y0);
      if (!living_stone(board, dead, s)) continue;
      float* map = board.color(s) == Color::kBlack ? out.black.data() : out.white.data();
      const int y_lo = std::max(0, y0 - r), y_hi = std::min(n - 1, y0 + r);
      for (int y = y_lo; y <= y_hi; ++y) {
        const int dy = std::abs(y - y0);
        const int span = r - dy;
        const int x_lo = std::max(0, x0 - span), x_hi = std::min(n - 1, x0 + span);
        float* row = map + g.at(0, y).index();
        for (int x = x_lo; x <= x_hi; ++x) row[x] += w[static_cast<size_t>(dy + std::abs(x - x0))];
      }
    }
  }
}

void bouzy_start(const Board& board, const PointSet* dead, BouzyField& field) {
  field.fill(0);
  const Geometry& g = board.geometry();
  for (int y = 0; y < g.size; ++y) {
    for (int x = 0; x < g.size; ++x) {
      const Vertex v = g.at(x, y);
      if (!living_stone(board, dead, v)) continue;
      field[static_cast<size_t>(v.index())] = board.color(v) == Color::kBlack ? kBouzyStone : -kBouzyStone;
    }
  }
}

void bouzy_dilate(const Board& board, BouzyField& field) {
  const BouzyField in = field;
  const Geometry& g = board.geometry();
  const int s = g.stride;
  for (int y = 0; y < g.size; ++y) {
    for (int x = 0; x < g.size; ++x) {
      const int i = g.at(x, y).index();
      // Off-board neighbours hold 0: neither > 0 nor < 0, so they never count here.
      const int16_t nb[4] = {in[static_cast<size_t>(i - s)], in[static_cast<size_t>(i - 1)],
                             in[static_cast<size_t>(i + 1)], in[static_cast<size_t>(i + s)]};
      int pos = 0, neg = 0;
      for (const int16_t v : nb) pos += v > 0, neg += v < 0;
      const int16_t v = in[static_cast<size_t>(i)];
      int16_t next = v;
      if (v >= 0 && neg == 0) next = static_cast<int16_t>(v + pos);
      else if (v <= 0 && pos == 0) next = static_cast<int16_t>(v - neg);
      field[static_cast<size_t>(i)] = next;
    }
  }
}

void bouzy_erode(const Board& board, BouzyField& field) {
  const BouzyField in = field;
  const Geometry& g = board.geometry();
  const int s = g.stride, n = g.size;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const int i = g.at(x, y).index();
      const int16_t v = in[static_cast<size_t>(i)];
      if (v == 0) continue;
      const int on_board = 4 - (x == 0) - (x == n - 1) - (y == 0) - (y == n - 1);
      const int16_t nb[4] = {in[static_cast<size_t>(i - s)], in[static_cast<size_t>(i - 1)],
                             in[static_cast<size_t>(i + 1)], in[static_cast<size_t>(i + s)]};
      int pos = 0, neg = 0;
      for (const int16_t w : nb) pos += w > 0, neg += w < 0;
      // Off-board neighbours read 0 but are not points: count the on-board ones only.
      if (v > 0) field[static_cast<size_t>(i)] = static_cast<int16_t>(std::max(0, v - (on_board - pos)));
      else field[static_cast<size_t>(i)] = static_cast<int16_t>(std::min(0, v + (on_board - neg)));
    }
  }
}

void bouzy_maps(const Board& board, const PointSet* dead, BouzyMaps& out) {
  BouzyField f;
  bouzy_start(board, dead, f);
  for (int k = 0; k < 4; ++k) bouzy_dilate(board, f);
  out.area = f;
  bouzy_dilate(board, f);
  for (int k = 0; k < 10; ++k) bouzy_erode(board, f);
  out.moyo = f;
  for (int k = 0; k < 11; ++k) bouzy_erode(board, f);
  out.territory = f;
}

std::string_view point_class_name(PointClass c) {
  switch (c) {
    case PointClass::kOpen: return "open";
    case PointClass::kContested: return "contested";
    case PointClass::kBlackTerritory: return "black territory";
    case PointClass::kWhiteTerritory: return "white territory";
    case PointClass::kBlackFramework: return "black framework";
    case PointClass::kWhiteFramework: return "white framework";
    case PointClass::kBlackStone: return "black stone";
    case PointClass::kWhiteStone: return "white stone";
    case PointClass::kDeadBlack: return "dead black stone";
    case PointClass::kDeadWhite: return "dead white stone";
  }
  return "?";
}

Color point_owner(PointClass c) {
  switch (c) {
    case PointClass::kBlackTerritory:
    case PointClass::kBlackFramework:
    case PointClass::kBlackStone:
    case PointClass::kDeadWhite:
      return Color::kBlack;
    case PointClass::kWhiteTerritory:
    case PointClass::kWhiteFramework:
    case PointClass::kWhiteStone:
    case PointClass::kDeadBlack:
      return Color::kWhite;
    default:
      return Color::kEmpty;
  }
}

void board_maps(const Board& board, const PointSet* dead, BoardMaps& out) {
  out.dead = dead ? *dead : PointSet();
  distance_influence(board, dead, out.influence);
  bouzy_maps(board, dead, out.bouzy);
  out.classes.fill(PointClass::kOpen);
  const Geometry& g = board.geometry();
  for (int y = 0; y < g.size; ++y) {
    for (int x = 0; x < g.size; ++x) {
      const Vertex v = g.at(x, y);
      const size_t i = static_cast<size_t>(v.index());
      PointClass c;
      if (board.is_stone(v)) {
        const bool black = board.color(v) == Color::kBlack;
        c = out.dead.test(i) ? (black ? PointClass::kDeadBlack : PointClass::kDeadWhite)
                             : (black ? PointClass::kBlackStone : PointClass::kWhiteStone);
      } else if (out.bouzy.territory[i] != 0) {
        c = out.bouzy.territory[i] > 0 ? PointClass::kBlackTerritory : PointClass::kWhiteTerritory;
      } else if (out.bouzy.moyo[i] != 0) {
        c = out.bouzy.moyo[i] > 0 ? PointClass::kBlackFramework : PointClass::kWhiteFramework;
      } else if (out.influence.black[i] >= kReach && out.influence.white[i] >= kReach) {
        c = PointClass::kContested;
      } else {
        c = PointClass::kOpen;
      }
      out.classes[i] = c;
    }
  }
}

PointSet dead_stones_by_tactics(const Board& board, Color to_move) {
  PointSet dead;
  const Geometry& g = board.geometry();
  for (int y = 0; y < g.size; ++y) {
    for (int x = 0; x < g.size; ++x) {
      const Vertex v = g.at(x, y);
      if (!board.is_stone(v) || board.chain_head(v) != v || board.liberties(v) != 1) continue;
      const Color owner = board.color(v);
      if (owner == to_move && !ladder_captured(board, v, opponent(owner))) continue;
      Vertex s = v;
      do {
        dead.set(static_cast<size_t>(s.index()));
        s = board.next_in_chain(s);
      } while (s != v);
    }
  }
  return dead;
}

double static_margin(const Board& board, const BoardMaps& maps, double komi, bool territory_counting,
                     double framework_weight) {
  double black = 0, white = 0;
  const Geometry& g = board.geometry();
  for (int y = 0; y < g.size; ++y) {
    for (int x = 0; x < g.size; ++x) {
      const PointClass c = maps.at(g.at(x, y));
      double* side = point_owner(c) == Color::kBlack ? &black : point_owner(c) == Color::kWhite ? &white : nullptr;
      if (!side) continue;
      switch (c) {
        case PointClass::kBlackFramework:
        case PointClass::kWhiteFramework:
          *side += framework_weight;
          break;
        case PointClass::kBlackStone:
        case PointClass::kWhiteStone:
          if (!territory_counting) *side += 1;
          break;
        case PointClass::kDeadBlack:
        case PointClass::kDeadWhite:
          *side += territory_counting ? 2 : 1;
          break;
        default:  // territory
          *side += 1;
          break;
      }
    }
  }
  if (territory_counting) {
    black += board.prisoners(Color::kBlack);
    white += board.prisoners(Color::kWhite);
  }
  return black - white - komi;
}

StrategicKind strategic_kind(const Board& board, const BoardMaps& maps, Vertex v, Color c) {
  const Geometry& g = board.geometry();
  if (!g.on_board(v) || !board.is_empty(v) || !is_player(c)) return StrategicKind::kNone;
  const Color opp = opponent(c);
  const PointClass here = maps.at(v);
  const size_t i = static_cast<size_t>(v.index());
  const float own = c == Color::kBlack ? maps.influence.black[i] : maps.influence.white[i];
  if (here == territory_of(c)) return StrategicKind::kSecure;
  if (here == framework_of(c)) return StrategicKind::kExtend;
  if (here == territory_of(opp)) return StrategicKind::kInvade;
  if (here == framework_of(opp)) return own >= kReach ? StrategicKind::kReduce : StrategicKind::kInvade;
  // Open or contested ground: what lies within two steps.
  bool own_near = false, opp_near = false;
  const int x0 = g.x(v), y0 = g.y(v);
  for (int dy = -2; dy <= 2; ++dy) {
    for (int dx = -2 + std::abs(dy); dx <= 2 - std::abs(dy); ++dx) {
      if (!g.on_board(x0 + dx, y0 + dy)) continue;
      const PointClass p = maps.at(g.at(x0 + dx, y0 + dy));
      if (p == framework_of(c) || p == territory_of(c)) own_near = true;
      if (p == framework_of(opp) || p == territory_of(opp)) opp_near = true;
    }
  }
  if (opp_near) return StrategicKind::kReduce;
  if (own_near) return StrategicKind::kExtend;
  return here == PointClass::kContested ? StrategicKind::kContest : StrategicKind::kOpen;
}

std::string board_region_words(const Geometry& g, Vertex v) {
  const int col = std::clamp(g.x(v) * 3 / g.size, 0, 2), row = std::clamp(g.y(v) * 3 / g.size, 0, 2);
  static constexpr const char* kWords[3][3] = {
      {"at the upper left", "at the top", "at the upper right"},
      {"on the left", "in the centre", "on the right"},
      {"at the lower left", "at the bottom", "at the lower right"},
  };
  return kWords[row][col];
}

std::string strategic_words(const Board& board, const BoardMaps& maps, Vertex v, Color c) {
  const StrategicKind kind = strategic_kind(board, maps, v, c);
  if (kind == StrategicKind::kNone) return "";
  const std::string where = board_region_words(board.geometry(), v);
  const std::string them = opponent(c) == Color::kBlack ? "Black's" : "White's";
  const bool territory = maps.at(v) == territory_of(opponent(c));
  switch (kind) {
    case StrategicKind::kSecure: return "secures its territory " + where;
    case StrategicKind::kExtend: return "extends its framework " + where;
    case StrategicKind::kReduce: return "reduces " + them + " moyo " + where;
    case StrategicKind::kInvade: return "invades " + them + (territory ? " territory " : " moyo ") + where;
    case StrategicKind::kContest: return "plays in contested ground " + where;
    case StrategicKind::kOpen: return "takes open ground " + where;
    default: return "";
  }
}

}  // namespace hane
