#include "sgf/text.h"

#include <iconv.h>

#include "absl/strings/escaping.h"

#include <cerrno>
#include <cstdint>

namespace hane::sgf_text {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

inline bool is_space(char c) { return static_cast<unsigned char>(c) <= 0x20; }

// Length of the valid UTF-8 sequence starting at s[i], or 0.
size_t utf8_sequence(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  size_t n;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    const unsigned char b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return n;
}

// Valid UTF-8 kept, each invalid byte replaced by U+FFFD. Returns whether any was replaced.
bool utf8_with_replacement(std::string_view s, std::string& out) {
  out.reserve(out.size() + s.size());
  bool replaced = false;
  for (size_t i = 0; i < s.size();) {
    const size_t n = utf8_sequence(s, i);
    if (n == 0) {
      out += kReplacement;
      replaced = true;
      ++i;
    } else {
      out.append(s.data() + i, n);
      i += n;
    }
  }
  return replaced;
}

void latin1_to_utf8(std::string_view s, std::string& out) {
  out.reserve(out.size() + s.size() + s.size() / 4);
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x80) {
      out.push_back(ch);
    } else {
      out.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
}

// Upper case with '-', '_' and spaces removed: "utf-8" -> "UTF8".
std::string normalise_charset(std::string_view name) {
  std::string out;
  for (char c : trim(name)) {
    if (c == '-' || c == '_' || c == ' ') continue;
    out.push_back(c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
  }
  return out;
}

}  // namespace

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

std::string unescape(std::string_view raw, bool simple) {
  std::string out;
  out.reserve(raw.size());
  const size_t n = raw.size();
  // Length of the line break at raw[i] (CRLF, LFCR, CR, LF), or 0.
  auto line_break = [&](size_t i) -> size_t {
    const char c = raw[i];
    if (c != '\n' && c != '\r') return 0;
    if (i + 1 < n && (raw[i + 1] == '\n' || raw[i + 1] == '\r') && raw[i + 1] != c) return 2;
    return 1;
  };
  for (size_t i = 0; i < n;) {
    const char c = raw[i];
    if (c == '\\') {
      if (i + 1 == n) break;  // cannot happen in a parsed value; drop it
      if (const size_t len = line_break(i + 1)) {
        i += 1 + len;  // soft line break
        continue;
      }
      const char next = raw[i + 1];
      out.push_back(is_space(next) ? ' ' : next);
      i += 2;
    } else if (const size_t len = line_break(i)) {
      out.push_back(simple ? ' ' : '\n');
      i += len;
    } else {
      out.push_back(is_space(c) ? ' ' : c);
      ++i;
    }
  }
  return out;
}

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == ']' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::string show(std::string_view raw) {
  if (raw.size() > 40) raw = raw.substr(0, 40);
  return absl::CHexEscape(absl::string_view(raw.data(), raw.size()));
}

bool is_valid_utf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = utf8_sequence(bytes, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

Decoder::Decoder(std::string_view charset) {
  const std::string name = normalise_charset(charset);
  if (name.empty()) return;  // kAuto
  if (name == "UTF8") {
    mode_ = Mode::kUtf8;
    return;
  }
  if (name == "ISO88591" || name == "LATIN1" || name == "L1" || name == "ISOLATIN1") {
    mode_ = Mode::kLatin1;
    return;
  }
  std::string iconv_name(trim(charset));
  if (name == "GB2312" || name == "GBK" || name == "GB18030" || name == "CP936" ||
      name == "EUCCN") {
    iconv_name = "GB18030";
  } else if (name == "BIG5" || name == "CP950") {
    iconv_name = "CP950";
  }
  iconv_t cd = iconv_open("UTF-8", iconv_name.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1)) {
    unknown_charset_ = true;
    return;
  }
  iconv_ = cd;
  mode_ = Mode::kIconv;
}

Decoder::~Decoder() {
  if (iconv_ != nullptr) iconv_close(static_cast<iconv_t>(iconv_));
}

std::string Decoder::decode(std::string_view bytes) {
  std::string out;
  bool ascii = true;
  for (char c : bytes) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return std::string(bytes);
  switch (mode_) {
    case Mode::kAuto:
      if (is_valid_utf8(bytes)) return std::string(bytes);
      latin1_fallback_ = true;
      latin1_to_utf8(bytes, out);
      return out;
    case Mode::kUtf8:
      replaced_ |= utf8_with_replacement(bytes, out);
      return out;
    case Mode::kLatin1:
      latin1_to_utf8(bytes, out);
      return out;
    case Mode::kIconv:
      break;
  }
  iconv_t cd = static_cast<iconv_t>(iconv_);
  iconv(cd, nullptr, nullptr, nullptr, nullptr);  // reset shift state
  char* in = const_cast<char*>(bytes.data());
  size_t in_left = bytes.size();
  std::string buffer(bytes.size() * 4 + 16, '\0');
  while (in_left > 0) {
    char* out_ptr = buffer.data();
    size_t out_left = buffer.size();
    const size_t rc = iconv(cd, &in, &in_left, &out_ptr, &out_left);
    out.append(buffer.data(), out_ptr - buffer.data());
    if (rc != static_cast<size_t>(-1)) break;
    if (errno == E2BIG) continue;
    // EILSEQ (invalid sequence) or EINVAL (incomplete at the end): replace one byte, go on.
    out += kReplacement;
    replaced_ = true;
    ++in;
    --in_left;
    iconv(cd, nullptr, nullptr, nullptr, nullptr);
  }
  // Flush any shift state (stateful encodings).
  char* out_ptr = buffer.data();
  size_t out_left = buffer.size();
  iconv(cd, nullptr, nullptr, &out_ptr, &out_left);
  out.append(buffer.data(), out_ptr - buffer.data());
  if (!is_valid_utf8(out)) {  // paranoia: never hand out invalid UTF-8
    std::string checked;
    replaced_ |= utf8_with_replacement(out, checked);
    return checked;
  }
  return out;
}

}  // namespace hane::sgf_text
