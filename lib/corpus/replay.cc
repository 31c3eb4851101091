#include "corpus/replay.h"

#include <string>

#include "absl/container/flat_hash_set.h"
#include "go/zobrist.h"

namespace hane {

const RecordRules& replay_rules(const GameRecord& record, const RecordRules& fallback) {
  return record.declared_rules ? *record.declared_rules : fallback;
}

absl::Status replay(const GameRecord& record, const MoveCallback& on_move, Board* final_board,
                    const RecordRules& fallback) {
  const RecordRules& rules = replay_rules(record, fallback);
  Board board(record.board_size, rules.allow_suicide);
  // Superko: every position (or situation: position and player to move) seen so far.
  absl::flat_hash_set<uint64_t> seen;
  auto situation = [&](uint64_t hash, Color to_move) {
    return rules.superko == Superko::kSituational && to_move == Color::kWhite
               ? hash ^ zobrist::kTable.white_to_move
               : hash;
  };
  for (Vertex v : record.setup.black) board.set_stone(v, Color::kBlack);
  for (Vertex v : record.setup.white) board.set_stone(v, Color::kWhite);
  Position position{&board, record.to_play};
  auto check_setup = [&]() -> absl::Status {
    const Vertex dead = chain_without_liberties(board);
    if (dead.is_none()) return absl::OkStatus();
    return absl::InvalidArgumentError("setup leaves a chain without liberties at " + to_sgf(dead, board.size()));
  };
  if (absl::Status s = check_setup(); !s.ok()) return s;
  if (rules.superko != Superko::kNone) seen.insert(situation(board.hash(), position.to_move));
  bool setup_changed = false;
  for (const GameEvent& e : record.events) {
    switch (e.type) {
      case GameEvent::Type::kSetup:
        board.set_stone(e.vertex, e.color);
        setup_changed = true;
        break;
      case GameEvent::Type::kToPlay:
        position.to_move = e.color;
        break;
      case GameEvent::Type::kMove: {
        if (setup_changed) {
          if (absl::Status s = check_setup(); !s.ok()) return s;
          if (rules.superko != Superko::kNone) seen.insert(situation(board.hash(), e.color));
          setup_changed = false;
        }
        position.to_move = e.color;
        Legality l = board.legal(e.vertex, e.color);
        uint64_t key = 0;
        if (l == Legality::kLegal && rules.superko != Superko::kNone) {
          key = situation(e.vertex.is_pass() ? board.hash() : board.hash_after(e.vertex, e.color),
                          opponent(e.color));
          if (!e.vertex.is_pass() && seen.contains(key)) l = Legality::kSuperko;
        }
        if (l != Legality::kLegal) {
          return absl::InvalidArgumentError("move " + std::to_string(position.move_number) + " (" +
                                            (e.color == Color::kBlack ? "B " : "W ") +
                                            to_sgf(e.vertex, board.size()) + "): " + std::string(legality_name(l)) +
                                            " (" + rules.name + " rules" +
                                            (record.declared_rules ? "" : ", assumed") + ")");
        }
        if (on_move) on_move(position, e.vertex);
        board.play(e.vertex, e.color);
        if (rules.superko != Superko::kNone) seen.insert(key);
        advance(position, e.vertex, e.color);
        break;
      }
    }
  }
  if (final_board != nullptr) *final_board = board;
  return absl::OkStatus();
}

absl::Status replay_choices(const GameRecord& record, const ChoiceCallback& on_choice, std::vector<Vertex>& scratch,
                            const KeepPosition& keep) {
  return replay(record, [&](const Position& p, Vertex played) {
    if (played.is_pass() || (keep && !keep(p))) return;
    scratch.resize(p.board->empty_points().size());
    const int n = legal_moves(*p.board, p.to_move, scratch);
    on_choice(p, played, std::span<const Vertex>(scratch.data(), n));
  });
}

}  // namespace hane
