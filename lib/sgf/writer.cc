#include "sgf/writer.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>

#include "sgf/parser.h"
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

namespace {

// One change to the text: `remove` bytes at `at` replaced by `insert`.
struct Edit {
  size_t at = 0;
  size_t remove = 0;
  std::string insert;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t offset_in(std::string_view text, std::string_view part) { return static_cast<size_t>(part.data() - text.data()); }

// Edits that delete every occurrence of `p` in its node: each run of its values (only white
// space between them) with the identifier before it.
void remove_property(std::string_view text, const SgfProperty& p, std::vector<Edit>& edits) {
  const auto& values = p.values;
  for (size_t i = 0; i < values.size();) {
    const size_t open = offset_in(text, values[i]) - 1;
    size_t j = i;
    size_t close = offset_in(text, values[j]) + values[j].size();
    while (j + 1 < values.size()) {
      const size_t next_open = offset_in(text, values[j + 1]) - 1;
      if (next_open < close) break;
      bool only_space = true;
      for (size_t k = close + 1; k < next_open && only_space; ++k) only_space = is_space(text[k]);
      if (!only_space) break;
      ++j;
      close = offset_in(text, values[j]) + values[j].size();
    }
    size_t start = open;
    while (start > 0 && is_space(text[start - 1])) --start;
    while (start > 0 && std::isalpha(static_cast<unsigned char>(text[start - 1]))) --start;
    edits.push_back({start, close + 1 - start, ""});
    i = j + 1;
  }
}

// The ')' a tree cut at the end lacks: '(' minus ')' outside values.
int unclosed(std::string_view text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '[') {
      for (++i; i < text.size() && text[i] != ']'; ++i) {
        if (text[i] == '\\') ++i;
      }
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    }
  }
  return std::max(depth, 0);
}

}  // namespace

absl::StatusOr<std::string> annotate_sgf(std::string_view text, const SgfAnnotations& notes) {
  const ParseResult parsed = parse_sgf(text);
  if (parsed.trees.empty()) {
    return absl::InvalidArgumentError("no game tree to annotate" +
                                      (parsed.status.ok() ? std::string() : ": " + std::string(parsed.status.message())));
  }
  const ParsedTree& tree = parsed.trees[0];
  const std::span<const SgfNode> line = tree.main_line();
  // What each main-line node gets: identifiers in order of first addition, C apart.
  struct NodeNotes {
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::string>> values;
    std::string comment;
    void add(const SgfProperties& props) {
      for (const auto& [id, v] : props) {
        if (id == "C") {
          for (const std::string& c : v) comment += (comment.empty() ? "" : "\n\n") + c;
          continue;
        }
        if (!values.contains(id)) order.push_back(id);
        values[id] = v;
      }
    }
  };
  std::vector<NodeNotes> added(line.size());
  added[0].add(notes.root);
  size_t move = 0;
  for (size_t n = 0; n < line.size(); ++n) {
    for (const char* id : {"B", "W"}) {
      if (const SgfProperty* p = line[n].find(id)) {
        for (size_t k = 0; k < p->values.size(); ++k, ++move) {
          if (move < notes.moves.size()) added[n].add(notes.moves[move]);
        }
      }
    }
  }
  if (move < notes.moves.size()) {
    return absl::InvalidArgumentError("the game's main line has " + std::to_string(move) + " moves, not " +
                                      std::to_string(notes.moves.size()));
  }
  std::vector<Edit> edits;
  for (size_t n = 0; n < line.size(); ++n) {
    const NodeNotes& a = added[n];
    const SgfNode& node = line[n];
    std::string insert;
    for (const std::string& id : a.order) {
      if (const SgfProperty* p = node.find(id)) remove_property(text, *p, edits);
      if (a.values.at(id).empty()) continue;
      insert += id;
      for (const std::string& v : a.values.at(id)) insert += "[" + sgf_text::escape(v) + "]";
    }
    if (!a.comment.empty()) {
      const SgfProperty* c = node.find("C");
      if (c != nullptr) {
        const std::string_view last = c->values.back();
        edits.push_back({offset_in(text, last) + last.size(), 0,
                         (sgf_text::trim(last).empty() ? "" : "\n\n") + sgf_text::escape(a.comment)});
      } else {
        insert += "C[" + sgf_text::escape(a.comment) + "]";
      }
    }
    if (!insert.empty()) edits.push_back({node.offset + 1, 0, insert});
  }
  // At one place, what is inserted goes before what is removed there.
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& x, const Edit& y) {
    return x.at != y.at ? x.at < y.at : (x.remove == 0) > (y.remove == 0);
  });
  std::string out;
  size_t at = tree.begin_offset();
  for (const Edit& e : edits) {
    out.append(text.substr(at, e.at - at));
    out += e.insert;
    at = e.at + e.remove;
  }
  out.append(text.substr(at, tree.end_offset() - at));
  out.append(static_cast<size_t>(unclosed(out)), ')');
  if (out.empty() || out.back() != '\n') out += "\n";
  return out;
}

}  // namespace hane
