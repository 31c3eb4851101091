// A position to guess a move in, as guessers and features see it.
#pragma once

#include "go/board.h"

namespace hane {

/// The board, the player to move, and the recent moves that move-relation features look at.
/// Does not own the board, which must outlive it.
struct Position {
  const Board* board = nullptr;
  Color to_move = Color::kBlack;
  /// The previous move (normally the opponent's); pass, or none at the start of the game.
  Vertex last_move = Vertex::none();
  /// The move before that; pass or none likewise.
  Vertex second_last_move = Vertex::none();
  /// Number of the move about to be played, counted from 1 (setup stones are not moves).
  int move_number = 1;
};

/// Moves `p` on by `move` of `mover` (play it on the board separately): `move` becomes the last
/// move and the last move the second last, the opponent of `mover` is to move, and the move
/// number goes up by one. From the start of a game, one call per move gives what
/// position_of() (game.h) gives after them.
inline void advance(Position& p, Vertex move, Color mover) {
  p.second_last_move = p.last_move;
  p.last_move = move;
  p.to_move = opponent(mover);
  ++p.move_number;
}

}  // namespace hane
