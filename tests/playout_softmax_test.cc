// The incremental softmax playout policy: its probabilities must equal the full-board guess's
// after every move of replayed real games and of random games.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "corpus/corpus.h"
#include "corpus/replay.h"
#include "features/tactics.h"
#include "playout/uniform.h"
#include "go/random.h"
#include "go_fixtures.h"
#include "predict/softmax.h"
#include "playout/softmax.h"

namespace hane {
namespace {

using testing::B;
using testing::W;

TEST(SumTree, TotalsWeightsAndFinds) {
  SumTree t(5);
  EXPECT_EQ(t.find(0.0), -1);
  t.set(0, 1.0);
  t.set(3, 2.0);
  t.set(4, 0.5);
  EXPECT_DOUBLE_EQ(t.total(), 3.5);
  EXPECT_EQ(t.find(0.0), 0);
  EXPECT_EQ(t.find(0.99), 0);
  EXPECT_EQ(t.find(1.0), 3);
  EXPECT_EQ(t.find(2.99), 3);
  EXPECT_EQ(t.find(3.2), 4);
  EXPECT_EQ(t.find(3.5), 4);  // rounding at the end never lands on an empty slot
  EXPECT_EQ(t.find(1e9), 4);
  t.set(3, 0.0);
  EXPECT_DOUBLE_EQ(t.total(), 1.5);
  EXPECT_EQ(t.find(1.2), 4);
  EXPECT_DOUBLE_EQ(t.weight(4), 0.5);
  // Larger trees have more levels; every slot is found at its interval.
  SumTree big(625);
  for (int i = 0; i < 625; ++i) big.set(i, i % 3 == 0 ? 0.0 : 1.0);
  double before = 0;
  for (int i = 0; i < 625; ++i) {
    if (i % 3 != 0) {
      EXPECT_EQ(big.find(before + 0.5), i);
    }
    before += big.weight(i);
  }
  EXPECT_DOUBLE_EQ(big.total(), before);
  EXPECT_EQ(big.find(before), 623);
  // Updates in any order leave the same sums as building from scratch.
  for (int round = 0; round < 50; ++round) {
    Rng r(round);
    for (int k = 0; k < 40; ++k) big.set(static_cast<int>(r.below(625)), r.uniform());
      double sum = 0;
    for (int i = 0; i < 625; ++i) sum += big.weight(i);
    EXPECT_NEAR(big.total(), sum, 1e-9);
  }
  // Frequencies follow the weights.
  SumTree u(361);
  for (int i = 0; i < 361; ++i) u.set(i, i % 7 == 0 ? 3.0 : 1.0);
  Rng rng(1);
  int heavy = 0;
  const int draws = 200000;
  for (int i = 0; i < draws; ++i) heavy += u.find(rng.uniform() * u.total()) % 7 == 0;
  const double expected = 52.0 * 3 / (52 * 3 + 309);
  EXPECT_NEAR(static_cast<double>(heavy) / draws, expected, 0.005);
}

// A model with random weights on every fixed feature and on every pattern key met in a few
// random games, so that every kind of feature moves the probabilities.
std::shared_ptr<const SoftmaxModel> random_model(FeatureSet set, uint64_t seed) {
  Rng rng(seed);
  auto model = std::make_shared<SoftmaxModel>();
  model->feature_set = set;
  for (int i = 0; i < num_fixed_features(set); ++i) model->fixed.push_back(static_cast<float>(rng.uniform() * 4 - 2));
  BoardStates states;
  for (int game = 0; game < 6; ++game) {
    const int size = game % 2 ? 9 : 19;
    Board b(size);
    Color c = B;
    Vertex last = Vertex::none();
    for (int m = 0; m < size * size; ++m) {
      states.fill(b);
      for (int16_t p : b.empty_points()) {
        const Vertex v(p);
        if (b.legal(v, c) != Legality::kLegal || rng.below(4) != 0) continue;
        CandidateFeatures f;
        candidate_features(set, Position{&b, c, last}, v, states.diamond_code(v, b.stride()), &states, &f);
        for (int k = 0; k < kNumPatternKinds; ++k) {
          if (f.has_key(static_cast<PatternKind>(k))) model->patterns[k].emplace(f.keys[k], static_cast<float>(rng.uniform() * 3 - 1.5));
        }
      }
      const Vertex v = random_move(b, c, rng);
      b.play(v, c);
      last = v;
      c = opponent(c);
    }
  }
  return model;
}

// Compares the policy's probabilities with the full-board guess on the policy's position.
// Returns the number of candidates compared.
int expect_equal_to_full_guess(SoftmaxPolicy& policy, const std::shared_ptr<const SoftmaxModel>& model,
                               Vertex second_last, bool exclude_eyes, const std::string& where) {
  const Board& b = policy.board();
  const Color c = policy.to_move();
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, c, moves));
  if (exclude_eyes) std::erase_if(moves, [&](Vertex v) { return b.is_eye(v, c); });
  std::vector<float> probs(moves.size());
  SoftmaxGuesser guesser(model);
  guesser.score(Position{&b, c, policy.last_move(), second_last}, moves, probs);
  std::map<int, float> expected;
  for (size_t i = 0; i < moves.size(); ++i) expected[moves[i].index()] = probs[i];
  int failures = 0;
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      const Vertex v = b.at(x, y);
      const auto it = expected.find(v.index());
      const double want = it == expected.end() ? 0.0 : it->second;
      const double got = *policy.probability(v);
      if (std::abs(got - want) > 1e-6 + 1e-4 * want && ++failures <= 3) {
        ADD_FAILURE() << where << ": P(" << to_gtp(v, b.size()) << ") incremental " << got << " full " << want << "\n"
                      << b.to_string();
      }
    }
  }
  return static_cast<int>(moves.size());
}

struct PolicyCase {
  FeatureSet set;
  bool exclude_eyes;
};

class IncrementalPolicyRandom : public ::testing::TestWithParam<PolicyCase> {};

TEST_P(IncrementalPolicyRandom, EqualsTheFullGuessInRandomGames) {
  const PolicyCase pc = GetParam();
  const auto model = random_model(pc.set, 42);
  SoftmaxPolicyOptions o;
  o.exclude_own_eyes = pc.exclude_eyes;
  SoftmaxPolicy policy(model, o);
  Rng rng(9);
  const int games = pc.set == FeatureSet::kRollout ? 12 : 2;
  int64_t compared = 0;
  for (int game = 0; game < games; ++game) {
    const int size = game % 3 == 0 ? 19 : game % 3 == 1 ? 9 : 13;
    const bool suicide = game % 4 == 3;
    policy.reset(Board(size, suicide), B);
    Vertex second_last = Vertex::none();
    // Half the games follow the policy itself, half play uniformly random moves (more
    // captures, ataris and odd shapes).
    const bool own_moves = game % 2 == 0;
    const int max_moves = pc.set == FeatureSet::kRollout ? 3 * size * size : size * size / 2;
    for (int m = 0; m < max_moves; ++m) {
      compared += expect_equal_to_full_guess(policy, model, second_last, pc.exclude_eyes,
                                             "game " + std::to_string(game) + " move " + std::to_string(m));
      if (::testing::Test::HasFailure()) return;
      Vertex v = own_moves ? policy.sample(rng) : random_move(policy.board(), policy.to_move(), rng);
      if (rng.below(50) == 0) v = Vertex::pass();
      second_last = policy.last_move();
      policy.play(v);
      if (v.is_pass() && second_last.is_pass()) break;
    }
  }
  EXPECT_GT(compared, 1000);
  std::printf("compared %lld candidates; model has %zu 3x3 and %zu response keys\n", static_cast<long long>(compared),
              model->patterns[0].size(), model->patterns[1].size());
}

INSTANTIATE_TEST_SUITE_P(Sets, IncrementalPolicyRandom,
                         ::testing::Values(PolicyCase{FeatureSet::kRollout, false}, PolicyCase{FeatureSet::kRollout, true},
                                           PolicyCase{FeatureSet::kTree, false}),
                         [](const auto& test) {
                           return std::string(feature_set_name(test.param.set)) + (test.param.exclude_eyes ? "NoEyes" : "AllMoves");
                         });

TEST(IncrementalPolicy, EqualsTheFullGuessInRealGames) {
  const std::string dir = "/usr/share/goban";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << dir << " is absent (apt-get install goban-original-games)";
  CorpusOptions co;
  co.progress = false;
  co.max_games = 12;
  co.filter.board_size = 19;
  const std::vector<CorpusGame> games = load_corpus({dir}, co);
  ASSERT_FALSE(games.empty());
  const auto model = random_model(FeatureSet::kRollout, 7);
  SoftmaxPolicyOptions o;
  o.exclude_own_eyes = false;
  SoftmaxPolicy policy(model, o);
  int64_t positions = 0;
  for (const CorpusGame& g : games) {
    bool started = false;
    Vertex second_last = Vertex::none();
    // Reset at the first position (after setup), then only play().
    (void)replay(g.record, [&](const Position& p, Vertex played) {
      if (::testing::Test::HasFailure()) return;
      if (!started) {
        policy.reset(*p.board, p.to_move, p.last_move, p.second_last_move);
        second_last = p.second_last_move;
        started = true;
      }
      if (policy.to_move() != p.to_move) {
        // The record moved the other player (after handicap or PL): start again here.
        policy.reset(*p.board, p.to_move, p.last_move, p.second_last_move);
      }
      ++positions;
      expect_equal_to_full_guess(policy, model, p.second_last_move, false, g.entry.empty() ? g.source : g.entry);
      policy.play(played);
    });
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(positions, 1000);
}

// A move that closes an eye space can make a vital point at distance 3 from it, outside the
// pattern tracker's reach: the policy must rescore it.
TEST(IncrementalPolicy, ClosingARabbitySixMakesAFarVitalPoint) {
  // The rabbity six D6 C5 D5 E5 D4 E4 ((3,3) (2,4) (3,4) (4,4) (3,5) (4,5)), vital point D5
  // (3,4), walled by single white stones except at F4 (5,5), three points from D5.
  const Board wall = testing::board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . O . . . . .
    . . O . O . . . .
    . O . . . O . . .
    . . O . . . . . .
    . . . O O . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  const auto model = random_model(FeatureSet::kRollout, 11);
  SoftmaxPolicyOptions o;
  o.exclude_own_eyes = false;
  SoftmaxPolicy policy(model, o);
  policy.reset(wall, B);
  (void)policy.probability(wall.at(0, 0));  // Black's tree is now up to date: the rest is incremental
  policy.play(wall.at(8, 0));
  (void)policy.probability(wall.at(0, 0));
  int size = 0;
  Color owner = Color::kEmpty;
  EXPECT_FALSE(nakade_vital(policy.board(), wall.at(3, 4), &size, &owner));
  policy.play(wall.at(5, 5));
  ASSERT_TRUE(nakade_vital(policy.board(), wall.at(3, 4), &size, &owner)) << policy.board().to_string();
  EXPECT_EQ(size, 6);
  EXPECT_EQ(owner, W);
  expect_equal_to_full_guess(policy, model, wall.at(8, 0), false, "after closing");
}

TEST(IncrementalPolicy, ClearingAKoMakesTheKoPointLegalAgain) {
  const Board b = testing::board_from_ascii(R"(
    . . . . . . .
    . . X O . . .
    . X O . O . .
    . . X O . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .)");
  const auto model = random_model(FeatureSet::kRollout, 12);
  SoftmaxPolicyOptions o;
  o.exclude_own_eyes = false;
  SoftmaxPolicy policy(model, o);
  policy.reset(b, B);
  Vertex second = Vertex::none();
  for (Vertex v : {b.at(3, 2), b.at(6, 6), b.at(5, 5), b.at(2, 2)}) {  // take, elsewhere, elsewhere, retake
    expect_equal_to_full_guess(policy, model, second, false, "before " + to_gtp(v, 7));
    ASSERT_EQ(policy.board().legal(v, policy.to_move()), Legality::kLegal) << to_gtp(v, 7);
    second = policy.last_move();
    policy.play(v);
  }
  expect_equal_to_full_guess(policy, model, second, false, "end");
}

// The weights the policy keeps are exp of the scores of the features' own code (the features of
// softmax_features.h, summed by PackedWeights::score), bit for bit: for the rollout set the score
// without the previous move plus the score of the response features, as the guesser splits them.
TEST(IncrementalPolicy, WeightsAreTheFeaturesScoresBitForBit) {
  for (FeatureSet set : {FeatureSet::kRollout, FeatureSet::kTree}) {
    const auto model = random_model(set, 21);
    const PackedWeights packed(*model);
    SoftmaxPolicy policy(model);
    Rng rng(4);
    int64_t compared = 0;
    for (int game = 0; game < (set == FeatureSet::kRollout ? 6 : 2); ++game) {
      const int size = game % 3 == 0 ? 19 : game % 3 == 1 ? 9 : 13;
      policy.reset(Board(size, game % 4 == 3), B);
      Vertex second_last = Vertex::none();
      BoardStates states;
      for (int m = 0; m < (set == FeatureSet::kRollout ? 2 * size * size : size * size / 2); ++m) {
        const Board& b = policy.board();
        const Color c = policy.to_move();
        const Vertex last = policy.last_move();
        states.fill(b);
        for (int y = 0; y < size; ++y) {
          for (int x = 0; x < size; ++x) {
            const Vertex v = b.at(x, y);
            double want = 0;
            if (b.is_empty(v) && b.legal(v, c) == Legality::kLegal && !b.is_eye(v, c)) {
              const uint64_t code = states.diamond_code(v, b.stride());
              CandidateFeatures f;
              float s;
              if (set == FeatureSet::kRollout) {
                candidate_features(set, Position{&b, c, Vertex::none()}, v, code, nullptr, &f);
                s = packed.score(f);
                CandidateFeatures r;
                response_features(Position{&b, c, last}, v, code, &r);
                if (r.num_fixed > 0) s += packed.score(r);
              } else {
                candidate_features(set, Position{&b, c, last, second_last}, v, code, &states, &f);
                s = packed.score(f);
              }
              want = std::exp(s);
            }
            ASSERT_EQ(policy.weight(v), want) << feature_set_name(set) << " game " << game << " move " << m << " at "
                                              << to_gtp(v, size) << "\n" << b.to_string();
            ++compared;
          }
        }
        Vertex v = game % 2 ? random_move(b, c, rng) : policy.sample(rng);
        if (rng.below(40) == 0) v = Vertex::pass();
        second_last = last;
        policy.play(v);
        if (v.is_pass() && second_last.is_pass()) break;
      }
    }
    EXPECT_GT(compared, 10000);
  }
}

TEST(PackedWeights, EveryKeyHasItsModelWeightAndOthersZero) {
  for (FeatureSet set : {FeatureSet::kRollout, FeatureSet::kTree}) {
    const auto model = random_model(set, 11);
    const PackedWeights packed(*model);
    Rng rng(2);
    for (int k = 0; k < kNumPatternKinds; ++k) {
      for (const auto& [key, w] : model->patterns[k]) {
        ASSERT_EQ(packed.weight(k, key), w) << k;
        const uint64_t other = key ^ (uint64_t{1} << rng.below(64));
        if (!model->patterns[k].contains(other)) {
          ASSERT_EQ(packed.weight(k, other), 0.0f);
        }
      }
    }
  }
}

TEST(SoftmaxPlayout, EndsWithTwoPassesAndScores) {
  const auto model = random_model(FeatureSet::kRollout, 3);
  SoftmaxPolicy policy(model);
  Rng rng(5);
  for (int size : {9, 19}) {
    policy.reset(Board(size), B);
    const PlayoutResult r = run_playout(policy, rng);
    EXPECT_LT(r.moves, 3 * size * size);
    EXPECT_GT(r.score.black + r.score.white, size * size / 2);  // mostly decided: stones and eyes
    EXPECT_TRUE(policy.last_move().is_pass());
  }
  EXPECT_GT(policy.rescored(), 0);
}

}  // namespace
}  // namespace hane
