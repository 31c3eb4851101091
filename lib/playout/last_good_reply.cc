#include "playout/last_good_reply.h"

#include <algorithm>
#include <utility>

namespace hane {

namespace {
constexpr int16_t kNone = static_cast<int16_t>(Vertex::none().index());
}  // namespace

LastGoodReplyPolicy::LastGoodReplyPolicy(std::unique_ptr<PlayoutPolicy> inner)
    : inner_(std::move(inner)),
      reply1_(static_cast<size_t>(2 * kN), kNone),
      reply2_(static_cast<size_t>(2) * kN * kN, kNone) {}

void LastGoodReplyPolicy::forget() {
  std::fill(reply1_.begin(), reply1_.end(), kNone);
  std::fill(reply2_.begin(), reply2_.end(), kNone);
}

void LastGoodReplyPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  if (board.size() != size_) {  // the same index is another point on another size
    if (size_ != 0) forget();
    size_ = board.size();
  }
  inner_->reset(board, to_move, last, second_last);
  last_ = last;
  second_last_ = second_last;
  in_playout_ = false;
}

void LastGoodReplyPolicy::play(Vertex v) {
  inner_->play(v);
  second_last_ = last_;
  last_ = v;
}

void LastGoodReplyPolicy::start_playout() {
  inner_->start_playout();
  in_playout_ = true;
}

bool LastGoodReplyPolicy::playable(Vertex v) const {
  const Board& b = inner_->board();
  const Color c = inner_->to_move();
  return v.is_point() && b.legal(v, c) == Legality::kLegal && !b.is_eye(v, c);
}

Vertex LastGoodReplyPolicy::sample(Rng& rng) {
  if (in_playout_ && last_.is_point()) {
    const Color c = inner_->to_move();
    if (second_last_.is_point()) {
      const Vertex r(reply2_[slot(c, second_last_, last_)]);
      if (playable(r)) return r;
    }
    const Vertex r(reply1_[slot(c, last_)]);
    if (playable(r)) return r;
  }
  return inner_->sample(rng);
}

std::unique_ptr<PlayoutPolicy> LastGoodReplyPolicy::clone() const {
  return std::make_unique<LastGoodReplyPolicy>(inner_->clone());
}

void LastGoodReplyPolicy::learn(Vertex second_last, Vertex last, std::span<const Move> moves, Color winner) {
  if (winner != Color::kBlack && winner != Color::kWhite) return;
  for (const Move& m : moves) {
    if (m.vertex.is_point() && last.is_point()) {
      const int16_t v = static_cast<int16_t>(m.vertex.index());
      int16_t& r1 = reply1_[slot(m.color, last)];
      if (m.color == winner) {
        r1 = v;
      } else if (r1 == v) {
        r1 = kNone;
      }
      if (second_last.is_point()) {
        int16_t& r2 = reply2_[slot(m.color, second_last, last)];
        if (m.color == winner) {
          r2 = v;
        } else if (r2 == v) {
          r2 = kNone;
        }
      }
    }
    second_last = last;
    last = m.vertex;
  }
}

Vertex LastGoodReplyPolicy::reply(Color color, Vertex second_last, Vertex last) const {
  if (!last.is_point()) return Vertex::none();
  return Vertex(second_last.is_point() ? reply2_[slot(color, second_last, last)] : reply1_[slot(color, last)]);
}

}  // namespace hane
