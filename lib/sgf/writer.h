// Writing game records as SGF.
#pragma once

#include <string>

#include "sgf/record.h"

namespace hane {

/// The record as one FF[4], CA[UTF-8] game tree: a root node with GM, FF, CA, AP (if set), SZ,
/// KM, HA (if not 0), the non-empty text fields, the setup and PL (when there is setup or it
/// differs from what would be inferred); then one node per move, and one node per run of
/// setup / PL events (split where reading back would reorder them). Values have ']' and '\'
/// escaped. Reading the output back (read_game) gives an equal record, except for `warnings`
/// and `num_variations`. Requires vertices on the board (as produced by to_record).
std::string write_sgf(const GameRecord& record);

}  // namespace hane
