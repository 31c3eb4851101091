#include "sgf/writer.h"

#include <charconv>
#include <cmath>

#include "sgf/text.h"

namespace hane {
namespace {

class Writer {
 public:
  Writer(const GameRecord& record, const SgfAnnotations* notes) : r_(record), notes_(notes) {}

  std::string run() {
    out_ = "(;GM[1]FF[4]CA[UTF-8]";
    text("AP", r_.application);
    append("SZ[", r_.board_size, "]");
    write_komi();
    if (r_.handicap != 0) append("HA[", r_.handicap, "]");
    text("PB", r_.black_name);
    text("BR", r_.black_rank_text);
    text("PW", r_.white_name);
    text("WR", r_.white_rank_text);
    text("RE", r_.result);
    text("DT", r_.date);
    text("RU", r_.rules);
    text("EV", r_.event);
    text("GN", r_.game_name);
    text("PC", r_.place);
    std::string comment = r_.comment;
    SgfProperties root;
    if (notes_) {
      for (const auto& [id, values] : notes_->root) {
        if (id != "C") {
          root.emplace_back(id, values);
          continue;
        }
        for (const std::string& v : values) comment += (comment.empty() ? "" : "\n\n") + v;
      }
    }
    text("C", comment);
    points("AE", r_.setup.empty_points);
    points("AB", r_.setup.black);
    points("AW", r_.setup.white);
    const bool has_setup =
        !r_.setup.black.empty() || !r_.setup.white.empty() || !r_.setup.empty_points.empty();
    if (has_setup || r_.to_play != inferred_to_play()) player(r_.to_play);
    properties(root);
    write_events();
    out_ += ")\n";
    return std::move(out_);
  }

 private:
  template <typename... Args>
  void append(const Args&... args) {
    (sgf_text::append_piece(out_, args), ...);
  }

  void text(std::string_view id, std::string_view value) {
    if (value.empty()) return;
    append(id, "[", sgf_text::escape(value), "]");
  }

  void write_komi() {
    double komi = r_.komi;
    std::string ap;
    for (char c : r_.application) ap.push_back(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (ap.starts_with("foxwq") && std::abs(komi) > 20) komi *= 50;  // as Fox would
    char buffer[64];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, komi);
    out_ += "KM[";
    out_.append(buffer, ec == std::errc() ? end : buffer);
    out_ += "]";
  }

  void points(std::string_view id, const std::vector<Vertex>& vertices) {
    if (vertices.empty()) return;
    out_ += id;
    for (Vertex v : vertices) append("[", to_sgf(v, r_.board_size), "]");
  }

  void properties(const SgfProperties& props) {
    for (const auto& [id, values] : props) {
      if (values.empty()) continue;
      out_ += id;
      for (const std::string& v : values) append("[", sgf_text::escape(v), "]");
    }
  }

  void player(Color c) { out_ += c == Color::kWhite ? "PL[W]" : "PL[B]"; }

  Color inferred_to_play() const {
    for (const GameEvent& e : r_.events) {
      if (e.type == GameEvent::Type::kMove) return e.color;
    }
    if (!r_.setup.black.empty() && r_.setup.white.empty()) return Color::kWhite;
    return Color::kBlack;
  }

  // Order in which to_record applies a node's properties: AE, AB, AW, PL.
  static int setup_order(const GameEvent& e) {
    if (e.type == GameEvent::Type::kToPlay) return 3;
    switch (e.color) {
      case Color::kEmpty: return 0;
      case Color::kBlack: return 1;
      default: return 2;
    }
  }

  void new_node() {
    if (++nodes_ % 10 == 0) out_ += "\n";
    out_ += ";";
  }

  void write_events() {
    out_ += "\n";
    int open_order = -1;  // order of the last setup event in the open node; -1: none open
    size_t move_index = 0;
    for (const GameEvent& e : r_.events) {
      if (e.type == GameEvent::Type::kMove) {
        new_node();
        append(e.color == Color::kWhite ? "W[" : "B[",
                        to_sgf(e.vertex, r_.board_size), "]");
        if (notes_ && move_index < notes_->moves.size()) properties(notes_->moves[move_index]);
        ++move_index;
        open_order = -1;
        continue;
      }
      const int order = setup_order(e);
      // A new node unless this event reads back after everything already in the open one;
      // equal ids are merged by the parser, which keeps the values' order (PL takes one).
      if (open_order < 0 || order < open_order || (order == 3 && open_order == 3)) {
        new_node();
      }
      if (e.type == GameEvent::Type::kToPlay) {
        player(e.color);
      } else {
        const char* id = order == 0 ? "AE" : order == 1 ? "AB" : "AW";
        append(id, "[", to_sgf(e.vertex, r_.board_size), "]");
      }
      open_order = order;
    }
  }

  const GameRecord& r_;
  const SgfAnnotations* notes_;
  std::string out_;
  int nodes_ = 0;
};

}  // namespace

std::string write_sgf(const GameRecord& record) { return Writer(record, nullptr).run(); }

std::string write_sgf(const GameRecord& record, const SgfAnnotations& annotations) {
  return Writer(record, &annotations).run();
}

}  // namespace hane
