#include "gtp/search_player.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "absl/strings/str_cat.h"
#include "go/position.h"
#include "predict/softmax.h"
#include "search/score_estimate.h"

namespace hane::gtp {
namespace {

std::string ordinal(int n) {
  const int mod100 = n % 100, mod10 = n % 10;
  const char* suffix = (mod100 >= 11 && mod100 <= 13) ? "th" : mod10 == 1 ? "st" : mod10 == 2 ? "nd" : mod10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

}  // namespace

EngineOptions default_engine_options(const std::string& patterns_dir) {
  EngineOptions o;
  // The best measured at equal time (docs/strength.md): cheap `rules` playouts with the
  // learned decision tree as the prior. Softmax playouts are stronger per playout but cost
  // about 5x more each, and lose at equal time.
  o.search.policy = "rules";
  o.search.prior = patterns_dir + "/kgs-tree.model";
  // On large boards the leaf softmax trained on every training position (the tree's leaves
  // refined by a softmax): the 2M-position leaf softmax won its SPRT against the tree prior at
  // equal clock on 19x19 (docs/strength.md, section 3: 295 games, +51 Elo [+11, +91], H1), and
  // this one won its SPRT against that (279 games, +51 Elo [+10, +92], H1). On 9x9 the leaf
  // softmax's SPRT has not decided, so the tree stays there.
  o.large_board_search = o.search;
  o.large_board_search->prior = patterns_dir + "/kgs-leaf-all.model";
  // RAVE equivalence 250 on large boards (500 was chosen on 9x9): its SPRT against 500 at equal
  // clock on 19x19 (docs/strength.md, section 9: 179 games, +73 Elo [+21, +125], H1).
  o.large_board_search->rave_equiv = 250;
  return o;
}

SearchPlayer::SearchPlayer(const EngineOptions& options, std::unique_ptr<Search> search, std::unique_ptr<Search> large)
    : options_(options),
      search_(std::move(search)),
      large_(std::move(large)),
      dynamic_komi_{DynamicKomi(options.dynamic_komi), DynamicKomi(options.dynamic_komi)} {}

SearchPlayer::~SearchPlayer() = default;

absl::StatusOr<std::unique_ptr<SearchPlayer>> SearchPlayer::create(const EngineOptions& options) {
  EngineOptions o = options;
  // A count given replaces the default budget; with --visits alone, no playout cap.
  for (SearchOptions* s : {&o.search, o.large_board_search ? &*o.large_board_search : nullptr}) {
    if (s && (o.playouts > 0 || o.visits > 0)) {
      s->playouts = o.playouts;
      s->visits = o.visits;
    }
  }
  if (o.resign_moves < 1) {
    return absl::InvalidArgumentError("resign moves must be >= 1, got " + std::to_string(o.resign_moves));
  }
  auto search = Search::create(o.search);
  if (!search.ok()) return search.status();
  std::unique_ptr<Search> large;
  if (o.large_board_search) {
    auto l = Search::create(*o.large_board_search);
    if (!l.ok()) return absl::Status(l.status().code(), absl::StrCat("on large boards: ", l.status().message()));
    large = std::move(*l);
  }
  return std::unique_ptr<SearchPlayer>(new SearchPlayer(o, std::move(*search), std::move(large)));
}

std::string SearchPlayer::name() const {
  std::string budget;
  if (count_budget()) {
    const SearchOptions& s = options_.search;
    if (s.playouts > 0) budget = std::to_string(s.playouts) + " playouts";
    if (s.visits > 0) budget += (budget.empty() ? "" : " or ") + std::to_string(s.visits) + " visits";
  }
  if (options_.time_per_move > 0) {
    char t[32];
    std::snprintf(t, sizeof t, "%gs", options_.time_per_move);
    budget += (budget.empty() ? "" : " or ") + std::string(t) + " per move";
  }
  std::string joseki;
  if (options_.search.joseki != "none") {
    char w[32];
    std::snprintf(w, sizeof w, "%g", options_.search.joseki_weight);
    joseki = ", joseki " + options_.search.joseki + " (weight " + w + ")";
  }
  std::string large;
  if (const auto& l = options_.large_board_search) {
    large = absl::StrCat(", on boards of ", kLargeBoard, " and more: policy ", l->policy);
    for (const auto& [key, value] : l->policy_options.settings) absl::StrAppend(&large, " ", key, "=", value);
    absl::StrAppend(&large, ", prior ", l->prior);
    if (l->rave_equiv != options_.search.rave_equiv) absl::StrAppend(&large, ", RAVE equivalence ", l->rave_equiv);
  }
  const std::string lgr = options_.search.last_good_reply ? " with last-good-reply" : "";
  return "mcts, policy " + options_.search.policy + lgr + ", prior " + options_.search.prior + joseki + ", " + budget + ", " +
         std::to_string(options_.search.threads) + " thread(s)" + large;
}

SearchLimits SearchPlayer::limits(const Game& game, const Request& request) const {
  SearchLimits l;
  if (request.clock && request.clock->settings().kind != TimeSettings::Kind::kNone) {
    l = search_for(game.size()).limits_for(game, *request.clock, options_.playouts > 0 || options_.visits > 0);
    if (options_.time_per_move > 0) {
      l.seconds = l.seconds > 0 ? std::min(l.seconds, options_.time_per_move) : options_.time_per_move;
      l.desired_seconds = std::min(l.desired_seconds, l.seconds);
    }
  } else {
    l.seconds = options_.time_per_move;
    if (count_budget()) {
      l.playouts = options_.search.playouts;
      l.visits = options_.search.visits;
    }
  }
  l.stop = request.stop;
  return l;
}

SearchResult SearchPlayer::genmove(const Game& game, const Request& request) {
  const SearchLimits l = limits(game, request);
  AnalysisCallback callback;
  if (request.report) {
    callback.interval_ms = std::max(1, static_cast<int>(std::lround(request.report_interval * 1000)));
    callback.on_update = request.report;
  }
  // Dynamic komi (search/dynamic_komi.h): the mover's goal in points beyond the real komi.
  DynamicKomi& dk = dynamic_komi_[request.color == Color::kBlack ? 0 : 1];
  const int move_number = static_cast<int>(game.moves().size()) + 1, points = game.size() * game.size();
  const double extra = dk.for_move(move_number, points);
  Search& search = search_for(game.size());
  search.set_extra_komi(request.color == Color::kBlack ? extra : -extra);
  SearchResult r = search.search(game, request.color, l, request.report ? &callback : nullptr);
  search.set_extra_komi(0);
  dk.update(r.winrate, request.color == Color::kBlack ? r.score_mean : -r.score_mean, move_number, points);
  r.extra_komi = extra;
  decide(game, request, r);
  return r;
}

namespace {

// Empty points the game has not decided yet: touching stones of one colour at most (a point
// between both colours is dame, or a liberty of a dead or seki chain) and owned by neither side
// in the playouts (|ownership| < 0.5).
int open_points(const Board& board, const EndEstimate& e) {
  int open = 0;
  for (int16_t p : board.empty_points()) {
    const Vertex v(p);
    bool black = false, white = false;
    for (Vertex n : board.neighbours(v)) {
      black |= board.color(n) == Color::kBlack;
      white |= board.color(n) == Color::kWhite;
    }
    if (!(black && white) && std::abs(e.ownership[static_cast<size_t>(p)]) < 0.5f) ++open;
  }
  return open;
}

}  // namespace

// The player's decisions on a search result: cleanup, pass, resign (search_player.h).
void SearchPlayer::decide(const Game& game, const Request& request, SearchResult& r) {
  const Color to_play = request.color;
  const Board& board = game.board();
  const bool opponent_passed = !game.moves().empty() && game.moves().back().vertex.is_pass() &&
                               game.moves().back().color == opponent(to_play);
  auto best_non_pass = [&](auto accept) -> const MoveStats* {
    for (const MoveStats& s : r.children) {
      if (!s.move.is_pass() && s.visits > 0 && accept(s.move)) return &s;
    }
    return nullptr;
  };
  auto choose = [&](const MoveStats* s) {
    r.move = s ? s->move : Vertex::pass();
    r.winrate = s ? s->winrate : r.winrate;
  };
  if (request.cleanup) {
    const EndEstimate e = estimate_end(game);
    // Liberties of opponent stones estimated dead: playing there captures them.
    std::vector<uint8_t> target(e.status.size(), 0);
    bool any_dead = false;
    for (size_t i = 0; i < e.status.size(); ++i) {
      const Vertex v(static_cast<int>(i));
      if (e.status[i] != PointStatus::kDead || board.color(v) != opponent(to_play)) continue;
      any_dead = true;
      for (Vertex n : board.neighbours(v)) {
        if (board.is_empty(n)) target[n.index()] = 1;
      }
    }
    if (any_dead) {
      // The most visited target, else any legal target point, else the best other move; pass
      // only when no move is left.
      if (const MoveStats* s = best_non_pass([&](Vertex v) { return target[v.index()] != 0; })) return choose(s);
      for (int16_t p : board.empty_points()) {
        const Vertex v(p);
        if (target[p] && game.legal(v, to_play) == Legality::kLegal) {
          r.move = v;
          return;
        }
      }
      return choose(best_non_pass([](Vertex) { return true; }));
    }
  }
  if (opponent_passed) {
    const EndEstimate e = estimate_end(game);
    const double black = request.territory ? e.territory_margin : e.area_margin;
    const double margin = to_play == Color::kBlack ? black : -black;
    // Pass when the game is over (no open point) and passing wins under the game's scoring with
    // the dead stones removed, or when the search sees no hope in going on (so that a lost game
    // still ends).
    if ((margin > 0 && open_points(board, e) == 0) || r.winrate < 0.05) {
      r.move = Vertex::pass();
      low_moves_ = 0;
      return;
    }
    choose(best_non_pass([](Vertex) { return true; }));
  }
  // Resign after options().resign_moves searches in a row below the threshold, never in the
  // opening.
  const double threshold = options_.search.resign_threshold;
  if (threshold > 0 && r.playouts > 0 && r.winrate < threshold) {
    ++low_moves_;
  } else {
    low_moves_ = 0;
  }
  if (low_moves_ >= options_.resign_moves && !in_opening(board, static_cast<int>(game.moves().size()))) r.resign = true;
}

void SearchPlayer::analyze(const Game& game, const Request& request) {
  SearchLimits l;
  l.stop = request.stop;
  if (!request.stop) {
    l.playouts = options_.search.playouts;
    l.visits = options_.search.visits;
  }
  AnalysisCallback callback;
  callback.interval_ms = std::max(1, static_cast<int>(std::lround(request.report_interval * 1000)));
  callback.on_update = request.report;
  const SearchResult r = search_for(game.size()).search(game, request.color, l, &callback);
  if (request.report) request.report(r);
}

EndEstimate SearchPlayer::estimate_end(const Game& game) {
  return search_for(game.size()).estimate_end(game, options_.end_playouts);
}

ScoreEstimate SearchPlayer::estimate_score(const Game& game, bool territory) {
  ScoreEstimateOptions o;
  o.playouts = options_.estimate_playouts;
  o.territory = territory;
  return hane::estimate_score(game, &estimate_search(game.size()), o);
}

Search& SearchPlayer::estimate_search(int size) {
  Search& engine = search_for(size);
  const int which = &engine == large_.get() ? 1 : 0;
  std::unique_ptr<Search>& mine = estimate_[which];
  if (!mine && !estimate_failed_[which]) {
    SearchOptions so = engine.options();  // its policy; no tree, prior, joseki or learnt replies
    so.prior = "none";
    so.joseki = "none";
    so.last_good_reply = false;
    so.threads = 1;
    so.policy_options = estimate_policy_options(so.policy, so.policy_options);
    auto made = Search::create(so);
    if (made.ok()) {
      mine = std::move(*made);
    } else {
      estimate_failed_[which] = true;  // the engine's own playouts then, without the setting
    }
  }
  return mine ? *mine : engine;
}

std::vector<float> SearchPlayer::ownership(const Game& game) {
  std::vector<float> o = search_for(game.size()).ownership();
  if (o.size() != static_cast<size_t>(game.board().geometry().num_vertices())) o = estimate_end(game).ownership;
  return o;
}

std::vector<float> SearchPlayer::priors(const Game& game, Color color) {
  Guesser* guesser = search_for(game.size()).guesser();
  if (!guesser) return {};
  const Board& board = game.board();
  std::vector<Vertex> candidates(board.empty_points().size());
  candidates.resize(static_cast<size_t>(legal_moves(board, color, candidates)));
  std::vector<float> p(static_cast<size_t>(board.geometry().num_vertices()), 0.0f);
  if (candidates.empty()) return p;
  std::vector<float> scores(candidates.size());
  guesser->score(position_of(game, color), candidates, scores);
  if (!guesser->gives_probabilities()) softmax_in_place(scores);
  for (size_t i = 0; i < candidates.size(); ++i) p[static_cast<size_t>(candidates[i].index())] = scores[i];
  return p;
}

std::string SearchPlayer::explain(const Game& game, Color color, Vertex move, bool model_words) {
  Guesser* guesser = search_for(game.size()).guesser();
  if (!guesser || !move.is_point()) return "";
  const std::vector<float> p = priors(game, color);
  const float mine = p[static_cast<size_t>(move.index())];
  if (mine <= 0) return "";
  const int rank = 1 + static_cast<int>(std::count_if(p.begin(), p.end(), [&](float x) { return x > mine; }));
  char text[96];
  std::snprintf(text, sizeof text, "the guesser's %s choice (%.0f%%)", ordinal(rank).c_str(), 100.0 * mine);
  if (!model_words) return text;
  // The guesser's own words on the move (its pattern, features or leaf), before the ranking.
  const std::string why = guesser->explain(position_of(game, color), move);
  return why.empty() ? std::string(text) : why + ", " + text;
}

void SearchPlayer::new_game() {
  search_->clear();
  if (large_) large_->clear();
  low_moves_ = 0;
  for (DynamicKomi& dk : dynamic_komi_) dk.reset();
}

absl::StatusOr<std::unique_ptr<SearchPlayer>> make_search_player(EngineOptions options, bool fallback,
                                                                  std::ostream* log) {
  auto player = SearchPlayer::create(options);
  if (player.ok() || !fallback) return player;
  // First the large-board settings alone (their models may be missing): the same engine on
  // every size.
  if (options.large_board_search) {
    EngineOptions same = options;
    same.large_board_search.reset();
    if (auto next = SearchPlayer::create(same); next.ok()) {
      if (log) *log << "hane: warning: " << player.status().message() << "; playing large boards as small ones" << std::endl;
      return next;
    }
    options.large_board_search.reset();
  }
  // Keep what works: the prior without the policy, the policy without the prior, then neither.
  const std::string policy = options.search.policy, prior = options.search.prior;
  for (const auto& [p, r] : {std::pair{std::string("uniform"), prior}, {policy, std::string("none")},
                             {std::string("uniform"), std::string("none")}}) {
    options.search.policy = p;
    options.search.prior = r;
    auto next = SearchPlayer::create(options);
    if (next.ok()) {
      if (log) {
        *log << "hane: warning: " << player.status().message() << "; playing with policy " << p << " and prior " << r
             << std::endl;
      }
      return next;
    }
  }
  return player;
}

}  // namespace hane::gtp
