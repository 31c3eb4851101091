// `rules-gamma:MODEL` (lib/playout/rules_gamma.h): its table equals the model's gammas, its
// pattern answer draws neighbours by their gammas against the background, and its settings and
// model file are checked.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "features/mogo3x3.h"
#include "features/pattern.h"
#include "features/tactics.h"
#include "go/random.h"
#include "go_fixtures.h"
#include "playout/registry.h"
#include "playout/rules.h"
#include "playout/rules_gamma.h"
#include "playout/uniform.h"
#include "predict/gamma.h"
#include "test_files.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;

// True if every stone next to `v` belongs to a chain with 3 or more liberties.
bool neighbours_have_three_liberties(const Board& b, Vertex v) {
  const int s = b.stride();
  for (const int offset : {-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1}) {
    const Vertex w(v.index() + offset);
    if (is_player(b.color(w)) && b.liberties(w) < 3) return false;
  }
  return true;
}

TEST(RulesGamma, TableHoldsTheModelsGammaWhereEveryChainHasThreeLiberties) {
  Rng rng(5);
  std::vector<uint32_t> codes;
  std::vector<Board> boards;
  for (int game = 0; game < 6; ++game) {
    Board b(game % 2 ? 9 : 13);
    Color c = Color::kBlack;
    for (int m = 0; m < b.size() * b.size() / 2; ++m) {
      if (m % 7 == 0) boards.push_back(b);
      for (int16_t p : b.empty_points()) {
        if (rng.below(2) == 0) {
          codes.push_back(static_cast<uint32_t>(canonical(pattern_code(b, Vertex(p), c, PatternShape::k3x3), PatternShape::k3x3)));
        }
      }
      b.play(random_move(b, c, rng), c);
      c = opponent(c);
    }
  }
  GammaModel model = GammaModel::uniform(codes);
  for (float& g : model.gammas) g = static_cast<float>(std::exp(rng.uniform() * 4 - 2));
  const LocalGammas table = local_gammas(model);
  int64_t compared = 0, known = 0;
  for (const Board& b : boards) {
    for (int16_t p : b.empty_points()) {
      const Vertex v(p);
      if (!neighbours_have_three_liberties(b, v)) continue;
      for (const Color c : {Color::kBlack, Color::kWhite}) {
        const int index = model.pattern_index(
            static_cast<uint32_t>(canonical(pattern_code(b, v, c, PatternShape::k3x3), PatternShape::k3x3)));
        known += index != model.num_patterns();
        ASSERT_EQ(table.pattern[c == Color::kBlack ? 0 : 1][neighbour_colours(b, v)], model.gammas[index])
            << to_gtp(v, b.size()) << " for " << (c == Color::kBlack ? "Black" : "White") << "\n"
            << b.to_string();
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 1000);
  EXPECT_GT(known, compared / 2);  // most patterns are the model's own, not "other"
  EXPECT_EQ(table.distance[2], model.gammas[model.flag_index(kGammaDistance, 1)]);
  EXPECT_EQ(table.distance2[4], model.gammas[model.flag_index(kGammaDistance2, 3)]);
  EXPECT_EQ(table.distance[1], 1.0f);
  EXPECT_EQ(table.empty, model.gammas[model.pattern_index(0)]);
}

// Only the pattern rule, and random moves without any self-atari check.
RulesOptions pattern_only(double background) {
  RulesOptions o;
  o.capture = o.save = o.ladder = o.nakade = o.two_liberty = o.self_atari = 0;
  o.pattern = 1;
  o.gamma_background = background;
  return o;
}

TEST(RulesGamma, DrawsNeighboursByTheirGammasAgainstTheBackground) {
  // Every pattern gamma 1 (no pattern is known: all "other"), adjacent points 4, diagonal 2.
  GammaModel model = GammaModel::uniform({});
  model.gammas[model.flag_index(kGammaDistance, 1)] = 4;  // move_distance 2: next to the last move
  model.gammas[model.flag_index(kGammaDistance, 2)] = 2;  // move_distance 3: diagonal
  auto table = std::make_shared<const LocalGammas>(local_gammas(model));
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  // Neighbours: 4 * 4 + 4 * 2 = 24; background 0.5 * 1 * 80 empty points = 40.
  RulesPolicy policy(pattern_only(0.5), table);
  EXPECT_EQ(policy.name(), "rules-gamma");
  const Vertex last = gtp(b, "E5");
  constexpr int kSamples = 20000;
  int rule = 0, adjacent = 0, diagonal = 0;
  for (int seed = 0; seed < kSamples; ++seed) {
    policy.reset(b, Color::kBlack, last);
    Rng rng(seed);
    const Vertex v = policy.sample(rng);
    if (policy.last_rule() != RulesRule::kPattern) continue;
    ++rule;
    const int d = move_distance(b.geometry(), v, last);
    ASSERT_TRUE(d == 2 || d == 3) << to_gtp(v, 9);
    (d == 2 ? adjacent : diagonal)++;
  }
  // P(rule) = 24 / 64; within 4 standard deviations.
  const double p = 24.0 / 64, sd = std::sqrt(kSamples * p * (1 - p));
  EXPECT_NEAR(rule, kSamples * p, 4 * sd);
  // Adjacent : diagonal = 16 : 8.
  const double q = 2.0 / 3, sd2 = std::sqrt(rule * q * (1 - q));
  EXPECT_NEAR(adjacent, rule * q, 4 * sd2);
  EXPECT_EQ(adjacent + diagonal, rule);
}

// rules-gamma.candidates: the move on the rest of the board is drawn among K random empty
// points by their pattern gammas. Black's stone at E5 and no last move: no rule fires. The
// pattern of the four points next to the stone has gamma 10^6 and every other pattern 1, so the
// move is one of them exactly when the K draws (uniform over the 80 empty points) met one:
// P = 1 - (76/80)^K.
TEST(RulesGamma, CandidatesDrawTheRestOfTheBoardByPatternGammas) {
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  const uint32_t next_to = static_cast<uint32_t>(
      canonical(pattern_code(b, gtp(b, "E6"), Color::kBlack, PatternShape::k3x3), PatternShape::k3x3));
  GammaModel model = GammaModel::uniform(std::vector<uint32_t>{0, next_to});
  model.gammas[model.pattern_index(next_to)] = 1e6f;
  auto table = std::make_shared<const LocalGammas>(local_gammas(model));
  for (const int k : {1, 8}) {
    RulesOptions o = pattern_only(1);
    o.gamma_candidates = k;
    RulesPolicy policy(o, table);
    constexpr int kSamples = 8000;
    int next = 0;
    for (int seed = 0; seed < kSamples; ++seed) {
      policy.reset(b, Color::kBlack);
      Rng rng(seed);
      const Vertex v = policy.sample(rng);
      ASSERT_EQ(policy.last_rule(), RulesRule::kRandom);
      ASSERT_TRUE(b.is_empty(v));
      next += move_distance(b.geometry(), v, gtp(b, "E5")) == 2;
    }
    const double p = 1 - std::pow(76.0 / 80, k), sd = std::sqrt(kSamples * p * (1 - p));
    EXPECT_NEAR(next, kSamples * p, 4 * sd) << "K = " << k;
  }
}

TEST(RulesGamma, WithoutBackgroundAlwaysAnswersWithALegalNeighbour) {
  GammaModel model = GammaModel::uniform({});
  auto table = std::make_shared<const LocalGammas>(local_gammas(model));
  // Black to move after White's E5. Of its neighbours D6 is Black's own eye, F4 is suicide for
  // Black, E6, D5, F5 and E4 are taken: only F6 and D4 remain.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . X . . . . .
    . . X . X . . . .
    . . . X O O . . .
    . . . . O . O . .
    . . . . . O . . .
    . . . . . . . . .
    . . . . . . . . .)");
  RulesPolicy policy(pattern_only(0), table);
  const Vertex last = gtp(b, "E5");
  ASSERT_TRUE(b.is_eye(gtp(b, "D6"), Color::kBlack));
  ASSERT_NE(b.legal(gtp(b, "F4"), Color::kBlack), Legality::kLegal);
  std::map<std::string, int> counts;
  for (int seed = 0; seed < 400; ++seed) {
    policy.reset(b, Color::kBlack, last);
    Rng rng(seed);
    const Vertex v = policy.sample(rng);
    ASSERT_EQ(policy.last_rule(), RulesRule::kPattern);
    ++counts[to_gtp(v, 9)];
  }
  EXPECT_EQ(counts.size(), 2u);
  for (const char* v : {"F6", "D4"}) EXPECT_GT(counts[v], 150) << v;
}

TEST(RulesGamma, WithLibertiesReadsTheModelsOwnPattern) {
  // Black's D5 is in atari after White's E5; D4 saves it. Its pattern with D5 at one liberty
  // gets a gamma of 1000, every other pattern 1.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . O . . . . .
    . . O X O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  const Vertex d4 = gtp(b, "D4"), last = gtp(b, "E5");
  const uint32_t code =
      static_cast<uint32_t>(canonical(pattern_code(b, d4, Color::kBlack, PatternShape::k3x3), PatternShape::k3x3));
  auto model = std::make_shared<GammaModel>(GammaModel::uniform({code}));
  model->gammas[model->pattern_index(code)] = 1000;
  for (const bool liberties : {false, true}) {
    auto gammas = std::make_shared<LocalGammas>(local_gammas(*model));
    if (liberties) gammas->model = model;
    RulesPolicy policy(pattern_only(0), gammas);
    int picked = 0;
    for (int seed = 0; seed < 200; ++seed) {
      policy.reset(b, Color::kBlack, last);
      Rng rng(seed);
      picked += policy.sample(rng) == d4;
    }
    // With the liberties D4 weighs 1000 against 5 other empty neighbours of 1 (distance gammas 1);
    // by colours alone it is one of 6 equal points.
    if (liberties) {
      EXPECT_GT(picked, 190);
    } else {
      EXPECT_LT(picked, 60);
    }
  }
}

TEST(RulesGamma, SettingsAndModelErrors) {
  const std::string path = testing::temp_path("rules_gamma", "model.gamma");
  ASSERT_TRUE(save_gamma_model(GammaModel::uniform({}), path).ok());
  PolicyOptions options;
  EXPECT_TRUE(make_policy("rules-gamma:" + path, options).ok());
  EXPECT_EQ((*make_policy("rules-gamma:" + path, options))->name(), "rules-gamma");
  options.settings["rules-gamma.background"] = "2.5";
  options.settings["rules-gamma.capture"] = "0.5";
  options.settings["rules-gamma.liberties"] = "1";
  EXPECT_TRUE(make_policy("rules-gamma:" + path, options).ok());
  EXPECT_TRUE(make_policy("rules", options).ok());  // rules reads only rules.*
  PolicyOptions plain;
  plain.settings["rules.background"] = "2.5";  // plain rules has no learned answer to weigh
  const auto refused = make_policy("rules", plain);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("rules.background"), std::string::npos) << refused.status();
  options.settings["rules-gamma.background"] = "-1";
  EXPECT_FALSE(make_policy("rules-gamma:" + path, options).ok());
  options.settings["rules-gamma.background"] = "1";
  options.settings["rules-gamma.capture"] = "2";  // not a probability
  EXPECT_FALSE(make_policy("rules-gamma:" + path, options).ok());
  options.settings["rules-gamma.capture"] = "1";
  options.settings["rules-gamma.liberties"] = "yes";
  EXPECT_FALSE(make_policy("rules-gamma:" + path, options).ok());
  options.settings["rules-gamma.liberties"] = "0";
  options.settings["rules-gamma.candidates"] = "8";
  EXPECT_TRUE(make_policy("rules-gamma:" + path, options).ok());
  for (const char* bad : {"17", "-1", "2.5"}) {
    options.settings["rules-gamma.candidates"] = bad;
    EXPECT_FALSE(make_policy("rules-gamma:" + path, options).ok()) << bad;
  }
  options.settings.clear();
  EXPECT_FALSE(make_policy("rules-gamma", options).ok());  // needs a model
  const auto missing = make_policy("rules-gamma:/nonexistent/x.model", options);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/x.model"), std::string::npos) << missing.status();
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace hane
