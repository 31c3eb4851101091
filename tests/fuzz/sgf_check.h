// Invariants of the SGF layer on arbitrary input, shared by the libFuzzer target (sgf_fuzz.cc)
// and the corpus regression test (tests/sgf_corpus_test.cc).
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "sgf/parser.h"
#include "sgf/record.h"
#include "sgf/text.h"
#include "sgf/writer.h"

namespace hane::fuzz {

inline bool valid_record(const GameRecord& r, std::string& why) {
  if (r.board_size < Geometry::kMinSize || r.board_size > Geometry::kMaxSize) {
    why = "board size out of range";
    return false;
  }
  const Geometry g(r.board_size);
  for (const Vertex v : r.setup.black) if (!g.on_board(v)) why = "setup off board";
  for (const Vertex v : r.setup.white) if (!g.on_board(v)) why = "setup off board";
  for (const Vertex v : r.setup.empty_points) if (!g.on_board(v)) why = "setup off board";
  if (!is_player(r.to_play)) why = "to_play not a player";
  for (const GameEvent& e : r.events) {
    switch (e.type) {
      case GameEvent::Type::kMove:
        if (!is_player(e.color) || !(e.vertex.is_pass() || g.on_board(e.vertex))) why = "bad move";
        break;
      case GameEvent::Type::kSetup:
        if (!g.on_board(e.vertex) || e.color == Color::kWall) why = "bad setup event";
        break;
      case GameEvent::Type::kToPlay:
        if (!is_player(e.color) || !e.vertex.is_none()) why = "bad to-play event";
        break;
    }
  }
  for (const std::string* s : {&r.black_name, &r.white_name, &r.black_rank_text,
                               &r.white_rank_text, &r.result, &r.date, &r.rules,
                               &r.application, &r.event, &r.game_name, &r.place, &r.comment}) {
    if (!sgf_text::is_valid_utf8(*s)) why = "text not UTF-8";
  }
  return why.empty();
}

/// Runs `text` through parse_sgf, to_record (lenient and strict), write_sgf and back.
/// Returns "" if every invariant holds, else what broke.
inline std::string check_sgf(std::string_view text) {
  const ParseResult parsed = parse_sgf(text);
  if (parsed.trees.empty() && parsed.status.ok()) return "no trees but OK status";
  if (parsed.errors.empty() != parsed.status.ok()) return "errors and status disagree";
  for (size_t e = 0; e < parsed.errors.size(); ++e) {
    if (parsed.errors[e].offset > text.size()) return "error offset past the end";
    if (parsed.errors[e].tree_index > parsed.trees.size()) return "bad error tree index";
    if (e > 0 && parsed.errors[e].offset <= parsed.errors[e - 1].offset) return "errors out of order";
  }
  size_t previous_end = 0;
  for (const ParsedTree& tree : parsed.trees) {
    if (tree.main_line().empty()) return "empty main line";
    if (tree.begin_offset() < previous_end || tree.end_offset() > text.size() ||
        tree.begin_offset() >= tree.end_offset()) {
      return "bad tree offsets";
    }
    previous_end = tree.end_offset();
    for (const SgfRepair& r : tree.repairs()) {
      if (r.offset < tree.begin_offset() || r.offset > text.size()) return "bad repair offset";
    }
    for (const SgfNode& node : tree.main_line()) {
      if (node.offset < tree.begin_offset() || node.offset >= tree.end_offset()) {
        return "bad node offset";
      }
      for (const SgfProperty& p : node.properties) {
        if (p.id.empty() || p.values.empty()) return "empty property";
        for (char c : p.id) {
          if (c < 'A' || c > 'Z') return "id not upper case";
        }
      }
    }
    const absl::StatusOr<GameRecord> lenient = to_record(tree);
    ReadOptions strict_options;
    strict_options.strict = true;
    const absl::StatusOr<GameRecord> strict = to_record(tree, strict_options);
    if (strict.ok() && (!lenient.ok() || !lenient->warnings.empty())) {
      return "strict accepted what lenient warned about";
    }
    if (!lenient.ok()) continue;
    std::string why;
    if (!valid_record(*lenient, why)) return why;

    const std::string written = write_sgf(*lenient);
    const absl::StatusOr<GameRecord> again = read_game(written);
    if (!again.ok()) return "written record unreadable: " + std::string(again.status().message());
    GameRecord a = *lenient;
    GameRecord b = *again;
    a.warnings.clear();
    b.warnings.clear();
    a.num_variations = b.num_variations = 0;
    // Fox komi goes through x50 and /50: allow rounding.
    if (std::abs(a.komi - b.komi) <= 1e-9 * std::max(1.0, std::abs(a.komi))) b.komi = a.komi;
    if (!(a == b)) return "round trip changed the record; written:\n" + written;
  }
  return "";
}

}  // namespace hane::fuzz
