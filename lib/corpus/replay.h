// Replaying a game record through the rules, position by position.
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "go/position.h"
#include "sgf/record.h"

namespace hane {

/// Called once per move of the main line (passes included) with the position before the move
/// and the move played. The board is valid only during the call.
using MoveCallback = std::function<void(const Position& position, Vertex played)>;

/// The rules replay uses for `record`: those its RU names, else `fallback`.
const RecordRules& replay_rules(const GameRecord& record, const RecordRules& fallback);

/// Replays `record` from its root setup through every event of its main line, under the rules
/// its RU names (record.declared_rules, see sgf/rules.h: suicide legal or not, superko
/// positional, situational or none), or `fallback` when RU is absent or unknown. Simple ko
/// always applies. A move by the player not to move is accepted (records do this after
/// handicap placement and PL), and that player becomes the one to move.
///
/// Errors (InvalidArgument; the record is unusable): a setup that leaves a chain without
/// liberties, "setup leaves a chain without liberties at dd"; an illegal move, "move 57
/// (W dd): suicide (Japanese rules)" (or occupied, ko, superko). `on_move` may be empty, to
/// validate only. Returns the final board through `final_board` when it is not null.
absl::Status replay(const GameRecord& record, const MoveCallback& on_move, Board* final_board = nullptr,
                    const RecordRules& fallback = default_record_rules());

/// Called at every chosen move (not a pass) with the position, the move played and the legal
/// moves of the player to move (legal_moves() order; the played move is among them). `legal`
/// is valid only during the call.
using ChoiceCallback = std::function<void(const Position& position, Vertex played, std::span<const Vertex> legal)>;
/// Decides, before the legal moves are listed, whether a position is used (e.g. sampling).
using KeepPosition = std::function<bool(const Position& position)>;

/// The opening of every trainer: replays `record` (as replay()) and calls `on_choice` at each
/// non-pass move for which `keep` (when given) returns true. `scratch` holds the move list
/// between calls. Errors: those of replay(); positions before the error were visited.
absl::Status replay_choices(const GameRecord& record, const ChoiceCallback& on_choice, std::vector<Vertex>& scratch,
                            const KeepPosition& keep = {});

}  // namespace hane
