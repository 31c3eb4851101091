#include "features/pattern.h"

#include <cassert>

namespace hane {

std::string_view pattern_shape_name(PatternShape shape) {
  switch (shape) {
    case PatternShape::k3x3: return "3x3";
    case PatternShape::kDiamond12: return "diamond12";
  }
  return "?";
}

namespace {

// The index offsets of the pattern points on a board of stride `stride`.
std::array<int, kMaxPatternPoints> index_offsets(int stride) {
  std::array<int, kMaxPatternPoints> out;
  for (int i = 0; i < kMaxPatternPoints; ++i) out[i] = kPatternOffsets[i].dy * stride + kPatternOffsets[i].dx;
  return out;
}

template <int kPoints>
inline uint64_t gather(const uint8_t* states, int v, const std::array<int, kMaxPatternPoints>& offsets) {
  uint64_t code = 0;
  for (int i = 0; i < kPoints; ++i) code |= uint64_t{states[v + offsets[i]]} << (4 * i);
  return code;
}

template <int kPoints>
void codes_for_empties(const uint8_t* states, const Board& board, bool swap, std::span<uint64_t> out) {
  const std::array<int, kMaxPatternPoints> offsets = index_offsets(board.stride());
  const std::span<const int16_t> empties = board.empty_points();
  for (size_t i = 0; i < empties.size(); ++i) {
    const uint64_t code = gather<kPoints>(states, empties[i], offsets);
    out[i] = swap ? swap_colors(code) : code;
  }
}

}  // namespace

uint64_t pattern_code(const Board& board, Vertex v, Color to_move, PatternShape shape) {
  assert(board.geometry().on_board(v));
  const int n = pattern_points(shape);
  const int s = board.stride();
  uint64_t code = 0;
  for (int i = 0; i < n; ++i) {
    const Vertex w(v.index() + kPatternOffsets[i].dy * s + kPatternOffsets[i].dx);
    code |= uint64_t{point_state_for_black(board, w)} << (4 * i);
  }
  return to_move == Color::kWhite ? swap_colors(code) : code;
}

void pattern_codes(const Board& board, Color to_move, PatternShape shape, std::span<uint64_t> out) {
  assert(out.size() >= board.empty_points().size());
  // States of every index from the first row a pattern can reach to the last: the on-board
  // rows plus two rows of wall each side (a wall row reads kWall at every index).
  std::array<uint8_t, Board::kMaxVertices> states;
  const int stride = board.stride();
  const Geometry& g = board.geometry();
  const int first = g.at(0, 0).index() - 2 * stride - 2;
  const int last = g.at(board.size() - 1, board.size() - 1).index() + 2 * stride + 2;
  for (int i = first; i <= last; ++i) states[i] = point_state_for_black(board, Vertex(i));
  const bool swap = to_move == Color::kWhite;
  if (shape == PatternShape::k3x3) {
    codes_for_empties<8>(states.data(), board, swap, out);
  } else {
    codes_for_empties<12>(states.data(), board, swap, out);
  }
}

uint64_t apply_symmetry(uint64_t code, PatternShape shape, int s) {
  assert(s >= 0 && s < 8);
  uint64_t out = 0;
  for (int i = 0; i < pattern_points(shape); ++i) {
    out |= ((code >> (4 * i)) & 0xF) << (4 * kPatternSymmetries[s][i]);
  }
  return out;
}

std::string pattern_to_string(uint64_t code, PatternShape shape) {
  // 5x5 cells of two characters; the centre at (2, 2).
  char cells[5][5][2];
  for (auto& row : cells) {
    for (auto& cell : row) cell[0] = ' ', cell[1] = '?';
  }
  cells[2][2][1] = '*';
  for (int i = 0; i < pattern_points(shape); ++i) {
    const int nib = static_cast<int>((code >> (4 * i)) & 0xF);
    const int what = nib & 3, libs = nib >> 2;
    char* cell = cells[2 + kPatternOffsets[i].dy][2 + kPatternOffsets[i].dx];
    if (what == 1 || what == 2) {
      cell[0] = what == 1 ? 'X' : 'O';
      cell[1] = static_cast<char>('0' + libs);
    } else {
      cell[0] = ' ';
      cell[1] = nib == 0 ? '.' : nib == 3 ? '#' : '!';  // '!' marks an invalid nibble
    }
  }
  std::string out;
  for (const auto& row : cells) {
    for (int x = 0; x < 5; ++x) {
      if (x) out += ' ';
      out.append(row[x], 2);
    }
    out += '\n';
  }
  return out;
}

namespace {

// Point index of (dx, dy) in the diamond12, or -1.
constexpr int diamond_point(int dx, int dy) {
  for (int i = 0; i < kMaxPatternPoints; ++i) {
    if (kPatternOffsets[i].dx == dx && kPatternOffsets[i].dy == dy) return i;
  }
  return -1;
}

// kDiamondPointOf[dy + 2][dx + 2]
constexpr std::array<std::array<int8_t, 5>, 5> kDiamondPointOf = [] {
  std::array<std::array<int8_t, 5>, 5> t{};
  for (int dy = -2; dy <= 2; ++dy) {
    for (int dx = -2; dx <= 2; ++dx) t[dy + 2][dx + 2] = static_cast<int8_t>(diamond_point(dx, dy));
  }
  return t;
}();

}  // namespace

uint64_t mark_previous_move(uint64_t code, int dx, int dy) {
  const int i = kDiamondPointOf[dy + 2][dx + 2];
  assert(i >= 0);
  return code | (uint64_t{3} << (4 * i));
}

}  // namespace hane
