// The search's state and its parts, shared by the files of lib/search that implement Search:
// search.cc (creation, the run loop and threads, the root's statistics), simulate.cc
// (expansion with priors, selection, one simulation and its backup), tree.cc (the node pool,
// tree reuse and the root). Internal to lib/search; search.h is the public interface.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "features/influence.h"
#include "go/game.h"
#include "playout/last_good_reply.h"
#include "playout/policy.h"
#include "predict/guesser.h"
#include "predict/joseki.h"
#include "search/criticality.h"
#include "search/search.h"
#include "search/tree.h"

namespace hane::search_internal {

/// Half-wins of a simulation for `c`: 2 win, 1 jigo, 0 loss (`black_half` is Black's).
inline int half_wins_for(Color c, int black_half) { return c == Color::kBlack ? black_half : 2 - black_half; }

/// The win rate the pass child's `prior_even` virtual visits start at.
inline constexpr double kPassPriorWinrate = 0.1;

/// The virtual visits and wins a new child gets (search.h, "Priors"): `even` visits at win rate
/// 0.5, plus `weight · sqrt(p / scale)` visits that are all wins, where p is the child's guesser
/// weight and `scale` the largest over its siblings (relative priors) or their sum (absolute
/// priors); scale <= 0: no guesser, even prior only.
struct Prior {
  float visits = 0;
  float wins = 0;
};
Prior child_prior(double even, double weight, double p, double scale);

/// How one simulation's AMAF credit is weighted (search.h, "AMAF"; Pachi's ucb1amaf
/// `distance_rave` and `threat_rave`).
struct AmafWeights {
  /// A move first played at index f of a simulation of L moves, credited at a node of depth j,
  /// weighs 1 + distance · (L − f) / (L − j + 1), rounded down: earlier moves count more (0 = all
  /// 1; Pachi's default 3 gives 3, 2 or 1).
  int distance = 0;
  /// Credit ko threats played before the ko is retaken; false gives them no credit (below).
  bool ko_threats = true;
};

/// Scratch of backup_amaf() for boards of `num_vertices` vertices (left clean by each call).
struct AmafScratch {
  explicit AmafScratch(int num_vertices = 0) : color(num_vertices, 0), index(num_vertices, 0) {}
  std::vector<uint8_t> color;  // the colour that played the vertex first from the move scanned on
  std::vector<int32_t> index;  // and the index of that move
};

/// The AMAF backup of one simulation (search.h, "AMAF"): `moves` are the simulation's moves
/// (its first `path.size() - 1` in the tree, then the playout's), `path` the pool indices of
/// the tree nodes from the root, `black_half` Black's half-wins. For the node at depth j and
/// each of its children whose move was first played, from move j on, by the colour to move at
/// j, adds the move's weight (`weights`) in AMAF visits and weight × that colour's half-wins.
/// `ko_captures` (empty, or one flag per move) marks the moves that took a simple ko: when move
/// j takes a ko and `weights.ko_threats` is false, the mover's moves at distances 4, 10, 16, …
/// from j get no credit while the ko fight goes on (every third move retakes the ko): they are
/// the threats played before retaking (Pachi's ko_length, after S.-C. Huang's PhD thesis on Erica).
void backup_amaf(NodePool& pool, std::span<const int32_t> path, std::span<const Move> moves,
                 std::span<const uint8_t> ko_captures, int black_half, const AmafWeights& weights,
                 AmafScratch& scratch);

/// Everything one search thread owns.
struct Worker {
  std::unique_ptr<PlayoutPolicy> policy;
  LastGoodReplyPolicy* last_good_reply = nullptr;  // `policy` itself when SearchOptions::last_good_reply
  std::unique_ptr<Guesser> guesser;
  Rng rng;
  std::vector<Move> moves;
  std::vector<int32_t> path;
  AmafScratch amaf;
  std::vector<uint8_t> ko_captures;  // per move of `moves`, only without AMAF credit to ko threats
  std::vector<int32_t> owner_sum;
  double margin_sum = 0;  // final margins (Black − White − komi) of this search's playouts
  int64_t simulations = 0;  // in this search
  std::vector<Vertex> candidates;
  std::vector<float> scores;
  std::vector<uint64_t> line_keys;  // superko keys of the positions of the tree line
  std::vector<JosekiMove> joseki_moves;
  std::vector<float> joseki_bonus;  // per Vertex::index(): virtual wins for the node being expanded, else 0
  std::unique_ptr<BoardMaps> strategic_maps;  // the strategic prior's maps of the node being expanded
};

}  // namespace hane::search_internal

namespace hane {

class Search::Impl {
 public:
  using Clock = std::chrono::steady_clock;

  Impl(const SearchOptions& options, std::unique_ptr<PlayoutPolicy> policy, std::unique_ptr<Guesser> guesser,
       std::shared_ptr<const JosekiDictionary> joseki);

  const SearchOptions& options() const { return options_; }
  SearchResult search(const Game& game, Color to_play, const SearchLimits& limits, const AnalysisCallback* analysis);
  std::vector<float> ownership() const;
  EndEstimate estimate_end(const Game& game, int playouts);
  Guesser* guesser() { return workers_[0]->guesser.get(); }
  void reseed(uint64_t seed);
  void set_extra_komi(double black_points) { extra_komi_ = black_points; }
  void clear() {
    have_tree_ = false;
    pool_.reset();
    for (auto& w : workers_) {
      if (w->last_good_reply) w->last_good_reply->forget();
    }
  }

 private:
  using Node = search_internal::Node;
  using Worker = search_internal::Worker;

  // tree.cc: the root, from the previous tree when the game continues it.
  void prepare_root(const Game& game, Color to_play);
  bool try_reuse(const Game& game, Color to_play);
  // simulate.cc
  bool expand(Worker& w, Node& node, const Board& board, Color to_move, Vertex last, Vertex second_last, int move_number);
  // The guesser's probabilities of w.candidates into w.scores (a softmax of its scores when
  // they are not probabilities), re-weighted by the strategic prior where it applies.
  void guesser_probabilities(Worker& w, const Board& board, Color to_move, Vertex last, Vertex second_last,
                             int move_number);
  // The joseki bonus of the dictionary's replies in the corners of `node` still in the
  // dictionary, into w.joseki_bonus; returns the corners for its children (search.h, "Joseki").
  uint8_t joseki_bonus(Worker& w, const Node& node, const Board& board, Color to_move, int move_number);
  // The child of the best value (RAVE blend, plus the UCT term when uct_c > 0); ties at random
  // by `rng`, pass never chosen on a tie.
  int32_t select_child(const Node& node, bool at_root, Rng& rng) const;
  // The value select_child() compares (search.h), at the root with the child's criticality.
  double child_value(const Node& c, double log_parent, bool at_root) const;
  // Adds a root child's criticality term to its AMAF visits r and wins a (criticality.h).
  void add_criticality(Vertex move, float& r, float& a) const;
  void simulate(Worker& w);
  // search.cc
  void run_worker(int index, const SearchLimits& limits, int64_t playout_limit, const AnalysisCallback* analysis);
  // Time management under a clock: should_stop() (time_control.h) on the root as it stands.
  bool clock_says_stop(const SearchLimits& limits) const;
  SearchResult snapshot() const;
  std::vector<Vertex> principal_variation(int32_t from) const;

  SearchOptions options_;
  float rave_equiv_;
  search_internal::AmafWeights amaf_weights_;
  search_internal::NodePool pool_;
  std::shared_ptr<const JosekiDictionary> joseki_;  // nullptr without one
  std::vector<std::unique_ptr<Worker>> workers_;
  Rng end_rng_;

  // The root and the position it stands for.
  int32_t root_ = -1;
  bool have_tree_ = false;
  Board root_board_;
  Color root_color_ = Color::kBlack;
  Vertex root_last_ = Vertex::none(), root_second_last_ = Vertex::none();
  int root_move_number_ = 1;
  double komi_ = 7.5;
  double extra_komi_ = 0;              // Black's dynamic komi (set_extra_komi)
  std::vector<Move> root_moves_;       // the game's moves at the root
  Game root_game_;                     // the game at the root, for superko in the tree
  std::vector<uint8_t> root_allowed_;  // per root child: legal in the game (superko)
  std::vector<float> root_priors_;     // per root child: the prior's probability (guesser_probabilities)
  search_internal::RootCriticality criticality_;  // of the root's children, this search

  // The current search.
  std::atomic<int64_t> tickets_{0};
  std::atomic<int64_t> done_{0};
  std::atomic<bool> stop_{false};
  Clock::time_point start_;
  double cpu_start_ = 0;
  std::vector<float> ownership_;
  bool searching_ = false;  // read and written by the searching thread only
};

}  // namespace hane
