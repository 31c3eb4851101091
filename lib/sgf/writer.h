// Writing game records as SGF.
#pragma once

#include <string>
#include <utility>
#include <vector>

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

}  // namespace hane
