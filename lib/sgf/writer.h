// Writing game records as SGF.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "sgf/record.h"

namespace hane {

/// The record as one FF[4], CA[UTF-8] game tree: a root node with GM, FF, CA, AP (if set), SZ,
/// KM, HA (if not 0), the non-empty text fields, the setup and PL (when there is setup or it
/// differs from what would be inferred); then one node per move, and one node per run of
/// setup / PL events (split where reading back would reorder them). Values have ']' and '\'
/// escaped. Reading the output back (read_game) gives an equal record, except for `warnings`
/// and `num_variations`. Requires vertices on the board (as produced by to_record).
std::string write_sgf(const GameRecord& record);

/// Properties added to nodes by write_sgf: each an identifier ("SBKV", "C", "TB") and its
/// values as text (escaped on writing; points in SGF form, to_sgf).
using SgfProperties = std::vector<std::pair<std::string, std::vector<std::string>>>;

struct SgfAnnotations {
  /// Added to the root node, after the record's own properties.
  SgfProperties root;
  /// moves[i] is added to the node of the record's (i+1)-th move event (passes included);
  /// may be shorter than the move list. An identifier the writer already wrote in that node
  /// (C in the root) is not repeated: its values are appended to the existing ones.
  std::vector<SgfProperties> moves;
};

/// write_sgf with `annotations` (analysis figures, comments, territory) in the nodes.
std::string write_sgf(const GameRecord& record, const SgfAnnotations& annotations);

/// The first game tree of `sgf_text` (as read: every property, every variation, its bytes and
/// charset kept) with `annotations` added to its main line: `root` to the root node, moves[i]
/// to the node of the (i+1)-th move (each B or W value is a move, a node's B before its W, as
/// record.h counts them; several moves in one node share it, a later move's identifier
/// replacing an earlier one's). C is appended to the node's own comment (after a blank line);
/// any other identifier the node holds already is replaced. A tree cut at the end (parser.h:
/// "missing ')'") is closed. Errors: InvalidArgument when the text holds no game tree or its
/// main line has fewer moves than `annotations.moves`.
absl::StatusOr<std::string> annotate_sgf(std::string_view sgf_text, const SgfAnnotations& annotations);

}  // namespace hane
