// Typed reading of GTP command arguments (spec 3.2: int, float, string, vertex, color, move,
// boolean). Every reader fails with a GtpError carrying the standard error text, so a handler
// never sees a malformed value.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "go/color.h"
#include "go/game.h"
#include "go/vertex.h"

namespace hane::gtp {

/// A command failure: the text after "? " in the response.
class GtpError : public std::runtime_error {
 public:
  explicit GtpError(const std::string& text) : std::runtime_error(text) {}
};

/// The arguments of one command, read in order. `board_size` decides which vertices exist.
class Args {
 public:
  Args(const std::vector<std::string>& words, int board_size) : words_(words), size_(board_size) {}

  size_t size() const { return words_.size(); }
  /// Arguments not read yet.
  size_t remaining() const { return words_.size() - next_; }
  bool empty() const { return remaining() == 0; }

  /// An unsigned int of GTP (0..2^31-1), then checked to lie in [lo, hi]. Errors: "syntax error"
  /// when missing or not a number; `range_error` (default "syntax error") when out of range.
  int integer(int lo, int hi, const char* range_error = "syntax error");
  /// A float (e.g. komi "6.5", "-3", "7"). Errors: "syntax error" (also for nan and inf).
  double number();
  /// A word as sent (no spaces). Errors: "syntax error" when missing.
  std::string word();
  /// "b", "black", "w" or "white", any case. Errors: "invalid color" (or "syntax error" when
  /// missing).
  Color color();
  /// A vertex of this board, or pass. Errors: "invalid coordinate" (or "syntax error" when
  /// missing).
  Vertex vertex();
  /// A colour then a vertex (spec's "move").
  Move move();
  /// "true" or "false". Errors: "syntax error".
  bool boolean();
  /// Fails with "syntax error" if any argument is left unread.
  void done() const;

 private:
  const std::string& take();

  const std::vector<std::string>& words_;
  int size_;
  size_t next_ = 0;
};

/// Parses a colour word ("b", "black", "w", "white", any case); kEmpty if it is none of them.
Color parse_color(std::string_view word);

}  // namespace hane::gtp
