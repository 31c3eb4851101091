// ASCII-board fixtures: boards written as Go players draw them.
//   X black, O white, . empty; spaces ignored; one line per row, top row first.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "go/board.h"
#include "go/game.h"

namespace hane::testing {

/// Short names for the two colours in the tests' positions.
inline constexpr Color B = Color::kBlack;
inline constexpr Color W = Color::kWhite;

inline std::vector<std::string> ascii_rows(std::string_view ascii) {
  std::vector<std::string> rows;
  std::string row;
  for (char ch : ascii) {
    if (ch == '\n') {
      if (!row.empty()) rows.push_back(row);
      row.clear();
    } else if (ch == 'X' || ch == 'O' || ch == '.') {
      row += ch;
    }
  }
  if (!row.empty()) rows.push_back(row);
  for (const std::string& r : rows) {
    if (r.size() != rows.size()) throw std::invalid_argument("fixture board is not square");
  }
  return rows;
}

inline Color fixture_color(char ch) {
  return ch == 'X' ? Color::kBlack : ch == 'O' ? Color::kWhite : Color::kEmpty;
}

/// A board holding the stones drawn in `ascii` (placed as setup, no captures).
inline Board board_from_ascii(std::string_view ascii, bool allow_suicide = false) {
  const std::vector<std::string> rows = ascii_rows(ascii);
  Board b(static_cast<int>(rows.size()), allow_suicide);
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      if (rows[y][x] != '.') b.set_stone(b.at(x, y), fixture_color(rows[y][x]));
    }
  }
  return b;
}

/// A game whose setup holds the stones drawn in `ascii`; `to_move` plays next.
inline Game game_from_ascii(std::string_view ascii, Rules rules = {}, Color to_move = Color::kBlack) {
  const std::vector<std::string> rows = ascii_rows(ascii);
  Game g(static_cast<int>(rows.size()), rules);
  for (int y = 0; y < g.size(); ++y) {
    for (int x = 0; x < g.size(); ++x) {
      if (rows[y][x] != '.') g.set_stone(g.board().at(x, y), fixture_color(rows[y][x]));
    }
  }
  g.set_to_move(to_move);
  return g;
}

/// The vertex named in GTP form ("D4"); throws on a bad name.
inline Vertex gtp(const Board& b, std::string_view name) {
  const auto v = from_gtp(name, b.size());
  if (!v) throw std::invalid_argument("bad vertex " + std::string(name));
  return *v;
}

/// The board drawn the same way as the fixtures (rows of X O .), for comparisons.
inline std::string ascii(const Board& b) {
  std::string out;
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      const Color c = b.color(b.at(x, y));
      out += c == Color::kBlack ? 'X' : c == Color::kWhite ? 'O' : '.';
    }
    out += '\n';
  }
  return out;
}

}  // namespace hane::testing

namespace hane::testing {
/// `ascii` normalised as ascii(Board) prints it, so expected boards can be drawn with spaces.
inline std::string drawn(std::string_view ascii_board) {
  std::string out;
  for (const std::string& r : ascii_rows(ascii_board)) out += r + '\n';
  return out;
}
}  // namespace hane::testing
