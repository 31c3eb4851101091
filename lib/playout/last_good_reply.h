// Last-good-reply with forgetting (LGRF-2: H. Baier and P. D. Drake, "The Power of Forgetting:
// Improving the Last-Good-Reply Policy in Monte Carlo Go", IEEE TCIAIG 2(4), 2010): a wrapper
// around any playout policy that, in the playout proper, first plays the reply that last won
// after the same two previous moves, then the one that last won after the same previous move,
// and only then asks the policy it wraps. The replies are learnt by the search from every
// simulation (learn()): the winner's moves are stored as the replies to the move (and the two
// moves) before them, and a loser's move is forgotten where it was stored. Local answers that
// work in the current fight (a capturing race, an eye-stealing exchange) spread from one
// simulation to the next, where the rules behind the wrapped policy see only the last move.
//
// A stored reply is played only when it is legal for the side to move and not its own eye
// (Board::is_eye), as the wrapped policies require of their moves. The tables are each
// policy's own (one per search thread; clone() starts empty; Baier & Drake's Orego shares one),
// indexed by Vertex::index(), about 3 MB.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "go/game.h"
#include "playout/policy.h"

namespace hane {

class LastGoodReplyPolicy final : public PlayoutPolicy {
 public:
  explicit LastGoodReplyPolicy(std::unique_ptr<PlayoutPolicy> inner);

  std::string name() const override { return inner_->name() + "+lgrf"; }
  void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
             Vertex second_last = Vertex::none()) override;
  const Board& board() const override { return inner_->board(); }
  Color to_move() const override { return inner_->to_move(); }
  void play(Vertex v) override;
  void start_playout() override;
  /// Before start_playout() (the tree's moves) the wrapped policy's move; after it, the stored
  /// reply to the last two moves, else to the last move, when playable, else the wrapped
  /// policy's move.
  Vertex sample(Rng& rng) override;
  std::unique_ptr<PlayoutPolicy> clone() const override;

  /// Learns from one simulation: the moves before it (`second_last`, `last`: the root's, pass
  /// or none where there were none), then its `moves` (the tree's and the playout's, in order),
  /// won by `winner` (Black or White; anything else learns nothing). Each move of the winner
  /// becomes the reply to the previous move and to the previous two; each move of the loser is
  /// removed where it is the stored reply. Only moves on points, after moves on points, count.
  void learn(Vertex second_last, Vertex last, std::span<const Move> moves, Color winner);

  /// Forgets every stored reply (a new game). reset() does so too when the board's size changes.
  void forget();
  /// The wrapped policy (the search's end-of-game estimates play it without the replies).
  PlayoutPolicy& inner() { return *inner_; }

  /// The stored reply of `color` to `last` (after `second_last` when that is a point: the
  /// two-move table), or none. For tests and GoGui-style inspection.
  Vertex reply(Color color, Vertex second_last, Vertex last) const;

 private:
  static constexpr int kN = Board::kMaxVertices;
  // The tables' slots: [colour][last] and [colour][second last][last].
  static size_t slot(Color c, Vertex last) { return static_cast<size_t>((c == Color::kBlack ? 0 : kN) + last.index()); }
  static size_t slot(Color c, Vertex second_last, Vertex last) {
    return slot(c, second_last) * kN + static_cast<size_t>(last.index());
  }
  bool playable(Vertex v) const;

  std::unique_ptr<PlayoutPolicy> inner_;
  std::vector<int16_t> reply1_;  // [colour][last] -> vertex index, Vertex::none() when empty
  std::vector<int16_t> reply2_;  // [colour][second last][last]
  Vertex last_ = Vertex::none(), second_last_ = Vertex::none();
  bool in_playout_ = false;
  int size_ = 0;  // the board size the tables were learnt on
};

}  // namespace hane
