#include "util/text.h"

#include <cstdint>

namespace hane {
namespace {

// The next character of `text` at `at` (advanced past it); a byte that does not start a valid
// UTF-8 sequence is taken alone, as U+FFFD.
char32_t next_char(std::string_view text, size_t& at) {
  const auto byte = [&](size_t i) { return static_cast<uint8_t>(text[i]); };
  const uint8_t b = byte(at);
  int extra = 0;
  char32_t c = 0;
  if (b < 0x80) {
    ++at;
    return b;
  } else if ((b & 0xE0) == 0xC0) {
    extra = 1, c = b & 0x1F;
  } else if ((b & 0xF0) == 0xE0) {
    extra = 2, c = b & 0x0F;
  } else if ((b & 0xF8) == 0xF0) {
    extra = 3, c = b & 0x07;
  } else {
    ++at;
    return 0xFFFD;
  }
  if (at + extra >= text.size()) {
    ++at;
    return 0xFFFD;
  }
  for (int k = 1; k <= extra; ++k) {
    if ((byte(at + k) & 0xC0) != 0x80) {
      ++at;
      return 0xFFFD;
    }
    c = (c << 6) | (byte(at + k) & 0x3F);
  }
  at += extra + 1;
  return c;
}

// Columns of one character (Unicode Standard Annex #11 East Asian Width W and F, the ranges
// of Markus Kuhn's wcwidth).
int char_width(char32_t c) {
  if (c == 0) return 0;
  if ((c >= 0x0300 && c <= 0x036F) || (c >= 0x200B && c <= 0x200F) || c == 0xFEFF || (c >= 0xFE00 && c <= 0xFE0F)) {
    return 0;  // combining marks, zero-width spaces and joiners, variation selectors
  }
  const bool wide = (c >= 0x1100 && c <= 0x115F) ||                 // Hangul Jamo initials
                    (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||  // CJK radicals .. Yi
                    (c >= 0xAC00 && c <= 0xD7A3) ||                 // Hangul syllables
                    (c >= 0xF900 && c <= 0xFAFF) ||                 // CJK compatibility ideographs
                    (c >= 0xFE30 && c <= 0xFE4F) ||                 // CJK compatibility forms
                    (c >= 0xFF00 && c <= 0xFF60) ||                 // fullwidth forms
                    (c >= 0xFFE0 && c <= 0xFFE6) ||                 // fullwidth signs
                    (c >= 0x1F300 && c <= 0x1F64F) ||               // pictographs, emoticons
                    (c >= 0x1F900 && c <= 0x1F9FF) ||               // supplemental symbols
                    (c >= 0x20000 && c <= 0x3FFFD);                 // CJK extensions B..
  return wide ? 2 : 1;
}

}  // namespace

int display_width(std::string_view text) {
  int width = 0;
  for (size_t at = 0; at < text.size();) width += char_width(next_char(text, at));
  return width;
}

std::string pad_right(std::string_view text, int width) {
  std::string out(text);
  const int w = display_width(text);
  if (w < width) out.append(static_cast<size_t>(width - w), ' ');
  return out;
}

std::string truncate_to_width(std::string_view text, int width) {
  int used = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t next = at;
    const int w = char_width(next_char(text, next));
    if (used + w > width) break;
    used += w;
    at = next;
  }
  return std::string(text.substr(0, at));
}

}  // namespace hane
