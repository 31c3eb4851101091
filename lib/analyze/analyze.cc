#include "analyze/analyze.h"

#include <algorithm>
#include <cmath>

#include "go/area.h"
#include "go/position.h"
#include "predict/load.h"
#include "predict/softmax.h"
#include "search/score_estimate.h"
#include "sgf/rules.h"

namespace hane {
namespace {

const RecordRules& rules_of(const GameRecord& record) {
  static const RecordRules fallback = default_record_rules();
  return record.declared_rules ? *record.declared_rules : fallback;
}

// The root's value for Black: the mean result of every simulation through the root's moves
// (their win rates weighted by visits), as KataGo reports a root. The best move's win rate
// alone is the largest of noisy estimates, biased towards the player to move at small budgets.
double black_winrate(const SearchResult& r, Color to_play) {
  double wins = 0;
  int64_t visits = 0;
  for (const MoveStats& m : r.children) {
    wins += m.winrate * static_cast<double>(m.visits);
    visits += m.visits;
  }
  const double w = visits > 0 ? wins / static_cast<double>(visits) : r.winrate;
  return to_play == Color::kBlack ? w : 1 - w;
}

// A game that did not end (resigned, lost on time, left unfinished) has open areas that the
// rules' counting gives to neither side, so it would count little more than the stones. There
// each empty point and dead stone the counting leaves open goes to the side that owns it at
// the end of most playouts (the sign of its mean ownership; 0 stays neutral, as do the
// liberties of chains in seki), as the playouts' own final boards count them; a dead stone
// always to its opponent. Then area counting: living stones plus those points; territory
// counting: the points (dead stones' included) plus prisoners, dead stones counting as
// prisoners too (go/score.h). Komi as the game's rules.
void settle_by_ownership(const Board& board, double komi, FinalAnalysis& f, AreaPoints& area) {
  const int n = board.geometry().num_vertices();
  std::vector<int8_t> owner(static_cast<size_t>(n), 0);  // +1 Black, -1 White
  for (const Vertex v : area.black) owner[static_cast<size_t>(v.index())] = 1;
  for (const Vertex v : area.white) owner[static_cast<size_t>(v.index())] = -1;
  const std::vector<PointStatus>& status = f.estimate.status;
  auto in_seki = [&](Vertex v) { return status[static_cast<size_t>(v.index())] == PointStatus::kSeki; };
  int dead_black = 0, dead_white = 0, stones_black = 0, stones_white = 0;
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Vertex v = board.at(x, y);
      const size_t i = static_cast<size_t>(v.index());
      const Color c = board.color(v);
      const bool dead = status[i] == PointStatus::kDead;
      if (c != Color::kEmpty && !dead) {
        ++(c == Color::kBlack ? stones_black : stones_white);
        continue;
      }
      if (dead) {
        ++(c == Color::kBlack ? dead_black : dead_white);
        owner[i] = c == Color::kBlack ? -1 : 1;
        continue;
      }
      if (owner[i] != 0) continue;
      bool seki_liberty = false;
      for (const Vertex m : board.neighbours(v)) seki_liberty |= board.is_stone(m) && in_seki(m);
      const float o = f.estimate.ownership[i];
      if (!seki_liberty && o != 0) owner[i] = o > 0 ? 1 : -1;
    }
  }
  f.black_area.clear();
  f.white_area.clear();
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Vertex v = board.at(x, y);
      const int8_t o = owner[static_cast<size_t>(v.index())];
      if (o > 0) f.black_area.push_back(v);
      if (o < 0) f.white_area.push_back(v);
    }
  }
  const double black_points = static_cast<double>(f.black_area.size());
  const double white_points = static_cast<double>(f.white_area.size());
  f.estimate.area_margin = stones_black + black_points - stones_white - white_points - komi;
  f.estimate.territory_margin = black_points + dead_white + board.prisoners(Color::kBlack) -
                                (white_points + dead_black + board.prisoners(Color::kWhite)) - komi;
  f.score = f.territory_counting ? f.estimate.territory_margin : f.estimate.area_margin;
}

}  // namespace

Rules record_game_rules(const GameRecord& record) {
  const RecordRules& r = rules_of(record);
  Rules rules;
  rules.allow_suicide = r.allow_suicide;
  rules.superko = r.superko;
  // Area counting with handicap: White's points for Black's handicap stones (go/score.h).
  const HandicapCompensation compensation = r.name == "Chinese" ? HandicapCompensation::kPerStone
                                            : r.name == "AGA"   ? HandicapCompensation::kPerStoneButOne
                                                                : HandicapCompensation::kNone;
  const int stones = record.handicap >= 2 && record.setup.white.empty() ? static_cast<int>(record.setup.black.size()) : 0;
  rules.komi = record.komi + handicap_compensation(compensation, stones);
  return rules;
}

absl::StatusOr<Game> replay_game(const GameRecord& record, const BeforeMove& before_move) {
  Game game(record.board_size, record_game_rules(record));
  for (const Vertex v : record.setup.empty_points) game.set_stone(v, Color::kEmpty);
  for (const Vertex v : record.setup.black) game.set_stone(v, Color::kBlack);
  for (const Vertex v : record.setup.white) game.set_stone(v, Color::kWhite);
  game.set_to_move(record.to_play);
  int number = 0;
  for (const GameEvent& e : record.events) {
    switch (e.type) {
      case GameEvent::Type::kSetup:
        game.set_stone(e.vertex, e.color);
        break;
      case GameEvent::Type::kToPlay:
        game.set_to_move(e.color);
        break;
      case GameEvent::Type::kMove: {
        ++number;
        if (before_move) before_move(game, Move{e.color, e.vertex});
        const Legality l = game.play(e.vertex, e.color);
        if (l != Legality::kLegal) {
          return absl::InvalidArgumentError("move " + std::to_string(number) + " (" +
                                            (e.color == Color::kBlack ? "B " : "W ") +
                                            to_gtp(e.vertex, record.board_size) + "): " +
                                            std::string(legality_name(l)) + " (" + rules_of(record).name + " rules)");
        }
        break;
      }
    }
  }
  return game;
}

Analyzer::Analyzer(const AnalyzeOptions& options, std::unique_ptr<Search> search, std::unique_ptr<Search> large,
                   std::unique_ptr<Guesser> guesser)
    : options_(options), small_(std::move(search)), large_(std::move(large)), search_(small_.get()),
      guesser_(std::move(guesser)) {}

Analyzer::~Analyzer() = default;

absl::StatusOr<std::unique_ptr<Analyzer>> Analyzer::create(const AnalyzeOptions& options) {
  if (options.visits < 0 || options.playouts < 0 || !(options.seconds >= 0)) {
    return absl::InvalidArgumentError("visits, playouts and seconds: at least 0");
  }
  if (options.visits == 0 && options.playouts == 0 && options.seconds == 0) {
    return absl::InvalidArgumentError("no budget: visits, playouts or seconds");
  }
  if (!(options.mistake >= 0 && options.mistake <= 1)) return absl::InvalidArgumentError("mistake: 0..1");
  if (options.end_playouts < 1) return absl::InvalidArgumentError("end playouts: at least 1");
  SearchOptions s = options.search;
  s.reuse_tree = true;
  auto search = Search::create(s);
  if (!search.ok()) return search.status();
  std::unique_ptr<Search> large;
  if (options.large_board_search) {
    SearchOptions l = *options.large_board_search;
    l.reuse_tree = true;
    auto created = Search::create(l);
    if (!created.ok()) return created.status();
    large = std::move(*created);
  }
  std::unique_ptr<Guesser> guesser;
  if (!options.guesser.empty() && options.guesser != "none") {
    auto g = load_guesser(options.guesser);
    if (!g.ok()) return g.status();
    guesser = std::move(*g);
  }
  return std::unique_ptr<Analyzer>(new Analyzer(options, std::move(*search), std::move(large), std::move(guesser)));
}

SearchResult Analyzer::search_to_budget(const Game& game, Color to_play) {
  // Root visits, those of the subtree reused from the previous position included (as Pachi's
  // `-t =N` counts).
  SearchLimits limits;
  limits.visits = options_.visits;
  limits.playouts = options_.playouts;
  limits.seconds = options_.seconds;
  return search_->search(game, to_play, limits);
}

absl::StatusOr<GameAnalysis> Analyzer::analyze(const GameRecord& record, const OnPosition& on_position,
                                               const ShouldStop& stop) {
  GameAnalysis out;
  out.rules = rules_of(record).name;
  search_ = record.board_size >= kLargeBoard && large_ ? large_.get() : small_.get();
  search_->clear();
  search_->reseed(options_.search.seed);
  bool stopped = false;
  int done = 0;
  std::vector<Vertex> legal;   // scratch for the guesser
  std::vector<float> scores;
  auto searched = [&] {
    ++done;
    if (on_position) on_position(done);
  };
  auto status = replay_game(record, [&](const Game& game, const Move& move) {
    if (stopped || (stop && stop())) {
      stopped = true;
      return;
    }
    MoveAnalysis a;
    a.number = static_cast<int>(out.moves.size()) + 1;
    a.color = move.color;
    a.played = move.vertex;
    const SearchResult r = search_to_budget(game, move.color);
    const double before = black_winrate(r, move.color);
    if (out.moves.empty()) {
      out.black_start = before;
    } else {
      out.moves.back().black_after = before;
    }
    a.black_before = before;
    a.visits = r.root_visits;
    a.search_score = r.score_mean;
    a.static_score = estimate_score(game, nullptr, ScoreEstimateOptions{}).margin;
    if (!r.children.empty()) {
      a.best = r.children.front().move;
      a.best_winrate = r.children.front().winrate;
      a.pv = r.children.front().pv;
      // The variation ends where the game would: at the second pass in a row.
      for (size_t k = 1; k < a.pv.size(); ++k) {
        if (a.pv[k].is_pass() && a.pv[k - 1].is_pass()) {
          a.pv.resize(k + 1);
          break;
        }
      }
    } else {
      a.best = r.move;
      a.best_winrate = r.winrate;
    }
    if (guesser_ && move.vertex.is_point()) {
      const Board& board = game.board();
      legal.resize(board.empty_points().size());
      legal.resize(static_cast<size_t>(legal_moves(board, move.color, legal)));
      const auto it = std::find(legal.begin(), legal.end(), move.vertex);
      if (it != legal.end()) {
        scores.resize(legal.size());
        guesser_->score(position_of(game, move.color), legal, scores);
        const float mine = scores[static_cast<size_t>(it - legal.begin())];
        a.guesser_rank = 1 + static_cast<int>(std::count_if(scores.begin(), scores.end(), [&](float s) { return s > mine; }));
        // Scores that are not probabilities are log-scale (predict/guesser.h).
        if (!guesser_->gives_probabilities()) softmax_in_place(scores);
        a.guesser_probability = scores[static_cast<size_t>(it - legal.begin())];
      }
    }
    out.moves.push_back(std::move(a));
    searched();
  });
  if (!status.ok()) return status.status();
  if (stopped || (stop && stop())) return absl::CancelledError("stopped");
  const Game& game = *status;
  const Color to_play = game.to_move();
  const SearchResult r = search_to_budget(game, to_play);
  const double final_winrate = black_winrate(r, to_play);
  if (out.moves.empty()) {
    out.black_start = final_winrate;
  } else {
    out.moves.back().black_after = final_winrate;
  }
  searched();
  for (MoveAnalysis& a : out.moves) {
    a.drop = a.color == Color::kBlack ? a.black_before - a.black_after : a.black_after - a.black_before;
    a.mistake = a.drop > options_.mistake;
  }

  FinalAnalysis& f = out.final_position;
  f.estimate = search_->estimate_end(game, options_.end_playouts);
  const Board& board = game.board();
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Vertex v = board.at(x, y);
      if (f.estimate.status[static_cast<size_t>(v.index())] == PointStatus::kDead) f.dead.push_back(v);
    }
  }
  f.territory_counting = out.rules == "Japanese" || out.rules == "Korean";
  f.finished = game.consecutive_passes() >= 2;
  AreaPoints area = area_points(board, f.dead);
  if (f.finished) {
    // Both passed: the board is settled and counted as the rules count it.
    f.black_area = std::move(area.black);
    f.white_area = std::move(area.white);
    f.score = f.territory_counting ? f.estimate.territory_margin : f.estimate.area_margin;
    return out;
  }
  settle_by_ownership(board, game.rules().komi, f, area);
  return out;
}

}  // namespace hane
