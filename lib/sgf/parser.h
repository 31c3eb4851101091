// SGF syntax: text (FF[1]..FF[4]) -> game trees, keeping each tree's main line.
//
// The parser knows only the SGF grammar, not what properties mean (see record.h for that):
//
//   Collection = GameTree+      GameTree = "(" Sequence GameTree* ")"      Sequence = Node+
//   Node = ";" Property*        Property = Ident Value+                    Value = "[" text "]"
//
// It is iterative (nesting depth is limited only by memory) and allocation-light: values are
// string_views into the caller's buffer. What it accepts beyond the grammar, silently:
//   - white space (space, tab, CR, LF) between tokens;
//   - a leading UTF-8 byte-order mark, and junk before the first "(;" and between game trees;
//   - FF[3]-style identifiers with lower-case letters: "GaMe" reads as "GM", "PlayerBlack" as
//     "PB" (only the capital letters are kept);
//   - a property repeated in one node ("AB[aa]AW[bb]AB[cc]"): merged into one property whose
//     values keep their order of appearance ("AB" = {aa, cc}).
// What it repairs, noting each repair in ParsedTree::repairs() (record.h turns them into
// warnings, so strict reading rejects such a tree with the byte offset):
//   - a '(' not followed by ';' but by a property ("(GM[1]SZ[19];B[aa])"): the ';' is inserted;
//   - end of input inside a game tree (a file cut at the end): the open trees are closed there;
//   - a stray ']' between nodes or properties: ignored;
//   - a stray ')' right after a game tree: ignored (noted on that tree);
//   - other control bytes (NUL, 0x01..0x1F besides tab, CR, LF) between tokens: read as white
//     space.
// After a syntax error the broken game tree is skipped (its brackets and values are followed to
// its closing ')', or, if it never closes, reading resumes at the next "(;" after the error) and
// reading goes on with the next tree: one error costs one game, which ParseResult::errors names.
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

/// One repair of damaged framing (see the top of this file).
struct SgfRepair {
  /// A short fixed label: "missing ';'", "missing ')'", "stray ']'", "stray ')'",
  /// "control bytes".
  std::string_view kind;
  /// Where, bytes from the start of the parsed text.
  size_t offset = 0;
  /// "byte N (line L, column C): what".
  std::string message;
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
  /// What was repaired while reading this tree (see the top of this file), in file order;
  /// empty for a well-formed tree.
  std::span<const SgfRepair> repairs() const { return repairs_; }

 private:
  friend class SgfParser;
  std::vector<SgfNode> nodes_;
  std::vector<SgfProperty> properties_;
  std::vector<std::string_view> values_;
  std::forward_list<std::string> normalised_ids_;  // "GaMe" -> "GM"; nodes never move
  std::vector<SgfRepair> repairs_;
  size_t num_variations_ = 0;
  size_t begin_ = 0;
  size_t end_ = 0;
};

struct ParseOptions {
  /// A property value longer than this (bytes, raw) is an error.
  size_t max_value_bytes = size_t{1} << 20;
};

/// One syntax error; each cost the game tree it was found in (or the whole input, for "empty
/// input" and "no game tree").
struct SgfSyntaxError {
  /// Where the error was found, bytes from the start of the text.
  size_t offset = 0;
  /// "sgf: byte N (line L, column C): what" (offsets count from 0, lines and columns from 1).
  std::string message;
  /// Index the lost tree would have had among `trees` (= number of trees read before it).
  size_t tree_index = 0;
};

struct ParseResult {
  /// Every game tree read (repaired ones included), in file order. The trees point into the
  /// parsed text.
  std::vector<ParsedTree> trees;
  /// Every syntax error, in file order; reading resumed after each (see the top of this file).
  std::vector<SgfSyntaxError> errors;
  /// OK, or the first error (InvalidArgument, with that error's message).
  absl::Status status;
};

/// Parses a collection of game trees. Errors: empty input, no "(;" anywhere, an unterminated
/// value, a value over options.max_value_bytes, a property outside a node or without a value,
/// a node after a variation, a game tree without nodes ("()"), and any other byte that is not
/// part of the grammar inside a game tree.
ParseResult parse_sgf(std::string_view text, const ParseOptions& options = {});

}  // namespace hane
