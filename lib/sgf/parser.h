// SGF syntax: text (FF[1]..FF[4]) -> game trees, keeping each tree's main line.
//
// The parser knows only the SGF grammar, not what properties mean (see record.h for that):
//
//   Collection = GameTree+      GameTree = "(" Sequence GameTree* ")"      Sequence = Node+
//   Node = ";" Property*        Property = Ident Value+                    Value = "[" text "]"
//
// It is iterative (nesting depth is limited only by memory) and allocation-light: values are
// string_views into the caller's buffer. What it accepts beyond the grammar:
//   - white space (any byte <= 0x20) between tokens;
//   - a leading UTF-8 byte-order mark, and junk before the first "(;" and between game trees;
//   - FF[3]-style identifiers with lower-case letters: "GaMe" reads as "GM", "PlayerBlack" as
//     "PB" (only the capital letters are kept);
//   - a property repeated in one node ("AB[aa]AW[bb]AB[cc]"): merged into one property whose
//     values keep their order of appearance ("AB" = {aa, cc}).
#pragma once

#include <cstddef>
#include <forward_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace hane {

/// One property of a node: identifier and raw values.
struct SgfProperty {
  /// Capital letters only, e.g. "AB", "GM". Points into the parsed text, or into the tree
  /// when lower-case letters were dropped.
  std::string_view id;
  /// Raw values: the bytes between '[' and ']', escapes NOT processed (so "\]" is two bytes).
  /// At least one; point into the parsed text.
  std::span<const std::string_view> values;
};

struct SgfNode {
  /// Distinct identifiers, in order of first appearance.
  std::span<const SgfProperty> properties;
  /// Byte offset of the node's ';' in the parsed text.
  size_t offset = 0;

  /// The property with this identifier, or nullptr.
  const SgfProperty* find(std::string_view id) const;
};

/// One game tree: its main line (the first child at every branching), the rest counted.
/// Move-only: the spans point into storage owned by the tree, and into the parsed text, which
/// must outlive the tree.
class ParsedTree {
 public:
  ParsedTree() = default;
  ParsedTree(ParsedTree&&) = default;
  ParsedTree& operator=(ParsedTree&&) = default;
  ParsedTree(const ParsedTree&) = delete;
  ParsedTree& operator=(const ParsedTree&) = delete;

  /// Root node first; never empty for a tree returned by parse_sgf.
  std::span<const SgfNode> main_line() const { return nodes_; }
  /// Number of game trees ("(" ... ")") off the main line that were parsed and skipped.
  size_t num_variations() const { return num_variations_; }
  /// Byte range of the tree in the parsed text: [begin, end), from its '(' to its ')'.
  size_t begin_offset() const { return begin_; }
  size_t end_offset() const { return end_; }

 private:
  friend class SgfParser;
  std::vector<SgfNode> nodes_;
  std::vector<SgfProperty> properties_;
  std::vector<std::string_view> values_;
  std::forward_list<std::string> normalised_ids_;  // "GaMe" -> "GM"; nodes never move
  size_t num_variations_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
};

struct ParseOptions {
  /// A property value longer than this (bytes, raw) is an error.
  size_t max_value_bytes = size_t{1} << 20;
};

struct ParseResult {
  /// Every game tree read completely, in file order. The trees point into the parsed text.
  std::vector<ParsedTree> trees;
  /// OK, or the first syntax error (InvalidArgument). The message starts with
  /// "sgf: byte N (line L, column C): " naming where the problem is (offsets count from 0,
  /// lines and columns from 1). Trees after a broken one are not read; `trees` holds those
  /// before it.
  absl::Status status;
};

/// Parses a collection of game trees. Errors: empty input, no "(;" anywhere, unbalanced
/// parentheses, an unterminated value, a value over options.max_value_bytes, a property
/// outside a node or without a value, a node after a variation, a game tree without nodes,
/// and any other byte that is not part of the grammar inside a game tree.
ParseResult parse_sgf(std::string_view text, const ParseOptions& options = {});

}  // namespace hane
