// The gamma guesser (predict/gamma.h) as a playout policy, `gamma:MODEL`: the strength of every
// point kept up to date move by move, moves sampled from a sum tree in O(log n).
//
// For each colour the policy keeps the strength of every point (0 for points that are not
// candidates: occupied, illegal, or filling an own eye) in a SumTree (softmax.h). After a move
// only these points are re-rated (for both colours, lazily, when that colour is next to move):
//   - the PatternTracker's dirty points (diamond12 changed), when their 3x3 code (every legality,
//     own-eye, capture and atari fact that the neighbours' liberty buckets decide) changed since
//     they were rated, or they were not candidates, or they may be nakade vital points
//     (nakade_possible() of their diamond, or rated as one); and the old ko point;
//   - the liberties of every chain whose liberties or size the move changed and that has at most
//     4 liberties (before or after): the move's chain, the opponent chains next to it, and the
//     mover's chains next to captured stones. A move's liberties-after, self-atari and saved
//     stones depend only on its neighbouring chains' liberty sets and sizes, and only when these
//     have at most 4 liberties;
//   - save atari through a capture: for each such chain in atari before or after the move, the
//     liberty of each opponent chain in atari next to it;
//   - nakade: the points within distance 3 of the move, or of a captured stone, that are vital
//     points now (within distance 2 the tracker lists them);
//   - gamma_response_points() of the position as it was when this colour's tree was last
//     brought up to date and as it is now.
// A point's strength is kept as its base (every feature but the distances) times its distance
// gammas, so the diamonds of the old and new last two moves only get their distance part
// recomputed (a multiplication each).
// Strengths are then those of GammaGuesser on the same position (tests compare them after random
// games).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "features/pattern_tracker.h"
#include "go/board.h"
#include "playout/policy.h"
#include "playout/registry.h"
#include "playout/softmax.h"
#include "predict/gamma.h"

namespace hane {

class GammaPolicy final : public PlayoutPolicy {
 public:
  explicit GammaPolicy(std::shared_ptr<const GammaModel> model);

  std::string name() const override { return "gamma"; }
  /// Starts from `board`; rates every point of both colours.
  void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
             Vertex second_last = Vertex::none()) override;
  const Board& board() const override { return board_; }
  Color to_move() const override { return to_move_; }
  void play(Vertex v) override;
  /// A move drawn with probability strength(v) / total; pass if there is no candidate.
  Vertex sample(Rng& rng) override;
  /// strength(v) / total for to_move() (0 for non-candidates); never std::nullopt.
  std::optional<double> probability(Vertex v) override;
  std::unique_ptr<PlayoutPolicy> clone() const override { return std::make_unique<GammaPolicy>(model_); }

  /// The strength of `v` for to_move() as kept (0 if not a candidate).
  double strength(Vertex v);
  /// The candidates of to_move() (brings its tree up to date): slot count, and per slot its
  /// vertex, strength and features (meaningful when the strength is positive). For trainers.
  int slots() const { return static_cast<int>(vertex_of_.size()); }
  Vertex slot_vertex(int s) const { return Vertex(vertex_of_[s]); }
  double slot_strength(int s) { sync(to_move_); return tree_[ci(to_move_)].weight(s); }
  const GammaFeatures& slot_features(int s) const { return features_[ci(to_move_)][vertex_of_[s]]; }
  double total_strength() { sync(to_move_); return tree_[ci(to_move_)].total(); }
  /// Points re-rated since construction (both colours), for benchmarks.
  int64_t rerated() const { return rerated_; }
  const GammaModel& model() const { return *model_; }

 private:
  static int ci(Color c) { return c == Color::kBlack ? 0 : 1; }
  void mark(int p) {
    for (int c = 0; c < 2; ++c) {
      if (mark_[c][p] != epoch_[c]) {
        mark_[c][p] = epoch_[c];
        pending_[c].push_back(static_cast<int16_t>(p));
      }
    }
  }
  // Marks a dirty point of the tracker: re-rated only if its 3x3 code changed (see above).
  void mark_dirty(int p) {
    for (int c = 0; c < 2; ++c) {
      if (weak_mark_[c][p] != epoch_[c]) {
        weak_mark_[c][p] = epoch_[c];
        weak_[c].push_back(static_cast<int16_t>(p));
      }
    }
  }
  void mark_liberties(Vertex chain);
  void mark_atari_neighbours(Vertex chain);
  void rate(int p, Color c, const Position& position);
  // Sets the distance features of p (a rated candidate) for the current last moves, and its
  // strength in the tree.
  void place(int p, Color c);
  void sync(Color c);

  std::shared_ptr<const GammaModel> model_;
  Board board_;
  PatternTracker tracker_;
  Color to_move_ = Color::kBlack;
  Vertex last_ = Vertex::none(), second_last_ = Vertex::none();
  std::array<int16_t, Board::kMaxVertices> slot_of_{};
  std::vector<int16_t> vertex_of_;
  std::array<SumTree, 2> tree_;
  std::array<std::array<GammaFeatures, Board::kMaxVertices>, 2> features_{};
  std::array<std::array<uint32_t, Board::kMaxVertices>, 2> mark_{};
  std::array<uint32_t, 2> epoch_{1, 1};
  std::array<std::vector<int16_t>, 2> pending_;
  std::array<std::array<uint32_t, Board::kMaxVertices>, 2> weak_mark_{};
  std::array<std::vector<int16_t>, 2> weak_;
  std::array<std::array<double, Board::kMaxVertices>, 2> base_{};  // 0 if not a candidate
  std::array<std::array<uint32_t, Board::kMaxVertices>, 2> code_{};  // Black's 3x3 code when rated
  std::array<std::vector<int16_t>, 2> context_;  // gamma_response_points() at each colour's last sync
  std::array<Vertex, 2> centre_{}, centre2_{};   // the last two moves at each colour's last sync
  std::array<bool, 2> full_{true, true};
  std::array<bool, 2> synced_{false, false};  // up to date since the last play() or reset()
  std::vector<int16_t> scratch_;
  std::vector<Vertex> liberties_ = std::vector<Vertex>(Board::kMaxVertices);  // scratch for mark_liberties()
  std::vector<int16_t> before_;  // stones of chains to look at after the move (play())
  std::array<int, 24> radius3_offsets_{};
  int64_t rerated_ = 0;
};

/// The gamma model at `model` for the playout policy named `policy` (for messages). Errors
/// (InvalidArgument, NotFound) name the path: unreadable, another kind, a corrupt payload.
absl::StatusOr<std::shared_ptr<const GammaModel>> load_gamma_policy_model(std::string_view model,
                                                                         std::string_view policy);

/// The registry's factory: `gamma:MODEL` (a model of kind "gamma"), setting "gamma.moves".
/// The setting "gamma.moves" (default 0: every move): the gamma policy plays the first N moves of
/// each playout and the `rules` policy the rest (switch.h). Errors (InvalidArgument): another
/// "gamma." key, or a value that is not a whole number >= 0.
absl::StatusOr<int> gamma_head_moves(const PolicyOptions& options);

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_gamma_policy(std::string_view model, const PolicyOptions& options);

}  // namespace hane
