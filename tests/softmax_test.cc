// The linear-softmax guesser: features, the loss and its gradient, training, model files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "answering_games.h"
#include "corpus_games.h"
#include "test_files.h"
#include "eval/evaluate.h"
#include "features/tactics.h"
#include "playout/uniform.h"
#include "go/random.h"
#include "go_fixtures.h"
#include "predict/load.h"
#include "predict/softmax.h"
#include "predict/softmax_features.h"
#include "train/softmax_train.h"
#include "sgf/record.h"

namespace hane {
namespace {

using testing::games_from;

namespace fs = std::filesystem;
using testing::board_from_ascii;

using testing::B;
using testing::W;

std::string softmax_path(const std::string& name) { return testing::temp_path("softmax", name); }

CandidateFeatures features_at(FeatureSet set, const Board& b, Color c, Vertex v, Vertex last = Vertex::none(),
                              Vertex second_last = Vertex::none()) {
  BoardStates states;
  states.fill(b);
  CandidateFeatures f;
  candidate_features(set, Position{&b, c, last, second_last}, v, states.diamond_code(v, b.stride()), &states, &f);
  return f;
}

bool has_fixed(const CandidateFeatures& f, uint16_t id) {
  return std::find(f.fixed.begin(), f.fixed.begin() + f.num_fixed, id) != f.fixed.begin() + f.num_fixed;
}

// --- Features on drawn boards ----------------------------------------------------------------

TEST(SoftmaxFeatures, ResponseAndNeighbourFollowThePreviousMove) {
  const Board b = board_from_ascii(R"(
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . O . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .)");
  const Vertex last = b.at(3, 3);
  using namespace fixed_feature;
  const CandidateFeatures orth = features_at(FeatureSet::kRollout, b, B, b.at(3, 2), last);
  EXPECT_TRUE(has_fixed(orth, kResponse) && has_fixed(orth, kNeighbourOrth) && !has_fixed(orth, kNeighbourDiag));
  EXPECT_TRUE(orth.has_key(PatternKind::kResponse));
  const CandidateFeatures diag = features_at(FeatureSet::kRollout, b, B, b.at(4, 4), last);
  EXPECT_TRUE(has_fixed(diag, kResponse) && has_fixed(diag, kNeighbourDiag) && !has_fixed(diag, kNeighbourOrth));
  const CandidateFeatures jump = features_at(FeatureSet::kRollout, b, B, b.at(3, 5), last);
  EXPECT_TRUE(has_fixed(jump, kResponse) && jump.num_fixed == 1 && jump.has_key(PatternKind::kResponse));
  const CandidateFeatures far = features_at(FeatureSet::kRollout, b, B, b.at(0, 0), last);
  EXPECT_EQ(far.num_fixed, 0);
  EXPECT_FALSE(far.has_key(PatternKind::kResponse));
  EXPECT_TRUE(far.has_key(PatternKind::k3x3));
  // The four orthogonal answers share one response pattern, and it differs from the same
  // shape with an ordinary stone (the previous move is marked).
  const uint64_t key = orth.keys[static_cast<int>(PatternKind::kResponse)];
  for (Vertex v : {b.at(2, 3), b.at(4, 3), b.at(3, 4)}) {
    EXPECT_EQ(features_at(FeatureSet::kRollout, b, B, v, last).keys[static_cast<int>(PatternKind::kResponse)], key);
  }
  EXPECT_NE(features_at(FeatureSet::kRollout, b, B, b.at(3, 2), Vertex::none()).key_mask, orth.key_mask);
  // Marking sets both low bits of the point's nibble.
  EXPECT_EQ(mark_previous_move(0x6, 0, -1), 0x7u);
  EXPECT_EQ(mark_previous_move(0xA0, 1, 0), 0xB0u);
  EXPECT_EQ(mark_previous_move(0, -2, 0), 0x3ull << 44);
}

TEST(SoftmaxFeatures, SaveAtariByExtendingAndByCapturing) {
  const Board b = board_from_ascii(R"(
    . . . . . . .
    . . O . . . .
    . O X O . . .
    . . . . . O .
    . . . . O X O
    . . . . X O .
    . . . . . X .)");
  using namespace fixed_feature;
  // X at C3 (2,2) has one liberty below it: extending there gives it three.
  EXPECT_TRUE(has_fixed(features_at(FeatureSet::kRollout, b, B, b.at(2, 3)), kSaveAtari));
  EXPECT_TRUE(saves_atari(b, b.at(2, 3), B));
  // Every legal move of both colours agrees with move_facts (captures that free a chain in
  // atari elsewhere included).
  for (int16_t p : b.empty_points()) {
    const Vertex v(p);
    for (Color c : {B, W}) {
      if (b.legal(v, c) != Legality::kLegal) continue;
      EXPECT_EQ(saves_atari(b, v, c), move_facts(b, v, c).saved_stones > 0) << to_gtp(v, b.size());
    }
  }
  // White does not save anything by playing there.
  EXPECT_FALSE(has_fixed(features_at(FeatureSet::kRollout, b, W, b.at(0, 0)), kSaveAtari));
}

TEST(SoftmaxFeatures, NakadeVitalPointBySizeAndOwner) {
  const Board b = board_from_ascii(R"(
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    O O O O O . .
    O . . . O . .
    O O O O O . .)");
  using namespace fixed_feature;
  // Straight three enclosed by White: the middle is the vital point.
  const CandidateFeatures black = features_at(FeatureSet::kRollout, b, B, b.at(2, 5));
  EXPECT_TRUE(has_fixed(black, kNakade + 0));  // size 3, opponent's eye
  const CandidateFeatures white = features_at(FeatureSet::kRollout, b, W, b.at(2, 5));
  EXPECT_TRUE(has_fixed(white, kNakade + 1));  // size 3, own eye
  EXPECT_FALSE(has_fixed(features_at(FeatureSet::kRollout, b, W, b.at(1, 5)), kNakade + 1));
  int size = 0;
  Color owner = Color::kEmpty;
  EXPECT_TRUE(nakade_vital(b, b.at(2, 5), &size, &owner));
  EXPECT_EQ(size, 3);
  EXPECT_EQ(owner, W);
  EXPECT_EQ(fixed_feature_name(kNakade + 1), "nakade 3 own eye");
}

// The fast tests of softmax_features agree with move_facts on random positions.
TEST(SoftmaxFeatures, FastChecksAgreeWithMoveFacts) {
  Rng rng(21);
  int nakade = 0, saves = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int size = trial % 3 == 0 ? 7 : trial % 3 == 1 ? 9 : 19;
    Board b(size, trial % 5 == 4);
    Color c = B;
    const int moves = size * size / 2 + static_cast<int>(rng.below(static_cast<uint32_t>(2 * size * size)));
    for (int i = 0; i < moves; ++i) {
      const Vertex v = random_move(b, c, rng);
      b.play(v, c);
      c = opponent(c);
    }
    for (int16_t p : b.empty_points()) {
      const Vertex v(p);
      const uint64_t code = pattern_code(b, v, B, PatternShape::kDiamond12);
      int nakade_size = 0;
      Color owner = Color::kEmpty;
      const bool vital = nakade_vital_unfiltered(b, v, &nakade_size, &owner);
      if (vital) {
        EXPECT_TRUE(nakade_possible(code)) << b.to_string() << to_gtp(v, size);
      }
      int size2 = 0;
      Color owner2 = Color::kEmpty;
      EXPECT_EQ(nakade_vital(b, v, code, &size2, &owner2), vital);
      EXPECT_EQ(nakade_vital(b, v, &size2, &owner2), vital);
      nakade += vital;
      for (Color mover : {B, W}) {
        if (b.legal(v, mover) != Legality::kLegal) continue;
        const MoveFacts f = move_facts(b, v, mover);
        EXPECT_EQ(saves_atari(b, v, mover), f.saved_stones > 0) << b.to_string() << to_gtp(v, size);
        EXPECT_EQ(vital ? nakade_size : 0, f.nakade_size);
        saves += f.saved_stones > 0;
      }
    }
  }
  EXPECT_GT(nakade, 10);
  EXPECT_GT(saves, 100);
}

TEST(SoftmaxFeatures, TreeTactics) {
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . O O X . . . .
    . . . X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  using namespace fixed_feature;
  // The X at (4,4) has two liberties, (5,4) and (4,5): White at (5,4) puts it in atari.
  const Vertex last = b.at(4, 3);
  const CandidateFeatures atari = features_at(FeatureSet::kTree, b, W, b.at(5, 4), last);
  EXPECT_TRUE(has_fixed(atari, kAtari));
  EXPECT_TRUE(atari.has_key(PatternKind::kDiamond) && atari.has_key(PatternKind::kRadius3));
  // The distance to the previous move: (5,4) from (4,3) is dx 1, dy 1: 1 + 1 + 1 = 3.
  EXPECT_TRUE(has_fixed(atari, kDistance + 1));
  EXPECT_TRUE(has_fixed(atari, kLine + 3));  // (5,4) on a 9x9 board is on the 4th line
  EXPECT_EQ(fixed_feature_name(kDistance + 1), "distance 3");
  EXPECT_EQ(fixed_feature_name(kLine + 3), "line 4");
  // Every tactical feature agrees with move_facts, for every legal move of both colours.
  for (int16_t p : b.empty_points()) {
    const Vertex v(p);
    for (Color c : {B, W}) {
      if (b.legal(v, c) != Legality::kLegal) continue;
      const MoveFacts mf = move_facts(b, v, c, LadderReading::kRead);
      const CandidateFeatures f = features_at(FeatureSet::kTree, b, c, v, last);
      EXPECT_EQ(has_fixed(f, kAtari), mf.atari());
      EXPECT_EQ(has_fixed(f, kLadderCapture), mf.ladder_capture);
      EXPECT_EQ(has_fixed(f, kLadderEscape), mf.ladder_escape);
      EXPECT_EQ(has_fixed(f, kSelfAtari) || has_fixed(f, kSelfAtari + 1) || has_fixed(f, kSelfAtari + 2), mf.self_atari);
      EXPECT_EQ(has_fixed(f, kSaveAtari), mf.save_atari());
    }
  }
}

TEST(SoftmaxFeatures, CaptureOfThePreviousMove) {
  const Board b = board_from_ascii(R"(
    . . . . .
    . . X . .
    . X O X .
    . . . . .
    . . . . .)");
  using namespace fixed_feature;
  const CandidateFeatures f = features_at(FeatureSet::kTree, b, B, b.at(2, 3), b.at(2, 2));
  EXPECT_TRUE(has_fixed(f, kCapture + 0));
  EXPECT_TRUE(has_fixed(f, kCaptureLast));
  EXPECT_FALSE(has_fixed(features_at(FeatureSet::kTree, b, B, b.at(2, 3), b.at(1, 2)), kCaptureLast));
}

// The board after symmetry s of kPatternSymmetries (mirror x -> -x if s >= 4, then s % 4
// clockwise quarter turns), optionally with the colours swapped.
Vertex transform(const Board& b, Vertex v, int s) {
  const int n = b.size();
  int x = b.geometry().x(v), y = b.geometry().y(v);
  if (s >= 4) x = n - 1 - x;
  for (int r = 0; r < s % 4; ++r) {
    const int nx = n - 1 - y, ny = x;
    x = nx;
    y = ny;
  }
  return b.at(x, y);
}

Board transformed(const Board& b, int s, bool swap) {
  Board out(b.size());
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      const Color c = b.color(b.at(x, y));
      if (c != Color::kEmpty) out.set_stone(transform(b, b.at(x, y), s), swap ? opponent(c) : c);
    }
  }
  return out;
}

TEST(SoftmaxFeatures, SymmetriesAndColourSwapGiveTheSameFeatures) {
  Rng rng(7);
  for (int trial = 0; trial < 6; ++trial) {
    const int size = trial % 2 ? 9 : 13;
    Board b(size);
    Color c = B;
    Vertex last = Vertex::none(), second = Vertex::none();
    const int moves = 20 + static_cast<int>(rng.below(60));
    for (int i = 0; i < moves; ++i) {
      const Vertex v = random_move(b, c, rng);
      if (v.is_pass()) break;
      b.play(v, c);
      second = last;
      last = v;
      c = opponent(c);
    }
    for (int s = 0; s < 8; ++s) {
      const bool swap = s % 3 == 1;
      const Board t = transformed(b, s, swap);
      const Color tc = swap ? opponent(c) : c;
      const Vertex tl = last.is_point() ? transform(b, last, s) : last;
      const Vertex ts = second.is_point() ? transform(b, second, s) : second;
      for (int16_t p : b.empty_points()) {
        const Vertex v(p);
        if (b.legal(v, c) != Legality::kLegal) continue;
        const Vertex tv = transform(b, v, s);
        ASSERT_EQ(t.legal(tv, tc), Legality::kLegal);
        CandidateFeatures f = features_at(FeatureSet::kTree, b, c, v, last, second);
        CandidateFeatures g = features_at(FeatureSet::kTree, t, tc, tv, tl, ts);
        std::sort(f.fixed.begin(), f.fixed.begin() + f.num_fixed);
        std::sort(g.fixed.begin(), g.fixed.begin() + g.num_fixed);
        ASSERT_EQ(f.num_fixed, g.num_fixed);
        EXPECT_TRUE(std::equal(f.fixed.begin(), f.fixed.begin() + f.num_fixed, g.fixed.begin()));
        ASSERT_EQ(f.key_mask, g.key_mask);
        for (int k = 0; k < kNumPatternKinds; ++k) {
          EXPECT_EQ(f.keys[k], g.keys[k]) << "kind " << k << " symmetry " << s << " at " << to_gtp(v, size);
        }
      }
    }
  }
}

TEST(SoftmaxFeatures, Radius3KeyIsInvariantUnderSymmetries) {
  Rng rng(3);
  const uint8_t states[] = {0x0, 0x3, 0x5, 0x9, 0xD, 0x6, 0xA, 0xE};
  for (int trial = 0; trial < 200; ++trial) {
    uint64_t d = 0, r = 0;
    for (int i = 0; i < 12; ++i) d |= uint64_t{states[rng.below(8)]} << (4 * i);
    for (int i = 0; i < 12; ++i) r |= uint64_t{states[rng.below(8)]} << (4 * i);
    const uint64_t key = radius3_key(d, r);
    for (int s = 1; s < 8; ++s) {
      EXPECT_EQ(radius3_key(apply_symmetry(d, PatternShape::kDiamond12, s), ring3_apply_symmetry(r, s)), key);
    }
    // A change in the third ring changes the key.
    EXPECT_NE(radius3_key(d, r ^ 0x3), key);
  }
}

// --- Loss, gradient, cache ------------------------------------------------------------------------

// Adds random positions over `num_features` features to `cache`.
void add_random_positions(PositionCache& cache, Rng& rng, int positions, int num_features) {
  for (int p = 0; p < positions; ++p) {
    const int n = 2 + static_cast<int>(rng.below(12));
    std::vector<uint32_t> ids, offsets{0};
    for (int i = 0; i < n; ++i) {
      // Some candidates repeat the previous one's features, to make classes of several.
      if (i > 0 && rng.below(3) == 0) {
        const std::vector<uint32_t> copy(ids.begin() + offsets[i - 1], ids.end());
        ids.insert(ids.end(), copy.rbegin(), copy.rend());
      } else {
        const int k = 1 + static_cast<int>(rng.below(3));
        std::vector<uint32_t> f;
        while (static_cast<int>(f.size()) < k) {
          const uint32_t id = rng.below(num_features);
          if (std::find(f.begin(), f.end(), id) == f.end()) f.push_back(id);
        }
        ids.insert(ids.end(), f.begin(), f.end());
      }
      offsets.push_back(static_cast<uint32_t>(ids.size()));
    }
    cache.add(ids, offsets, static_cast<int>(rng.below(n)));
  }
}

// A cache of random positions over `num_features` features.
PositionCache random_cache(Rng& rng, int positions, int num_features) {
  PositionCache cache(4);  // a few fixed features, packed
  add_random_positions(cache, rng, positions, num_features);
  return cache;
}

// Checks position_loss's gradient over `cache` at `w` against central differences, weight by
// weight; returns how many weights at or past `from` move the loss (by more than 1e-3).
int expect_gradient_matches(const PositionCache& cache, const Eigen::VectorXf& w, int factor_dim, int from) {
  auto total = [&](const Eigen::VectorXf& weights) {
    double loss = 0;
    for (size_t i = 0; i < cache.size(); ++i) loss += position_loss(cache.position(i), weights, nullptr, 0, factor_dim).loss;
    return loss;
  };
  SparseGradient grad(w.size());
  for (size_t i = 0; i < cache.size(); ++i) position_loss(cache.position(i), w, &grad, 1.0f, factor_dim);
  int moving = 0;
  for (int f = 0; f < w.size(); ++f) {
    const float h = 1e-2f;
    Eigen::VectorXf plus = w, minus = w;
    plus[f] += h;
    minus[f] -= h;
    const double numeric = (total(plus) - total(minus)) / (2 * h);
    EXPECT_NEAR(grad.g[f], numeric, 3e-3 * std::max(1.0, std::abs(numeric))) << "weight " << f;
    moving += f >= from && std::abs(numeric) > 1e-3;
  }
  grad.clear();
  EXPECT_EQ(grad.g.squaredNorm(), 0.0f);
  EXPECT_TRUE(grad.touched.empty());
  return moving;
}

TEST(SoftmaxTrain, GradientMatchesFiniteDifferences) {
  Rng rng(11);
  constexpr int kFeatures = 10;
  const PositionCache cache = random_cache(rng, 30, kFeatures);
  Eigen::VectorXf w(kFeatures);
  for (int i = 0; i < kFeatures; ++i) w[i] = static_cast<float>(rng.uniform() * 2 - 1);
  EXPECT_GT(expect_gradient_matches(cache, w, 0, 0), 5);
}

TEST(SoftmaxTrain, FactorisedPairsScoreByHandAndTheirGradientMatchesFiniteDifferences) {
  // By hand: class A has features {0, 1}, class B {2}; with latent vectors of 2 floats A scores
  // w0 + w1 + <v0, v1> and B w2 (one feature: no pair).
  PositionCache one(0);
  std::vector<uint32_t> ids = {0, 1, 2};
  const std::vector<uint32_t> offsets = {0, 2, 3};
  one.add(ids, offsets, 0);
  Eigen::VectorXf w(3 * 3);
  w << 0.5f, -0.25f, 0.75f, /*v0*/ 1.0f, 2.0f, /*v1*/ -0.5f, 0.25f, /*v2*/ 3.0f, -1.0f;
  const double a = 0.5 - 0.25 + (1.0 * -0.5 + 2.0 * 0.25), b = 0.75;
  EXPECT_NEAR(position_loss(one.position(0), w, nullptr, 0, 2).loss, -(a - std::log(std::exp(a) + std::exp(b))), 1e-6);
  EXPECT_EQ(position_loss(one.position(0), w, nullptr, 0, 2).top1, 0.0);  // B scores higher

  Rng rng(12);
  constexpr int kFeatures = 10, kDim = 3;
  const PositionCache cache = random_cache(rng, 30, kFeatures);
  Eigen::VectorXf v(kFeatures * (1 + kDim));
  for (int i = 0; i < v.size(); ++i) v[i] = static_cast<float>(rng.uniform() * 2 - 1);
  EXPECT_GT(expect_gradient_matches(cache, v, kDim, kFeatures), 10);  // the latent vectors do move the loss
}

TEST(SoftmaxTrain, CacheGroupsIdenticalCandidates) {
  PositionCache cache(5);  // ids 0-4 are fixed features, packed as bytes
  // Candidates: {1,2,9}, {9,2,1}, {3}, {}, {}, {0,1,2,3,4,7}; the played one is the second.
  std::vector<uint32_t> ids = {1, 2, 9, 9, 2, 1, 3, 0, 1, 2, 3, 4, 7};
  const std::vector<uint32_t> offsets = {0, 3, 6, 7, 7, 7, 13};
  cache.add(ids, offsets, 1);
  ASSERT_EQ(cache.size(), 1u);
  int played = -1;
  const std::vector<PositionCache::Class> classes = cache.classes(0, &played);
  ASSERT_EQ(classes.size(), 4u);
  ASSERT_GE(played, 0);
  EXPECT_EQ(classes[played].count, 2u);
  EXPECT_EQ(classes[played].ids, (std::vector<uint32_t>{1, 2, 9}));
  int total = 0;
  bool saw_six = false;
  for (const auto& c : classes) {
    total += static_cast<int>(c.count);
    if (c.ids.size() == 6) {
      saw_six = true;
      EXPECT_EQ(c.ids, (std::vector<uint32_t>{0, 1, 2, 3, 4, 7}));
    }
    if (c.ids.empty()) {
      EXPECT_EQ(c.count, 2u);
    }
  }
  EXPECT_TRUE(saw_six);
  EXPECT_EQ(total, 6);
  // With all weights zero every candidate is equally likely: loss ln 6, and the played move
  // ties with all six, so its top-1 credit is 1/6.
  const PositionLoss r = position_loss(cache.position(0), Eigen::VectorXf::Zero(10), nullptr, 0);
  EXPECT_NEAR(r.loss, std::log(6.0), 1e-6);
  EXPECT_NEAR(r.top1, 1.0 / 6, 1e-9);
  // A weight on feature 9 makes the played class the most likely, alone at the top.
  Eigen::VectorXf w = Eigen::VectorXf::Zero(10);
  w[9] = 1;
  const PositionLoss s = position_loss(cache.position(0), w, nullptr, 0);
  EXPECT_NEAR(s.loss, -std::log(std::exp(1.0) / (2 * std::exp(1.0) + 4)), 1e-6);
  EXPECT_NEAR(s.top1, 0.5, 1e-9);  // tied with its twin
}

// The cache in a file holds what the cache in memory holds, across its blocks (the first is
// 256 KB: 30,000 positions fill several), after moves, and its file is never seen in the directory.
TEST(SoftmaxTrain, CacheOnDiskHoldsWhatTheCacheInMemoryHolds) {
  const fs::path dir = testing::temp_path("softmax", "spill");
  fs::remove_all(dir);
  fs::create_directories(dir);
  constexpr int kPositions = 30'000, kFeatures = 5'000;
  Rng a(21), b(21);
  PositionCache memory(4), moved(4, dir.string());
  add_random_positions(memory, a, kPositions, kFeatures);
  add_random_positions(moved, b, kPositions, kFeatures);
  EXPECT_FALSE(memory.spilled());
  EXPECT_TRUE(moved.spilled());
  EXPECT_TRUE(fs::is_empty(dir));  // unlinked at once
  PositionCache disk(std::move(moved));
  PositionCache other(4);
  other = std::move(disk);  // move-assigned over a cache in memory
  ASSERT_EQ(other.size(), memory.size());
  ASSERT_TRUE(other.spilled());
  other.prefetch(0, 10);
  other.prefetch(100, kPositions);  // across blocks
  other.prefetch(kPositions, kPositions + 5);  // past the end: nothing
  Eigen::VectorXf w(kFeatures);
  for (int f = 0; f < kFeatures; ++f) w[f] = static_cast<float>(a.uniform() - 0.5);
  for (size_t i = 0; i < memory.size(); i += 97) {
    int pm = -1, pd = -2;
    const auto cm = memory.classes(i, &pm), cd = other.classes(i, &pd);
    ASSERT_EQ(pm, pd) << i;
    ASSERT_EQ(cm.size(), cd.size()) << i;
    for (size_t c = 0; c < cm.size(); ++c) {
      EXPECT_EQ(cm[c].count, cd[c].count);
      EXPECT_EQ(cm[c].ids, cd[c].ids);
    }
    EXPECT_EQ(position_loss(memory.position(i), w, nullptr, 0).loss, position_loss(other.position(i), w, nullptr, 0).loss);
  }
  fs::remove_all(dir);
}

TEST(SoftmaxTrain, CacheOnDiskNamesADirectoryItCannotUse) {
  try {
    PositionCache cache(4, "/nonexistent-hane-dir/cache");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-hane-dir/cache"), std::string::npos) << e.what();
  }
}

// --- Training end to end, model files -----------------------------------------------------------

TEST(SoftmaxTrain, LearnsToAnswerThePreviousMoveAndSurvivesTheModelFile) {
  Rng rng(5);
  const std::vector<CorpusGame> train = games_from(testing::answering_below_games(rng, 60));
  const std::vector<CorpusGame> validation = games_from(testing::answering_below_games(rng, 10), Split::kValidation);
  SoftmaxTrainOptions o;
  o.progress = false;
  o.min_count = 1;
  o.max_epochs = 8;
  o.batch_size = 16;
  o.learning_rate = 0.05;
  o.threads = 2;
  std::vector<SoftmaxEpoch> epochs;
  const SoftmaxModel model = train_softmax(train, validation, o, [&](const SoftmaxEpoch& e) { epochs.push_back(e); });
  ASSERT_FALSE(epochs.empty());
  EXPECT_LT(epochs.back().train_loss, epochs.front().train_loss);
  EXPECT_EQ(model.training["positions_cached"], 60 * 12);
  EXPECT_GT(model.fixed[fixed_feature::kNeighbourOrth], 0.5f);

  const std::string path = softmax_path("answer");
  ASSERT_TRUE(save_softmax_model(model, path).ok());
  auto loaded = load_guesser(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  Guesser& g = **loaded;
  EXPECT_EQ(g.name(), "softmax rollout");
  // On a fresh position White's best moves are next to Black's last stone.
  Board b(9);
  b.play(b.at(4, 4), B);
  const Position p{&b, W, b.at(4, 4), Vertex::none(), 2};
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, W, moves));
  std::vector<float> scores(moves.size());
  g.score(p, moves, scores);
  double sum = 0;
  for (float s : scores) sum += s;
  EXPECT_NEAR(sum, 1.0, 1e-5);
  const size_t best = std::max_element(scores.begin(), scores.end()) - scores.begin();
  EXPECT_EQ(manhattan_distance(b.geometry(), moves[best], b.at(4, 4)), 1) << to_gtp(moves[best], 9);
  // The validation figures agree with the evaluation of the saved model.
  EvalOptions eo;
  eo.progress = false;
  const EvalResult r = evaluate(g, validation, eo);
  // Black's moves are random and White's answer is one of the (tied) orthogonal neighbours:
  // the best top-1 is about (1/4 + 1/80) / 2.
  EXPECT_GT(r.accuracy(1), 0.1);
  fs::remove(path);
}

// Gradients are summed per logical shard, then shard by shard: the weights do not depend on the
// number of threads (nor, the same way, on the number of MPI ranks: tests/mpi_equal.sh), only
// on the number of shards.
TEST(SoftmaxTrain, SameModelForAnyNumberOfThreads) {
  Rng rng(7);
  const std::vector<CorpusGame> train = games_from(testing::answering_below_games(rng, 40));
  const std::vector<CorpusGame> validation = games_from(testing::answering_below_games(rng, 6), Split::kValidation);
  auto weights = [&](int threads, int shards, const std::string& cache_dir) {
    SoftmaxTrainOptions o;
    o.cache_dir = cache_dir;
    o.progress = false;
    o.min_count = 1;
    o.max_epochs = 2;
    o.batch_size = 8;
    o.threads = threads;
    o.shards = shards;
    const SoftmaxModel m = train_softmax(train, validation, o);
    std::vector<float> w = m.fixed;
    for (const auto& kind : m.patterns) {
      std::vector<std::pair<uint64_t, float>> sorted(kind.begin(), kind.end());
      std::sort(sorted.begin(), sorted.end());
      for (const auto& [key, v] : sorted) w.push_back(v);
    }
    return w;
  };
  const std::vector<float> one = weights(1, 5, "");
  EXPECT_EQ(one, weights(3, 5, ""));  // bit for bit
  EXPECT_NE(one, weights(1, 2, ""));  // another shard count sums in another order
  // With the cache on disk the order is shuffled in windows: another model, but again the same
  // for any number of threads, and it learns what the one in memory learns.
  const fs::path dir = testing::temp_path("softmax", "spill-train");
  fs::create_directories(dir);
  const std::vector<float> disk = weights(1, 5, dir.string());
  EXPECT_EQ(disk, weights(3, 5, dir.string()));
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
  EXPECT_NE(disk, one);
  EXPECT_EQ(disk.size(), one.size());
  EXPECT_GT(disk[fixed_feature::kNeighbourOrth], 0.0f);
  EXPECT_GT(one[fixed_feature::kNeighbourOrth], 0.0f);
}

SoftmaxModel small_model() {
  SoftmaxModel m;
  m.feature_set = FeatureSet::kRollout;
  m.fixed.assign(num_fixed_features(m.feature_set), 0.0f);
  m.fixed[fixed_feature::kResponse] = 1.5f;
  m.patterns[static_cast<int>(PatternKind::k3x3)] = {{7, 0.25f}, {3, -1.0f}};
  m.patterns[static_cast<int>(PatternKind::kResponse)] = {{99, 2.0f}};
  m.training = {{"note", "by hand"}};
  return m;
}

TEST(SoftmaxModelFile, RoundTrip) {
  const SoftmaxModel m = small_model();
  const std::string path = softmax_path("round");
  ASSERT_TRUE(save_softmax_model(m, path).ok());
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->header["kind"], "softmax");
  EXPECT_EQ(file->header["feature_set"], "rollout");
  EXPECT_EQ(file->header["dictionaries"]["3x3"], 2);
  EXPECT_EQ(file->header["fixed_weights"]["response"], 1.5);
  auto loaded = softmax_model_from_file(*file, path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->fixed, m.fixed);
  EXPECT_EQ(loaded->patterns, m.patterns);
  EXPECT_EQ(loaded->training["note"], "by hand");
  EXPECT_EQ(loaded->num_weights(), 12 + 3);
  fs::remove(path);
}

TEST(SoftmaxModelFile, CorruptFilesAreRefusedWithAReason) {
  const std::string path = softmax_path("corrupt");
  auto error_of = [&](const nlohmann::json& header, const std::string& payload) {
    EXPECT_TRUE(write_model_file(path, header, payload).ok());
    auto g = load_guesser(path);
    return g.ok() ? std::string("ok") : std::string(g.status().message());
  };
  const nlohmann::json good = {{"kind", "softmax"}, {"feature_set", "rollout"}, {"feature_version", kSoftmaxFeatureVersion},
                               {"pattern_version", kPatternVersion}};
  PayloadWriter w;
  w.u32(12);
  for (int i = 0; i < 12; ++i) w.f32(0.5f);
  PayloadWriter tail = w;
  for (int k = 0; k < kNumPatternKinds; ++k) tail.u64(0);
  EXPECT_EQ(error_of(good, tail.bytes()), "ok");

  nlohmann::json old = good;
  old["feature_version"] = kSoftmaxFeatureVersion + 1;
  EXPECT_NE(error_of(old, tail.bytes()).find("retrain"), std::string::npos);
  nlohmann::json odd = good;
  odd["feature_set"] = "bogus";
  EXPECT_NE(error_of(odd, tail.bytes()).find("unknown feature set 'bogus'"), std::string::npos);
  nlohmann::json tree = good;
  tree["feature_set"] = "tree";
  EXPECT_NE(error_of(tree, tail.bytes()).find("the tree feature set has 65"), std::string::npos);
  EXPECT_NE(error_of(good, w.bytes()).find("bad dictionary size"), std::string::npos);  // truncated

  PayloadWriter unordered = w;
  unordered.u64(2);
  unordered.u64(5);
  unordered.f32(1);
  unordered.u64(4);
  unordered.f32(1);
  for (int k = 1; k < kNumPatternKinds; ++k) unordered.u64(0);
  EXPECT_NE(error_of(good, unordered.bytes()).find("keys out of order"), std::string::npos);

  PayloadWriter wrong_kind = w;
  wrong_kind.u64(0);
  wrong_kind.u64(0);
  wrong_kind.u64(1);  // diamond12 patterns in a rollout model
  wrong_kind.u64(1);
  wrong_kind.f32(1);
  wrong_kind.u64(0);
  EXPECT_NE(error_of(good, wrong_kind.bytes()).find("diamond12 patterns in a rollout model"), std::string::npos);

  PayloadWriter extra = tail;
  extra.u8(0);
  EXPECT_NE(error_of(good, extra.bytes()).find("corrupt payload at byte"), std::string::npos);

  PayloadWriter nan = w;
  nan.u64(1);
  nan.u64(1);
  nan.f32(std::nanf(""));
  for (int k = 1; k < kNumPatternKinds; ++k) nan.u64(0);
  EXPECT_NE(error_of(good, nan.bytes()).find("not finite"), std::string::npos);
  fs::remove(path);
}

TEST(SoftmaxGuesser, ProbabilitiesAreTheSoftmaxOfTheScores) {
  const SoftmaxModel m = small_model();
  auto model = std::make_shared<const SoftmaxModel>(m);
  SoftmaxGuesser g(model);
  Board b(9);
  b.play(b.at(4, 4), B);
  const Position p{&b, W, b.at(4, 4), Vertex::none(), 2};
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, W, moves));
  std::vector<float> probs(moves.size());
  g.score(p, moves, probs);
  // Response moves (12 of 80) weigh e^1.5, the others 1.
  const double z = 12 * std::exp(1.5) + 68;
  for (size_t i = 0; i < moves.size(); ++i) {
    const bool response = manhattan_distance(b.geometry(), moves[i], b.at(4, 4)) <= 2;
    EXPECT_NEAR(probs[i], (response ? std::exp(1.5) : 1.0) / z, 1e-6) << to_gtp(moves[i], 9);
  }
  EXPECT_TRUE(g.gives_probabilities());
  EXPECT_EQ(g.info()["dictionaries"]["3x3"], 2);
  // The cached scorer agrees with the model's own sum, including after cache collisions.
  SoftmaxScorer scorer(model.get());
  Rng rng(2);
  for (int i = 0; i < 100000; ++i) {
    CandidateFeatures f;
    f.add_fixed(static_cast<uint16_t>(rng.below(12)));
    f.set_key(PatternKind::k3x3, rng.below(2) ? 7 : rng.below(1u << 20));
    if (rng.below(2)) f.set_key(PatternKind::kResponse, rng.below(4) ? 99 : rng.below(1u << 20));
    ASSERT_EQ(scorer.score(f), model->score(f));
  }
}

}  // namespace
}  // namespace hane
