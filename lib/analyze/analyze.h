// Reviewing a finished game with the engine: for every move of the main line, Black's win rate
// before and after it, the engine's best move and principal variation, the played move's rank
// and probability under a guesser, and a mistake mark when the mover's win rate drops by more
// than a threshold; then the final position's ownership, dead stones and estimated score.
//
// Win rates come from the tree search (search/search.h): the position before move i is searched
// with the mover to play, and the root's value (the mean result of its simulations: the root
// moves' win rates weighted by their visits, as KataGo reports a root) is the position's win
// rate for the player to move. The best move's own win rate would be the largest of noisy
// estimates, biased towards the player to move at small budgets.
// The win rate after move i is the one before move i+1; after the last move the final position
// is searched too, so a game of N moves costs N + 1 searches. The tree is reused from one
// position to the next, and each search stops when the root has `visits` visits, reused
// ones included (a budget on the root, as KataGo's maxVisits).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "go/game.h"
#include "predict/guesser.h"
#include "search/search.h"
#include "sgf/record.h"

namespace hane {

struct AnalyzeOptions {
  /// The engine: policy, prior, seed, knobs (threads: per game).
  SearchOptions search;
  /// The engine on large boards (kLargeBoard and more) when set, as the engine plays them
  /// (gtp::EngineOptions::large_board_search).
  std::optional<SearchOptions> large_board_search;
  /// The budget per position, the first limit reached stopping the search (0: none; at least
  /// one must be set): root visits, reused ones included; new simulations; seconds.
  int64_t visits = 1000;
  int64_t playouts = 0;
  double seconds = 0;
  /// A move is a mistake when the mover's win rate drops by more than this (0..1).
  double mistake = 0.1;
  /// Playouts behind the final ownership, dead stones and score (>= 1).
  int end_playouts = 1000;
  /// Model file of the guesser whose rank of each played move is reported (predict/load.h),
  /// or "none".
  std::string guesser = "none";
};

/// One move of the main line. Win rates are Black's, in [0, 1].
struct MoveAnalysis {
  int number = 0;             // 1 for the first move (setup is not counted)
  Color color = Color::kBlack;
  Vertex played = Vertex::pass();
  double black_before = 0.5;  // Black's win rate before the move (the mover to play)
  double black_after = 0.5;   // after it (the next player to play)
  /// What the mover lost: black_before - black_after for Black, the opposite for White.
  double drop = 0;
  bool mistake = false;       // drop > AnalyzeOptions::mistake
  Vertex best = Vertex::pass();  // the engine's most visited move before the move
  double best_winrate = 0.5;     // its win rate for the mover
  std::vector<Vertex> pv;        // principal variation from `best`, up to two passes in a row
  int64_t visits = 0;            // root visits of the search before the move
  /// Black's margin before the move, points (Black − White − komi, area counting): the mean
  /// final margin of the search's playouts, and the static estimate of the whole-board maps
  /// with the tactics reader's dead stones (search/score_estimate.h, no playouts, well under a
  /// millisecond on 19×19), side by side.
  double search_score = 0;
  double static_score = 0;
  /// Rank of the played move among the legal moves by the guesser's score (1 = its first
  /// choice; ties share the better rank) and its probability; nullopt for a pass or without
  /// a guesser.
  std::optional<int> guesser_rank;
  std::optional<double> guesser_probability;
};

/// The final position: ownership (per Vertex::index(), +1 Black .. -1 White), the status of
/// every stone and the estimated score (search/search.h, EndEstimate).
struct FinalAnalysis {
  EndEstimate estimate;
  std::vector<Vertex> dead;                 // stones estimated dead, in board order
  std::vector<Vertex> black_area, white_area;  // empty points and dead stones each side owns
  /// The game ended with two passes: the areas are those the rules count (regions reaching
  /// one colour only once the dead stones are removed). Otherwise (resigned, on time,
  /// unfinished) the open points go to the side that owns them at the end of most of the
  /// playouts (the sign of the mean ownership; seki liberties neutral), and the estimate's
  /// margins are counted from those areas.
  bool finished = false;
  /// The score by the record's counting: territory for Japanese and Korean rules, else area;
  /// Black - White - komi, points.
  double score = 0;
  bool territory_counting = false;
};

struct GameAnalysis {
  double black_start = 0.5;  // Black's win rate before the first move
  std::vector<MoveAnalysis> moves;
  FinalAnalysis final_position;
  std::string rules;         // the rule set replayed and searched with ("Japanese", ...)
};

/// Called before each move of the main line with the game so far and the move (its colour is
/// the mover, whoever was to play).
using BeforeMove = std::function<void(const Game& game, const Move& move)>;

/// The game a record's main line leaves, with its rules (RU, else sgf/rules.h's default) and
/// komi, calling `before_move` (when given) before each move. Errors (InvalidArgument): an
/// illegal move, "move 57 (W D4): superko".
absl::StatusOr<Game> replay_game(const GameRecord& record, const BeforeMove& before_move = {});

/// The rules a record is replayed and searched with: its RU, else the default (sgf/rules.h);
/// komi KM, plus White's points for the handicap stones (HA >= 2, the root's AB) under the
/// Chinese rules (one per stone) and AGA's (one fewer), as their area counting gives them.
Rules record_game_rules(const GameRecord& record);

class Analyzer {
 public:
  /// Errors: those of Search::create and of loading the guesser (naming the file), an option
  /// out of range.
  static absl::StatusOr<std::unique_ptr<Analyzer>> create(const AnalyzeOptions& options);
  ~Analyzer();

  const AnalyzeOptions& options() const { return options_; }

  /// Called after each searched position with the positions done so far in this game.
  using OnPosition = std::function<void(int done)>;
  /// Polled between positions; true stops the analysis (then the result is Cancelled).
  using ShouldStop = std::function<bool()>;

  /// Analyses every move of `record`'s main line (positions: its moves + 1). Deterministic
  /// for a seed with one search thread. Errors: InvalidArgument for a record that does not
  /// replay; Cancelled when `stop` said so.
  absl::StatusOr<GameAnalysis> analyze(const GameRecord& record, const OnPosition& on_position = {},
                                       const ShouldStop& stop = {});

 private:
  Analyzer(const AnalyzeOptions& options, std::unique_ptr<Search> search, std::unique_ptr<Search> large,
           std::unique_ptr<Guesser> guesser);
  SearchResult search_to_budget(const Game& game, Color to_play);

  AnalyzeOptions options_;
  std::unique_ptr<Search> small_, large_;  // large_: nullptr without large-board settings
  Search* search_ = nullptr;               // the one for the game being analysed
  std::unique_ptr<Guesser> guesser_;
};

}  // namespace hane
