// Replaying a game record through the rules, position by position.
#pragma once

#include <functional>

#include "absl/status/status.h"
#include "go/position.h"
#include "sgf/record.h"

namespace hane {

/// Called once per move of the main line (passes included) with the position before the move
/// and the move played. The board is valid only during the call.
using MoveCallback = std::function<void(const Position& position, Vertex played)>;

/// Replays `record` from its root setup through every event of its main line, under the rules
/// common to every server: suicide illegal, simple ko, no superko (Japanese-rules records may
/// repeat a position). A move by the player not to move is accepted (records do this after
/// handicap placement and PL), and that player becomes the one to move.
///
/// Errors (InvalidArgument; the record is unusable): a setup that leaves a chain without
/// liberties, "setup leaves a chain without liberties at dd"; an illegal move, "move 57
/// (W dd): occupied" (or ko, suicide). `on_move` may be empty, to validate only. Returns the
/// final board through `final_board` when it is not null.
absl::Status replay(const GameRecord& record, const MoveCallback& on_move, Board* final_board = nullptr);

}  // namespace hane
