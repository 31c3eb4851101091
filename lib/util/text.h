// Text in terminal columns: the width of UTF-8 text as a terminal shows it, and padding by it,
// so that tables line up with names in any script.
#pragma once

#include <string>
#include <string_view>

namespace hane {

/// Columns `text` (UTF-8) takes in a terminal: 2 for each East Asian Wide or Fullwidth
/// character (Unicode Standard Annex #11, as Markus Kuhn's wcwidth counts them: CJK ideographs,
/// kana, hangul, fullwidth forms, emoji), 0 for combining marks and zero-width characters, 1
/// for every other character; a byte that is not valid UTF-8 counts 1.
int display_width(std::string_view text);

/// `text` followed by spaces up to `width` columns (unchanged when it is as wide or wider): a
/// table cell as printf's "%-16s" makes it for ASCII.
std::string pad_right(std::string_view text, int width);

/// The longest prefix of `text` that fits in `width` columns, never cutting a character.
std::string truncate_to_width(std::string_view text, int width);

}  // namespace hane
