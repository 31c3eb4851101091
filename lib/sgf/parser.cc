#include "sgf/parser.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "sgf/text.h"

namespace hane {

const SgfProperty* SgfNode::find(std::string_view id) const {
  for (const SgfProperty& p : properties) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

inline bool is_space(char c) { return static_cast<unsigned char>(c) <= 0x20; }
inline bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

}  // namespace

// The parser proper. Game trees are read one at a time; inside a tree the only state needed to
// follow the main line is a depth counter, plus a stack of the offsets of open '(' for error
// messages, so nesting costs 8 bytes a level and no recursion.
class SgfParser {
 public:
  SgfParser(std::string_view text, const ParseOptions& options)
      : begin_(text.data()), end_(text.data() + text.size()), options_(options) {}

  ParseResult run() {
    ParseResult result;
    if (begin_ == end_) {
      add_error(result, error(0, "empty input"), 0);
      return result;
    }
    p_ = begin_;
    if (static_cast<size_t>(end_ - p_) >= kBom.size() &&
        std::memcmp(p_, kBom.data(), kBom.size()) == 0) {
      p_ += kBom.size();
    }
    bool after_tree = false;  // the last thing read was a complete game tree
    for (;;) {
      // Between trees: white space, stray ')' after a tree (noted on it), junk up to "(;".
      for (; p_ < end_; ++p_) {
        if (after_tree && *p_ == ')') {
          result.trees.back().repairs_.push_back(
              {"stray ')'", static_cast<size_t>(p_ - begin_),
               where(p_ - begin_, "stray ')' after the game tree ignored")});
        } else if (!is_space(*p_)) {
          break;
        }
      }
      const char* start = find_tree_start(p_);
      if (start == nullptr) {
        if (result.trees.empty() && result.errors.empty()) {
          add_error(result, error(p_ - begin_, "no game tree (\"(;\") found"), 0);
        }
        return result;
      }
      p_ = start;
      ParsedTree tree;
      absl::Status status = parse_tree(tree);
      after_tree = status.ok();
      if (status.ok()) {
        result.trees.push_back(std::move(tree));
        continue;
      }
      const size_t error_offset = p_ - begin_;
      add_error(result, std::move(status), result.trees.size());
      // Skip the broken tree: follow its brackets to its ')'. If it never closes, resume at the
      // next "(;" after the error (only once per text: a second scan to the end could make
      // reading quadratic).
      if (scanned_to_end_ || !skip_tree(open_.size())) {
        scanned_to_end_ = true;
        p_ = begin_ + std::min(error_offset + 1, static_cast<size_t>(end_ - begin_));
      }
    }
  }

 private:
  struct RawProperty {
    std::string_view id;
    uint32_t first_value;
    uint32_t num_values;
  };

  static void add_error(ParseResult& result, absl::Status status, size_t tree_index) {
    const absl::string_view message = status.message();
    size_t offset = 0;
    // Messages start "sgf: byte N ".
    for (size_t i = 10; i < message.size() && message[i] >= '0' && message[i] <= '9'; ++i) {
      offset = offset * 10 + (message[i] - '0');
    }
    result.errors.push_back({offset, std::string(message), tree_index});
    if (result.status.ok()) result.status = std::move(status);
  }

  // Skips white space; other control bytes count as white space but are noted.
  void skip_space() {
    for (; p_ < end_ && is_space(*p_); ++p_) {
      const char c = *p_;
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        if (num_control_ == 0) first_control_ = p_ - begin_;
        ++num_control_;
      }
    }
  }

  // Skips the rest of a broken tree with `depth` trees open, from p_: values are skipped whole,
  // parentheses counted. True with p_ after the tree's closing ')', false at the end of input.
  bool skip_tree(size_t depth) {
    while (p_ < end_) {
      const char c = *p_++;
      if (c == '[') {
        while (p_ < end_ && *p_ != ']') p_ += *p_ == '\\' ? 2 : 1;
        if (p_ >= end_) return false;
        ++p_;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')') {
        if (depth <= 1) return true;
        --depth;
      }
    }
    return false;
  }

  // True if a property identifier with a capital letter, then '[', starts at `q`.
  bool starts_property(const char* q) const {
    bool capital = false;
    const char* r = q;
    for (; r < end_ && (is_upper(*r) || is_lower(*r)); ++r) capital |= is_upper(*r);
    if (r == q || !capital) return false;
    while (r < end_ && is_space(*r)) ++r;
    return r < end_ && *r == '[';
  }

  // First '(' at or after `from` whose next non-space byte is ';' (or that starts a property:
  // the ';' is then missing), or nullptr.
  const char* find_tree_start(const char* from) const {
    for (const char* q = from; q < end_;) {
      q = static_cast<const char*>(std::memchr(q, '(', end_ - q));
      if (q == nullptr) return nullptr;
      const char* r = q + 1;
      while (r < end_ && is_space(*r)) ++r;
      if (r < end_ && (*r == ';' || starts_property(r))) return q;
      q = q + 1;
    }
    return nullptr;
  }

  // "byte N (line L, column C): message".
  std::string where(size_t offset, std::string_view message) const {
    int line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < offset && begin_ + i < end_; ++i) {
      const char c = begin_[i];
      if (c == '\n' || (c == '\r' && (begin_ + i + 1 == end_ || begin_[i + 1] != '\n'))) {
        ++line;
        line_start = i + 1;
      }
    }
    return sgf_text::cat("byte ", offset, " (line ", line, ", column ", offset - line_start + 1,
                         "): ", message);
  }

  absl::Status error(size_t offset, std::string_view message) const {
    return absl::InvalidArgumentError(sgf_text::cat("sgf: ", where(offset, message)));
  }

  std::string describe_byte(char c) const {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7F) return std::string{'\'', c, '\''};
    static constexpr char kHex[] = "0123456789ABCDEF";
    return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 15];
  }

  // Reads one game tree starting at the '(' at p_ (known to be followed by ';' or a property).
  // On error p_ is where the error was found and open_ holds the trees still open.
  absl::Status parse_tree(ParsedTree& tree) {
    tree.begin_ = p_ - begin_;
    raw_props_.clear();
    node_first_prop_.clear();
    open_.clear();
    num_control_ = 0;
    // The tree's main line is the innermost open tree at depth `main_depth` as long as
    // `main_open`; a '(' opened there continues it, any other '(' starts a variation.
    size_t depth = 0;
    size_t main_depth = 1;
    bool main_open = true;
    bool in_node = false;      // properties allowed (a ';' of the current sequence was read)
    bool after_child = false;  // a child tree of the current tree was closed
    auto start_node = [&](size_t offset) {
      in_node = true;
      if (main_open && depth == main_depth) {
        SgfNode node;
        node.offset = offset;
        tree.nodes_.push_back(node);
        node_first_prop_.push_back(static_cast<uint32_t>(raw_props_.size()));
      }
    };
    for (;;) {
      skip_space();
      if (p_ == end_) {
        if (open_.empty()) break;
        // A file cut at the end: close what is open.
        tree.repairs_.push_back({"missing ')'", static_cast<size_t>(end_ - begin_), where(
            end_ - begin_, sgf_text::cat("end of input inside the game tree: ", open_.size(),
                                         " ')' missing, closed at the end ('(' at byte ",
                                         open_.back(), " not closed)"))});
        open_.clear();
        break;
      }
      const char c = *p_;
      if (c == '(') {
        const char* r = p_ + 1;
        while (r < end_ && is_space(*r)) ++r;
        const bool missing_semicolon = r < end_ && *r != ';' && starts_property(r);
        if (r == end_ || (*r != ';' && !missing_semicolon)) {
          return error(r - begin_, "game tree without nodes (expected ';')");
        }
        if (depth > 0) {
          if (main_open && depth == main_depth) {
            ++main_depth;
          } else {
            ++tree.num_variations_;
          }
        }
        open_.push_back(p_ - begin_);
        ++depth;
        in_node = false;
        after_child = false;
        ++p_;
        if (missing_semicolon) {
          tree.repairs_.push_back({"missing ';'", static_cast<size_t>(r - begin_),
                                   where(r - begin_, "missing ';' after '(': node inserted")});
          start_node(r - begin_);
        }
      } else if (c == ')') {
        if (main_open && depth == main_depth) main_open = false;
        open_.pop_back();
        --depth;
        ++p_;
        if (depth == 0) break;
        in_node = false;
        after_child = true;
      } else if (c == ';') {
        if (after_child) return error(p_ - begin_, "node after a variation");
        start_node(p_ - begin_);
        ++p_;
      } else if (is_upper(c) || is_lower(c)) {
        if (!in_node) return error(p_ - begin_, "property outside a node");
        absl::Status status = parse_property(tree, main_open && depth == main_depth);
        if (!status.ok()) return status;
      } else if (c == ']') {
        tree.repairs_.push_back({"stray ']'", static_cast<size_t>(p_ - begin_),
                                 where(p_ - begin_, "stray ']' ignored")});
        ++p_;
      } else {
        return error(p_ - begin_, sgf_text::cat("unexpected ", describe_byte(c)));
      }
    }
    if (num_control_ > 0) {
      tree.repairs_.push_back(
          {"control bytes", first_control_,
           where(first_control_, sgf_text::cat(num_control_,
                                               " control byte(s) between tokens (first ",
                                               describe_byte(begin_[first_control_]),
                                               ") read as white space"))});
    }
    std::stable_sort(tree.repairs_.begin(), tree.repairs_.end(),
                     [](const SgfRepair& a, const SgfRepair& b) { return a.offset < b.offset; });
    tree.end_ = p_ - begin_;
    finalize(tree);
    return absl::OkStatus();
  }

  absl::Status parse_property(ParsedTree& tree, bool keep) {
    const char* id_start = p_;
    bool all_upper = true;
    for (; p_ < end_; ++p_) {
      if (is_upper(*p_)) continue;
      if (!is_lower(*p_)) break;
      all_upper = false;
    }
    const std::string_view raw_id(id_start, p_ - id_start);
    std::string_view id = raw_id;
    if (!all_upper) {
      std::string upper;
      for (char c : raw_id) {
        if (is_upper(c)) upper.push_back(c);
      }
      if (upper.empty()) {
        return error(id_start - begin_, sgf_text::cat("property identifier '", raw_id,
                                                      "' has no capital letter"));
      }
      if (keep) {
        tree.normalised_ids_.push_front(std::move(upper));
        id = tree.normalised_ids_.front();
      }
    }
    skip_space();
    if (p_ == end_ || *p_ != '[') {
      return error(p_ - begin_, sgf_text::cat("property ", raw_id, " without a value"));
    }
    const uint32_t first = static_cast<uint32_t>(tree.values_.size());
    while (p_ < end_ && *p_ == '[') {
      const char* value_start = p_ + 1;
      const char* q = value_start;
      const char* close;
      for (;;) {
        close = static_cast<const char*>(std::memchr(q, ']', end_ - q));
        if (close == nullptr) {
          return error(p_ - begin_, sgf_text::cat("unterminated value of property ", raw_id));
        }
        const char* b = close;
        while (b > value_start && b[-1] == '\\') --b;
        if ((close - b) % 2 == 0) break;
        q = close + 1;
      }
      if (static_cast<size_t>(close - value_start) > options_.max_value_bytes) {
        return error(p_ - begin_, sgf_text::cat("value of property ", raw_id, " is longer than ",
                                               options_.max_value_bytes, " bytes"));
      }
      if (keep) tree.values_.emplace_back(value_start, close - value_start);
      p_ = close + 1;
      skip_space();
    }
    if (keep) {
      raw_props_.push_back({id, first, static_cast<uint32_t>(tree.values_.size()) - first});
    }
    return absl::OkStatus();
  }

  static bool has_duplicate_ids(std::span<const RawProperty> props) {
    if (props.size() <= 16) {
      for (size_t i = 1; i < props.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
          if (props[i].id == props[j].id) return true;
        }
      }
      return false;
    }
    std::vector<std::string_view> ids;
    ids.reserve(props.size());
    for (const RawProperty& p : props) ids.push_back(p.id);
    std::sort(ids.begin(), ids.end());
    return std::adjacent_find(ids.begin(), ids.end()) != ids.end();
  }

  // Merges repeated identifiers within each node and turns indices into spans.
  void finalize(ParsedTree& tree) {
    tree.properties_.clear();
    tree.properties_.reserve(raw_props_.size());
    final_values_.clear();
    node_first_prop_.push_back(static_cast<uint32_t>(raw_props_.size()));
    std::vector<uint32_t> node_first_final(tree.nodes_.size() + 1);
    for (size_t n = 0; n < tree.nodes_.size(); ++n) {
      node_first_final[n] = static_cast<uint32_t>(tree.properties_.size());
      std::span<RawProperty> props(raw_props_.data() + node_first_prop_[n],
                                   node_first_prop_[n + 1] - node_first_prop_[n]);
      if (!has_duplicate_ids(props)) {
        for (RawProperty& p : props) {
          tree.properties_.push_back({p.id, {}});
          final_values_.emplace_back(p.first_value, p.num_values);
        }
        continue;
      }
      // Regroup this node's values (a contiguous range) by identifier.
      const uint32_t node_values = props.front().first_value;
      scratch_.clear();
      std::vector<bool> done(props.size(), false);
      for (size_t i = 0; i < props.size(); ++i) {
        if (done[i]) continue;
        const uint32_t first = node_values + static_cast<uint32_t>(scratch_.size());
        for (size_t j = i; j < props.size(); ++j) {
          if (done[j] || props[j].id != props[i].id) continue;
          done[j] = true;
          for (uint32_t v = 0; v < props[j].num_values; ++v) {
            scratch_.push_back(tree.values_[props[j].first_value + v]);
          }
        }
        tree.properties_.push_back({props[i].id, {}});
        final_values_.emplace_back(first, node_values + scratch_.size() - first);
      }
      std::copy(scratch_.begin(), scratch_.end(), tree.values_.begin() + node_values);
    }
    node_first_final[tree.nodes_.size()] = static_cast<uint32_t>(tree.properties_.size());
    for (size_t i = 0; i < tree.properties_.size(); ++i) {
      tree.properties_[i].values = std::span<const std::string_view>(
          tree.values_.data() + final_values_[i].first, final_values_[i].second);
    }
    for (size_t n = 0; n < tree.nodes_.size(); ++n) {
      tree.nodes_[n].properties = std::span<const SgfProperty>(
          tree.properties_.data() + node_first_final[n],
          node_first_final[n + 1] - node_first_final[n]);
    }
  }

  const char* const begin_;
  const char* const end_;
  const ParseOptions options_;
  const char* p_ = nullptr;
  // Scratch space reused across trees.
  std::vector<RawProperty> raw_props_;
  std::vector<uint32_t> node_first_prop_;
  std::vector<size_t> open_;
  std::vector<std::pair<uint32_t, uint32_t>> final_values_;
  std::vector<std::string_view> scratch_;
  size_t num_control_ = 0;    // control bytes read as white space in the current tree
  size_t first_control_ = 0;  // offset of the first
  bool scanned_to_end_ = false;
};

ParseResult parse_sgf(std::string_view text, const ParseOptions& options) {
  return SgfParser(text, options).run();
}

}  // namespace hane
