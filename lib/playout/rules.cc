#include "playout/rules.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "features/mogo3x3.h"
#include "features/pattern.h"
#include "features/tactics.h"
#include "playout/rules_gamma.h"
#include "playout/uniform.h"

namespace hane {

// Ladder reads in playouts are bounded tighter than the guessers' (features/ladder.h
// LadderLimits): a ladder across a 19x19 board takes about 40 plies; a longer or branchier read
// counts as an escape.
constexpr LadderLimits kPlayoutLadder{.max_plies = 40, .max_nodes = 60};

namespace {

// Up to N distinct candidate moves of one rule, one of them drawn at random.
template <size_t N>
struct Candidates {
  std::array<Vertex, N> moves;
  int n = 0;
  void add(Vertex m) {
    if (n < static_cast<int>(N) && std::find(moves.begin(), moves.begin() + n, m) == moves.begin() + n) moves[n++] = m;
  }
  Vertex pick(Rng& rng) const {
    if (n == 0) return Vertex::none();
    return n == 1 ? moves[0] : moves[rng.below(static_cast<uint32_t>(n))];
  }
};

// Up to N distinct chains (by head) that a rule has looked at.
template <size_t N>
struct Chains {
  std::array<Vertex, N> heads;
  int n = 0;
  // True the first time the chain of `v` is seen; false when seen before or when full.
  bool first_visit(const Board& board, Vertex v) {
    const Vertex head = board.chain_head(v);
    if (n == static_cast<int>(N) || std::find(heads.begin(), heads.begin() + n, head) != heads.begin() + n) return false;
    heads[n++] = head;
    return true;
  }
};

// Calls visit(t) with a stone t of each `opp` stone next to the chain of `chain` (a chain
// touching it twice is visited twice).
template <class Visit>
void opponents_next_to(const Board& board, Vertex chain, Color opp, Visit visit) {
  Vertex s = chain;
  do {
    for (const Vertex t : board.neighbours(s)) {
      if (board.color(t) == opp) visit(t);
    }
    s = board.next_in_chain(s);
  } while (s != chain);
}

// Calls add(lib) with the liberty of every `opp` chain in atari next to the chain of `chain`.
template <class Add>
void captures_next_to(const Board& board, Vertex chain, Color opp, Add add) {
  opponents_next_to(board, chain, opp, [&](Vertex t) {
    if (board.liberties(t) == 1) add(board.first_liberty(t));
  });
}

}  // namespace

// ---- the policy --------------------------------------------------------------------------------

RulesPolicy::RulesPolicy(const RulesOptions& options, std::shared_ptr<const LocalGammas> gammas)
    : options_(options),
      capture_threshold_(threshold(options.capture)),
      save_threshold_(threshold(options.save)),
      ladder_threshold_(threshold(options.ladder)),
      nakade_threshold_(threshold(options.nakade)),
      two_liberty_threshold_(threshold(options.two_liberty)),
      pattern_threshold_(threshold(options.pattern)),
      pattern_second_threshold_(threshold(options.pattern_second)),
      ko_threshold_(threshold(options.ko)),
      ko_threat_threshold_(threshold(options.ko_threat)),
      self_atari_threshold_(threshold(options.self_atari)),
      patterns_(mogo3x3_table().data()),
      gammas_(std::move(gammas)) {}

uint64_t RulesPolicy::threshold(double rate) {
  if (!(rate > 0)) return 0;
  if (rate >= 1) return uint64_t{1} << 32;
  return static_cast<uint64_t>(std::ldexp(rate, 32));
}

bool RulesPolicy::acceptable(Vertex v) const {
  return !board_.is_eye(v, to_move_) && board_.legal(v, to_move_) == Legality::kLegal;
}

bool RulesPolicy::capture_refused(Vertex v) const {
  if (!options_.safe_capture || liberties_after(board_, v, to_move_, 2) >= 2) return false;
  for (const Vertex n : board_.neighbours(v)) {
    if (board_.color(n) == to_move_) return true;
  }
  return false;
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
    if (!acceptable(lib) || capture_refused(lib)) return;
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

Vertex RulesPolicy::save_move(Rng& rng) {
  if (!last_.is_point()) return Vertex::none();
  const Color me = to_move_, opp = opponent(me);
  Candidates<16> moves;
  Chains<4> seen;
  for (const Vertex nb : board_.neighbours(last_)) {
    if (board_.color(nb) != me || board_.liberties(nb) != 1 || !seen.first_visit(board_, nb)) continue;
    // Capture an opponent chain in atari that touches the chain.
    captures_next_to(board_, nb, opp, [&](Vertex lib) {
      if (acceptable(lib) && !capture_refused(lib)) moves.add(lib);
    });
    // Extend, when that leaves at least 2 liberties and, with the ladder check, the chain is
    // not then caught in a ladder.
    const Vertex lib = board_.first_liberty(nb);
    if (!acceptable(lib) || liberties_after(board_, lib, me, 2) < 2) continue;
    if (ladder_threshold_ != 0 && liberties_after(board_, lib, me, 3) < 3 && fires(ladder_threshold_, rng) &&
        !ladder_escape_in_place(board_, lib, me, kPlayoutLadder)) {
      continue;
    }
    moves.add(lib);
  }
  return moves.pick(rng);
}

Vertex RulesPolicy::ko_threat_move(Rng& rng) const {
  const Color me = to_move_, opp = opponent(me);
  if (board_.ko_point().is_none() || board_.ko_color() != me) return Vertex::none();
  // From a random row on, so that the first 16 found lean to no side of the board.
  Candidates<16> moves;
  const int size = board_.size(), first_row = static_cast<int>(rng.below(static_cast<uint32_t>(size)));
  for (int row = 0; row < size && moves.n < 16; ++row) {
    for (int x = 0; x < size; ++x) {
      const Vertex v = board_.at(x, (first_row + row) % size);
      if (board_.color(v) != opp || board_.chain_head(v) != v || board_.liberties(v) != 2) continue;
      std::array<Vertex, 2> libs;
      board_.liberties_of(v, libs);
      for (const Vertex lib : libs) {
        if (acceptable(lib) && liberties_after(board_, lib, me, 2) >= 2) moves.add(lib);
      }
    }
  }
  return moves.pick(rng);
}

Vertex RulesPolicy::nakade_move(Rng& rng) const {
  if (!last_.is_point()) return Vertex::none();
  const int i = last_.index(), s = board_.stride();
  const int offsets[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
  Candidates<8> moves;
  for (const int offset : offsets) {
    const Vertex v(i + offset);
    int size = 0;
    Color owner = Color::kEmpty;
    if (!board_.is_empty(v) || !nakade_vital(board_, v, &size, &owner)) continue;
    if (acceptable(v)) moves.add(v);
  }
  return moves.pick(rng);
}

Vertex RulesPolicy::two_liberty_move(Rng& rng) {
  if (!last_.is_point() || board_.color(last_) == Color::kEmpty) return Vertex::none();
  if (!options_.two_liberty_reads) return two_liberty_heuristic_move(rng);
  const Color me = to_move_, opp = opponent(me);
  Candidates<16> moves;
  // Attack: the last move's chain, with 2 liberties, caught by an atari that starts a ladder.
  if (board_.color(last_) == opp && board_.liberties(last_) == 2) {
    std::array<Vertex, 2> libs;
    board_.liberties_of(last_, libs);
    for (int k = 0; k < 2; ++k) {
      const Vertex v = libs[k], run = libs[1 - k];
      // Read only when running at the other liberty keeps at most 2 (v then taken): otherwise
      // the atari fails at once.
      if (!acceptable(v) || liberties_after(board_, run, opp, 4) > 3 || liberties_after(board_, v, me, 2) < 2) continue;
      if (ladder_capture_in_place(board_, v, me, kPlayoutLadder)) moves.add(v);
    }
  }
  // Defence: the mover's chains next to the last move with 2 liberties that the opponent could
  // catch in a ladder.
  Chains<4> seen;
  for (const Vertex nb : board_.neighbours(last_)) {
    if (board_.color(nb) != me || board_.liberties(nb) != 2 || !seen.first_visit(board_, nb)) continue;
    std::array<Vertex, 2> libs;
    board_.liberties_of(nb, libs);
    // Safe at once when running at either liberty, the other taken, reaches 3 liberties.
    if (liberties_after(board_, libs[0], me, 4) > 3 && liberties_after(board_, libs[1], me, 4) > 3) continue;
    if (!ladder_captured_in_place(board_, nb, opp, kPlayoutLadder)) continue;
    for (const Vertex v : libs) {
      if (acceptable(v) && liberties_after(board_, v, me, 3) >= 3) moves.add(v);
    }
    captures_next_to(board_, nb, opp, [&](Vertex lib) {
      if (acceptable(lib)) moves.add(lib);
    });
  }
  return moves.pick(rng);
}

bool RulesPolicy::miai(Vertex chain, const std::array<Vertex, 2>& libs) const {
  const Color owner = board_.color(chain);
  const Vertex head = board_.chain_head(chain);
  // At each liberty: does it join another chain of the owner with 2+ liberties, or reach an
  // empty point other than the other liberty?
  bool connects[2] = {false, false}, pulls_out[2] = {false, false};
  for (int k = 0; k < 2; ++k) {
    for (const Vertex n : board_.neighbours(libs[k])) {
      if (board_.is_empty(n)) {
        pulls_out[k] |= n != libs[1 - k];
      } else if (board_.color(n) == owner && board_.chain_head(n) != head && board_.liberties(n) >= 2) {
        connects[k] = true;
      }
    }
  }
  return (connects[0] && (connects[1] || pulls_out[1])) || (connects[1] && pulls_out[0]);
}

Vertex RulesPolicy::two_liberty_heuristic_move(Rng& rng) const {
  const Color me = to_move_;
  Candidates<16> moves;
  // The mover's moves on the liberties of `chain` (2 liberties): an atari whose stone keeps 2
  // liberties, or an extension of its own chain to 3+; a "lumpy" liberty (3+ neighbours that are
  // the attacker's stones or wall) only when the other one does not qualify.
  auto on_liberties = [&](Vertex chain, const std::array<Vertex, 2>& libs) {
    const Color owner = board_.color(chain), attacker = opponent(owner);
    bool ok[2], lumpy[2];
    for (int k = 0; k < 2; ++k) {
      const Vertex v = libs[k];
      ok[k] = acceptable(v) && liberties_after(board_, v, me, 3) >= (me == owner ? 3 : 2);
      lumpy[k] = board_.neighbours_or_wall(v, attacker) >= 3;
    }
    for (int k = 0; k < 2; ++k) {
      if (ok[k] && !(lumpy[k] && ok[1 - k] && !lumpy[1 - k])) moves.add(libs[k]);
    }
  };
  // The chains looked at so far (the last move's, up to 4 of the mover's and their opponent
  // neighbours); when full, no further chain is looked at.
  Chains<24> seen;
  std::array<Vertex, 2> libs;
  // Attack: the last move's chain.
  if (board_.color(last_) == opponent(me) && board_.liberties(last_) == 2) {
    board_.liberties_of(last_, libs);
    if (!miai(last_, libs)) {
      seen.first_visit(board_, last_);
      on_liberties(last_, libs);
    }
  }
  // Defence: the mover's chains next to the last move; also capture or atari the opponent's
  // chains next to them.
  for (const Vertex nb : board_.neighbours(last_)) {
    if (board_.color(nb) != me || board_.liberties(nb) != 2 || !seen.first_visit(board_, nb)) continue;
    board_.liberties_of(nb, libs);
    if (miai(nb, libs)) continue;
    on_liberties(nb, libs);
    opponents_next_to(board_, board_.chain_head(nb), opponent(me), [&](Vertex t) {
      if (board_.liberties(t) == 1) {
        const Vertex lib = board_.first_liberty(t);
        if (acceptable(lib)) moves.add(lib);
      } else if (board_.liberties(t) == 2 && seen.first_visit(board_, t)) {
        std::array<Vertex, 2> t_libs;
        board_.liberties_of(t, t_libs);
        on_liberties(t, t_libs);
      }
    });
  }
  return moves.pick(rng);
}

template <typename C>
void RulesPolicy::add_pattern_moves(Vertex around, C& moves) const {
  const int i = around.index(), s = board_.stride();
  const int offsets[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
  const int bit = static_cast<int>(to_move_) - 1;
  for (const int offset : offsets) {
    const Vertex v(i + offset);
    if (!board_.is_empty(v) || !((patterns_[neighbour_colours(board_, v)] >> bit) & 1)) continue;
    if (acceptable(v) && !self_atari(v)) moves.add(v);
  }
}

Vertex RulesPolicy::pattern_move(Rng& rng) const {
  Candidates<16> moves;
  if (last_.is_point()) add_pattern_moves(last_, moves);
  if (second_last_.is_point() && fires(pattern_second_threshold_, rng)) add_pattern_moves(second_last_, moves);
  return moves.pick(rng);
}

int RulesPolicy::learned_answer(LearnedAnswer& out, bool with_second, std::array<LocalFeatures, 16>* features) const {
  const LocalGammas& g = *gammas_;
  const int colour = to_move_ == Color::kBlack ? 0 : 1;
  const std::vector<float>& table = g.pattern[colour];
  const Geometry& geometry = board_.geometry();
  out.n = 0;
  out.total = 0;
  const auto add = [&](Vertex around) {
    const int i = around.index(), s = board_.stride();
    const int offsets[8] = {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1};
    for (const int offset : offsets) {
      const Vertex v(i + offset);
      if (!board_.is_empty(v) || std::find(out.moves.begin(), out.moves.begin() + out.n, v) != out.moves.begin() + out.n) {
        continue;
      }
      const int pattern =
          g.model ? g.model->pattern_index(static_cast<uint32_t>(
                        canonical(pattern_code(board_, v, to_move_, PatternShape::k3x3), PatternShape::k3x3)))
                  : -1;
      const int key = g.model ? -1 : neighbour_colours(board_, v);
      float w = g.model ? g.model->gammas[pattern] : table[key];
      const int d1 = last_.is_point() ? move_distance(geometry, v, last_) : 99;
      const int d2 = second_last_.is_point() ? move_distance(geometry, v, second_last_) : 99;
      if (d1 <= 4) w *= g.distance[d1];
      if (d2 <= 4) w *= g.distance2[d2];
      if (features) {
        LocalFeatures& f = (*features)[out.n];
        f.pattern = g.model ? pattern : g.pattern_index[colour][key];
        f.distance = d1 <= 4 ? d1 : 0;
        f.distance2 = d2 <= 4 ? d2 : 0;
      }
      out.moves[out.n] = v;
      out.weights[out.n++] = w;
      out.total += w;
    }
  };
  if (last_.is_point()) add(last_);
  if (second_last_.is_point() && with_second) add(second_last_);
  out.background =
      static_cast<float>(options_.gamma_background) * g.empty * static_cast<float>(board_.empty_points().size());
  return out.n;
}

bool RulesPolicy::answer_acceptable(Vertex v) const { return acceptable(v) && !self_atari(v); }

Vertex RulesPolicy::learned_pattern_move(Rng& rng) const {
  LearnedAnswer a;
  learned_answer(a, second_last_.is_point() && fires(pattern_second_threshold_, rng));
  int n = a.n;
  float total = a.total;
  while (n > 0 && total > 0) {
    float u = static_cast<float>(rng.uniform()) * (total + a.background);
    if (u >= total) return Vertex::none();  // the rest of the board
    int k = 0;
    while (k < n - 1 && u >= a.weights[k]) u -= a.weights[k++];
    const Vertex v = a.moves[k];
    if (answer_acceptable(v)) return v;
    total -= a.weights[k];
    a.moves[k] = a.moves[n - 1];
    a.weights[k] = a.weights[--n];
  }
  return Vertex::none();
}

Vertex RulesPolicy::learned_random_move(Rng& rng, LearnedAnswer* trace) const {
  const std::span<const int16_t> empties = board_.empty_points();
  if (empties.empty()) return Vertex::none();
  const std::vector<float>& table = gammas_->pattern[to_move_ == Color::kBlack ? 0 : 1];
  LearnedAnswer local;
  LearnedAnswer& a = trace ? *trace : local;
  a.n = 0;
  a.total = 0;
  a.background = 0;
  const int k = std::min(options_.gamma_candidates, static_cast<int>(a.moves.size()));
  for (int i = 0; i < k; ++i) {
    const Vertex v(empties[rng.below(static_cast<uint32_t>(empties.size()))]);
    if (std::find(a.moves.begin(), a.moves.begin() + a.n, v) != a.moves.begin() + a.n) continue;
    const float w = table[neighbour_colours(board_, v)];
    a.moves[a.n] = v;
    a.weights[a.n++] = w;
    a.total += w;
  }
  // Drawn with rejection, as the pattern answer (learned_pattern_move), without a background.
  std::array<float, 16> weights = a.weights;
  std::array<Vertex, 16> moves = a.moves;
  int n = a.n;
  float total = a.total;
  while (n > 0 && total > 0) {
    float u = static_cast<float>(rng.uniform()) * total;
    int j = 0;
    while (j < n - 1 && u >= weights[j]) u -= weights[j++];
    const Vertex v = moves[j];
    if (answer_acceptable(v)) return v;
    total -= weights[j];
    moves[j] = moves[n - 1];
    weights[j] = weights[--n];
  }
  return Vertex::none();
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

void RulesPolicy::reset(const Board& board, Color to_move, Vertex last, Vertex second_last) {
  BoardPolicy::reset(board, to_move, last, second_last);
  last_ko_ = board_.ko_point();
  moves_since_ko_ = 0;
}

void RulesPolicy::play(Vertex v) {
  BoardPolicy::play(v);
  if (ko_threshold_ == 0) return;  // only the ko rule reads the ko history
  ++moves_since_ko_;
  if (!board_.ko_point().is_none()) {
    last_ko_ = board_.ko_point();
    moves_since_ko_ = 0;
  }
}

Vertex RulesPolicy::ko_move() const {
  // A koage of 4 (Pachi 12.90's moggy: 3, which ends with the retake after a threat and its
  // answer; here the taker's next move too): the ko was taken fewer than 4 moves ago and may
  // be played again now.
  constexpr int kKoAge = 4;
  if (!last_ko_.is_point() || moves_since_ko_ >= kKoAge || !board_.ko_point().is_none()) return Vertex::none();
  if (!board_.is_empty(last_ko_) || !acceptable(last_ko_) || self_atari(last_ko_)) return Vertex::none();
  return last_ko_;
}

Vertex RulesPolicy::sample(Rng& rng) {
  if (candidates_trace_) candidates_trace_->n = 0;
  // Each rule looks for its move first and draws its rate only when it has one.
  if (ko_threshold_ != 0) {
    const Vertex v = ko_move();
    if (v.is_point() && fires(ko_threshold_, rng)) {
      last_rule_ = RulesRule::kKo;
      return v;
    }
  }
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
  if (ko_threat_threshold_ != 0) {
    const Vertex v = ko_threat_move(rng);
    if (v.is_point() && fires(ko_threat_threshold_, rng)) {
      last_rule_ = RulesRule::kKoThreat;
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
    const Vertex v = gammas_ ? learned_pattern_move(rng) : pattern_move(rng);
    if (v.is_point() && fires(pattern_threshold_, rng)) {
      last_rule_ = RulesRule::kPattern;
      return v;
    }
  }
  last_rule_ = RulesRule::kRandom;
  if (gammas_ && options_.gamma_candidates > 0) {
    const Vertex v = learned_random_move(rng, candidates_trace_);
    if (v.is_point()) return v;
  }
  if (fires(self_atari_threshold_, rng)) return random_move_without_self_atari(rng);
  return random_move(board_, to_move_, rng);
}

// ---- settings ----------------------------------------------------------------------------------

absl::StatusOr<RulesOptions> rules_options(const PolicyOptions& options, std::string_view policy) {
  RulesOptions r;
  const std::pair<std::string_view, double*> rates[] = {
      {"capture", &r.capture},
      {"save", &r.save},
      {"ladder", &r.ladder},
      {"nakade", &r.nakade},
      {"two_liberty", &r.two_liberty},
      {"pattern", &r.pattern},
      {"pattern_second", &r.pattern_second},
      {"ko", &r.ko},
      {"ko_threat", &r.ko_threat},
      {"self_atari", &r.self_atari},
  };
  const bool learned = policy == "rules-gamma";
  const std::string name(policy), prefix = name + ".";
  for (const auto& [key, value] : options.settings) {
    if (!key.starts_with(prefix)) continue;
    const std::string_view field = std::string_view(key).substr(prefix.size());
    bool known = false;
    for (const auto& [rate_name, rate] : rates) {
      if (field != rate_name) continue;
      double d = 0;
      if (!absl::SimpleAtod(value, &d) || !(d >= 0 && d <= 1)) {
        return absl::InvalidArgumentError(
            absl::StrCat("policy setting ", key, "=", value, ": expected a probability in [0, 1]"));
      }
      *rate = d;
      known = true;
    }
    if (field == "self_atari_stones") {
      int stones = 0;
      if (!absl::SimpleAtoi(value, &stones) || stones < 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("policy setting ", key, "=", value, ": expected a whole number of stones >= 1"));
      }
      r.self_atari_stones = stones;
      known = true;
    }
    if (field == "safe_capture") {
      if (value != "0" && value != "1") {
        return absl::InvalidArgumentError(absl::StrCat("policy setting ", key, "=", value, ": expected 0 or 1"));
      }
      r.safe_capture = value == "1";
      known = true;
    }
    if (field == "two_liberty_reads") {
      if (value != "0" && value != "1") {
        return absl::InvalidArgumentError(absl::StrCat("policy setting ", key, "=", value, ": expected 0 or 1"));
      }
      r.two_liberty_reads = value == "1";
      known = true;
    }
    if (learned && field == "liberties") {
      if (value != "0" && value != "1") {
        return absl::InvalidArgumentError(absl::StrCat("policy setting ", key, "=", value, ": expected 0 or 1"));
      }
      r.gamma_liberties = value == "1";
      known = true;
    }
    if (learned && field == "candidates") {
      int k = 0;
      if (!absl::SimpleAtoi(value, &k) || k < 0 || k > 16) {
        return absl::InvalidArgumentError(
            absl::StrCat("policy setting ", key, "=", value, ": expected a whole number of points in [0, 16]"));
      }
      r.gamma_candidates = k;
      known = true;
    }
    if (learned && field == "background") {
      double b = 0;
      if (!absl::SimpleAtod(value, &b) || !(b >= 0 && b <= 1e6)) {
        return absl::InvalidArgumentError(
            absl::StrCat("policy setting ", key, "=", value, ": expected a weight in [0, 1e6]"));
      }
      r.gamma_background = b;
      known = true;
    }
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat(
          "policy ", name, " has no setting '", key, "' (known: ", absl::StrJoin(rates, ", ", [&](std::string* out, const auto& e) {
            absl::StrAppend(out, prefix, std::string(e.first));
          }),
          ", ", prefix, "two_liberty_reads, ", prefix, "safe_capture, ", prefix, "self_atari_stones", learned ? ", rules-gamma.background, rules-gamma.liberties, rules-gamma.candidates" : "", ")"));
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
