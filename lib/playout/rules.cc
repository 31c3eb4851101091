#include "playout/rules.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "features/tactics.h"
#include "playout/uniform.h"

namespace hane {

namespace {

// ---- 3x3 patterns ----------------------------------------------------------------------------
//
// The 8 neighbours of a point in reading order (NW N NE W E SW S SE); a key holds their colours
// (Color values, wall included), 2 bits each, neighbour i at bits 2i.
constexpr int kDx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
constexpr int kDy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

int neighbour_slot(int dx, int dy) {
  const int cell = (dy + 1) * 3 + (dx + 1);  // 0..8, 4 is the centre
  return cell < 4 ? cell : cell - 1;
}

// A pattern as three rows of three, the centre (the move) in the middle. From the point of view
// of one colour X against O: X, O, . (empty), # (off the board), ? (anything), x (not X),
// o (not O). `either_side`: a good move for whichever side is to move (MoGo marks the others,
// good only for X to move).
struct Pattern {
  const char* rows;
  bool either_side;
};

// MoGo's patterns (Gelly et al. 2006, figures 2-4), as Pachi's moggy writes them but without its
// atari refinements (the key holds colours only).
constexpr Pattern kPatterns[] = {
    {"XOX"
     "..."
     "???", true},  // hane: enclosing hane
    {"XO."
     "..."
     "?.?", true},  // hane: non-cutting hane
    {"XO?"
     "X.."
     "x.?", true},  // hane: magari
    {"XOO"
     "..."
     "?.?", false},  // hane: thin hane, X to move
    {"XO?"
     "O.o"
     "?o?", true},  // cut1: unprotected cut
    {"XO?"
     "O.X"
     "???", true},  // cut1: peeped cut
    {"?X?"
     "O.O"
     "ooo", true},  // cut2
    {"X.?"
     "O.?"
     "##?", true},  // edge: chase
    {"OX?"
     "X.O"
     "###", true},  // edge: block the side cut
    {"?X?"
     "x.O"
     "###", true},  // edge: block the side connection
    {"?XO"
     "x.?"
     "###", false},  // edge: sagari, X to move
    {"?OX"
     "X.O"
     "###", false},  // edge: side cut, X to move
};

using PatternTable = std::array<uint8_t, 1 << 16>;  // bit 0: good for black, bit 1: for white

uint8_t colour_set(char ch, Color x, Color o) {
  auto bit = [](Color c) { return static_cast<uint8_t>(1u << static_cast<int>(c)); };
  switch (ch) {
    case 'X': return bit(x);
    case 'O': return bit(o);
    case '.': return bit(Color::kEmpty);
    case '#': return bit(Color::kWall);
    case 'x': return static_cast<uint8_t>(0xF & ~bit(x));
    case 'o': return static_cast<uint8_t>(0xF & ~bit(o));
    default: return 0xF;  // '?'
  }
}

void mark(PatternTable& table, const std::array<uint8_t, 8>& allowed, int slot, uint32_t key, uint8_t bits) {
  if (slot == 8) {
    table[key] |= bits;
    return;
  }
  for (uint32_t c = 0; c < 4; ++c) {
    if ((allowed[slot] >> c) & 1) mark(table, allowed, slot + 1, key | (c << (2 * slot)), bits);
  }
}

const PatternTable& pattern_table() {
  static const PatternTable table = [] {
    PatternTable t{};
    for (const Pattern& p : kPatterns) {
      for (const Color x : {Color::kBlack, Color::kWhite}) {
        const uint8_t bits = p.either_side ? 3 : (x == Color::kBlack ? 1 : 2);
        for (int sym = 0; sym < 8; ++sym) {
          std::array<uint8_t, 8> allowed{};
          for (int i = 0; i < 8; ++i) {
            int dx = kDx[i], dy = kDy[i];
            if (sym & 1) dx = -dx;
            if (sym & 2) dy = -dy;
            if (sym & 4) std::swap(dx, dy);
            allowed[neighbour_slot(dx, dy)] = colour_set(p.rows[(kDy[i] + 1) * 3 + kDx[i] + 1], x, opponent(x));
          }
          mark(t, allowed, 0, 0, bits);
        }
      }
    }
    return t;
  }();
  return table;
}

uint32_t pattern_key(const Board& board, Vertex v) {
  const int i = v.index(), s = board.stride();
  const int offsets[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
  uint32_t key = 0;
  for (int k = 0; k < 8; ++k) key |= static_cast<uint32_t>(board.color(Vertex(i + offsets[k]))) << (2 * k);
  return key;
}

bool matches(const PatternTable& table, const Board& board, Vertex v, Color c) {
  return (table[pattern_key(board, v)] >> (static_cast<int>(c) - 1)) & 1;
}

// ---- what a move does to its own chain ---------------------------------------------------------

struct MoveEffect {
  int liberties = 0;  // of the mover's chain after the move, counted up to 2
  int stones = 1;     // of that chain
  bool captures = false;
};

// The effect of `c` playing at the empty point `v`. Liberties freed by a capture are counted
// only at the captured stones next to `v` (a lower bound, exact up to 2 without captures).
MoveEffect effect_of(const Board& board, Vertex v, Color c) {
  MoveEffect e;
  std::array<Vertex, 2> libs;
  int n = 0;
  bool saturated = false;
  auto add = [&](Vertex p) {
    if (p == v || saturated) return;
    for (int k = 0; k < n; ++k) {
      if (libs[k] == p) return;
    }
    if (n < 2) libs[n++] = p;
    saturated = n == 2;
  };
  std::array<Vertex, 4> heads;
  int num_heads = 0;
  const Color opp = opponent(c);
  for (const Vertex nb : board.neighbours(v)) {
    const Color nc = board.color(nb);
    if (nc == Color::kEmpty) {
      add(nb);
    } else if (nc == c) {
      const Vertex head = board.chain_head(nb);
      if (std::find(heads.begin(), heads.begin() + num_heads, head) != heads.begin() + num_heads) continue;
      heads[num_heads++] = head;
      e.stones += board.chain_size(nb);
      if (board.liberties(nb) >= 3) {
        saturated = true;  // at most `v` is lost
      } else if (!saturated) {
        std::array<Vertex, 2> own;
        const int k = board.liberties_of(nb, own);
        for (int j = 0; j < k; ++j) add(own[j]);
      }
    } else if (nc == opp && board.liberties(nb) == 1) {
      e.captures = true;
      add(nb);
    }
  }
  e.liberties = saturated ? 2 : n;
  return e;
}

}  // namespace

bool rules_pattern_matches(const Board& board, Vertex v, Color c) { return matches(pattern_table(), board, v, c); }

bool is_self_atari(const Board& board, Vertex v, Color c, int min_stones) {
  if (board.empty_neighbours(v) >= 2) return false;
  const MoveEffect e = effect_of(board, v, c);
  return !e.captures && e.liberties < 2 && e.stones >= min_stones;
}

// Ladder reads in playouts are bounded tighter than the guessers' (tactics.h LadderLimits): a
// ladder across a 19x19 board takes about 40 plies; a longer or branchier read counts as an
// escape.
constexpr LadderLimits kPlayoutLadder{.max_plies = 40, .max_nodes = 60};

// ---- the policy --------------------------------------------------------------------------------

RulesPolicy::RulesPolicy(const RulesOptions& options)
    : options_(options),
      capture_threshold_(threshold(options.capture)),
      save_threshold_(threshold(options.save)),
      ladder_threshold_(threshold(options.ladder)),
      nakade_threshold_(threshold(options.nakade)),
      two_liberty_threshold_(threshold(options.two_liberty)),
      pattern_threshold_(threshold(options.pattern)),
      self_atari_threshold_(threshold(options.self_atari)),
      patterns_(pattern_table().data()) {}

uint64_t RulesPolicy::threshold(double rate) {
  if (!(rate > 0)) return 0;
  if (rate >= 1) return uint64_t{1} << 32;
  return static_cast<uint64_t>(std::ldexp(rate, 32));
}

bool RulesPolicy::acceptable(Vertex v) const {
  return !board_.is_eye(v, to_move_) && board_.legal(v, to_move_) == Legality::kLegal;
}

bool RulesPolicy::self_atari(Vertex v) const {
  return is_self_atari(board_, v, to_move_, options_.self_atari_stones);
}

Vertex RulesPolicy::capture_move() const {
  const Color me = to_move_, opp = opponent(me);
  Vertex best = Vertex::none();
  int best_size = 0;
  auto consider = [&](Vertex chain) {
    if (board_.liberties(chain) != 1 || board_.chain_size(chain) <= best_size) return;
    const Vertex lib = board_.first_liberty(chain);
    if (!acceptable(lib)) return;
    best = lib;
    best_size = board_.chain_size(chain);
  };
  if (last_.is_point() && board_.color(last_) == opp) consider(last_);
  if (second_last_.is_point() && board_.color(second_last_) == me) {
    for (const Vertex nb : board_.neighbours(second_last_)) {
      if (board_.color(nb) == opp) consider(nb);
    }
  }
  return best;
}

Vertex RulesPolicy::save_move(Rng& rng) const {
  if (!last_.is_point()) return Vertex::none();
  const Color me = to_move_, opp = opponent(me);
  std::array<Vertex, 16> moves;
  int n = 0;
  auto push = [&](Vertex m) {
    if (n < static_cast<int>(moves.size()) && std::find(moves.begin(), moves.begin() + n, m) == moves.begin() + n) {
      moves[n++] = m;
    }
  };
  std::array<Vertex, 4> seen;
  int num_seen = 0;
  for (const Vertex nb : board_.neighbours(last_)) {
    if (board_.color(nb) != me || board_.liberties(nb) != 1) continue;
    const Vertex head = board_.chain_head(nb);
    if (std::find(seen.begin(), seen.begin() + num_seen, head) != seen.begin() + num_seen) continue;
    seen[num_seen++] = head;
    // Capture an opponent chain in atari that touches the chain.
    Vertex s = nb;
    do {
      for (const Vertex t : board_.neighbours(s)) {
        if (board_.color(t) != opp || board_.liberties(t) != 1) continue;
        const Vertex lib = board_.first_liberty(t);
        if (acceptable(lib)) push(lib);
      }
      s = board_.next_in_chain(s);
    } while (s != nb);
    // Extend, when that leaves at least 2 liberties and, with the ladder check, the chain is
    // not then caught in a ladder.
    const Vertex lib = board_.first_liberty(nb);
    if (!acceptable(lib) || effect_of(board_, lib, me).liberties < 2) continue;
    if (ladder_threshold_ != 0 && liberties_after(board_, lib, me, 3) < 3 && fires(ladder_threshold_, rng) &&
        !ladder_escape(board_, lib, me, kPlayoutLadder)) {
      continue;
    }
    push(lib);
  }
  if (n == 0) return Vertex::none();
  return n == 1 ? moves[0] : moves[rng.below(static_cast<uint32_t>(n))];
}

Vertex RulesPolicy::nakade_move(Rng& rng) const {
  if (!last_.is_point()) return Vertex::none();
  const int i = last_.index(), s = board_.stride();
  const int offsets[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
  std::array<Vertex, 8> moves;
  int n = 0;
  for (const int offset : offsets) {
    const Vertex v(i + offset);
    int size = 0;
    Color owner = Color::kEmpty;
    if (!board_.is_empty(v) || !nakade_vital(board_, v, &size, &owner)) continue;
    if (std::find(moves.begin(), moves.begin() + n, v) == moves.begin() + n && acceptable(v)) moves[n++] = v;
  }
  if (n == 0) return Vertex::none();
  return n == 1 ? moves[0] : moves[rng.below(static_cast<uint32_t>(n))];
}

Vertex RulesPolicy::two_liberty_move(Rng& rng) const {
  if (!last_.is_point() || board_.color(last_) == Color::kEmpty) return Vertex::none();
  const Color me = to_move_, opp = opponent(me);
  std::array<Vertex, 16> moves;
  int n = 0;
  auto push = [&](Vertex m) {
    if (n < static_cast<int>(moves.size()) && std::find(moves.begin(), moves.begin() + n, m) == moves.begin() + n) {
      moves[n++] = m;
    }
  };
  // Attack: the last move's chain, with 2 liberties, caught by an atari that starts a ladder.
  if (board_.color(last_) == opp && board_.liberties(last_) == 2) {
    std::array<Vertex, 2> libs;
    board_.liberties_of(last_, libs);
    for (int k = 0; k < 2; ++k) {
      const Vertex v = libs[k], run = libs[1 - k];
      // Read only when running at the other liberty keeps at most 2 (v then taken): otherwise
      // the atari fails at once.
      if (!acceptable(v) || liberties_after(board_, run, opp, 4) > 3 || liberties_after(board_, v, me, 2) < 2) continue;
      if (ladder_capture(board_, v, me, kPlayoutLadder)) push(v);
    }
  }
  // Defence: the mover's chains next to the last move with 2 liberties that the opponent could
  // catch in a ladder.
  std::array<Vertex, 4> seen;
  int num_seen = 0;
  for (const Vertex nb : board_.neighbours(last_)) {
    if (board_.color(nb) != me || board_.liberties(nb) != 2) continue;
    const Vertex head = board_.chain_head(nb);
    if (std::find(seen.begin(), seen.begin() + num_seen, head) != seen.begin() + num_seen) continue;
    seen[num_seen++] = head;
    std::array<Vertex, 2> libs;
    board_.liberties_of(nb, libs);
    // Safe at once when running at either liberty, the other taken, reaches 3 liberties.
    if (liberties_after(board_, libs[0], me, 4) > 3 && liberties_after(board_, libs[1], me, 4) > 3) continue;
    if (!ladder_captured(board_, nb, opp, kPlayoutLadder)) continue;
    for (const Vertex v : libs) {
      if (acceptable(v) && liberties_after(board_, v, me, 3) >= 3) push(v);
    }
    Vertex s = nb;
    do {
      for (const Vertex t : board_.neighbours(s)) {
        if (board_.color(t) != opp || board_.liberties(t) != 1) continue;
        const Vertex lib = board_.first_liberty(t);
        if (acceptable(lib)) push(lib);
      }
      s = board_.next_in_chain(s);
    } while (s != nb);
  }
  if (n == 0) return Vertex::none();
  return n == 1 ? moves[0] : moves[rng.below(static_cast<uint32_t>(n))];
}

Vertex RulesPolicy::pattern_move(Rng& rng) const {
  if (!last_.is_point()) return Vertex::none();
  const int i = last_.index(), s = board_.stride();
  const int offsets[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
  const int bit = static_cast<int>(to_move_) - 1;
  std::array<Vertex, 8> moves;
  int n = 0;
  for (const int offset : offsets) {
    const Vertex v(i + offset);
    if (!board_.is_empty(v) || !((patterns_[pattern_key(board_, v)] >> bit) & 1)) continue;
    if (acceptable(v) && !self_atari(v)) moves[n++] = v;
  }
  if (n == 0) return Vertex::none();
  return n == 1 ? moves[0] : moves[rng.below(static_cast<uint32_t>(n))];
}

Vertex RulesPolicy::random_move_without_self_atari(Rng& rng) const {
  const std::span<const int16_t> empties = board_.empty_points();
  if (empties.empty()) return Vertex::pass();
  // As random_move (uniform.cc): a few draws, then rejection without replacement; every
  // acceptable move that is no refused self-atari is equally likely.
  for (int tries = 0; tries < 4; ++tries) {
    const Vertex v(empties[rng.below(static_cast<uint32_t>(empties.size()))]);
    if (acceptable(v) && !self_atari(v)) return v;
  }
  std::array<int16_t, Board::kMaxVertices> candidates;
  std::copy(empties.begin(), empties.end(), candidates.begin());
  for (uint32_t left = static_cast<uint32_t>(empties.size()); left > 0; --left) {
    const uint32_t k = rng.below(left);
    const Vertex v(candidates[k]);
    if (acceptable(v) && !self_atari(v)) return v;
    candidates[k] = candidates[left - 1];
  }
  return Vertex::pass();
}

Vertex RulesPolicy::sample(Rng& rng) {
  // Each rule looks for its move first and draws its rate only when it has one.
  if (capture_threshold_ != 0) {
    const Vertex v = capture_move();
    if (v.is_point() && fires(capture_threshold_, rng)) {
      last_rule_ = RulesRule::kCapture;
      return v;
    }
  }
  if (save_threshold_ != 0) {
    const Vertex v = save_move(rng);
    if (v.is_point() && fires(save_threshold_, rng)) {
      last_rule_ = RulesRule::kSave;
      return v;
    }
  }
  if (nakade_threshold_ != 0) {
    const Vertex v = nakade_move(rng);
    if (v.is_point() && fires(nakade_threshold_, rng)) {
      last_rule_ = RulesRule::kNakade;
      return v;
    }
  }
  // Drawn before it looks, as Pachi's moggy draws its rates: its ladder reads are the policy's
  // dearest work, so a lower rate saves their time too.
  if (two_liberty_threshold_ != 0 && fires(two_liberty_threshold_, rng)) {
    const Vertex v = two_liberty_move(rng);
    if (v.is_point()) {
      last_rule_ = RulesRule::kTwoLiberty;
      return v;
    }
  }
  if (pattern_threshold_ != 0) {
    const Vertex v = pattern_move(rng);
    if (v.is_point() && fires(pattern_threshold_, rng)) {
      last_rule_ = RulesRule::kPattern;
      return v;
    }
  }
  last_rule_ = RulesRule::kRandom;
  if (fires(self_atari_threshold_, rng)) return random_move_without_self_atari(rng);
  return random_move(board_, to_move_, rng);
}

// ---- settings ----------------------------------------------------------------------------------

absl::StatusOr<RulesOptions> rules_options(const PolicyOptions& options) {
  RulesOptions r;
  const std::pair<std::string_view, double*> rates[] = {
      {"rules.capture", &r.capture},
      {"rules.save", &r.save},
      {"rules.ladder", &r.ladder},
      {"rules.nakade", &r.nakade},
      {"rules.two_liberty", &r.two_liberty},
      {"rules.pattern", &r.pattern},
      {"rules.self_atari", &r.self_atari},
  };
  constexpr std::string_view kStones = "rules.self_atari_stones";
  for (const auto& [key, value] : options.settings) {
    if (!key.starts_with("rules.")) continue;
    bool known = false;
    for (const auto& [name, field] : rates) {
      if (key != name) continue;
      double d = 0;
      if (!absl::SimpleAtod(value, &d) || !(d >= 0 && d <= 1)) {
        return absl::InvalidArgumentError(
            absl::StrCat("policy setting ", key, "=", value, ": expected a probability in [0, 1]"));
      }
      *field = d;
      known = true;
    }
    if (key == kStones) {
      int stones = 0;
      if (!absl::SimpleAtoi(value, &stones) || stones < 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("policy setting ", key, "=", value, ": expected a whole number of stones >= 1"));
      }
      r.self_atari_stones = stones;
      known = true;
    }
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "policy rules has no setting '", key,
          "' (known: rules.capture, rules.save, rules.ladder, rules.nakade, rules.two_liberty, rules.pattern, "
          "rules.self_atari, rules.self_atari_stones)"));
    }
  }
  return r;
}

absl::StatusOr<std::unique_ptr<PlayoutPolicy>> make_rules_policy(std::string_view, const PolicyOptions& options) {
  absl::StatusOr<RulesOptions> r = rules_options(options);
  if (!r.ok()) return r.status();
  return std::make_unique<RulesPolicy>(*r);
}

}  // namespace hane
