#include "predict/tree_questions.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>

#include "features/tactics.h"

namespace hane {
namespace {

constexpr int kFar = kRadius3Points;  // the offset value of a move that is not among the 24 points

constexpr std::array<std::array<uint8_t, kRadius3Points>, 8> make_symmetries() {
  std::array<std::array<uint8_t, kRadius3Points>, 8> out{};
  for (int s = 0; s < 8; ++s) {
    for (int i = 0; i < kRadius3Points; ++i) {
      int dx = kRadius3Offsets[i].dx, dy = kRadius3Offsets[i].dy;
      if (s >= 4) dx = -dx;
      for (int r = 0; r < s % 4; ++r) {
        const int t = dx;
        dx = -dy;
        dy = t;
      }
      for (int j = 0; j < kRadius3Points; ++j) {
        if (kRadius3Offsets[j].dx == dx && kRadius3Offsets[j].dy == dy) out[s][i] = static_cast<uint8_t>(j);
      }
    }
  }
  return out;
}

// Point index of offset (dx, dy) at [dy + 3][dx + 3], or kFar.
constexpr std::array<std::array<uint8_t, 7>, 7> make_offset_index() {
  std::array<std::array<uint8_t, 7>, 7> out{};
  for (auto& row : out) row.fill(kFar);
  for (int i = 0; i < kRadius3Points; ++i) out[kRadius3Offsets[i].dy + 3][kRadius3Offsets[i].dx + 3] = static_cast<uint8_t>(i);
  return out;
}
constexpr auto kOffsetIndex = make_offset_index();

// The two codes hold 12 points each, as three 16-bit lanes of four nibbles (one ring each).
// Rotating by 90 degrees moves every nibble one place along its lane.
constexpr uint64_t rotate_lanes(uint64_t x) {
  return ((x << 4) & 0xFFF0'FFF0'FFF0ull) | ((x >> 12) & 0x000F'000F'000Full);
}
// Mirror x -> -x of the near code (points 0-11): lanes 0 and 2 swap their nibbles 1 and 3;
// lane 1 (the diagonals) is reversed.
constexpr uint64_t mirror_near(uint64_t x) {
  return (x & 0x0F0F'0000'0F0Full) | ((x & 0x00F0'0000'00F0ull) << 8) | ((x & 0xF000'0000'F000ull) >> 8) |
         ((x & 0x000F'0000ull) << 12) | ((x & 0xF000'0000ull) >> 12) | ((x & 0x00F0'0000ull) << 4) |
         ((x & 0x0F00'0000ull) >> 4);
}
// Mirror of the far code (points 12-23): lane 3 (straight) swaps nibbles 1 and 3; ring A's
// point j goes to ring B's point -j (mod 4), and B's to A's.
constexpr uint64_t mirror_far(uint64_t x) {
  const uint64_t straight = (x & 0x0F0Full) | ((x & 0x00F0ull) << 8) | ((x & 0xF000ull) >> 8);
  const uint64_t new_a = ((x >> 16) & 0x000F'0000ull) | ((x >> 24) & 0x00F0'0000ull) | ((x >> 16) & 0x0F00'0000ull) |
                         ((x >> 8) & 0xF000'0000ull);
  const uint64_t new_b = ((x << 16) & 0x000F'0000'0000ull) | ((x << 8) & 0x00F0'0000'0000ull) |
                         ((x << 16) & 0x0F00'0000'0000ull) | ((x << 24) & 0xF000'0000'0000ull);
  return straight | new_a | new_b;
}

std::string clamped(int value, int last) { return std::to_string(value) + (value == last ? "+" : ""); }

}  // namespace

const std::array<std::array<uint8_t, kRadius3Points>, 8> kTreeSymmetries = make_symmetries();

int tree_input_values(int input) {
  if (input < 0 || input >= kTreeInputs) return 0;
  if (input < kRadius3Points) return tree_point::kValues;
  switch (static_cast<TreeInput>(input)) {
    case TreeInput::kLastDistance:
    case TreeInput::kSecondLastDistance: return 20;
    case TreeInput::kLastOffset:
    case TreeInput::kSecondLastOffset: return kRadius3Points + 1;
    case TreeInput::kLine:
    case TreeInput::kOtherLine: return 11;
    case TreeInput::kCaptureStones:
    case TreeInput::kAtariStones:
    case TreeInput::kSavedStones:
    case TreeInput::kChainSize: return 16;
    case TreeInput::kAtariChains:
    case TreeInput::kLiberties: return 5;
    case TreeInput::kKo: return 2;
    case TreeInput::kNakade: return 9;
    case TreeInput::kLadder: return 4;
    case TreeInput::kOwnNear:
    case TreeInput::kOpponentNear: return kRadius3Points + 1;
    case TreeInput::kNearestStone: return 16;
    case TreeInput::kMoveNumber: return 32;
    case TreeInput::kEnd: break;
  }
  return 0;
}

bool tree_input_ordinal(int input) {
  if (input < kRadius3Points || input >= kTreeInputs) return false;
  switch (static_cast<TreeInput>(input)) {
    case TreeInput::kLastOffset:
    case TreeInput::kSecondLastOffset:
    case TreeInput::kKo:
    case TreeInput::kNakade:
    case TreeInput::kLadder: return false;
    default: return true;
  }
}

std::string tree_input_name(int input) {
  if (input < 0 || input >= kTreeInputs) return "input" + std::to_string(input) + "?";
  if (input < kRadius3Points) {
    std::string out = "(";
    out += std::to_string(kRadius3Offsets[input].dx);
    out += ',';
    out += std::to_string(kRadius3Offsets[input].dy);
    out += ')';
    return out;
  }
  switch (static_cast<TreeInput>(input)) {
    case TreeInput::kLastDistance: return "last_move_distance";
    case TreeInput::kSecondLastDistance: return "second_last_distance";
    case TreeInput::kLastOffset: return "last_move_at";
    case TreeInput::kSecondLastOffset: return "second_last_at";
    case TreeInput::kLine: return "line";
    case TreeInput::kOtherLine: return "other_line";
    case TreeInput::kCaptureStones: return "captures";
    case TreeInput::kAtariStones: return "atari_stones";
    case TreeInput::kAtariChains: return "atari_chains";
    case TreeInput::kSavedStones: return "saved_stones";
    case TreeInput::kLiberties: return "liberties_after";
    case TreeInput::kChainSize: return "chain_size";
    case TreeInput::kKo: return "takes_ko";
    case TreeInput::kNakade: return "nakade";
    case TreeInput::kLadder: return "ladder";
    case TreeInput::kOwnNear: return "own_near";
    case TreeInput::kOpponentNear: return "opponent_near";
    case TreeInput::kNearestStone: return "nearest_stone";
    case TreeInput::kMoveNumber: return "move_number";
    case TreeInput::kEnd: break;
  }
  return "?";
}

std::string tree_value_name(int input, int value) {
  if (input < kRadius3Points) {
    static constexpr std::array<const char*, tree_point::kValues> kNames = {
        "empty", "own1", "opp1", "edge", "4?", "own2", "opp2", "7?",
        "8?", "own3", "opp3", "11?", "12?", "own4+", "opp4+", "15?"};
    return value >= 0 && value < tree_point::kValues ? kNames[value] : std::to_string(value) + "?";
  }
  switch (static_cast<TreeInput>(input)) {
    case TreeInput::kLastDistance:
    case TreeInput::kSecondLastDistance:
      return value == 19 ? "none" : value == 18 ? "pass" : clamped(value, 17);
    case TreeInput::kLastOffset:
    case TreeInput::kSecondLastOffset:
      return value == kFar ? "far" : tree_input_name(value);
    case TreeInput::kLine:
    case TreeInput::kOtherLine: return clamped(value, 10);
    case TreeInput::kCaptureStones:
    case TreeInput::kAtariStones:
    case TreeInput::kSavedStones:
    case TreeInput::kChainSize:
    case TreeInput::kNearestStone: return clamped(value, 15);
    case TreeInput::kLiberties: return clamped(value, 4);
    case TreeInput::kKo: return value ? "yes" : "no";
    case TreeInput::kNakade:
      if (value == 0) return "none";
      return (value <= 4 ? "opp" : "own") + std::to_string(value <= 4 ? value + 2 : value - 2);
    case TreeInput::kLadder: {
      static constexpr std::array<const char*, 4> kNames = {"none", "capture", "escape", "both"};
      return value >= 0 && value < 4 ? kNames[value] : "?";
    }
    case TreeInput::kMoveNumber:
      return value == 31 ? "311+" : std::to_string(10 * value + 1) + "-" + std::to_string(10 * value + 10);
    default: return std::to_string(value);
  }
}

bool valid_question(TreeQuestion q) {
  if (q.input >= kTreeInputs) return false;
  const uint32_t mask = tree_input_mask(q.input);
  return q.values != 0 && (q.values & ~mask) == 0 && q.values != mask;
}

std::string describe(TreeQuestion q) {
  // Points never take the values 4, 7, 8, 11, 12, 15: leave them out of the text.
  const uint32_t mask = q.input < kRadius3Points ? 0b0110'0110'0110'1111u : tree_input_mask(q.input);
  if (tree_input_ordinal(q.input) && valid_question(q)) {
    // A prefix {0..t} or a suffix {t..last} of the values.
    const int low = std::countr_zero(q.values), high = 31 - std::countl_zero(q.values);
    const uint32_t range = (high == 31 ? ~uint32_t{0} : (uint32_t{1} << (high + 1)) - 1) & ~((uint32_t{1} << low) - 1);
    if (q.values == range && low == 0) return tree_input_name(q.input) + " <= " + tree_value_name(q.input, high);
    if (q.values == (mask & range) && (high == 31 || (mask >> (high + 1)) == 0)) {
      return tree_input_name(q.input) + " >= " + tree_value_name(q.input, low);
    }
  }
  const uint32_t complement = mask & ~q.values;
  const bool negate = std::popcount(complement) < std::popcount(q.values & mask);
  const uint32_t set = negate ? complement : q.values & mask;
  std::string out = tree_input_name(q.input) + (negate ? " not in {" : " in {");
  bool first = true;
  for (int v = 0; v < 32; ++v) {
    if (!((set >> v) & 1)) continue;
    if (!first) out += ", ";
    out += tree_value_name(q.input, v);
    first = false;
  }
  return out + "}";
}

void TreeInputMaker::set_position(const Position& position) {
  position_ = position;
  const Board& b = *position.board;
  const Geometry& g = b.geometry();
  const int s = b.stride();
  for (int i = 0; i < kRadius3Points; ++i) delta_[i] = kRadius3Offsets[i].dy * s + kRadius3Offsets[i].dx;
  // Every index a candidate's 24 points can reach lies in [0, num_vertices) (kPad = 3).
  const Color me = position.to_move;
  for (int i = 0; i < g.num_vertices(); ++i) {
    const Vertex v(i);
    const Color c = b.color(v);
    if (c == Color::kEmpty) {
      state_[i] = tree_point::kEmpty;
    } else if (c == Color::kWall) {
      state_[i] = tree_point::kOffBoard;
    } else {
      state_[i] = tree_point::stone(c == me, b.liberties(v));
    }
  }
  // Manhattan distance to the nearest stone: one pass from the top left, one from the bottom
  // right (exact for the L1 metric).
  const int n = b.size();
  constexpr uint8_t kInf = 255;
  bool any = false;
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const int i = g.at(x, y).index();
      uint8_t d = b.is_stone(Vertex(i)) ? 0 : kInf;
      if (x > 0) d = std::min<uint8_t>(d, nearest_[i - 1] == kInf ? kInf : nearest_[i - 1] + 1);
      if (y > 0) d = std::min<uint8_t>(d, nearest_[i - s] == kInf ? kInf : nearest_[i - s] + 1);
      nearest_[i] = d;
      any |= d == 0;
    }
  }
  for (int y = n - 1; y >= 0; --y) {
    for (int x = n - 1; x >= 0; --x) {
      const int i = g.at(x, y).index();
      uint8_t d = nearest_[i];
      if (x < n - 1) d = std::min<uint8_t>(d, nearest_[i + 1] == kInf ? kInf : nearest_[i + 1] + 1);
      if (y < n - 1) d = std::min<uint8_t>(d, nearest_[i + s] == kInf ? kInf : nearest_[i + s] + 1);
      nearest_[i] = any ? std::min<uint8_t>(d, 15) : 15;
    }
  }
}

void TreeInputMaker::inputs(Vertex v, TreeInputs& out) const {
  const Board& b = *position_.board;
  const Geometry& g = b.geometry();
  assert(g.on_board(v));
  const int vi = v.index();
  uint64_t near = 0, far = 0;
  for (int i = 0; i < 12; ++i) near |= uint64_t{state_[vi + delta_[i]]} << (4 * i);
  for (int i = 0; i < 12; ++i) far |= uint64_t{state_[vi + delta_[12 + i]]} << (4 * i);
  // Own stones have bits 0-1 = 01, opponent stones 10.
  constexpr uint64_t kBit0 = 0x1111'1111'1111ull;
  const int own = std::popcount(near & ~(near >> 1) & kBit0) + std::popcount(far & ~(far >> 1) & kBit0);
  const int opp = std::popcount((near >> 1) & ~near & kBit0) + std::popcount((far >> 1) & ~far & kBit0);

  const int x = g.x(v), y = g.y(v);
  auto distance_and_offset = [&](Vertex m, uint8_t& distance, uint8_t& offset) {
    offset = kFar;
    if (m.is_none()) {
      distance = 19;
    } else if (m.is_pass()) {
      distance = 18;
    } else {
      const int dx = g.x(m) - x, dy = g.y(m) - y;
      const int ax = std::abs(dx), ay = std::abs(dy);
      distance = static_cast<uint8_t>(std::min(17, ax + ay + std::max(ax, ay)));
      if (ax + ay <= 3) offset = kOffsetIndex[dy + 3][dx + 3];
    }
  };
  uint8_t last_distance, last_offset, second_distance, second_offset;
  distance_and_offset(position_.last_move, last_distance, last_offset);
  distance_and_offset(position_.second_last_move, second_distance, second_offset);

  int sym = 0;
  if (options_.canonical) {
    // The 8 images: rotations of the code, then rotations of its mirror image.
    std::array<uint64_t, 8> n8, f8;
    n8[0] = near;
    f8[0] = far;
    n8[4] = mirror_near(near);
    f8[4] = mirror_far(far);
    for (int m = 0; m < 8; m += 4) {
      for (int r = 1; r < 4; ++r) {
        n8[m + r] = rotate_lanes(n8[m + r - 1]);
        f8[m + r] = rotate_lanes(f8[m + r - 1]);
      }
    }
    auto offset_of = [&](int s, uint8_t o) { return o == kFar ? kFar : kTreeSymmetries[s][o]; };
    for (int s = 1; s < 8; ++s) {
      if (n8[s] != n8[sym]) {
        if (n8[s] < n8[sym]) sym = s;
        continue;
      }
      if (f8[s] != f8[sym]) {
        if (f8[s] < f8[sym]) sym = s;
        continue;
      }
      const int a = offset_of(s, last_offset), a0 = offset_of(sym, last_offset);
      if (a != a0) {
        if (a < a0) sym = s;
        continue;
      }
      if (offset_of(s, second_offset) < offset_of(sym, second_offset)) sym = s;
    }
    near = n8[sym];
    far = f8[sym];
    if (last_offset != kFar) last_offset = kTreeSymmetries[sym][last_offset];
    if (second_offset != kFar) second_offset = kTreeSymmetries[sym][second_offset];
  }
  for (int i = 0; i < 12; ++i) out.v[i] = static_cast<uint8_t>((near >> (4 * i)) & 0xF);
  for (int i = 0; i < 12; ++i) out.v[12 + i] = static_cast<uint8_t>((far >> (4 * i)) & 0xF);

  auto set = [&](TreeInput input, int value) { out.v[static_cast<int>(input)] = static_cast<uint8_t>(value); };
  set(TreeInput::kLastDistance, last_distance);
  set(TreeInput::kSecondLastDistance, second_distance);
  set(TreeInput::kLastOffset, last_offset);
  set(TreeInput::kSecondLastOffset, second_offset);
  const int lx = 1 + std::min(x, g.size - 1 - x), ly = 1 + std::min(y, g.size - 1 - y);
  set(TreeInput::kLine, std::min(10, std::min(lx, ly)));
  set(TreeInput::kOtherLine, std::min(10, std::max(lx, ly)));

  const MoveFacts f = move_facts(b, v, position_.to_move, options_.ladders ? LadderReading::kRead : LadderReading::kSkip);
  set(TreeInput::kCaptureStones, std::min<int>(15, f.capture_size));
  set(TreeInput::kAtariStones, std::min<int>(15, f.atari_stones));
  set(TreeInput::kAtariChains, std::min<int>(4, f.atari_chains));
  set(TreeInput::kSavedStones, std::min<int>(15, f.saved_stones));
  set(TreeInput::kLiberties, std::min<int>(4, f.liberties));
  set(TreeInput::kChainSize, std::min<int>(15, f.chain_size));
  set(TreeInput::kKo, f.ko ? 1 : 0);
  set(TreeInput::kNakade, f.nakade_size == 0 ? 0 : f.nakade_own ? f.nakade_size + 2 : f.nakade_size - 2);
  set(TreeInput::kLadder, (f.ladder_capture ? 1 : 0) | (f.ladder_escape ? 2 : 0));
  set(TreeInput::kOwnNear, own);
  set(TreeInput::kOpponentNear, opp);
  set(TreeInput::kNearestStone, nearest_[vi]);
  set(TreeInput::kMoveNumber, std::min(31, std::max(0, position_.move_number - 1) / 10));
}

}  // namespace hane
