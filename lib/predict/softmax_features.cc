#include "predict/softmax_features.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdlib>

#include "features/tactics.h"

namespace hane {

std::string_view feature_set_name(FeatureSet set) {
  switch (set) {
    case FeatureSet::kRollout: return "rollout";
    case FeatureSet::kTree: return "tree";
  }
  return "?";
}

std::optional<FeatureSet> parse_feature_set(std::string_view name) {
  if (name == "rollout") return FeatureSet::kRollout;
  if (name == "tree") return FeatureSet::kTree;
  return std::nullopt;
}

std::string_view pattern_kind_name(PatternKind kind) {
  switch (kind) {
    case PatternKind::k3x3: return "3x3";
    case PatternKind::kResponse: return "response";
    case PatternKind::kDiamond: return "diamond12";
    case PatternKind::kRadius3: return "radius3";
  }
  return "?";
}

bool uses_pattern_kind(FeatureSet set, PatternKind kind) {
  return set == FeatureSet::kTree || kind == PatternKind::k3x3 || kind == PatternKind::kResponse;
}

int num_fixed_features(FeatureSet set) {
  return set == FeatureSet::kRollout ? fixed_feature::kNumRollout : fixed_feature::kNumTree;
}

std::string fixed_feature_name(int i) {
  using namespace fixed_feature;
  auto s = [](int n) { return std::to_string(n); };
  if (i == kResponse) return "response";
  if (i == kNeighbourOrth) return "neighbour orthogonal";
  if (i == kNeighbourDiag) return "neighbour diagonal";
  if (i == kSaveAtari) return "save atari";
  if (i >= kNakade && i < kNakade + 8) {
    return "nakade " + s(3 + (i - kNakade) / 2) + ((i - kNakade) % 2 ? " own eye" : " opponent eye");
  }
  if (i >= kSelfAtari && i < kCapture) return "self-atari " + std::string(i - kSelfAtari == 2 ? "3+" : s(1 + i - kSelfAtari)) + " stones";
  if (i >= kCapture && i < kCaptureKo) {
    static const char* kNames[] = {"1", "2", "3-6", "7+"};
    return std::string("capture ") + kNames[i - kCapture] + " stones";
  }
  if (i == kCaptureKo) return "capture ko";
  if (i == kCaptureLast) return "capture previous move";
  if (i == kAtari) return "atari";
  if (i == kAtariLast) return "atari previous move";
  if (i == kLadderCapture) return "ladder capture";
  if (i == kLadderEscape) return "ladder escape";
  if (i >= kLiberties && i < kDistance) return "liberties " + (i - kLiberties == 2 ? std::string("4+") : s(2 + i - kLiberties));
  if (i >= kDistance && i < kDistance2) return "distance " + (i - kDistance == 15 ? std::string("17+") : s(2 + i - kDistance));
  if (i >= kDistance2 && i < kLine) {
    return "distance2 " + (i - kDistance2 == 15 ? std::string("17+") : s(2 + i - kDistance2));
  }
  if (i >= kLine && i < kNumTree) return "line " + s(1 + i - kLine);
  return "?";
}

void BoardStates::fill(const Board& board) {
  const int n = board.geometry().num_vertices();
  for (int i = 0; i < n; ++i) at[i] = point_state_for_black(board, Vertex(i));
}

uint64_t BoardStates::diamond_code(Vertex v, int stride) const {
  uint64_t code = 0;
  for (int i = 0; i < kMaxPatternPoints; ++i) {
    code |= uint64_t{at[v.index() + kPatternOffsets[i].dy * stride + kPatternOffsets[i].dx]} << (4 * i);
  }
  return code;
}

uint64_t BoardStates::ring3_code(Vertex v, int stride) const {
  uint64_t code = 0;
  for (int i = 0; i < 12; ++i) {
    code |= uint64_t{at[v.index() + kRing3Offsets[i].dy * stride + kRing3Offsets[i].dx]} << (4 * i);
  }
  return code;
}

namespace {

// Mirror x -> -x of a ring-3 code: every lane swaps its nibbles 1 and 3 (the straight ring
// like lane 0 of the diamond; ring A point i goes to ring B point sigma(i) with sigma the same
// swap), then rings A and B (lanes 1 and 2) exchange.
constexpr uint64_t mirror_ring3(uint64_t x) {
  const uint64_t swapped = (x & 0x0F0F'0F0F'0F0Full) | ((x & 0x00F0'00F0'00F0ull) << 8) | ((x & 0xF000'F000'F000ull) >> 8);
  return (swapped & 0xFFFFull) | ((swapped & 0xFFFF'0000ull) << 16) | ((swapped & 0xFFFF'0000'0000ull) >> 16);
}

constexpr uint64_t splitmix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Point index of (dx, dy) in the diamond12, or -1.
constexpr int diamond_point(int dx, int dy) {
  for (int i = 0; i < kMaxPatternPoints; ++i) {
    if (kPatternOffsets[i].dx == dx && kPatternOffsets[i].dy == dy) return i;
  }
  return -1;
}

// kDiamondPointOf[dy + 2][dx + 2]
constexpr std::array<std::array<int8_t, 5>, 5> kDiamondPointOf = [] {
  std::array<std::array<int8_t, 5>, 5> t{};
  for (int dy = -2; dy <= 2; ++dy) {
    for (int dx = -2; dx <= 2; ++dx) t[dy + 2][dx + 2] = static_cast<int8_t>(diamond_point(dx, dy));
  }
  return t;
}();

int distance_bucket(int d) { return std::min(d, 17) - 2; }  // move_distance >= 2 -> 0..15

}  // namespace

uint64_t ring3_apply_symmetry(uint64_t ring3, int s) {
  // Rotation by 90 degrees clockwise as drawn, (x, y) -> (-y, x), and the mirror x -> -x,
  // applied to the offsets themselves.
  uint64_t out = 0;
  for (int i = 0; i < 12; ++i) {
    int x = kRing3Offsets[i].dx, y = kRing3Offsets[i].dy;
    if (s >= 4) x = -x;
    for (int r = 0; r < s % 4; ++r) {
      const int nx = -y, ny = x;
      x = nx;
      y = ny;
    }
    for (int j = 0; j < 12; ++j) {
      if (kRing3Offsets[j].dx == x && kRing3Offsets[j].dy == y) out |= ((ring3 >> (4 * i)) & 0xF) << (4 * j);
    }
  }
  return out;
}

uint64_t radius3_key(uint64_t diamond12, uint64_t ring3) {
  using pattern_detail::mirror;
  using pattern_detail::rotate;
  uint64_t a = diamond12 & 0xFFFF'FFFF'FFFFull, b = ring3 & 0xFFFF'FFFF'FFFFull;
  uint64_t best_a = a, best_b = b;
  auto consider = [&](uint64_t ca, uint64_t cb) {
    if (cb < best_b || (cb == best_b && ca < best_a)) best_a = ca, best_b = cb;
  };
  for (int m = 0; m < 2; ++m) {
    for (int r = 0; r < 4; ++r) {
      if (m || r) consider(a, b);
      a = rotate(a);
      b = rotate(b);
    }
    a = mirror(a);
    b = mirror_ring3(b);
  }
  return splitmix64(best_a ^ splitmix64(best_b));
}

uint64_t mark_previous_move(uint64_t code, int dx, int dy) {
  const int i = kDiamondPointOf[dy + 2][dx + 2];
  assert(i >= 0);
  return code | (uint64_t{3} << (4 * i));
}

namespace {
// As move_facts(): a vital point has at least two empty neighbours, touches at most one
// colour, and each of its empty neighbours has at most two empty neighbours.
bool nakade_prefilter(const Board& board, Vertex v) {
  int empties = 0;
  bool black = false, white = false;
  for (Vertex n : board.neighbours(v)) {
    const Color c = board.color(n);
    if (c == Color::kEmpty) {
      ++empties;
      if (board.empty_neighbours(n) > 2) return false;
    }
    black |= c == Color::kBlack;
    white |= c == Color::kWhite;
  }
  return empties >= 2 && !(black && white);
}
}  // namespace

bool nakade_vital(const Board& board, Vertex v, int* size, Color* owner) {
  return nakade_prefilter(board, v) && nakade_vital_unfiltered(board, v, size, owner);
}

bool nakade_vital(const Board& board, Vertex v, uint64_t black_diamond, int* size, Color* owner) {
  return nakade_possible(black_diamond) && nakade_prefilter(board, v) && nakade_vital_unfiltered(board, v, size, owner);
}

bool nakade_vital_unfiltered(const Board& board, Vertex v, int* size, Color* owner) {
  const auto eye = nakade_shape(board, v);
  if (!eye || eye->vital != v) return false;
  *size = eye->size;
  *owner = eye->owner;
  return true;
}

namespace {
// Whether the centre is the vital point of the killing eye space made of the centre and the
// diamond points of `mask` (bit i: point i is empty), every other point within distance 3 a
// stone of one colour.
bool centre_is_vital(uint32_t mask) {
  const Geometry g(9);
  Board b(9);
  for (int dy = -3; dy <= 3; ++dy) {
    for (int dx = -3; dx <= 3; ++dx) {
      if (std::abs(dx) + std::abs(dy) > 3 || (dx == 0 && dy == 0)) continue;
      bool empty = false;
      for (int i = 0; i < kMaxPatternPoints; ++i) {
        if (kPatternOffsets[i].dx == dx && kPatternOffsets[i].dy == dy) empty = (mask >> i) & 1;
      }
      if (!empty) b.set_stone(g.at(4 + dx, 4 + dy), Color::kBlack);
    }
  }
  const auto eye = nakade_shape(b, g.at(4, 4));
  return eye && eye->vital == g.at(4, 4);
}
}  // namespace

bool nakade_possible(uint64_t diamond12) {
  // 0: not computed yet, 1: no, 2: yes. Filled in on first use of each mask (few masks
  // occur); threads that race compute the same value.
  static std::array<std::atomic<int8_t>, 4096> table{};
  // Bit 4i of `empty` is set iff nibble i is 0; then each 16-bit lane's 4 flags are packed.
  uint64_t t = diamond12 | (diamond12 >> 1);
  t |= t >> 2;
  const uint64_t empty = ~t & 0x1111'1111'1111ull;
  const uint64_t lanes = (empty | (empty >> 3) | (empty >> 6) | (empty >> 9)) & 0x000F'000F'000Full;
  const uint32_t mask = static_cast<uint32_t>((lanes & 0xF) | ((lanes >> 12) & 0xF0) | ((lanes >> 24) & 0xF00));
  int8_t known = table[mask].load(std::memory_order_relaxed);
  if (known == 0) {
    known = centre_is_vital(mask) ? 2 : 1;
    table[mask].store(known, std::memory_order_relaxed);
  }
  return known == 2;
}

bool saves_atari(const Board& board, Vertex v, Color c) {
  // As MoveFacts::saved_stones > 0: an own chain next to v in atari that the move gives 2+
  // liberties, or an own chain in atari elsewhere touching an opponent chain the move captures.
  const Color opp = opponent(c);
  bool own_atari = false, captures = false;
  for (Vertex n : board.neighbours(v)) {
    const Color nc = board.color(n);
    if (nc == c && board.liberties(n) == 1) own_atari = true;
    if (nc == opp && board.liberties(n) == 1) captures = true;
  }
  if (own_atari && liberties_after(board, v, c, 2) >= 2) return true;
  if (!captures) return false;
  for (Vertex n : board.neighbours(v)) {
    if (board.color(n) != opp || board.liberties(n) != 1) continue;
    Vertex s = n;
    do {
      for (Vertex u : board.neighbours(s)) {
        if (board.color(u) != c || board.liberties(u) != 1) continue;
        // Chains next to v are joined by the move: they count above, not here.
        const Vertex head = board.chain_head(u);
        bool next_to_v = false;
        for (Vertex w : board.neighbours(v)) next_to_v |= board.color(w) == c && board.chain_head(w) == head;
        if (!next_to_v) return true;
      }
      s = board.next_in_chain(s);
    } while (s != n);
  }
  return false;
}

void response_features(const MoveContext& ctx, Vertex v, uint64_t black_diamond, CandidateFeatures* out) {
  using namespace fixed_feature;
  if (!ctx.last_move.is_point()) return;
  const Geometry& g = ctx.board->geometry();
  const int dx = g.x(ctx.last_move) - g.x(v), dy = g.y(ctx.last_move) - g.y(v);
  const int adx = std::abs(dx), ady = std::abs(dy);
  if (adx + ady > 2 || adx + ady == 0) return;  // (the previous move's point is empty after a suicide)
  out->add_fixed(kResponse);
  if (adx + ady == 1) out->add_fixed(kNeighbourOrth);
  if (adx == 1 && ady == 1) out->add_fixed(kNeighbourDiag);
  const uint64_t code = ctx.to_move == Color::kWhite ? swap_colors(black_diamond) : black_diamond;
  out->set_key(PatternKind::kResponse, canonical(mark_previous_move(code, dx, dy), PatternShape::kDiamond12));
}

void candidate_features(FeatureSet set, const MoveContext& ctx, Vertex v, uint64_t black_diamond,
                        const BoardStates* states, CandidateFeatures* out) {
  using namespace fixed_feature;
  const Board& b = *ctx.board;
  const Geometry& g = b.geometry();
  const Color c = ctx.to_move;
  out->num_fixed = 0;
  out->key_mask = 0;
  const uint64_t code = c == Color::kWhite ? swap_colors(black_diamond) : black_diamond;
  out->set_key(PatternKind::k3x3, canonical(code, PatternShape::k3x3));
  response_features(ctx, v, black_diamond, out);
  const bool has_last = ctx.last_move.is_point();

  int nakade_size = 0;
  Color nakade_owner = Color::kEmpty;
  const bool nakade = nakade_vital(b, v, black_diamond, &nakade_size, &nakade_owner);
  if (nakade) out->add_fixed(static_cast<uint16_t>(kNakade + 2 * (nakade_size - 3) + (nakade_owner == c ? 1 : 0)));

  if (set == FeatureSet::kRollout) {
    // Save atari needs a neighbouring chain in atari: a stone nibble 0x5 or 0x6 in lane 0.
    bool atari_next = false;
    for (int i = 0; i < 4; ++i) {
      const uint64_t nib = (black_diamond >> (4 * i)) & 0xF;
      atari_next |= nib == 0x5 || nib == 0x6;
    }
    if (atari_next && saves_atari(b, v, c)) out->add_fixed(kSaveAtari);
    return;
  }

  // Tree: every tactical fact, ladders read.
  const MoveFacts f = move_facts(b, v, c, LadderReading::kRead);
  if (f.save_atari()) out->add_fixed(kSaveAtari);
  if (f.self_atari) out->add_fixed(static_cast<uint16_t>(kSelfAtari + std::min(f.chain_size, uint16_t{3}) - 1));
  if (f.captures()) {
    const int s = f.capture_size;
    out->add_fixed(static_cast<uint16_t>(kCapture + (s == 1 ? 0 : s == 2 ? 1 : s <= 6 ? 2 : 3)));
    if (f.ko) out->add_fixed(kCaptureKo);
  }
  if (f.atari()) out->add_fixed(kAtari);
  if (has_last && b.is_stone(ctx.last_move) && (f.captures() || f.atari())) {
    const Vertex last_head = b.chain_head(ctx.last_move);
    for (Vertex n : b.neighbours(v)) {
      if (b.color(n) != opponent(c) || b.chain_head(n) != last_head) continue;
      const int libs = b.liberties(n);
      if (libs == 1) out->add_fixed(kCaptureLast);
      if (libs == 2 && f.liberties > 0) out->add_fixed(kAtariLast);
      break;
    }
  }
  if (f.ladder_capture) out->add_fixed(kLadderCapture);
  if (f.ladder_escape) out->add_fixed(kLadderEscape);
  if (f.liberties >= 2) out->add_fixed(static_cast<uint16_t>(kLiberties + std::min<int>(f.liberties, 4) - 2));
  if (has_last && ctx.last_move != v) {
    out->add_fixed(static_cast<uint16_t>(kDistance + distance_bucket(move_distance(g, v, ctx.last_move))));
  }
  if (ctx.second_last_move.is_point() && ctx.second_last_move != v) {
    out->add_fixed(static_cast<uint16_t>(kDistance2 + distance_bucket(move_distance(g, v, ctx.second_last_move))));
  }
  if (f.line <= 5) out->add_fixed(static_cast<uint16_t>(kLine + f.line - 1));

  out->set_key(PatternKind::kDiamond, canonical(code, PatternShape::kDiamond12));
  assert(states != nullptr);
  uint64_t ring3 = states->ring3_code(v, b.stride());
  if (c == Color::kWhite) ring3 = swap_colors(ring3);
  out->set_key(PatternKind::kRadius3, radius3_key(code, ring3));
}

}  // namespace hane
