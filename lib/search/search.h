// Monte-Carlo tree search: UCT with RAVE, priors from a guesser, any playout policy, playout
// and time budgets, tree reuse, a memory cap, tree parallelism; ownership, dead stones, seki
// and the final score from playouts.
//
// Move value at a child with n real visits (plus prior virtual visits), r AMAF visits:
//   value = β · amaf + (1 − β) · direct + c · sqrt(ln N / n),
//   β = r / (r + n + n · r / equiv)
// — the RAVE weight of Pachi's `ucb1amaf` (P. Baudiš, "MCTS with Information Sharing", MSc
// thesis, Charles University 2011, after S. Gelly and D. Silver, "Combining Online and Offline
// Knowledge in UCT", ICML 2007).
//
// AMAF: for each node on the path, every child whose move its player played first later in the
// same simulation (tree part and playout part) gets one AMAF visit with that simulation's result
// (with `amaf_distance`, more for earlier moves; without `amaf_ko_threats`, none for the ko
// threats of a ko fight that starts at the node, as Pachi's ucb1amaf).
//
// Priors ("equivalent experience", Pachi's `eqex`; Fuego's prior knowledge): when a node is
// expanded, each child gets `prior_even` virtual visits at win rate 0.5, and, with a guesser,
// `prior_weight · sqrt(p / p_max)` more virtual visits that are all wins (p the guesser's
// probability of the move, p_max the largest over the children). With `prior_absolute`, the
// scale of Pachi's pattern prior (uct/prior.c, which adds `pattern_eqex · sqrt(p)` wins, not
// normalised): `prior_weight · sqrt(p)`, p normalised over the children, so that a flat guess
// gives little and a sure one much. No guesser = even prior only. The pass child starts with
// `prior_even` virtual visits at win rate 0.1, so the tree tries it only once the other moves
// look bad; nodes in the opening (go/game.h in_opening) have no pass child at all. Children of
// equal value (the same prior and no visits yet, common under a decision tree's leaves) are
// chosen among at random, never the pass.
//
// Criticality (with criticality > 0; search/criticality.h): the root's children whose point's
// owner at the playouts' end goes with the game's winner get more AMAF wins, Pachi's crit_rave.
//
// Strategic prior (with strategic_weight > 0 and a guesser; search/strategic_prior.h): at the
// children of the root and of its children, the guesser's probabilities are re-weighted, as by
// one more log-linear feature, toward moves of a strategic kind strong players favour (open
// ground, reductions) and away from those they avoid (invasions, secure moves) in proportion to
// the game's phase, and away from empty triangles.
//
// Joseki (with a dictionary, predict/joseki.h; Pachi's joseki prior, `joseki_eqex` in
// uct/prior.c): when a node is expanded on a board of the dictionary's size, before its move
// max_moves, each child that is a dictionary reply in a corner whose local position (the
// corner's box, the side to move) is in the dictionary gets `joseki_weight · sqrt(share)` more
// virtual visits that are all wins, share the reply's count over the position's occurrences in
// the records (the chance a strong player played it there); replies in several corners add up.
// A node looks up only the corners whose position was in the dictionary, with either side to
// move, at its parent (all four at a fresh root): once a corner leaves the dictionary, the
// line below it reads that corner no more, and after max_moves no corner is read.
//
// Files: search.cc (the run loop and threads), simulate.cc (expansion, selection, simulation,
// backup), tree.cc (the node pool, tree reuse, the root); the player's decisions (pass, resign,
// cleanup) are in gtp/search_player.cc.
//
// Nodes are 36 bytes, a node's children contiguous in a pool of 576 KB chunks (search/tree.h);
// a leaf is expanded after `expand_visits` simulations. A simulation copies the root board once
// (PlayoutPolicy::reset) and allocates nothing on the heap but, now and then, a new pool chunk.
//
// Threads: tree parallelism with virtual loss (a visit is counted on the way down and its
// result added on the way back, so threads in flight see lower win rates). Node statistics are
// relaxed atomics; with threads = 1 a search is deterministic for a seed.
//
// Playouts are scored by Tromp-Taylor area (score.h) with the game's komi; a pass-pass in the
// tree does not end a simulation (the playout goes on, so dead stones are removed the way the
// scorer would). The root obeys the game's superko rule (Game::legal); below it, a tree move
// that repeats a position of the game or of the line above it (the game's superko rule) is
// marked invalid when first played: that simulation counts as a loss for its mover and the move
// is never selected again (its prior becomes 10^9 virtual losses). Simple ko is the board's. No
// node plays into its own eye (Board::is_eye).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "go/game.h"
#include "playout/registry.h"
#include "predict/guesser.h"
#include "search/time_control.h"

namespace hane {

/// Boards of this many points a side and more are large (Pachi's board_large): engines may
/// have settings of their own for them (gtp::EngineOptions::large_board_search).
inline constexpr int kLargeBoard = 15;

struct SearchOptions {
  /// Playout policy spec for make_policy() (playout/registry.h): "uniform", "rules",
  /// "softmax:MODEL", "guesser:MODEL".
  std::string policy = "uniform";
  /// The policy's own settings (`NAME.KEY` = value, e.g. rules.capture = 0.9; registry.h).
  PolicyOptions policy_options{};
  /// Guesser model file for priors (predict/load.h), or "none" for even priors only.
  std::string prior = "none";
  /// Virtual visits of the guesser prior at p = p_max, or at p = 1 with prior_absolute (see
  /// the header comment).
  double prior_weight = 40;
  /// Priors ∝ sqrt(p) on an absolute scale instead of sqrt(p / p_max) (the header comment).
  bool prior_absolute = false;
  /// Joseki dictionary model file (predict/joseki.h), or "none".
  std::string joseki = "none";
  /// Virtual wins of a joseki reply played every time its position occurred (share 1); a
  /// reply of share s gets joseki_weight · sqrt(s) (the header comment, "Joseki").
  double joseki_weight = 40;
  /// Virtual visits at win rate 0.5 given to every child.
  double prior_even = 10;
  /// Weight λ of the strategic prior (search/strategic_prior.h: the guesser's probabilities
  /// times exp(λ · t), t the move's strategic kind weighted by the game's phase, and the empty
  /// triangle), for the children of the root and of the root's children; 0 = off, no effect
  /// without a guesser. Each such expansion reads the board's influence maps and dead stones
  /// (about 40-80 µs on 19×19).
  double strategic_weight = 0;
  /// RAVE equivalence parameter (Pachi's `equiv_rave`, 3000 there): AMAF counts as much as the
  /// direct value after about this many visits. 1000 beat 3000 and 500 beat 1000 on 9×9
  /// (docs/strength.md, section 6).
  double rave_equiv = 500;
  /// AMAF weight by distance (Pachi's `distance_rave`): a move first played at index f of a
  /// simulation of L moves weighs 1 + amaf_distance · (L − f) / (L − j + 1) at the node of depth
  /// j (rounded down; 0 = every credited move weighs 1).
  int amaf_distance = 0;
  /// Give AMAF credit to ko threats played before the ko is retaken (Pachi's `threat_rave` = 1);
  /// false gives none (Pachi's default 0).
  bool amaf_ko_threats = true;
  /// Weight of criticality at the root's children (search/criticality.h, after Coulom 2009 and
  /// Pachi's `crit_rave`, 1.1 there): once a root child has had criticality_min_visits
  /// simulations in this search, its AMAF statistics get crit · r · weight more visits that are
  /// all wins for its player (r its AMAF visits, crit in [−0.5, 0.5]); 0 = off.
  double criticality = 0;
  /// Simulations through a root child in this search before its criticality counts (Pachi's
  /// `crit_min_playouts`, 2000).
  int criticality_min_visits = 2000;
  /// Last-good-reply with forgetting in the playouts (LGRF-2, Baier & Drake 2010;
  /// playout/last_good_reply.h): each thread's policy first plays the replies that won the last
  /// simulations after the same moves, learnt from every simulation of the search. Off: it lost
  /// its SPRT at equal clock on 19x19 (docs/strength.md, section 9: −116 Elo over 59 games).
  bool last_good_reply = false;
  /// UCB exploration constant c (0 = RAVE and priors alone drive exploration, as in Pachi's
  /// default `ucb1amaf`).
  double uct_c = 0;
  /// Real visits a leaf needs before it is expanded.
  int expand_visits = 2;
  /// Leave out of new nodes the moves that run from a working ladder: a move that saves a chain
  /// from atari when the ladder reader (features/ladder.h ladder_escape) shows every chain it
  /// saves is then caught anyway. Off: it lost its match (docs/strength.md, section 6).
  bool prune_ladders = false;
  /// Search threads (>= 1).
  int threads = 1;
  /// Seed of the playout random numbers (thread t uses a stream derived from seed and t).
  uint64_t seed = 1;
  /// Memory for tree nodes, MB. When it is full the tree stops growing (simulations go on
  /// from the leaves).
  int max_tree_mb = 512;
  /// Resign when the best move's win rate is below this (0 = never resign); the player decides
  /// (gtp/search_player.h).
  double resign_threshold = 0;
  /// Default budget of a search when the caller gives none: new simulations per move
  /// (0 = no such limit).
  int64_t playouts = 10000;
  /// Default budget in root visits, the reused subtree included (0 = no such limit). With
  /// `playouts` too, the first limit reached stops; one of the two must be > 0.
  int64_t visits = 0;
  /// Keep the subtree of the moves played between searches.
  bool reuse_tree = true;
  /// Safety margin for time controls, seconds (TimeControl::move_time).
  double time_lag = 0.5;
};

/// How long a search runs: the first limit reached stops it. With no limit set (all zero and no
/// stop flag), SearchOptions::playouts and SearchOptions::visits are used.
struct SearchLimits {
  /// New simulations from this move's root, not counting the visits of a reused subtree;
  /// 0 = no limit.
  int64_t playouts = 0;
  /// Visits of the root, those of the subtree kept from the previous moves included: the search
  /// stops once the root holds this many (at least one new simulation is run). This is how
  /// Pachi's `-t =N` counts (its root's playouts, reused ones included; Pachi also stops early
  /// once the best move cannot change). 0 = no limit.
  int64_t visits = 0;
  /// Wall-clock seconds; 0 = no limit. Under a clock, the move's worst time.
  double seconds = 0;
  /// Under a clock: the move's desired time (TimeControl::move_time), with `seconds` its worst;
  /// the search stops by should_stop() (time_control.h): before it once the choice cannot
  /// change, after it while the choice is unclear. 0 = no such rule (stop at `seconds`).
  double desired_seconds = 0;
  /// Set by another thread to stop (GTP interrupt / the next input during lz-analyze).
  const std::atomic<bool>* stop = nullptr;
};

/// Statistics of one root move, win rates for the player to move at the root.
struct MoveStats {
  Vertex move = Vertex::none();
  int64_t visits = 0;        // real simulations through the move
  double winrate = 0.5;      // direct value (wins / visits), 0.5 without visits
  double value = 0.5;        // the RAVE-blended value the tree selects by (priors included)
  int64_t amaf_visits = 0;
  double amaf_winrate = 0.5;
  double prior = 0;          // guesser probability, strategic prior included (0 without a guesser)
  /// Coulom's criticality of the move's point over this search's simulations through it
  /// (search/criticality.h), whether or not SearchOptions::criticality uses it; 0 without visits.
  double criticality = 0;
  std::vector<Vertex> pv;    // principal variation starting with `move` (most visits)
};

struct SearchResult {
  Vertex move = Vertex::pass();  // the move chosen (pass possible)
  bool resign = false;           // true when the engine should resign instead of `move`
  double winrate = 0.5;          // of `move` for the player to move
  int64_t playouts = 0;          // new simulations in this search
  int64_t root_visits = 0;       // root visits, reused ones included
  double seconds = 0;            // wall time of the search
  double cpu_seconds = 0;        // CPU time of the process during the search (all threads)
  double desired_seconds = 0;    // the limits the search ran under (SearchLimits): desired
  double max_seconds = 0;        // and worst time under a clock, 0 when not given
  /// Mean final margin of this search's playouts, Black − White − komi (the game's komi, not
  /// the dynamic komi), points; 0 without playouts.
  double score_mean = 0;
  /// The mover's dynamic komi during the search (points beyond the real komi; set by the
  /// player, gtp/search_player.h), 0 without.
  double extra_komi = 0;
  size_t tree_nodes = 0;         // nodes in use after the search
  bool tree_full = false;        // the memory cap was reached
  /// Root moves with at least one visit or a prior, most visits first.
  std::vector<MoveStats> children;
};

/// Called during a search about every `interval_ms` from the searching thread that owns the
/// call (for lz-analyze / kata-analyze), with the root's current statistics.
struct AnalysisCallback {
  int interval_ms = 100;
  std::function<void(const SearchResult&)> on_update;
};

/// Status of a point at the end of a game (GTP final_status_list).
enum class PointStatus : uint8_t { kEmpty, kAlive, kDead, kSeki };

/// The end-of-game estimate from playouts on a position.
struct EndEstimate {
  /// Per Vertex::index() (size Geometry::num_vertices()): the mean owner over the playouts,
  /// +1 Black, −1 White (a stone or an area point of that colour at the playout's end).
  std::vector<float> ownership;
  /// Per Vertex::index(): kAlive / kDead / kSeki for stones, kEmpty for empty points and
  /// off-board indices. With o the chain's mean ownership seen from its own colour: o > 0.4
  /// alive, o < −0.4 dead, else alive when o >= 0. Seki (left alive) overrides: a chain whose
  /// liberties (two or more) are exactly those of an adjacent opponent chain, or an uncertain
  /// chain (|o| <= 0.4) sharing a liberty with an uncertain opponent chain.
  std::vector<PointStatus> status;
  /// Area score (Tromp-Taylor with dead stones removed; seki liberties neutral), Black − White
  /// − komi, in points.
  double area_margin = 0;
  /// Territory score (Japanese counting: territory + prisoners, dead stones as prisoners),
  /// Black − White − komi, in points.
  double territory_margin = 0;
  int playouts = 0;
};

class Search {
 public:
  /// Errors: an unknown policy or unusable policy model, an unreadable prior model (messages
  /// name the spec or path), options out of range (threads < 1, max_tree_mb < 1, ...).
  static absl::StatusOr<std::unique_ptr<Search>> create(const SearchOptions& options);
  ~Search();

  const SearchOptions& options() const;

  /// Searches the position of `game` with `to_play` to move (normally game.to_move()) and
  /// returns the root statistics; `result.move` is the most visited root move. Reuses the
  /// previous tree when `game` continues the previously searched game. No pass, resign or
  /// cleanup decision is taken here: the player takes them (gtp/search_player.h).
  SearchResult search(const Game& game, Color to_play, const SearchLimits& limits = {},
                      const AnalysisCallback* analysis = nullptr);

  /// Limits for the next move from a clock: the desired and worst times TimeControl::move_time
  /// gives (with options().time_lag), and options().playouts and options().visits when
  /// `budget_too` or when the clock gives no time (the first limit reached stops).
  SearchLimits limits_for(const Game& game, const TimeControl& clock, bool budget_too) const;

  /// Ownership over the simulations of the last search (per Vertex::index(), +1 Black,
  /// −1 White); empty before any search. From an analysis callback: over the simulations of
  /// the calling thread so far in the running search. Not to be called from other threads
  /// during a search.
  std::vector<float> ownership() const;

  /// Dead stones, seki and the final score of `game`'s position from `playouts` fresh
  /// playouts with the search's policy (deterministic for the seed).
  EndEstimate estimate_end(const Game& game, int playouts = 1000);

  /// The prior's guesser (nullptr without one), for the player's heat maps and explanations;
  /// not to be used while a search runs.
  Guesser* guesser();

  /// Points added to the komi Black's playouts must beat from the next search on (negative:
  /// taken off), for dynamic komi (search/dynamic_komi.h); the tree is kept. 0 by default.
  void set_extra_komi(double black_points);

  /// Drops the tree (GTP clear_board, boardsize, komi changes, undo of searched moves).
  void clear();

  /// Restarts the random numbers as a new Search with this seed would have them, so that what
  /// follows does not depend on what was searched before (hane analyze: a game's analysis is
  /// the same whichever games the process analysed before it).
  void reseed(uint64_t seed);

 private:
  class Impl;
  explicit Search(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Playout rate of a search from the empty board: `playouts` new simulations per run with
/// `options`, on a size x size board (for `hane bench --search`). Returns simulations per
/// second of wall time, and CPU seconds of the process in `cpu_seconds` if given.
absl::StatusOr<double> search_playouts_per_second(const SearchOptions& options, int size, int64_t playouts,
                                                  double* cpu_seconds = nullptr);

}  // namespace hane
