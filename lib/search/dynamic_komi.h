// Play when far ahead or behind: dynamic komi for even games.
//
// Monte-Carlo search maximises the chance to win, not the margin: far ahead, every move wins
// nearly all playouts and the search cannot tell a solid move from a slack one; far behind,
// every move loses and it plays desperate moves. Dynamic komi moves the goal: far ahead, the
// playouts must win by more than the real komi; far behind, by less, so that the win rate the
// search works with stays where it separates moves (P. Baudiš, "Balancing MCTS by Dynamically
// Adjusting the Komi Value", ICGA Journal 34(3), 2011: the situational komi; Pachi's
// uct/dynkomi.c). The rule here:
//   - after each search, with w the chosen move's win rate (under the extra komi used) and
//     s the playouts' mean margin for the mover at the real komi (points), the target is
//     t = share · s · f, where f = 1 − move_number / (end · board_points) (0 past that move:
//     the real komi decides the end of a game);
//   - far ahead (w >= high): extra = max(extra, t) — a ratchet, the goal only rises while the
//     search stays sure;
//   - far behind (w <= low): extra = max(min(extra, t), −max_losing) — the goal only falls, and
//     by at most max_losing points;
//   - the extra komi kept is scaled down by f as the game nears its end (before the above).
#pragma once

namespace hane {

struct DynamicKomiOptions {
  bool enabled = false;
  double high = 0.8;        // win rate at or above which the goal rises
  double low = 0.2;         // win rate at or below which it falls
  double share = 0.5;       // of the expected margin taken as extra komi
  double max_losing = 10;   // points: the most the goal falls below the real komi
  double end = 0.8;         // share of the board's points (as a move number) where it is 0
};

/// The extra komi of one player over a game: points the player's playouts must win by beyond
/// the real komi (negative: may lose by). Reset for each game.
class DynamicKomi {
 public:
  explicit DynamicKomi(const DynamicKomiOptions& options = {}) : options_(options) {}

  /// The extra komi for a search at `move_number` (1 for the first move) on a board of
  /// `board_points` points; 0 when disabled.
  double for_move(int move_number, int board_points) const;
  /// Takes a finished search's result: `winrate` of the chosen move for the mover (under the
  /// extra komi used), `margin` the playouts' mean margin for the mover at the real komi.
  void update(double winrate, double margin, int move_number, int board_points);
  void reset() { extra_ = 0; }

  double extra() const { return extra_; }
  const DynamicKomiOptions& options() const { return options_; }

 private:
  double phase_factor(int move_number, int board_points) const;

  DynamicKomiOptions options_;
  double extra_ = 0;
};

}  // namespace hane
