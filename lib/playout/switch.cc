#include "playout/switch.h"

#include <utility>

namespace hane {

SwitchPolicy::SwitchPolicy(std::unique_ptr<PlayoutPolicy> head, std::unique_ptr<PlayoutPolicy> tail, int head_moves)
    : head_(std::move(head)), tail_(std::move(tail)), head_moves_(head_moves) {}

void SwitchPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  head_->reset(board, to_move, last, second_last);
  playout_moves_ = -1;
  last_ = last;
  second_last_ = second_last;
}

void SwitchPolicy::start_playout() {
  // Started again after the tail's moves (a caller that plays some moves itself, then calls
  // run_playout): the head goes on from the tail's position.
  if (playout_moves_ >= head_moves_) head_->reset(tail_->board(), tail_->to_move(), last_, second_last_);
  head_->start_playout();
  playout_moves_ = 0;
}

void SwitchPolicy::play(Vertex v) {
  active().play(v);
  second_last_ = last_;
  last_ = v;
  if (playout_moves_ < 0) return;  // a tree move
  if (++playout_moves_ == head_moves_) {
    tail_->reset(head_->board(), head_->to_move(), last_, second_last_);
    tail_->start_playout();
  }
}

std::unique_ptr<PlayoutPolicy> SwitchPolicy::clone() const {
  return std::make_unique<SwitchPolicy>(head_->clone(), tail_->clone(), head_moves_);
}

}  // namespace hane
