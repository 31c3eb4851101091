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
    case FeatureSet::kStrategic: return "strategic";
  }
  return "?";
}

std::optional<FeatureSet> parse_feature_set(std::string_view name) {
  if (name == "rollout") return FeatureSet::kRollout;
  if (name == "tree") return FeatureSet::kTree;
  if (name == "strategic") return FeatureSet::kStrategic;
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
  return set != FeatureSet::kRollout || kind == PatternKind::k3x3 || kind == PatternKind::kResponse;
}

int num_fixed_features(FeatureSet set) {
  switch (set) {
    case FeatureSet::kRollout: return fixed_feature::kNumRollout;
    case FeatureSet::kTree: return fixed_feature::kNumTree;
    case FeatureSet::kStrategic: return fixed_feature::kNumStrategic;
  }
  return 0;
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
  static const char* kSides[] = {"own territory", "own framework", "contested", "open", "opponent framework",
                                 "opponent territory"};
  static const char* kBins[] = {"0", "<1", "<2", "<4", "<8", "8+"};
  static const char* kKinds[] = {"secure", "extend", "reduce", "invade", "contest", "open"};
  auto nearest = [&](int b) { return b == kNearestBins - 1 ? std::string("none") : b == 7 ? std::string("8+") : s(b + 1); };
  if (i >= kClass && i < kInfluenceOwn) return std::string("class ") + kSides[i - kClass];
  if (i >= kInfluenceOwn && i < kInfluenceOpp) return std::string("own influence ") + kBins[i - kInfluenceOwn];
  if (i >= kInfluenceOpp && i < kKind) return std::string("opponent influence ") + kBins[i - kInfluenceOpp];
  if (i >= kKind && i < kNearestOwn) return std::string("kind ") + kKinds[i - kKind];
  if (i >= kNearestOwn && i < kNearestOpp) return "nearest own stone " + nearest(i - kNearestOwn);
  if (i >= kNearestOpp && i < kPhaseLine) return "nearest opponent stone " + nearest(i - kNearestOpp);
  if (i >= kPhaseLine && i < kOppCapture) {
    const int phase = (i - kPhaseLine) / 5, line = (i - kPhaseLine) % 5;
    return "moves " + s(30 * phase + 1) + (phase == kPhaseBins - 1 ? "+" : "-" + s(30 * phase + 30)) + " line " +
           (line == 4 ? std::string("5+") : s(line + 1));
  }
  if (i == kOppCapture) return "opponent capture";
  if (i == kOppAtari) return "opponent atari";
  if (i == kOppLadderCapture) return "opponent ladder capture";
  if (i == kOppSaveAtari) return "opponent save atari";
  if (i == kOppLadderEscape) return "opponent ladder escape";
  return "?";
}

namespace {

int distance_bucket(int d) { return std::min(d, 17) - 2; }  // move_distance >= 2 -> 0..15

// The strategic features of `c` playing the empty point `v` (see softmax_features.h).
void add_strategic_features(const StrategicContext& s, const Board& b, Vertex v, Color c, int line,
                            CandidateFeatures* out) {
  using namespace fixed_feature;
  const StrategicFamilies fam = s.families();
  const Color opp = opponent(c);
  if (has_family(fam, StrategicFamily::kClass)) {
    const PointClass here = s.maps().at(v);
    int k = -1;
    if (here == territory_of(c)) k = 0;
    else if (here == framework_of(c)) k = 1;
    else if (here == PointClass::kContested) k = 2;
    else if (here == PointClass::kOpen) k = 3;
    else if (here == framework_of(opp)) k = 4;
    else if (here == territory_of(opp)) k = 5;
    if (k >= 0) out->add_fixed(static_cast<uint16_t>(kClass + k));
  }
  if (has_family(fam, StrategicFamily::kInfluence)) {
    const size_t i = static_cast<size_t>(v.index());
    const InfluenceMap& m = s.maps().influence;
    const float black = m.black[i], white = m.white[i];
    out->add_fixed(static_cast<uint16_t>(kInfluenceOwn + influence_bin(c == Color::kBlack ? black : white)));
    out->add_fixed(static_cast<uint16_t>(kInfluenceOpp + influence_bin(c == Color::kBlack ? white : black)));
  }
  if (has_family(fam, StrategicFamily::kKind)) {
    const StrategicKind kind = strategic_kind(b, s.maps(), v, c);
    if (kind != StrategicKind::kNone) out->add_fixed(static_cast<uint16_t>(kKind + static_cast<int>(kind) - 1));
  }
  if (has_family(fam, StrategicFamily::kNearest)) {
    out->add_fixed(static_cast<uint16_t>(kNearestOwn + nearest_bin(s.nearest(c, v))));
    out->add_fixed(static_cast<uint16_t>(kNearestOpp + nearest_bin(s.nearest(opp, v))));
  }
  if (has_family(fam, StrategicFamily::kPhase)) {
    out->add_fixed(static_cast<uint16_t>(kPhaseLine + 5 * phase_bin(s.move_number()) + std::min(line, 5) - 1));
  }
  if (has_family(fam, StrategicFamily::kOpponent) && b.legal(v, opp) == Legality::kLegal) {
    const MoveFacts o = move_facts(b, v, opp, LadderReading::kRead);
    if (o.captures()) out->add_fixed(kOppCapture);
    if (o.atari()) out->add_fixed(kOppAtari);
    if (o.ladder_capture) out->add_fixed(kOppLadderCapture);
    if (o.save_atari()) out->add_fixed(kOppSaveAtari);
    if (o.ladder_escape) out->add_fixed(kOppLadderEscape);
  }
}

}  // namespace


void response_features(const Position& ctx, Vertex v, uint64_t black_diamond, CandidateFeatures* out) {
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

void candidate_features(FeatureSet set, const Position& ctx, Vertex v, uint64_t black_diamond,
                        const BoardStates* states, CandidateFeatures* out, const StrategicContext* strategic) {
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

  if (set == FeatureSet::kStrategic) {
    assert(strategic != nullptr);
    add_strategic_features(*strategic, b, v, c, f.line, out);
  }
}

}  // namespace hane
