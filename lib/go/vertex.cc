#include "go/vertex.h"

#include "go/color.h"

namespace hane {

std::string_view color_name(Color c) {
  switch (c) {
    case Color::kEmpty: return "empty";
    case Color::kBlack: return "black";
    case Color::kWhite: return "white";
    case Color::kWall: return "wall";
  }
  return "?";
}

namespace {
constexpr std::string_view kGtpColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

int sgf_coordinate(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return -1;
}
char sgf_letter(int i) { return static_cast<char>(i < 26 ? 'a' + i : 'A' + (i - 26)); }
}  // namespace

std::string to_gtp(Vertex v, int board_size) {
  if (v.is_pass()) return "pass";
  if (v.is_none()) return "none";
  const Geometry g(board_size);
  std::string text(1, kGtpColumns[g.x(v)]);
  text += std::to_string(board_size - g.y(v));
  return text;
}

std::optional<Vertex> from_gtp(std::string_view text, int board_size) {
  if (text.size() == 4) {
    std::string lower(text);
    for (char& c : lower) c = static_cast<char>(c | 0x20);
    if (lower == "pass") return Vertex::pass();
  }
  if (text.size() < 2 || text.size() > 3) return std::nullopt;
  const char col = static_cast<char>(text[0] & ~0x20);
  const size_t x = kGtpColumns.find(col);
  if (x == std::string_view::npos) return std::nullopt;
  int row = 0;
  for (char c : text.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    row = row * 10 + (c - '0');
  }
  if (text[1] == '0') return std::nullopt;
  const Geometry g(board_size);
  const int y = board_size - row;
  if (!g.on_board(static_cast<int>(x), y)) return std::nullopt;
  return g.at(static_cast<int>(x), y);
}

std::string to_sgf(Vertex v, int board_size) {
  if (v.is_pass() || v.is_none()) return "";
  const Geometry g(board_size);
  return {sgf_letter(g.x(v)), sgf_letter(g.y(v))};
}

std::optional<Vertex> from_sgf(std::string_view text, int board_size) {
  if (text.empty()) return Vertex::pass();
  if (text.size() != 2) return std::nullopt;
  if (text == "tt" && board_size <= 19) return Vertex::pass();
  const int x = sgf_coordinate(text[0]);
  const int y = sgf_coordinate(text[1]);
  const Geometry g(board_size);
  if (!g.on_board(x, y)) return std::nullopt;
  return g.at(x, y);
}

}  // namespace hane
