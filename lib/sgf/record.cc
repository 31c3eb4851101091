#include "sgf/record.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include "sgf/text.h"

namespace hane {

using sgf_text::cat;
using sgf_text::show;
using sgf_text::trim;

// ---------------------------------------------------------------------------------------------
// Ranks

std::string Rank::to_string() const {
  std::string out;
  if (pro > 0) {
    out = cat(pro, "p");
  } else if (amateur > 0) {
    out = cat(amateur, "d");
  } else if (amateur < 0) {
    out = cat(-amateur, "k");
  } else {
    return out;
  }
  if (uncertain) out.push_back('?');
  return out;
}

namespace {

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// CJK digits one to nine, UTF-8.
constexpr std::string_view kCjkDigits[] = {"\u4e00", "\u4e8c", "\u4e09", "\u56db", "\u4e94",
                                           "\u516d", "\u4e03", "\u516b", "\u4e5d"};
constexpr std::string_view kDanSign = "\u6bb5";   // 段
constexpr std::string_view kKyuSign = "\u7d1a";   // 級
constexpr std::string_view kKyuSign2 = "\u7ea7";  // 级
constexpr std::string_view kDanSignKo = "\ub2e8";  // 단
constexpr std::string_view kKyuSignKo = "\uae09";  // 급

}  // namespace

Rank parse_rank(std::string_view text) {
  text = trim(text);
  // Fox writes professional ranks as "P9段".
  const bool pro_prefix = text.size() >= 2 && (text[0] == 'P' || text[0] == 'p') &&
                          text[1] >= '0' && text[1] <= '9';
  if (pro_prefix) text.remove_prefix(1);
  int number = 0;
  size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (++i > 2) return {};
    number = number * 10 + (text[i - 1] - '0');
  }
  if (i == 0) {
    for (int d = 0; d < 9; ++d) {
      if (text.starts_with(kCjkDigits[d])) {
        number = d + 1;
        i = kCjkDigits[d].size();
        break;
      }
    }
  }
  if (number == 0) return {};
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  enum { kNone, kDan, kKyu, kPro } unit = kNone;
  const std::string_view rest = text.substr(i);
  if (rest.starts_with(kDanSign) || rest.starts_with(kDanSignKo)) {
    unit = kDan;
    i += kDanSign.size();
  } else if (rest.starts_with(kKyuSign) || rest.starts_with(kKyuSign2) ||
             rest.starts_with(kKyuSignKo)) {
    unit = kKyu;
    i += kKyuSign.size();
  } else {
    std::string word;
    while (i < text.size() && is_ascii_letter(text[i])) word.push_back(ascii_lower(text[i++]));
    if (word == "d" || word == "dan") unit = kDan;
    if (word == "k" || word == "kyu") unit = kKyu;
    if (word == "p" || word == "pro") unit = kPro;
  }
  if (pro_prefix) {
    if (unit != kDan) return {};
    unit = kPro;
  }
  Rank rank;
  switch (unit) {
    case kNone: return {};
    case kDan:
      if (number > 9) return {};
      rank.amateur = number;
      break;
    case kKyu:
      if (number > 50) return {};
      rank.amateur = -number;
      break;
    case kPro:
      if (number > 9) return {};
      rank.pro = number;
      break;
  }
  rank.uncertain = i < text.size() && text[i] == '?';
  return rank;
}

size_t GameRecord::num_moves() const {
  return std::count_if(events.begin(), events.end(),
                       [](const GameEvent& e) { return e.type == GameEvent::Type::kMove; });
}

// ---------------------------------------------------------------------------------------------
// Conversion

namespace {


class Converter {
 public:
  Converter(const ParsedTree& tree, const ReadOptions& options)
      : tree_(tree), options_(options) {}

  absl::StatusOr<GameRecord> run() {
    const auto nodes = tree_.main_line();
    if (nodes.empty()) return absl::InvalidArgumentError("sgf: game tree without nodes");
    const SgfNode& root = nodes.front();
    record_.num_variations = tree_.num_variations();
    for (const SgfRepair& r : tree_.repairs()) {
      record_.warnings.push_back({std::string(r.kind), r.offset, r.message});
    }
    node_offset_ = root.offset;

    if (const SgfProperty* gm = root.find("GM")) {
      const std::string_view v = trim(gm->values[0]);
      if (v.empty()) {
        warn("empty GM", "GM[] is empty; assuming GM[1] (Go)");
      } else if (v != "1") {
        return error(cat("GM[", show(v), "]: not a Go game"));
      }
    }
    const SgfProperty* ca = root.find("CA");
    decoder_.emplace(ca != nullptr ? std::string_view(ca->values[0]) : std::string_view());
    if (decoder_->unknown_charset()) {
      warn("unknown charset", cat("unknown charset CA[", show(ca->values[0]),
                        "]; reading text as UTF-8, or Latin-1 where not valid UTF-8"));
    }
    if (absl::Status s = read_size(root); !s.ok()) return s;
    if (const SgfProperty* ap = root.find("AP")) read_application(*ap);

    read_game_info(nodes);
    record_.events.reserve(nodes.size());

    for (size_t n = 0; n < nodes.size(); ++n) {
      node_offset_ = nodes[n].offset;
      if (absl::Status s = read_node(nodes[n], n == 0); !s.ok()) return s;
    }
    node_offset_ = root.offset;
    record_.to_play = root_to_play_.value_or(default_to_play());
    if (record_.handicap >= 2 && record_.setup.black.empty()) {
      warn("handicap", cat("HA[", record_.handicap,
                        "] but no AB stones in the root node; no stones placed"));
    }
    if (decoder_->latin1_fallback()) {
      warn("latin-1 text", "text without CA is not valid UTF-8; read as Latin-1");
    }
    if (decoder_->replaced()) {
      warn("undecodable text", "undecodable bytes in text replaced with U+FFFD");
    }
    if (options_.strict && !record_.warnings.empty()) {
      return error(cat("strict: ", record_.warnings.front().message));
    }
    return std::move(record_);
  }

 private:
  // A warning about the node being read (node_offset_).
  void warn(std::string_view kind, std::string message) {
    if (message.find("byte ") == std::string::npos) {
      message += cat(" (node at byte ", node_offset_, ")");
    }
    record_.warnings.push_back({std::string(kind), node_offset_, std::move(message)});
  }

  static absl::Status error(std::string_view message) {
    return absl::InvalidArgumentError(cat("sgf: ", message));
  }

  std::string simple_text(const SgfProperty& p) {
    if (p.values.size() > 1) warn("several values", cat(p.id, " has ", p.values.size(),
                                               " values; using the first"));
    return std::string(trim(decoder_->decode(sgf_text::unescape(p.values[0], true))));
  }

  std::string text(const SgfProperty& p) {
    if (p.values.size() > 1) warn("several values", cat(p.id, " has ", p.values.size(),
                                               " values; using the first"));
    return decoder_->decode(sgf_text::unescape(p.values[0], false));
  }

  static bool is_fox(std::string_view application) {
    std::string lower;
    for (char c : trim(application).substr(0, 5)) lower.push_back(ascii_lower(c));
    return lower == "foxwq";
  }

  // Fox writes two AP values ("AP[GNU Go:3.8]...AP[foxwq]"): prefer the Fox one, silently.
  void read_application(const SgfProperty& ap) {
    for (std::string_view v : ap.values) {
      if (is_fox(v)) {
        fox_ = true;
        record_.application = std::string(trim(decoder_->decode(sgf_text::unescape(v, true))));
        return;
      }
    }
    record_.application = simple_text(ap);
  }

  absl::Status read_size(const SgfNode& root) {
    const SgfProperty* sz = root.find("SZ");
    if (sz == nullptr) return absl::OkStatus();
    std::string_view v = trim(sz->values[0]);
    auto parse_int = [](std::string_view s) -> std::optional<int> {
      s = trim(s);
      int x = 0;
      const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
      if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) return std::nullopt;
      return x;
    };
    std::optional<int> size;
    if (const size_t colon = v.find(':'); colon != std::string_view::npos) {
      const auto w = parse_int(v.substr(0, colon));
      const auto h = parse_int(v.substr(colon + 1));
      if (w && h && *w != *h) {
        return error(cat("SZ[", show(v), "]: non-square boards are not supported"));
      }
      size = w && h ? w : std::nullopt;
    } else {
      size = parse_int(v);
    }
    if (!size) return error(cat("SZ[", show(v), "]: not a board size"));
    if (*size < Geometry::kMinSize || *size > Geometry::kMaxSize) {
      return error(cat("SZ[", show(v), "]: board size outside ", Geometry::kMinSize, "..",
                       Geometry::kMaxSize,
                       *size > Geometry::kMaxSize
                           ? " (SGF allows up to 52x52; the board's padded arrays hold at most "
                             "25x25)"
                           : ""));
    }
    record_.board_size = *size;
    return absl::OkStatus();
  }

  void read_komi(const SgfProperty& p) {
    std::string raw(trim(p.values[0]));
    if (p.values.size() > 1) warn("several values", cat("KM has ", p.values.size(),
                                               " values; using the first"));
    if (raw.empty()) {
      warn("komi", "KM[] is empty; komi 0");
      return;
    }
    if (const size_t comma = raw.find(','); comma != std::string::npos) {
      raw[comma] = '.';
      warn("komi", cat("KM[", show(p.values[0]), "]: decimal comma read as a point"));
    }
    const char* begin = raw.data();
    if (*begin == '+') ++begin;
    double komi = 0;
    const auto [ptr, ec] = std::from_chars(begin, raw.data() + raw.size(), komi);
    if (ec != std::errc() || !std::isfinite(komi)) {
      warn("komi", cat("KM[", show(p.values[0]), "] is not a number; komi 0"));
      return;
    }
    if (ptr != raw.data() + raw.size()) {
      warn("komi", cat("KM[", show(p.values[0]), "]: text after the number ignored"));
    }
    if (fox_ && std::abs(komi) > 20) {
      komi /= 50;  // Fox stores komi x50
    } else if (std::abs(komi) > 150) {
      warn("komi", cat("KM[", show(p.values[0]), "]: absurd komi kept as is"));
    }
    record_.komi = komi;
  }

  void read_handicap(const SgfProperty& p) {
    const std::string_view v = trim(p.values[0]);
    int h = 0;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), h);
    if (v.empty() || ec != std::errc() || ptr != v.data() + v.size()) {
      warn("handicap", cat("HA[", show(p.values[0]), "] is not a number; handicap 0"));
      return;
    }
    if (h < 0 || h > record_.board_size * record_.board_size) {
      warn("handicap", cat("HA[", show(p.values[0]), "] out of range; handicap 0"));
      return;
    }
    record_.handicap = h;
  }

  // Game info from the root, else from the first node on the main line that has it.
  void read_game_info(std::span<const SgfNode> nodes) {
    enum Field { kPB, kPW, kBR, kWR, kKM, kHA, kRE, kDT, kRU, kEV, kGN, kPC, kNumFields };
    static constexpr std::string_view kIds[kNumFields] = {"PB", "PW", "BR", "WR", "KM", "HA",
                                                          "RE", "DT", "RU", "EV", "GN", "PC"};
    bool seen[kNumFields] = {};
    for (const SgfNode& node : nodes) {
      node_offset_ = node.offset;
      for (const SgfProperty& p : node.properties) {
        if (p.id.size() != 2) continue;
        int f = 0;
        while (f < kNumFields && kIds[f] != p.id) ++f;
        if (f == kNumFields || seen[f]) continue;
        seen[f] = true;
        switch (f) {
          case kPB: record_.black_name = simple_text(p); break;
          case kPW: record_.white_name = simple_text(p); break;
          case kBR:
            record_.black_rank_text = simple_text(p);
            record_.black_rank = parse_rank(record_.black_rank_text);
            break;
          case kWR:
            record_.white_rank_text = simple_text(p);
            record_.white_rank = parse_rank(record_.white_rank_text);
            break;
          case kKM: read_komi(p); break;
          case kHA: read_handicap(p); break;
          case kRE: record_.result = simple_text(p); break;
          case kDT: record_.date = simple_text(p); break;
          case kRU:
            record_.rules = simple_text(p);
            record_.declared_rules = rules_from_ru(record_.rules);
            if (!record_.declared_rules && !record_.rules.empty()) {
              warn("unknown RU", cat("RU[", show(record_.rules), "] names no known rule set; "
                                     "replay assumes the default"));
            }
            break;
          case kEV: record_.event = simple_text(p); break;
          case kGN: record_.game_name = simple_text(p); break;
          case kPC: record_.place = simple_text(p); break;
        }
      }
    }
    node_offset_ = nodes.front().offset;
    if (const SgfProperty* c = nodes.front().find("C")) record_.comment = text(*c);
  }

  absl::Status point_error(std::string_view what, std::string_view raw, const SgfNode& node) {
    const bool two_letters = raw.size() == 2 && is_ascii_letter(raw[0]) && is_ascii_letter(raw[1]);
    return error(cat(what, ": point '", show(raw), "' ",
                     two_letters ? cat("outside ", record_.board_size, "x", record_.board_size,
                                       " board")
                                 : std::string("malformed"),
                     " (node at byte ", node.offset, ")"));
  }

  // Appends the points of one AB/AW/AE value ("aa" or "aa:cc") to `out`.
  absl::Status read_setup_value(const SgfProperty& p, std::string_view raw, const SgfNode& node,
                                std::vector<Vertex>& out) {
    const std::string_view v = trim(raw);
    const size_t colon = v.find(':');
    if (colon == std::string_view::npos) {
      const auto vertex = from_sgf(v, record_.board_size);
      if (!vertex) return point_error(p.id, v, node);
      if (vertex->is_pass()) {
        warn("setup point skipped", cat(p.id, "[", show(v), "] at byte ", node.offset, " is not a point; skipped"));
        return absl::OkStatus();
      }
      out.push_back(*vertex);
      return absl::OkStatus();
    }
    const std::string_view a = v.substr(0, colon);
    const std::string_view b = v.substr(colon + 1);
    const auto va = from_sgf(a, record_.board_size);
    const auto vb = from_sgf(b, record_.board_size);
    if (!va || va->is_pass()) return point_error(p.id, a, node);
    if (!vb || vb->is_pass()) return point_error(p.id, b, node);
    const Geometry g(record_.board_size);
    const int x0 = std::min(g.x(*va), g.x(*vb)), x1 = std::max(g.x(*va), g.x(*vb));
    const int y0 = std::min(g.y(*va), g.y(*vb)), y1 = std::max(g.y(*va), g.y(*vb));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) out.push_back(g.at(x, y));
    }
    return absl::OkStatus();
  }

  std::optional<Color> read_player(const SgfProperty& p) {
    const std::string_view raw = trim(p.values[0]);
    if (raw == "B") return Color::kBlack;
    if (raw == "W") return Color::kWhite;
    std::string v;
    for (char c : raw) v.push_back(ascii_lower(c));
    if (v == "b" || v == "black" || v == "w" || v == "white") {
      warn("PL value", cat("PL[", show(p.values[0]), "] read as PL[", v[0] == 'b' ? "B" : "W", "]"));
      return v[0] == 'b' ? Color::kBlack : Color::kWhite;
    }
    warn("PL value", cat("PL[", show(p.values[0]), "] is not B or W; ignored"));
    return std::nullopt;
  }

  absl::Status read_node(const SgfNode& node, bool root) {
    // One pass over the node: AE, AB, AW, PL, B, W.
    const SgfProperty* found[6] = {};
    for (const SgfProperty& p : node.properties) {
      const std::string_view id = p.id;
      if (id.size() == 1) {
        if (id[0] == 'B') found[4] = &p;
        if (id[0] == 'W') found[5] = &p;
      } else if (id.size() == 2) {
        if (id[0] == 'A') {
          if (id[1] == 'E') found[0] = &p;
          if (id[1] == 'B') found[1] = &p;
          if (id[1] == 'W') found[2] = &p;
        } else if (id == "PL") {
          found[3] = &p;
        }
      }
    }
    static constexpr Color kSetupColors[] = {Color::kEmpty, Color::kBlack, Color::kWhite};
    bool has_setup = false;
    for (int k = 0; k < 3; ++k) {
      const SgfProperty* p = found[k];
      const Color color = kSetupColors[k];
      if (p == nullptr) continue;
      has_setup = true;
      std::vector<Vertex>& target = root ? (color == Color::kBlack   ? record_.setup.black
                                            : color == Color::kWhite ? record_.setup.white
                                                                     : record_.setup.empty_points)
                                         : scratch_;
      scratch_.clear();
      for (std::string_view raw : p->values) {
        if (absl::Status s = read_setup_value(*p, raw, node, target); !s.ok()) return s;
      }
      if (!root) {
        for (Vertex v : scratch_) record_.events.push_back(GameEvent::setup(color, v));
      }
    }
    if (const SgfProperty* pl = found[3]) {
      if (const auto c = read_player(*pl)) {
        if (root) {
          root_to_play_ = *c;
        } else {
          record_.events.push_back(GameEvent::to_play(*c));
        }
      }
    }
    const SgfProperty* moves[2] = {found[4], found[5]};
    if (moves[0] != nullptr && moves[1] != nullptr) {
      warn("B and W in one node", cat("node at byte ", node.offset, " has both B and W; B played first"));
    }
    if (has_setup && (moves[0] != nullptr || moves[1] != nullptr)) {
      warn("setup and move in one node", cat("node at byte ", node.offset, " mixes setup and a move; setup first"));
    }
    for (int m = 0; m < 2; ++m) {
      const SgfProperty* p = moves[m];
      if (p == nullptr) continue;
      const Color color = m == 0 ? Color::kBlack : Color::kWhite;
      if (p->values.size() > 1) {
        warn("several values", cat("node at byte ", node.offset, " has ", p->values.size(), " ", p->id,
                          " values; all played"));
      }
      for (std::string_view raw : p->values) {
        ++num_moves_;
        const std::string_view v = trim(raw);
        if (v.empty() && !raw.empty()) {
          warn("blank move", cat(p->id, "[", show(raw), "] at byte ", node.offset,
                                 ": white space only, read as a pass"));
        }
        const auto vertex = from_sgf(v, record_.board_size);
        if (!vertex) return point_error(cat("move ", num_moves_), v, node);
        record_.events.push_back(GameEvent::move(color, *vertex));
      }
    }
    return absl::OkStatus();
  }

  Color default_to_play() const {
    for (const GameEvent& e : record_.events) {
      if (e.type == GameEvent::Type::kMove) return e.color;
    }
    if (!record_.setup.black.empty() && record_.setup.white.empty()) return Color::kWhite;
    return Color::kBlack;
  }

  const ParsedTree& tree_;
  const ReadOptions& options_;
  GameRecord record_;
  std::optional<sgf_text::Decoder> decoder_;
  bool fox_ = false;
  std::optional<Color> root_to_play_;
  size_t num_moves_ = 0;
  size_t node_offset_ = 0;  // of the node being read, for warnings
  std::vector<Vertex> scratch_;
};

}  // namespace

absl::StatusOr<GameRecord> to_record(const ParsedTree& tree, const ReadOptions& options) {
  return Converter(tree, options).run();
}

absl::StatusOr<GameRecord> read_game(std::string_view sgf_text, const ReadOptions& options) {
  ParseResult parsed = parse_sgf(sgf_text, options.parse);
  if (parsed.trees.empty()) return parsed.status;
  if (!parsed.errors.empty() && parsed.errors.front().tree_index == 0) return parsed.status;
  ReadOptions lenient = options;
  lenient.strict = false;
  absl::StatusOr<GameRecord> record = to_record(parsed.trees.front(), lenient);
  if (!record.ok()) return record;
  const size_t offset = parsed.trees.front().end_offset();
  if (parsed.trees.size() > 1) {
    record->warnings.push_back({"several game trees", offset,
                                cat(parsed.trees.size() - 1, " more game trees ignored (from byte ",
                                    parsed.trees[1].begin_offset(), ")")});
  }
  if (!parsed.status.ok()) {
    record->warnings.push_back({"several game trees", offset,
                                cat("ignored after the first game tree: ", parsed.status.message())});
  }
  if (options.strict && !record->warnings.empty()) {
    return absl::InvalidArgumentError(cat("sgf: strict: ", record->warnings.front().message));
  }
  return record;
}

}  // namespace hane
