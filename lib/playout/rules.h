// The `rules` playout policy: a heavy, hand-written policy as in the classic engines (MoGo:
// Gelly, Wang, Munos, Teytaud 2006, "Modification of UCT with patterns in Monte-Carlo Go";
// Pachi's `moggy`; Fuego's playout policy). It looks only near the last two moves, as Pachi
// does, and falls back to a uniformly random move:
//
//   0. ko       (rate `ko`, Pachi's moggy `korate`; a `koage` of 4 here, 3 in Pachi 12.90):
//      fewer than 4 moves after a ko capture, once the ko point may be played again, play it,
//      whoever is to move (as moggy does): the side that lost the stone retakes the ko after a
//      threat and its answer; the side that took it connects the ko, on its own move after
//      the capture (the point is no eye of its: the other side holds two of its diagonals, or
//      one at the edge). No refused self-atari.
//   1. capture  (rate `capture`): capture an opponent chain in atari that holds the last move
//      or touches the mover's previous move; the largest one.
//   2. save     (rate `save`): a chain of the mover next to the last move is in atari: capture
//      an opponent chain in atari touching it, or extend at its liberty when that leaves the
//      chain at least 2 liberties; one of these moves at random.
//      With rate `ladder`, an extension that leaves exactly 2 liberties is refused when the
//      ladder reader (features/ladder.h) shows the chain is then caught in a ladder.
//   2b. ko threat (rate `ko_threat`, off by default): the opponent has just taken a ko, so the
//      mover may not retake at once: an atari on a liberty of an opponent chain with 2
//      liberties (anywhere, the chains next to the ko included) where the atari stone keeps 2
//      or more (no self-atari); one of the first 16 found, by rows from a random one, at
//      random. Looked for only when a ko was just taken: a scan of the board, rare in a
//      playout. The save rule answers it; with the ko rule on, the side that took the ko
//      connects it instead (rule 0 comes first).
//   3. nakade   (rate `nakade`): an empty neighbour of the last move (8-neighbourhood) that is
//      the vital point of a killing eye space of 3 to 6 points (features/nakade.h
//      nakade_vital), whoever encloses it: it kills the opponent's eye or makes two of one's own.
//   4. two liberties (rate `two_liberty`): the last move's chain has 2 liberties and an atari at
//      one of them starts a working ladder: play that atari; or a chain of the mover next to the
//      last move has 2 liberties and the opponent could catch it in a ladder: extend to 3 or
//      more liberties, or capture a chain in atari next to it. One of these moves at random.
//      (Pachi's moggy: its "2lib" rule.) Unlike the others, this rule draws its rate before it
//      looks for its move (its ladder reads are dear), so a lower rate also costs less time.
//      With `two_liberty_reads` 0 it reads no ladder and follows Pachi 12.90's heuristic instead
//      (tactics/2lib.c): the same chains, unless their owner has miai (connect on both
//      liberties, or connect on one and pull out on the other); the attacker ataris on a
//      liberty where its stone keeps 2 liberties, the owner extends where it reaches 3 or
//      captures a chain in atari next to it or ataris a 2-liberty one; a liberty with 3 or more
//      attacker stones or wall around it is dropped when the other liberty qualifies.
//   5. pattern  (rate `pattern`): an empty neighbour of the last move (8-neighbourhood) that
//      matches one of MoGo's 3x3 hane, cut and edge patterns (features/mogo3x3.h, in all 8
//      symmetries and both colours); one of them at random. With rate `pattern_second`, the
//      neighbours of the second-last move (the mover's own previous move) are candidates too.
//      As `rules-gamma:MODEL` (rules_gamma.h) the answer is drawn by a gamma model's weights.
//   6. random: a uniformly random move (uniform.h) that fills no own eye; with rate
//      `self_atari`, moves that leave a chain of `self_atari_stones` or more stones in atari
//      without capturing (features/tactics.h is_self_atari) are refused (and passing is
//      preferred to them, which keeps sekis).
//
// Rule moves are legal, never fill an own eye (Board::is_eye), and pattern moves are never such
// a self-atari. Each rule fires with its rate, drawn from the playout's Rng; a rate of 0 or 1
// draws nothing, so with every rate 0 the policy plays exactly the uniform policy's moves.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "playout/board_policy.h"
#include "playout/registry.h"

namespace hane {

/// The rates of the rules, each a probability in [0, 1]; defaults follow Pachi 12.90's moggy
/// (lcapturerate 90, atarirate always, patternrate 100, selfatarirate 60 plus its always-on
/// check of the worst self-ataris, which the higher rate here stands for). Settings in
/// PolicyOptions: "rules.capture", "rules.save", "rules.ladder", "rules.nakade",
/// "rules.two_liberty", "rules.two_liberty_reads" (0 or 1), "rules.safe_capture" (0 or 1), "rules.pattern",
/// "rules.pattern_second", "rules.ko", "rules.ko_threat", "rules.self_atari", "rules.self_atari_stones" (the same
/// keys under "rules-gamma." for rules-gamma, with "rules-gamma.background").
struct RulesOptions {
  double capture = 0.9;
  double save = 1.0;
  /// Rate of the ladder check on the save rule's extensions.
  double ladder = 0;
  double nakade = 0;
  double two_liberty = 0;
  /// The two-liberty rule reads ladders (true) or follows Pachi's heuristic (false).
  bool two_liberty_reads = true;
  /// The capture and save rules refuse a capture after which the capturing chain, joined to
  /// other stones of its colour, is left in atari: the opponent takes back more than it lost
  /// (a snapback, or a corner chain in atari that captures a throw-in instead of the chain
  /// that holds it). A lone capturing stone (a ko) is allowed. Pachi's moggy refuses such
  /// self-ataris with every move (is_bad_selfatari). "rules.safe_capture" 0 or 1.
  bool safe_capture = false;
  double pattern = 1.0;
  /// Rate of the ko rule (0: off).
  double ko = 0;
  /// Rate of the ko-threat rule (0: off): an atari right after the opponent's ko capture.
  double ko_threat = 0;
  /// Rate at which the pattern rule also looks around the second-last move.
  double pattern_second = 0;
  double self_atari = 0.9;
  /// The smallest chain (stones, after the move) whose self-atari is refused; smaller ones are
  /// allowed, as nakade and throw-ins need them. >= 1.
  int self_atari_stones = 3;
  /// `rules-gamma` only (rules_gamma.h, setting "rules-gamma.background"): the weight b of the
  /// rest of the board against the learned pattern answer. >= 0.
  double gamma_background = 0.25;
  /// `rules-gamma` only ("rules-gamma.liberties" 0 or 1): read each neighbour's pattern with
  /// its chains' liberty buckets (pattern_code) instead of the table by colours alone.
  bool gamma_liberties = false;
  /// `rules-gamma` only ("rules-gamma.candidates", 0..16): the move on the rest of the board
  /// (when no rule chose one) is drawn among this many uniformly random empty points by their
  /// 3x3 pattern gammas (refusing own eyes, illegal points and refused self-ataris), as Leela
  /// 0.x scores a few random points; 0: a uniformly random move, as `rules` plays.
  int gamma_candidates = 0;
};

/// Which rule chose a move (for tests and statistics). New rules go last: the golden playouts
/// (tests/playout_rules_golden_test.cc) hash these values.
enum class RulesRule : uint8_t { kKo, kCapture, kSave, kNakade, kTwoLiberty, kPattern, kRandom, kKoThreat };

struct LocalGammas;

class RulesPolicy final : public BoardPolicy {
 public:
  /// With `gammas`, the pattern rule is the learned one of rules_gamma.h.
  explicit RulesPolicy(const RulesOptions& options = {}, std::shared_ptr<const LocalGammas> gammas = nullptr);

  std::string name() const override { return gammas_ ? "rules-gamma" : "rules"; }
  void reset(const Board& board, Color to_move, Vertex last = Vertex::none(),
             Vertex second_last = Vertex::none()) override;
  void play(Vertex v) override;
  Vertex sample(Rng& rng) override;
  std::unique_ptr<PlayoutPolicy> clone() const override { return std::make_unique<RulesPolicy>(options_, gammas_); }

  const RulesOptions& options() const { return options_; }
  /// The rule that chose the move of the last sample().
  RulesRule last_rule() const { return last_rule_; }

  /// rules-gamma's pattern answer (rules_gamma.h) before its draw: the empty neighbours of the
  /// last move (and of the second-last with `with_second`), each with its weight (the product
  /// of its 3x3 pattern's and distances' gammas), and the background weight of the rest of the
  /// board. The draw picks a neighbour with probability weight / (total + background), skipping
  /// those that are not answer_acceptable(), or else plays on the rest of the board.
  struct LearnedAnswer {
    std::array<Vertex, 16> moves;
    std::array<float, 16> weights;
    int n = 0;
    float total = 0;       // sum of the weights
    float background = 0;  // rules-gamma.background * gamma(empty 3x3 pattern) * empty points
  };
  /// The gamma-model features behind one candidate's weight: the pattern's index into
  /// GammaModel::gammas, and the move_distance() to the last and second-last moves (0 when more
  /// than 4 or there is none; only 2..4 have a gamma).
  struct LocalFeatures {
    int pattern = 0;
    int distance = 0, distance2 = 0;
  };
  /// Fills `out` (and `features`, for simulation balancing) for the side to move; returns out.n.
  /// Only for rules-gamma (a policy made with gammas).
  int learned_answer(LearnedAnswer& out, bool with_second, std::array<LocalFeatures, 16>* features = nullptr) const;
  /// A candidate of the pattern answer may be played: legal, no own eye, no refused self-atari.
  bool answer_acceptable(Vertex v) const;
  /// With rules-gamma.candidates: from now on each sample() that reaches the move on the rest
  /// of the board records its draw in `*trace` (the points drawn and their weights; background
  /// 0), for simulation balancing; nullptr stops. trace->n is 0 when no such draw was made.
  void trace_candidates(LearnedAnswer* trace) { candidates_trace_ = trace; }

 private:
  // A rate as a threshold on 32 random bits: 0 never fires, 2^32 always does.
  static uint64_t threshold(double rate);
  static bool fires(uint64_t threshold, Rng& rng) {
    if (threshold == 0) return false;
    if (threshold >> 32) return true;
    return (rng.next() >> 32) < threshold;
  }
  Vertex ko_move() const;
  Vertex capture_move() const;
  // The ladder reads play on board_ and take their moves back (features/ladder.h *_in_place).
  Vertex save_move(Rng& rng);
  Vertex ko_threat_move(Rng& rng) const;  // draws the scan's first row
  Vertex nakade_move(Rng& rng) const;
  Vertex two_liberty_move(Rng& rng);
  Vertex two_liberty_heuristic_move(Rng& rng) const;
  // The owner of `chain` (liberties `libs`) answers an atari on either liberty.
  bool miai(Vertex chain, const std::array<Vertex, 2>& libs) const;
  Vertex pattern_move(Rng& rng) const;
  Vertex learned_pattern_move(Rng& rng) const;  // with gammas_
  // Adds the empty neighbours of `around` that match a pattern and are acceptable.
  template <typename C>
  void add_pattern_moves(Vertex around, C& moves) const;
  Vertex random_move_without_self_atari(Rng& rng) const;
  // rules-gamma.candidates: one of a few random empty points by their pattern gammas (none when
  // none of them is acceptable); records the draw in `trace` when given.
  Vertex learned_random_move(Rng& rng, LearnedAnswer* trace = nullptr) const;
  bool acceptable(Vertex v) const;  // legal for to_move_ and fills no own eye
  bool self_atari(Vertex v) const;  // a refused self-atari for to_move_ (tactics.h is_self_atari)
  bool capture_refused(Vertex v) const;  // a capture RulesOptions::safe_capture refuses

  RulesOptions options_;
  uint64_t capture_threshold_, save_threshold_, ladder_threshold_, nakade_threshold_, two_liberty_threshold_,
      pattern_threshold_, pattern_second_threshold_, ko_threshold_, ko_threat_threshold_, self_atari_threshold_;
  const uint8_t* patterns_;  // features/mogo3x3.h's table: 2^16 keys, bit 0 black, bit 1 white
  std::shared_ptr<const LocalGammas> gammas_;
  RulesRule last_rule_ = RulesRule::kRandom;
  LearnedAnswer* candidates_trace_ = nullptr;
  // The point of the last ko capture (Board::ko_point() just after it) and the moves since;
  // kept only when the ko rule is on.
  Vertex last_ko_ = Vertex::none();
  int moves_since_ko_ = 0;
};

/// Reads the settings of `policy` ("rules", or "rules-gamma" whose keys are "rules-gamma.*" and
/// add "rules-gamma.background" and "rules-gamma.liberties") over the defaults. Errors (InvalidArgument) name an unknown key
/// (and list the known ones) or a value that is not a number in range.
absl::StatusOr<RulesOptions> rules_options(const PolicyOptions& options, std::string_view policy = "rules");

/// The registry's factory (registry.h, PolicyFactory): `rules` takes no model.
absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_rules_policy(std::string_view model,
                                                                 const PolicyOptions& options);

}  // namespace hane
