#include "gtp/board_text.h"

#include <algorithm>
#include <cstdio>

namespace hane::gtp {
namespace {

constexpr std::string_view kColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

// The spec's placement lines: 0-based edge offset, and the far and middle lines.
struct Lines {
  int near, far, mid;
};
Lines handicap_lines(int size) {
  const int near = size >= 13 ? 3 : 2;
  return {near, size - 1 - near, size / 2};
}

}  // namespace

int max_fixed_handicap(int size) {
  if (size < 7) return 0;
  return size % 2 == 1 && size >= 9 ? 9 : 4;
}

std::vector<Vertex> fixed_handicap(int size, int stones) {
  if (stones < 2 || stones > max_fixed_handicap(size)) return {};
  const Geometry g(size);
  const auto [a, b, m] = handicap_lines(size);
  // x from the left, y from the top: D4 = (a, b), Q16 = (b, a) on 19x19.
  std::vector<Vertex> out = {g.at(a, b), g.at(b, a)};
  if (stones >= 3) out.push_back(g.at(a, a));
  if (stones >= 4) out.push_back(g.at(b, b));
  if (stones >= 6) {
    out.push_back(g.at(a, m));
    out.push_back(g.at(b, m));
  }
  if (stones >= 8) {
    out.push_back(g.at(m, b));
    out.push_back(g.at(m, a));
  }
  if (stones % 2 == 1 && stones >= 5) out.push_back(g.at(m, m));
  return out;
}

std::vector<Vertex> star_points(const Board& board) {
  const int n = board.size();
  if (n < 7) return {};
  const auto [a, b, m] = handicap_lines(n);
  std::vector<Vertex> out = {board.at(a, a), board.at(b, a), board.at(a, b), board.at(b, b)};
  if (n % 2 == 1 && n >= 9) out.push_back(board.at(m, m));
  if (n % 2 == 1 && n >= 15) {
    for (const auto& [x, y] : {std::pair{a, m}, {b, m}, {m, a}, {m, b}}) out.push_back(board.at(x, y));
  }
  return out;
}

std::string draw_board(const Board& board, const DrawOptions& options) {
  const int n = board.size();
  const std::vector<Vertex> stars = star_points(board);
  std::string header = "  ";
  for (int x = 0; x < n; ++x) {
    header += ' ';
    header += kColumns[static_cast<size_t>(x)];
  }
  std::string out = header + "\n";
  for (int y = 0; y < n; ++y) {
    char label[16];
    std::snprintf(label, sizeof label, "%2d", n - y);
    std::string row = label;
    for (int x = 0; x < n; ++x) {
      const Vertex v = board.at(x, y);
      const Color c = board.color(v);
      const bool dead = std::find(options.dead.begin(), options.dead.end(), v) != options.dead.end();
      char ch = '.';
      if (c == Color::kBlack) ch = dead ? 'x' : 'X';
      else if (c == Color::kWhite) ch = dead ? 'o' : 'O';
      else if (std::find(stars.begin(), stars.end(), v) != stars.end()) ch = '+';
      if (v == options.last_move) {
        row += '(';
        row += ch;
        row += ')';
      } else if (!row.empty() && row.back() == ')') {
        row += ch;
      } else {
        row += ' ';
        row += ch;
      }
    }
    out += row + (row.back() == ')' ? "" : " ") + std::to_string(n - y) + "\n";
  }
  // Trailing spaces (after the last column, or after a move in parentheses) are trimmed.
  out += header;
  std::string trimmed;
  size_t pos = 0;
  while (pos < out.size()) {
    size_t end = out.find('\n', pos);
    if (end == std::string::npos) end = out.size();
    std::string line = out.substr(pos, end - pos);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    trimmed += line;
    if (end < out.size()) trimmed += '\n';
    pos = end + 1;
  }
  return trimmed;
}

}  // namespace hane::gtp
