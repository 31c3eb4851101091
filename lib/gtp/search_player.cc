#include "gtp/search_player.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "go/position.h"
#include "predict/load.h"

namespace hane::gtp {
namespace {

Position position_of(const Game& game, Color color) {
  Position p;
  p.board = &game.board();
  p.to_move = color;
  const auto& moves = game.moves();
  if (!moves.empty()) p.last_move = moves.back().vertex;
  if (moves.size() >= 2) p.second_last_move = moves[moves.size() - 2].vertex;
  p.move_number = static_cast<int>(moves.size()) + 1;
  return p;
}

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
  return o;
}

SearchPlayer::SearchPlayer(const EngineOptions& options, std::unique_ptr<Search> search,
                           std::unique_ptr<Guesser> guesser)
    : options_(options), search_(std::move(search)), guesser_(std::move(guesser)) {}

SearchPlayer::~SearchPlayer() = default;

absl::StatusOr<std::unique_ptr<SearchPlayer>> SearchPlayer::create(const EngineOptions& options) {
  EngineOptions o = options;
  if (o.playouts > 0) o.search.playouts = o.playouts;
  auto search = Search::create(o.search);
  if (!search.ok()) return search.status();
  std::unique_ptr<Guesser> guesser;
  if (!o.search.prior.empty() && o.search.prior != "none") {
    auto g = load_guesser(o.search.prior);
    if (!g.ok()) return g.status();
    guesser = std::move(*g);
  }
  return std::unique_ptr<SearchPlayer>(new SearchPlayer(o, std::move(*search), std::move(guesser)));
}

std::string SearchPlayer::name() const {
  std::string budget;
  if (options_.playouts > 0 || options_.time_per_move <= 0) budget = std::to_string(options_.search.playouts) + " playouts";
  if (options_.time_per_move > 0) {
    char t[32];
    std::snprintf(t, sizeof t, "%gs", options_.time_per_move);
    budget += (budget.empty() ? "" : " or ") + std::string(t) + " per move";
  }
  return "mcts, policy " + options_.search.policy + ", prior " + options_.search.prior + ", " + budget + ", " +
         std::to_string(options_.search.threads) + " thread(s)";
}

SearchLimits SearchPlayer::limits(const Game& game, const Request& request) const {
  SearchLimits l;
  if (request.clock && request.clock->settings().kind != TimeSettings::Kind::kNone) {
    l = search_->limits_for(game, *request.clock, options_.playouts > 0);
    if (options_.time_per_move > 0) l.seconds = l.seconds > 0 ? std::min(l.seconds, options_.time_per_move) : options_.time_per_move;
  } else {
    l.seconds = options_.time_per_move;
    if (options_.playouts > 0 || options_.time_per_move <= 0) l.playouts = options_.search.playouts;
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
  return search_->genmove(game, request.color, l, request.cleanup, request.report ? &callback : nullptr);
}

void SearchPlayer::analyze(const Game& game, const Request& request) {
  SearchLimits l;
  l.stop = request.stop;
  if (!request.stop) l.playouts = options_.search.playouts;
  AnalysisCallback callback;
  callback.interval_ms = std::max(1, static_cast<int>(std::lround(request.report_interval * 1000)));
  callback.on_update = request.report;
  const SearchResult r = search_->search(game, request.color, l, &callback);
  if (request.report) request.report(r);
}

EndEstimate SearchPlayer::estimate_end(const Game& game) { return search_->estimate_end(game, options_.end_playouts); }

std::vector<float> SearchPlayer::ownership(const Game& game) {
  std::vector<float> o = search_->ownership();
  if (o.size() != static_cast<size_t>(game.board().geometry().num_vertices())) o = estimate_end(game).ownership;
  return o;
}

std::vector<float> SearchPlayer::priors(const Game& game, Color color) {
  if (!guesser_) return {};
  const Board& board = game.board();
  std::vector<Vertex> candidates(board.empty_points().size());
  candidates.resize(static_cast<size_t>(legal_moves(board, color, candidates)));
  std::vector<float> p(static_cast<size_t>(board.geometry().num_vertices()), 0.0f);
  if (candidates.empty()) return p;
  std::vector<float> scores(candidates.size());
  guesser_->score(position_of(game, color), candidates, scores);
  if (!guesser_->gives_probabilities()) {
    // Scores to probabilities by a softmax.
    const float top = *std::max_element(scores.begin(), scores.end());
    double sum = 0;
    for (float& s : scores) sum += (s = std::exp(s - top));
    for (float& s : scores) s = static_cast<float>(s / sum);
  }
  for (size_t i = 0; i < candidates.size(); ++i) p[static_cast<size_t>(candidates[i].index())] = scores[i];
  return p;
}

std::string SearchPlayer::explain(const Game& game, Color color, Vertex move, bool model_words) {
  if (!guesser_ || !move.is_point()) return "";
  const std::vector<float> p = priors(game, color);
  const float mine = p[static_cast<size_t>(move.index())];
  if (mine <= 0) return "";
  const int rank = 1 + static_cast<int>(std::count_if(p.begin(), p.end(), [&](float x) { return x > mine; }));
  char text[96];
  std::snprintf(text, sizeof text, "the guesser's %s choice (%.0f%%)", ordinal(rank).c_str(), 100.0 * mine);
  if (!model_words) return text;
  // The guesser's own words on the move (its pattern, features or leaf), before the ranking.
  const std::string why = guesser_->explain(position_of(game, color), move);
  return why.empty() ? std::string(text) : why + ", " + text;
}

void SearchPlayer::new_game() { search_->clear(); }

absl::StatusOr<std::unique_ptr<SearchPlayer>> make_search_player(EngineOptions options, bool fallback,
                                                                  std::ostream* log) {
  auto player = SearchPlayer::create(options);
  if (player.ok() || !fallback) return player;
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
