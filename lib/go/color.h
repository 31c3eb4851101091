// Colours of points and players.
#pragma once

#include <cstdint>
#include <string_view>

namespace hane {

/// The content of a point. kWall marks the padding around the board.
enum class Color : uint8_t { kEmpty = 0, kBlack = 1, kWhite = 2, kWall = 3 };

/// The other player. Only meaningful for kBlack and kWhite.
constexpr Color opponent(Color c) { return static_cast<Color>(3 - static_cast<uint8_t>(c)); }

constexpr bool is_player(Color c) { return c == Color::kBlack || c == Color::kWhite; }

/// "black", "white", "empty" or "wall".
std::string_view color_name(Color c);

}  // namespace hane
