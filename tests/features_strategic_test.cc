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
#include "predict/leaf_softmax.h"
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

// The sum of `guesser`'s probabilities over the legal moves of `p` (1 for a softmax).
double probability_sum(Guesser& guesser, const Position& p) {
  std::vector<Vertex> moves(p.board->empty_points().size());
  moves.resize(legal_moves(*p.board, p.to_move, moves));
  std::vector<float> probs(moves.size());
  guesser.score(p, moves, probs);
  double sum = 0;
  for (float x : probs) sum += x;
  return sum;
}

// White's chain of one stone at D6 (x=3, y=3) has 2 liberties; Black's atari at D5 (x=3, y=4)
// captures it in a ladder, the one at E6 (x=4, y=3) lets it run.
constexpr char kWhiteInALadder[] = R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . X X . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)";

TEST(StrategicFeatures, TheOpponentFamilyGivesBothSidesLadderStatus) {
  using namespace fixed_feature;
  const StrategicFamilies opponent = *parse_strategic_families("opponent");
  const Board b = testing::board_from_ascii(kWhiteInALadder);
  const Vertex d5 = b.at(3, 4), e6 = b.at(4, 3);
  // White to move: Black would give atari at both liberties, and capture in a ladder at D5 only.
  EXPECT_EQ(strategic_part(strategic_features_at(b, W, d5, 20, opponent)),
            (std::vector<uint16_t>{kOppAtari, kOppLadderCapture}));
  EXPECT_EQ(strategic_part(strategic_features_at(b, W, e6, 20, opponent)), (std::vector<uint16_t>{kOppAtari}));
  // Black to move: White's moves there neither capture nor give atari.
  EXPECT_TRUE(strategic_part(strategic_features_at(b, B, d5, 20, opponent)).empty());
  EXPECT_TRUE(strategic_part(strategic_features_at(b, B, b.at(7, 7), 20, opponent)).empty());

  // After Black's D5 White is in atari at E6: White would capture nothing there but save its
  // stone, without escaping (the ladder works); for White, E6 is where Black would capture.
  Board after = b;
  after.play_legal(d5, B);
  EXPECT_EQ(strategic_part(strategic_features_at(after, B, e6, 21, opponent)), (std::vector<uint16_t>{kOppSaveAtari}));
  EXPECT_EQ(strategic_part(strategic_features_at(after, W, e6, 21, opponent)), (std::vector<uint16_t>{kOppCapture}));
  // A White ladder breaker on the diagonal: the same run escapes.
  Board broken = b;
  broken.set_stone(b.at(6, 6), W);
  broken.play_legal(d5, B);
  EXPECT_EQ(strategic_part(strategic_features_at(broken, B, e6, 21, opponent)),
            (std::vector<uint16_t>{kOppSaveAtari, kOppLadderEscape}));
  // The mover's own facts are the tree set's: Black's E6 captures in both.
  const CandidateFeatures own = strategic_features_at(broken, B, e6, 21, opponent);
  EXPECT_EQ(std::count(own.fixed.begin(), own.fixed.begin() + own.num_fixed, static_cast<uint16_t>(kCapture)), 1);
  // Left out, the family gives nothing.
  const std::vector<uint16_t> without =
      strategic_part(strategic_features_at(broken, B, e6, 21, *parse_strategic_families("nearest,phase")));
  EXPECT_EQ(without.size(), 3u);  // nearest own, nearest opponent, phase
  EXPECT_EQ(std::count_if(without.begin(), without.end(), [](uint16_t i) { return i >= kOppCapture; }), 0);
}

// A strategic model of 157 fixed weights (written before the opponent family, whose "all" meant
// the five before it) is read as it was trained; any other count is refused with the counts.
TEST(StrategicFeatures, AModelFromBeforeTheOpponentFamilyIsReadWithoutIt) {
  SoftmaxModel old;
  old.feature_set = FeatureSet::kStrategic;
  old.strategic_families = kAllStrategicFamilies;
  old.fixed.assign(fixed_feature::kNumStrategicBeforeOpponent, 0.0f);
  old.fixed[fixed_feature::kNearestOwn] = 1.5f;
  const std::string path = testing::temp_path("strategic-v157", "model");
  ASSERT_TRUE(save_softmax_model(old, path).ok());
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(file->header["strategic_families"], "all");
  auto loaded = softmax_model_from_file(*file, path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(strategic_families_string(loaded->strategic_families), "class,influence,kind,nearest,phase");
  EXPECT_EQ(loaded->fixed, old.fixed);
  // It guesses: the opponent family's indices, past its weights, are never asked for.
  auto guesser = load_guesser(path);
  ASSERT_TRUE(guesser.ok()) << guesser.status();
  const Board b = testing::board_from_ascii(kWhiteInALadder);
  EXPECT_NEAR(probability_sum(**guesser, Position{&b, W, b.at(4, 2), Vertex::none(), 20}), 1.0, 1e-5);

  old.fixed.push_back(0.0f);  // 158: neither layout
  ASSERT_TRUE(save_softmax_model(old, path).ok());
  file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  auto bad = softmax_model_from_file(*file, path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("158 fixed weights, the strategic feature set has 162"), std::string_view::npos)
      << bad.status();
  std::filesystem::remove(path);
}

// The shipped strategic model, trained before the opponent family, loads with its five.
TEST(StrategicFeatures, TheShippedStrategicModelLoadsWithItsFamilies) {
  const std::string path = std::string(HANE_TEST_DATA_DIR) + "/../../patterns/kgs-leaf-strategic.model";
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok()) << file.status();
  auto model = leaf_softmax_from_file(*file, path);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(strategic_families_string(model->softmax.strategic_families), "class,influence,kind,nearest,phase");
  EXPECT_EQ(static_cast<int>(model->softmax.fixed.size()), fixed_feature::kNumStrategicBeforeOpponent);
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
  EXPECT_NEAR(probability_sum(**guesser, Position{&b, W, b.at(4, 4), Vertex::none(), 2}), 1.0, 1e-5);

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
