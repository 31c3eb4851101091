// Vertices: points of a padded one-dimensional board, plus pass.
//
// A board of size N is stored row by row with stride N + kPad; kPad rows of wall above and
// below, and kPad wall columns between rows, so every point within Manhattan distance kPad of
// an on-board point is a valid index (off-board ones read as Color::kWall). Patterns up to
// radius 3 therefore need no coordinate checks.
//
//   index(x, y) = (y + kPad) * (N + kPad) + x,   x = column 0..N-1 (left to right, GTP A..),
//                                                y = row 0..N-1 from the top (SGF 'a' = top).
//
// Index 0 (pass) and 1 (none) lie in the top wall rows.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hane {

class Vertex {
 public:
  constexpr Vertex() = default;  // none
  constexpr explicit Vertex(int index) : index_(static_cast<int16_t>(index)) {}

  static constexpr Vertex pass() { return Vertex(0); }
  static constexpr Vertex none() { return Vertex(1); }

  constexpr int index() const { return index_; }
  constexpr bool is_pass() const { return index_ == 0; }
  constexpr bool is_none() const { return index_ == 1; }
  /// True for a point (on or off the board), false for pass and none.
  constexpr bool is_point() const { return index_ > 1; }

  constexpr auto operator<=>(const Vertex&) const = default;

 private:
  int16_t index_ = 1;
};

/// Geometry of a padded board of a given size: maps (x, y) to vertices and back.
/// Sizes 2..25 (GTP letters A..Z without I give 25 columns).
struct Geometry {
  static constexpr int kPad = 3;
  static constexpr int kMinSize = 2;
  static constexpr int kMaxSize = 25;
  /// Number of indices of the largest board.
  static constexpr int kMaxVertices = (kMaxSize + 2 * kPad) * (kMaxSize + kPad);

  constexpr explicit Geometry(int board_size) : size(board_size), stride(board_size + kPad) {}

  int size;
  int stride;

  constexpr int num_vertices() const { return (size + 2 * kPad) * stride; }
  constexpr Vertex at(int x, int y) const { return Vertex((y + kPad) * stride + x); }
  constexpr int x(Vertex v) const { return v.index() % stride; }
  constexpr int y(Vertex v) const { return v.index() / stride - kPad; }
  constexpr bool on_board(int x, int y) const { return x >= 0 && y >= 0 && x < size && y < size; }
  constexpr bool on_board(Vertex v) const {
    return v.is_point() && v.index() < num_vertices() && on_board(x(v), y(v));
  }
};

/// GTP vertex text: "D4" (columns A..Z skipping I, rows counted from the bottom) or "pass".
/// Returns "none" for Vertex::none(). `v` must be pass, none or on the board.
std::string to_gtp(Vertex v, int board_size);
/// Parses GTP vertex text, case-insensitive ("d4", "PASS"). nullopt if malformed or off-board.
std::optional<Vertex> from_gtp(std::string_view text, int board_size);

/// SGF point text: two letters "dd" (a = first column / top row, a..z then A..Z).
/// Pass is "" (FF[4]). `v` must be pass or on the board.
std::string to_sgf(Vertex v, int board_size);
/// Parses an SGF point: "" is pass, and so is "tt" on boards up to 19x19. nullopt if malformed
/// or off-board.
std::optional<Vertex> from_sgf(std::string_view text, int board_size);

}  // namespace hane
