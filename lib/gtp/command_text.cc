#include "gtp/command_text.h"

#include <cctype>
#include <cstdio>

namespace hane::gtp {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string format_number(double x, int decimals) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}

std::vector<float> ownership_rows(const Board& board, const std::vector<float>& by_index, float sign) {
  std::vector<float> out;
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const size_t i = static_cast<size_t>(board.at(x, y).index());
      out.push_back(i < by_index.size() ? sign * by_index[i] : 0.0f);
    }
  }
  return out;
}

}  // namespace hane::gtp
