// Text helpers shared by the GTP command families (commands_*.cc).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "go/board.h"

namespace hane::gtp {

/// `s` in lower case (ASCII).
std::string lower(std::string_view s);

/// `x` with `decimals` digits after the point ("%.*f").
std::string format_number(double x, int decimals);

/// Black's ownership per Vertex::index() (`by_index`; 0 where it is too short) as
/// size × size values row by row from the top left, times `sign` (+1 Black's view, -1 White's).
std::vector<float> ownership_rows(const Board& board, const std::vector<float>& by_index, float sign);

}  // namespace hane::gtp
