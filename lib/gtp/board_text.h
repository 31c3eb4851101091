// Drawing a board as text, for showboard and terminal play: columns A.. without I, rows
// numbered from the bottom, '+' on star points.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "go/board.h"

namespace hane::gtp {

/// The star points (hoshi) of a board: the 3-3 points below 13x13 (from 7x7), the 4-4 points from
/// 13x13, the centre on odd sizes from 9x9, the side points on odd sizes from 15x15.
std::vector<Vertex> star_points(const Board& board);

/// Fixed handicap placement of GTP 2 (spec 4.1.1): `stones` in 2..max_fixed_handicap(size) on
/// the points of star_points' layout, in the spec's order. Empty if not defined.
std::vector<Vertex> fixed_handicap(int size, int stones);
/// 9 on odd sizes from 9x9 (4 on 7x7 and even sizes from 8x8), 0 below 7x7.
int max_fixed_handicap(int size);

struct DrawOptions {
  Vertex last_move = Vertex::none();  // drawn with parentheses: "(X)"
  std::span<const Vertex> dead;       // drawn as 'x' (black) and 'o' (white)
};

/// Rows of ". X O" (X black, O white, + star point) framed by coordinates, one line per row,
/// without a trailing newline.
std::string draw_board(const Board& board, const DrawOptions& options = {});

}  // namespace hane::gtp
