// MoGo's 3x3 patterns as a table over the 8 neighbours' colours (mogo3x3.h).
#include "features/mogo3x3.h"

#include <array>
#include <utility>

namespace hane {

namespace {

// The 8 neighbours of a point in reading order (NW N NE W E SW S SE); a key holds their colours
// (Color values, wall included), 2 bits each, neighbour i at bits 2i.
constexpr int kDx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kDy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

int neighbour_slot(int dx, int dy) {
  const int cell = (dy + 1) * 3 + (dx + 1);  // 0..8, 4 is the centre
  return cell < 4 ? cell : cell - 1;
}

// A pattern as three rows of three, the centre (the move) in the middle. From the point of view
// of one colour X against O: X, O, . (empty), # (off the board), ? (anything), x (not X),
// o (not O). `either_side`: a good move for whichever side is to move (MoGo marks the others,
// good only for X to move).
struct Pattern {
  const char* rows;
  bool either_side;
};

// MoGo's patterns (Gelly et al. 2006, figures 2-4), as Pachi's moggy writes them but without its
// atari refinements (the key holds colours only).
constexpr Pattern kPatterns[] = {
    {"XOX"
     "..."
     "???", true},  // hane: enclosing hane
    {"XO."
     "..."
     "?.?", true},  // hane: non-cutting hane
    {"XO?"
     "X.."
     "x.?", true},  // hane: magari
    {"XOO"
     "..."
     "?.?", false},  // hane: thin hane, X to move
    {"XO?"
     "O.o"
     "?o?", true},  // cut1: unprotected cut
    {"XO?"
     "O.X"
     "???", true},  // cut1: peeped cut
    {"?X?"
     "O.O"
     "ooo", true},  // cut2
    {"X.?"
     "O.?"
     "##?", true},  // edge: chase
    {"OX?"
     "X.O"
     "###", true},  // edge: block the side cut
    {"?X?"
     "x.O"
     "###", true},  // edge: block the side connection
    {"?XO"
     "x.?"
     "###", false},  // edge: sagari, X to move
    {"?OX"
     "X.O"
     "###", false},  // edge: side cut, X to move
};


uint8_t colour_set(char ch, Color x, Color o) {
  auto bit = [](Color c) { return static_cast<uint8_t>(1u << static_cast<int>(c)); };
  switch (ch) {
    case 'X': return bit(x);
    case 'O': return bit(o);
    case '.': return bit(Color::kEmpty);
    case '#': return bit(Color::kWall);
    case 'x': return static_cast<uint8_t>(0xF & ~bit(x));
    case 'o': return static_cast<uint8_t>(0xF & ~bit(o));
    default: return 0xF;  // '?'
  }
}

void mark(Mogo3x3Table& table, const std::array<uint8_t, 8>& allowed, int slot, uint32_t key, uint8_t bits) {
  if (slot == 8) {
    table[key] |= bits;
    return;
  }
  for (uint32_t c = 0; c < 4; ++c) {
    if ((allowed[slot] >> c) & 1) mark(table, allowed, slot + 1, key | (c << (2 * slot)), bits);
  }
}

const Mogo3x3Table& pattern_table() {
  static const Mogo3x3Table table = [] {
    Mogo3x3Table t{};
    for (const Pattern& p : kPatterns) {
      for (const Color x : {Color::kBlack, Color::kWhite}) {
        const uint8_t bits = p.either_side ? 3 : (x == Color::kBlack ? 1 : 2);
        for (int sym = 0; sym < 8; ++sym) {
          std::array<uint8_t, 8> allowed{};
          for (int i = 0; i < 8; ++i) {
            int dx = kDx[i], dy = kDy[i];
            if (sym & 1) dx = -dx;
            if (sym & 2) dy = -dy;
            if (sym & 4) std::swap(dx, dy);
            allowed[neighbour_slot(dx, dy)] = colour_set(p.rows[(kDy[i] + 1) * 3 + kDx[i] + 1], x, opponent(x));
          }
          mark(t, allowed, 0, 0, bits);
        }
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

const Mogo3x3Table& mogo3x3_table() { return pattern_table(); }

bool mogo3x3_matches(const Board& board, Vertex v, Color c) {
  return (pattern_table()[neighbour_colours(board, v)] >> (static_cast<int>(c) - 1)) & 1;
}

}  // namespace hane
