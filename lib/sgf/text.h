// SGF text values: escapes, line breaks and character sets. Used by record.cc and writer.cc.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include "absl/strings/string_view.h"

namespace hane::sgf_text {

/// Processes a raw value's bytes: "\x" -> "x", "\" + line break removed (soft break), line
/// breaks CRLF / LFCR / CR / LF -> "\n" (a space if `simple`, for SimpleText), any other byte
/// <= 0x20 (tab, NUL, ...) -> a space. No charset work.
std::string unescape(std::string_view raw, bool simple);

/// Escapes ']' and '\' (and nothing else) for writing a value.
std::string escape(std::string_view text);

/// Removes leading and trailing bytes <= 0x20.
std::string_view trim(std::string_view text);

/// Decodes text in a game's charset (the CA property) to UTF-8. See record.h for the rules.
/// Not thread-safe (holds an iconv descriptor); cheap to create for UTF-8 and Latin-1.
class Decoder {
 public:
  /// `charset`: CA's value, "" if absent.
  explicit Decoder(std::string_view charset);
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  /// Always valid UTF-8.
  std::string decode(std::string_view bytes);

  /// Set when CA names a charset iconv does not know (decoding then works as without CA).
  bool unknown_charset() const { return unknown_charset_; }
  /// Some bytes were undecodable and replaced with U+FFFD.
  bool replaced() const { return replaced_; }
  /// Without CA, some value was not UTF-8 and was read as Latin-1.
  bool latin1_fallback() const { return latin1_fallback_; }

 private:
  enum class Mode { kAuto, kUtf8, kLatin1, kIconv };
  Mode mode_ = Mode::kAuto;
  void* iconv_ = nullptr;  // iconv_t
  bool unknown_charset_ = false;
  bool replaced_ = false;
  bool latin1_fallback_ = false;
};

/// Concatenates strings and integers (Debian's abseil has its own string_view, which
/// absl::StrCat needs; this takes std::string_view).
inline void append_piece(std::string& out, std::string_view s) { out.append(s); }
inline void append_piece(std::string& out, const char* s) { out.append(s); }
inline void append_piece(std::string& out, const std::string& s) { out.append(s); }
inline void append_piece(std::string& out, absl::string_view s) { out.append(s.data(), s.size()); }
template <typename T>
  requires std::is_integral_v<T>
void append_piece(std::string& out, T value) {
  out.append(std::to_string(value));
}
template <typename... Args>
std::string cat(const Args&... args) {
  std::string out;
  (append_piece(out, args), ...);
  return out;
}

/// Printable form of a raw value for messages: C escapes, cut to 40 bytes.
std::string show(std::string_view raw);

/// True if `bytes` is valid UTF-8 (no overlong forms, surrogates or code points > U+10FFFF).
bool is_valid_utf8(std::string_view bytes);

}  // namespace hane::sgf_text
