// GTP version 2 framing: preprocessing of command lines, the id / name / arguments split, and
// responses framed exactly. Follows "Specification of the Go Text Protocol, version 2, draft 2"
// (G. Farnebäck, 2002), sections 2.2-2.11 and 3.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hane::gtp {

/// Preprocessing of one received line (spec 3.1): control characters other than HT and LF are
/// removed, everything from '#' on is dropped (a comment), HT becomes a space, and leading and
/// trailing whitespace is trimmed. An empty result means the line is to be ignored.
std::string preprocess(std::string_view line);

/// A preprocessed, non-empty command line split into words.
struct CommandLine {
  /// The id, exactly as sent (digits), or "" when the line has none.
  std::string id;
  std::string name;
  std::vector<std::string> args;
};

/// Splits a preprocessed line: a first word made only of digits is the id (spec 2.6); the next
/// word is the command name (possibly empty if the line is only an id); the rest are arguments.
CommandLine parse_request(std::string_view line);

/// A complete response: "=id text\n\n" or "?id text\n\n". A non-empty text follows a space
/// ("= 19"); multi-line text keeps its line breaks, but empty lines inside it are dropped and
/// trailing newlines removed, so the response always ends with exactly one empty line. Text
/// starting with a newline (showboard) begins on the line after "=id".
std::string format_response(bool success, std::string_view id, std::string_view text);

}  // namespace hane::gtp
