// The game layer above the fast board: side to move, move history, setup stones, superko,
// undo. Used by record replay, GTP and search roots; playouts use Board directly.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "go/board.h"
#include "go/position.h"

namespace hane {

/// Which repetitions are forbidden beyond simple ko.
enum class Superko : uint8_t {
  kNone,         // simple ko only (Japanese-style records)
  kPositional,   // no board position may repeat (Tromp-Taylor, Chinese rules)
  kSituational,  // no position may repeat with the same player to move (New Zealand, AGA)
};

struct Rules {
  bool allow_suicide = false;
  Superko superko = Superko::kPositional;
  double komi = 7.5;  // points given to White; a multiple of 0.5
};

struct Move {
  Color color = Color::kEmpty;
  Vertex vertex = Vertex::none();
  auto operator<=>(const Move&) const = default;
};

class Game {
 public:
  explicit Game(int size = 19, Rules rules = {});

  const Board& board() const { return board_; }
  const Rules& rules() const { return rules_; }
  int size() const { return board_.size(); }
  Color to_move() const { return to_move_; }
  void set_to_move(Color c) { to_move_ = c; }

  /// Board legality plus the superko rule.
  Legality legal(Vertex v, Color c) const;
  /// Plays `v` for `c` if legal (then the opponent is to move); otherwise returns the reason
  /// and changes nothing.
  Legality play(Vertex v, Color c);
  Legality play(Vertex v) { return play(v, to_move_); }

  /// Places (black/white) or removes (empty) a stone as SGF setup does (AB/AW/AE): no
  /// captures. Recorded in the history, so undo() takes it back.
  void set_stone(Vertex v, Color c);

  /// Takes back the last move or setup; false if there is nothing to take back.
  bool undo();

  /// The key that the superko rule compares: `position_hash` (Board::hash()), with the player
  /// to move folded in under situational superko.
  uint64_t superko_key(uint64_t position_hash, Color to_move) const { return situation(position_hash, to_move); }
  /// True if `key` (superko_key()) is that of a position of this game so far; false under
  /// Superko::kNone.
  bool repeats(uint64_t key) const { return rules_.superko != Superko::kNone && seen_.contains(key); }

  /// Moves played so far (passes included, setup excluded), in order.
  const std::vector<Move>& moves() const { return moves_; }
  /// Passes at the end of the move list.
  int consecutive_passes() const;

 private:
  struct Event {
    Move move;
    bool setup = false;
    Color to_move_before = Color::kBlack;
  };
  uint64_t situation(uint64_t position_hash, Color to_move) const;
  void record_position();

  Board board_;
  Rules rules_;
  Color to_move_ = Color::kBlack;
  std::vector<Move> moves_;
  std::vector<Event> events_;
  std::vector<uint64_t> history_;                 // superko key after each event
  absl::flat_hash_map<uint64_t, int> seen_;        // superko key -> occurrences
};

/// True in the opening: fewer than size² / 4 moves played and fewer than size² / 4 stones on the
/// board (a set-up position counts by its stones). The engine neither resigns nor passes in the
/// tree before it is over.
inline bool in_opening(const Board& board, int moves_played) {
  const int quarter = board.size() * board.size() / 4;
  return moves_played < quarter && board.num_stones() < quarter;
}

/// The position a guesser sees in `game` with `to_move` to play: the board, the last two
/// moves of the history (none before the first), and the number of the next move. Refers to
/// game.board(), so `game` must outlive it.
Position position_of(const Game& game, Color to_move);

}  // namespace hane
