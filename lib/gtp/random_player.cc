#include "gtp/random_player.h"

#include <stdexcept>

namespace hane::gtp {
namespace {

// Legal moves of `color` in `game` (superko included) that do not fill its own eyes.
std::vector<Vertex> candidates(const Game& game, Color color) {
  std::vector<Vertex> out;
  const Board& board = game.board();
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Vertex v = board.at(x, y);
      if (board.is_empty(v) && !board.is_eye(v, color) && game.legal(v, color) == Legality::kLegal) out.push_back(v);
    }
  }
  return out;
}

}  // namespace

RandomPlayer::RandomPlayer(uint64_t seed, int end_playouts) : seed_(seed), end_playouts_(end_playouts), rng_(seed) {
  SearchOptions options;
  options.seed = seed;
  options.max_tree_mb = 1;
  auto search = Search::create(options);
  if (!search.ok()) throw std::runtime_error(std::string(search.status().message()));
  estimator_ = std::move(*search);
}

RandomPlayer::~RandomPlayer() = default;

SearchResult RandomPlayer::genmove(const Game& game, const Request& request) {
  SearchResult result;
  const Color c = request.color;
  if (!game.moves().empty() && game.moves().back().vertex.is_pass() && !request.cleanup) {
    const double margin = estimate_end(game).area_margin;
    if ((c == Color::kBlack ? margin : -margin) > 0) return result;  // pass and win
  }
  const std::vector<Vertex> moves = candidates(game, c);
  if (!moves.empty()) result.move = moves[rng_.below(static_cast<uint32_t>(moves.size()))];
  result.playouts = 1;
  MoveStats stats;
  stats.move = result.move;
  stats.visits = 1;
  stats.prior = moves.empty() ? 1.0 : 1.0 / static_cast<double>(moves.size());
  stats.pv = {result.move};
  result.children.push_back(stats);
  return result;
}

EndEstimate RandomPlayer::estimate_end(const Game& game) { return estimator_->estimate_end(game, end_playouts_); }

std::vector<float> RandomPlayer::priors(const Game& game, Color color) {
  std::vector<float> p(static_cast<size_t>(game.board().geometry().num_vertices()), 0.0f);
  const std::vector<Vertex> moves = candidates(game, color);
  for (const Vertex v : moves) p[static_cast<size_t>(v.index())] = 1.0f / static_cast<float>(moves.size());
  return p;
}

}  // namespace hane::gtp
