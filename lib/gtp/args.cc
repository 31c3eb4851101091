#include "gtp/args.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace hane::gtp {

Color parse_color(std::string_view word) {
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "b" || lower == "black") return Color::kBlack;
  if (lower == "w" || lower == "white") return Color::kWhite;
  return Color::kEmpty;
}

const std::string& Args::take() {
  if (next_ >= words_.size()) throw GtpError("syntax error");
  return words_[next_++];
}

int Args::integer(int lo, int hi, const char* range_error) {
  const std::string& w = take();
  int value = 0;
  const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
  if (ec != std::errc() || end != w.data() + w.size() || w.empty() || w[0] == '-') {
    throw GtpError(ec == std::errc::result_out_of_range ? range_error : "syntax error");
  }
  if (value < lo || value > hi) throw GtpError(range_error);
  return value;
}

double Args::number() {
  const std::string& w = take();
  char* end = nullptr;
  const double value = std::strtod(w.c_str(), &end);
  if (w.empty() || end != w.c_str() + w.size() || !std::isfinite(value)) throw GtpError("syntax error");
  return value;
}

std::string Args::word() { return take(); }

Color Args::color() {
  const Color c = parse_color(take());
  if (c == Color::kEmpty) throw GtpError("invalid color");
  return c;
}

Vertex Args::vertex() {
  const auto v = from_gtp(take(), size_);
  if (!v) throw GtpError("invalid coordinate");
  return *v;
}

Move Args::move() {
  const Color c = color();
  return {c, vertex()};
}

bool Args::boolean() {
  const std::string& w = take();
  if (w == "true") return true;
  if (w == "false") return false;
  throw GtpError("syntax error");
}

void Args::done() const {
  if (next_ != words_.size()) throw GtpError("syntax error");
}

}  // namespace hane::gtp
