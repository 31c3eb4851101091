#include "go/game.h"

#include "go/zobrist.h"

namespace hane {

Game::Game(int size, Rules rules) : board_(size, rules.allow_suicide), rules_(rules) {
  record_position();
}

uint64_t Game::situation(uint64_t position_hash, Color to_move) const {
  if (rules_.superko == Superko::kSituational && to_move == Color::kWhite) {
    return position_hash ^ zobrist::kTable.white_to_move;
  }
  return position_hash;
}

void Game::record_position() {
  const uint64_t key = situation(board_.hash(), to_move_);
  history_.push_back(key);
  ++seen_[key];
}

Legality Game::legal(Vertex v, Color c) const {
  const Legality l = board_.legal(v, c);
  if (l != Legality::kLegal || v.is_pass() || rules_.superko == Superko::kNone) return l;
  const uint64_t key = situation(board_.hash_after(v, c), opponent(c));
  return seen_.contains(key) ? Legality::kSuperko : Legality::kLegal;
}

Legality Game::play(Vertex v, Color c) {
  const Legality l = legal(v, c);
  if (l != Legality::kLegal) return l;
  events_.push_back({{c, v}, false, to_move_});
  board_.play(v, c);
  moves_.push_back({c, v});
  to_move_ = opponent(c);
  record_position();
  return l;
}

void Game::set_stone(Vertex v, Color c) {
  events_.push_back({{c, v}, true, to_move_});
  board_.set_stone(v, c);
  record_position();
}

bool Game::undo() {
  if (events_.empty()) return false;
  const Event last = events_.back();
  events_.pop_back();
  const uint64_t key = history_.back();
  history_.pop_back();
  if (--seen_[key] == 0) seen_.erase(key);
  if (!last.setup) moves_.pop_back();
  // Replay from the empty board: simple, and cheap next to a GTP round trip.
  Board board(board_.size(), rules_.allow_suicide);
  for (const Event& e : events_) {
    if (e.setup) {
      board.set_stone(e.move.vertex, e.move.color);
    } else {
      board.play(e.move.vertex, e.move.color);
    }
  }
  board_ = board;
  to_move_ = last.to_move_before;
  return true;
}

int Game::consecutive_passes() const {
  int passes = 0;
  for (auto it = moves_.rbegin(); it != moves_.rend() && it->vertex.is_pass(); ++it) ++passes;
  return passes;
}

Position position_of(const Game& game, Color to_move) {
  const std::vector<Move>& moves = game.moves();
  const size_t n = moves.size();
  Position p;
  p.board = &game.board();
  p.to_move = to_move;
  p.last_move = n >= 1 ? moves[n - 1].vertex : Vertex::none();
  p.second_last_move = n >= 2 ? moves[n - 2].vertex : Vertex::none();
  p.move_number = static_cast<int>(n) + 1;
  return p;
}

}  // namespace hane
