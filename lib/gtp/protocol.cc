#include "gtp/protocol.h"

#include <cctype>

namespace hane::gtp {

std::string preprocess(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (const char ch : line) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '#') break;
    if (c == '\t') {
      out += ' ';
    } else if (c == '\n' || (c >= 32 && c != 127)) {
      out += ch;
    }
  }
  const size_t begin = out.find_first_not_of(" \n");
  if (begin == std::string::npos) return "";
  const size_t end = out.find_last_not_of(" \n");
  return out.substr(begin, end - begin + 1);
}

CommandLine parse_request(std::string_view line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\n')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\n') ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  CommandLine request;
  size_t next = 0;
  if (!words.empty() && !words[0].empty() &&
      words[0].find_first_not_of("0123456789") == std::string::npos) {
    request.id = words[0];
    next = 1;
  }
  if (next < words.size()) request.name = words[next++];
  request.args.assign(words.begin() + static_cast<std::ptrdiff_t>(next), words.end());
  return request;
}

std::string format_response(bool success, std::string_view id, std::string_view text) {
  std::string out(1, success ? '=' : '?');
  out += id;
  // Copy the text line by line, skipping empty (or whitespace-only) lines. Text that starts
  // with a newline (a board) starts on the line after the '='.
  bool first = text.empty() || text.front() != '\n';
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(' ') != std::string_view::npos) {
      out += first ? " " : "\n";
      out += line;
      first = false;
    }
    pos = end + 1;
  }
  out += "\n\n";
  return out;
}

}  // namespace hane::gtp
