// The strategic features: the per-position context (nearest stones, bins, families) and the
// `strategic` softmax feature set built on it, on boards worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "answering_games.h"
#include "corpus_games.h"
#include "features/strategic_context.h"
#include "go/random.h"
#include "go_fixtures.h"
#include "playout/registry.h"
#include "predict/load.h"
#include "predict/softmax.h"
#include "predict/softmax_features.h"
#include "test_files.h"
#include "train/softmax_train.h"

namespace hane {
namespace {

using testing::B;
using testing::W;

TEST(StrategicContext, FamiliesAreReadAndWrittenByName) {
  EXPECT_EQ(parse_strategic_families("all"), kAllStrategicFamilies);
  EXPECT_EQ(parse_strategic_families("none"), StrategicFamilies{0});
  const auto two = parse_strategic_families("nearest,class");
  ASSERT_TRUE(two.has_value());
  EXPECT_TRUE(has_family(*two, StrategicFamily::kClass));
  EXPECT_TRUE(has_family(*two, StrategicFamily::kNearest));
  EXPECT_FALSE(has_family(*two, StrategicFamily::kPhase));
  EXPECT_EQ(strategic_families_string(*two), "class,nearest");
  EXPECT_EQ(strategic_families_string(kAllStrategicFamilies), "all");
  for (const char* bad : {"", "class,", "moyo", "class,,phase", ",class"}) {
    EXPECT_FALSE(parse_strategic_families(bad).has_value()) << bad;
  }
}

TEST(StrategicContext, BinsByHand) {
  EXPECT_EQ(influence_bin(0.0f), 0);
  EXPECT_EQ(influence_bin(0.4f), 1);   // a stone five steps away on 19x19
  EXPECT_EQ(influence_bin(1.0f), 2);   // two steps away
  EXPECT_EQ(influence_bin(2.0f), 3);   // next to it
  EXPECT_EQ(influence_bin(7.9f), 4);
  EXPECT_EQ(influence_bin(12.0f), 5);  // on a stone
  EXPECT_EQ(nearest_bin(1), 0);
  EXPECT_EQ(nearest_bin(7), 6);
  EXPECT_EQ(nearest_bin(8), 7);
  EXPECT_EQ(nearest_bin(30), 7);
  EXPECT_EQ(nearest_bin(kNearestNone), 8);
  EXPECT_EQ(phase_bin(1), 0);
  EXPECT_EQ(phase_bin(30), 0);
  EXPECT_EQ(phase_bin(31), 1);
  EXPECT_EQ(phase_bin(271), 9);
  EXPECT_EQ(phase_bin(500), 9);
}

// The two-pass distance transform against the definition: the least |dx| + |dy| over the stones.
TEST(StrategicContext, NearestStoneMatchesTheLeastManhattanDistance) {
  Rng rng(11);
  for (int size : {2, 5, 9, 19, 25}) {
    for (int trial = 0; trial < 20; ++trial) {
      Board b(size);
      const int stones = trial == 0 ? 0 : static_cast<int>(rng.below(static_cast<uint32_t>(size * size / 3 + 1)));
      for (int i = 0; i < stones; ++i) {
        const Vertex v = b.at(static_cast<int>(rng.below(static_cast<uint32_t>(size))), static_cast<int>(rng.below(static_cast<uint32_t>(size))));
        const Color c = rng.below(2) ? B : W;
        if (b.is_empty(v) && b.legal(v, c) == Legality::kLegal) b.play(v, c);
      }
      for (Color c : {B, W}) {
        std::array<uint8_t, Board::kMaxVertices> d{};
        nearest_stone_distances(b, c, d);
        for (int y = 0; y < size; ++y) {
          for (int x = 0; x < size; ++x) {
            int best = kNearestNone;
            for (int y2 = 0; y2 < size; ++y2) {
              for (int x2 = 0; x2 < size; ++x2) {
                if (b.color(b.at(x2, y2)) == c) best = std::min(best, std::abs(x - x2) + std::abs(y - y2));
              }
            }
            ASSERT_EQ(d[static_cast<size_t>(b.at(x, y).index())], best) << size << " " << x << "," << y;
          }
        }
      }
    }
  }
}

CandidateFeatures strategic_features_at(const Board& b, Color c, Vertex v, int move_number,
                                        StrategicFamilies families = kAllStrategicFamilies) {
  BoardStates states;
  states.fill(b);
  const Position p{&b, c, Vertex::none(), Vertex::none(), move_number};
  StrategicContext ctx(families);
  ctx.set_position(p);
  CandidateFeatures f;
  candidate_features(FeatureSet::kStrategic, p, v, states.diamond_code(v, b.stride()), &states, &f, &ctx);
  return f;
}

std::vector<uint16_t> strategic_part(const CandidateFeatures& f) {
  std::vector<uint16_t> out;
  for (int i = 0; i < f.num_fixed; ++i) {
    if (f.fixed[i] >= fixed_feature::kNumTree) out.push_back(f.fixed[i]);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(StrategicFeatures, AnEmptyBoardIsOpenGroundWithNoStoneNear) {
  using namespace fixed_feature;
  const Board b(19);
  // D4 (line 4) at the first move: open ground, no influence, no stone of either colour.
  const CandidateFeatures f = strategic_features_at(b, B, b.at(3, 15), 1);
  const std::vector<uint16_t> want = {kClass + 3,       kInfluenceOwn + 0, kInfluenceOpp + 0, kKind + 5,
                                      kNearestOwn + 8,  kNearestOpp + 8,   kPhaseLine + 0 * 5 + 3};
  EXPECT_EQ(strategic_part(f), want);
  // The tree set's features are all there too, and none of the strategic ones.
  BoardStates states;
  states.fill(b);
  CandidateFeatures tree;
  candidate_features(FeatureSet::kTree, Position{&b, B}, b.at(3, 15), states.diamond_code(b.at(3, 15), b.stride()),
                     &states, &tree);
  EXPECT_EQ(f.num_fixed, tree.num_fixed + 7);
  EXPECT_TRUE(strategic_part(tree).empty());
}

TEST(StrategicFeatures, OneStoneSeenFromEachSide) {
  using namespace fixed_feature;
  Board b(19);
  b.play(b.at(3, 15), B);  // D4
  const Vertex d6 = b.at(3, 13);  // two steps above: influence 1 of Black, 2 steps to the stone
  // Move 61 (phase 2), D6 on line 4.
  const CandidateFeatures black = strategic_features_at(b, B, d6, 61,
                                                        *parse_strategic_families("influence,nearest,phase"));
  EXPECT_EQ(strategic_part(black), (std::vector<uint16_t>{kInfluenceOwn + 2, kInfluenceOpp + 0, kNearestOwn + 1,
                                                          kNearestOpp + 8, kPhaseLine + 2 * 5 + 3}));
  const CandidateFeatures white = strategic_features_at(b, W, d6, 61,
                                                        *parse_strategic_families("influence,nearest,phase"));
  EXPECT_EQ(strategic_part(white), (std::vector<uint16_t>{kInfluenceOwn + 0, kInfluenceOpp + 2, kNearestOwn + 8,
                                                          kNearestOpp + 1, kPhaseLine + 2 * 5 + 3}));
  // The class and the kind are the maps' (influence.h, tested on its own), seen by the mover.
  StrategicContext ctx;
  ctx.set_position(Position{&b, B});
  const CandidateFeatures all = strategic_features_at(b, B, d6, 61);
  const StrategicKind kind = strategic_kind(b, ctx.maps(), d6, B);
  ASSERT_NE(kind, StrategicKind::kNone);
  EXPECT_EQ(std::count(all.fixed.begin(), all.fixed.begin() + all.num_fixed,
                       static_cast<uint16_t>(kKind + static_cast<int>(kind) - 1)),
            1);
  const PointClass here = ctx.maps().at(d6);
  const int k = here == PointClass::kBlackTerritory ? 0 : here == PointClass::kBlackFramework ? 1
              : here == PointClass::kContested     ? 2 : here == PointClass::kOpen           ? 3
              : here == PointClass::kWhiteFramework ? 4 : 5;
  EXPECT_EQ(std::count(all.fixed.begin(), all.fixed.begin() + all.num_fixed, static_cast<uint16_t>(kClass + k)), 1);
  // Families left out give nothing.
  EXPECT_TRUE(strategic_part(strategic_features_at(b, B, d6, 61, 0)).empty());
}

TEST(StrategicFeatures, EveryIndexHasAName) {
  for (int i = fixed_feature::kNumTree; i < fixed_feature::kNumStrategic; ++i) {
    EXPECT_NE(fixed_feature_name(i), "?") << i;
  }
  EXPECT_EQ(fixed_feature_name(fixed_feature::kClass + 4), "class opponent framework");
  EXPECT_EQ(fixed_feature_name(fixed_feature::kNearestOpp + 8), "nearest opponent stone none");
  EXPECT_EQ(fixed_feature_name(fixed_feature::kPhaseLine + 9 * 5 + 4), "moves 271+ line 5+");
  EXPECT_EQ(fixed_feature_name(fixed_feature::kPhaseLine + 1 * 5 + 0), "moves 31-60 line 1");
}

// Trained on games, written, read back with its families, and refused as a playout policy.
TEST(StrategicFeatures, TrainsAndTheModelFileKeepsItsFamilies) {
  const std::vector<CorpusGame> train = testing::games_from(testing::answering_games(5, 30, 12));
  const std::vector<CorpusGame> validation =
      testing::games_from(testing::answering_games(500, 5, 12), Split::kValidation);
  SoftmaxTrainOptions o;
  o.feature_set = FeatureSet::kStrategic;
  o.strategic_families = *parse_strategic_families("nearest,phase");
  o.progress = false;
  o.min_count = 1;
  o.max_epochs = 3;
  o.batch_size = 16;
  o.learning_rate = 0.05;
  o.threads = 1;
  const SoftmaxModel model = train_softmax(train, validation, o);
  ASSERT_EQ(static_cast<int>(model.fixed.size()), fixed_feature::kNumStrategic);
  // The families left out were never active: their weights stayed 0.
  for (int i = fixed_feature::kClass; i < fixed_feature::kNearestOwn; ++i) EXPECT_EQ(model.fixed[i], 0.0f) << i;
  bool nearest_learned = false;
  for (int i = fixed_feature::kNearestOwn; i < fixed_feature::kPhaseLine; ++i) nearest_learned |= model.fixed[i] != 0.0f;
  EXPECT_TRUE(nearest_learned);

  const std::string path = testing::temp_path("strategic", "model");
  ASSERT_TRUE(save_softmax_model(model, path).ok());
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->header["feature_set"], "strategic");
  EXPECT_EQ(file->header["strategic_families"], "nearest,phase");
  auto loaded = softmax_model_from_file(*file, path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->strategic_families, model.strategic_families);
  EXPECT_EQ(loaded->fixed, model.fixed);
  auto guesser = load_guesser(path);
  ASSERT_TRUE(guesser.ok()) << guesser.status();
  EXPECT_EQ((*guesser)->name(), "softmax strategic");
  Board b(9);
  b.play(b.at(4, 4), B);
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, W, moves));
  std::vector<float> p(moves.size());
  (*guesser)->score(Position{&b, W, b.at(4, 4), Vertex::none(), 2}, moves, p);
  double sum = 0;
  for (float x : p) sum += x;
  EXPECT_NEAR(sum, 1.0, 1e-5);

  // Unknown families are refused with the reason; so is the model as a playout policy.
  file->header["strategic_families"] = "class,moyo";
  auto bad = softmax_model_from_file(*file, path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("strategic_families"), std::string_view::npos) << bad.status();
  auto policy = make_policy("softmax:" + path);
  ASSERT_FALSE(policy.ok());
  EXPECT_NE(policy.status().message().find("not a playout policy"), std::string_view::npos) << policy.status();
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace hane
