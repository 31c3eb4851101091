#include "playout/switch.h"

#include <utility>

namespace hane {

SwitchPolicy::SwitchPolicy(std::unique_ptr<PlayoutPolicy> head, std::unique_ptr<PlayoutPolicy> tail, int head_moves)
    : head_(std::move(head)), tail_(std::move(tail)), head_moves_(head_moves) {}

void SwitchPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  head_->reset(board, to_move, last, second_last);
  moves_ = 0;
  last_ = last;
  second_last_ = second_last;
}

void SwitchPolicy::play(Vertex v) {
  active().play(v);
  second_last_ = last_;
  last_ = v;
  if (++moves_ == head_moves_) tail_->reset(head_->board(), head_->to_move(), last_, second_last_);
}

std::unique_ptr<PlayoutPolicy> SwitchPolicy::clone() const {
  return std::make_unique<SwitchPolicy>(head_->clone(), tail_->clone(), head_moves_);
}

}  // namespace hane
