// The KEYs of `hane tune --param` for a hane engine, checked against `hane gtp` itself (kept
// apart from tune.cc: the engine options and the match headers do not meet in one file).
#pragma once

#include <string>
#include <vector>

#include "match/spsa.h"

namespace hane::tools {

/// Checks a hane engine's ARGS and every KEY against `hane gtp` before any game: KEY is an
/// engine option that takes a number (INT or FLOAT; not --seed, not one ARGS already sets) or a
/// --policy-set key of the engine's policy, and `hane gtp` accepts it at START, MIN and MAX.
/// Returns, per parameter, whether it takes whole numbers. Throws UsageError naming the key.
std::vector<bool> check_hane_keys(const std::string& engine_args, const std::vector<SpsaParam>& params);

}  // namespace hane::tools
