// Which games a run uses: filters on game information, and the stable train/validation/test
// split.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "sgf/record.h"

namespace hane {

enum class HandicapGames : uint8_t { kAny, kOnly, kNone };

struct FilterOptions {
  /// Keep only this board size; 0 keeps every size.
  int board_size = 19;
  /// Keep only games whose players are both at least this rank (amateur scale; professionals
  /// count as above 9d). Unknown ranks fail a set minimum.
  std::optional<Rank> min_rank;
  HandicapGames handicap = HandicapGames::kAny;
  /// Keep only games with at least this many moves (passes included).
  int min_moves = 0;
  /// Player names (lower case) whose games are left out; empty keeps every player.
  absl::flat_hash_set<std::string> bots;
};

/// Why `record` is left out by `filter` ("board size", "rank", "handicap", "too few moves",
/// "bot"), or an empty view if it is kept.
std::string_view filter_out_reason(const GameRecord& record, const FilterOptions& filter);

/// Reads a list of player names, one per line; '#' starts a comment; names are compared
/// case-insensitively. Errors: NotFound if the file cannot be read.
absl::StatusOr<absl::flat_hash_set<std::string>> read_name_list(const std::string& path);

/// A game is a handicap game if HA >= 2 or it starts with black setup stones and no white ones.
bool is_handicap_game(const GameRecord& record);

enum class Split : uint8_t { kTrain, kValidation, kTest, kAll };
std::string_view split_name(Split s);
/// "train", "validation", "test" or "all"; nullopt otherwise.
std::optional<Split> parse_split(std::string_view name);

/// A 64-bit FNV-1a hash of what identifies a game: board size, setup stones and the main
/// line's events. Equal for duplicate games, stable across machines and runs.
uint64_t game_hash(const GameRecord& record);

/// The split of a game: its hash's value modulo 1000 below 900 is train, below 950
/// validation, else test (90/5/5).
Split split_of(uint64_t game_hash);

}  // namespace hane
