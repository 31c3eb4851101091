// The gamma guesser and its incremental playout policy: the strengths kept move by move must
// equal a full recomputation after random games; sampling must follow the strengths; model files
// round-trip.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "features/pattern.h"
#include "go/random.h"
#include "go_fixtures.h"
#include "playout/gamma.h"
#include "playout/registry.h"
#include "playout/uniform.h"
#include "predict/gamma.h"
#include "predict/load.h"

namespace hane {
namespace {

using testing::B;

// A model with random gammas on every flag value and on the 3x3 patterns met in a few random
// games (some left out, so that the "other" pattern is used too).
std::shared_ptr<const GammaModel> random_model(uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> codes;
  for (int game = 0; game < 4; ++game) {
    const int size = game % 2 ? 9 : 19;
    Board b(size);
    Color c = B;
    for (int m = 0; m < size * size; ++m) {
      for (int16_t p : b.empty_points()) {
        if (rng.below(3) == 0) {
          codes.push_back(static_cast<uint32_t>(canonical(pattern_code(b, Vertex(p), c, PatternShape::k3x3), PatternShape::k3x3)));
        }
      }
      const Vertex v = random_move(b, c, rng);
      b.play(v, c);
      c = opponent(c);
    }
  }
  auto model = std::make_shared<GammaModel>(GammaModel::uniform(codes));
  for (float& g : model->gammas) g = static_cast<float>(std::exp(rng.uniform() * 4 - 2));
  return model;
}

double full_strength(const GammaModel& model, const Board& b, Color c, Vertex last, Vertex second_last, Vertex v) {
  if (!b.is_empty(v) || b.legal(v, c) != Legality::kLegal || b.is_eye(v, c)) return 0;
  const Position p{&b, c, last, second_last};
  return model.strength(gamma_features(p, v, static_cast<uint32_t>(pattern_code(b, v, c, PatternShape::k3x3))));
}

TEST(GammaPolicy, StrengthsEqualAFullRecomputationAfterRandomGames) {
  const auto model = random_model(42);
  GammaPolicy policy(model);
  Rng rng(9);
  int64_t compared = 0, response = 0;
  for (int game = 0; game < 10; ++game) {
    const int size = game % 3 == 0 ? 19 : game % 3 == 1 ? 9 : 13;
    const bool suicide = game % 4 == 3;
    policy.reset(Board(size, suicide), B);
    Vertex last = Vertex::none(), second_last = Vertex::none();
    const bool own_moves = game % 2 == 0;
    for (int m = 0; m < 3 * size * size; ++m) {
      const Board& b = policy.board();
      const Color c = policy.to_move();
      int failures = 0;
      for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
          const Vertex v = b.at(x, y);
          const double want = full_strength(*model, b, c, last, second_last, v);
          const double got = policy.strength(v);
          ++compared;
          if (want > 0 && policy.slot_features(y * size + x).flag[kGammaEscape] >= 3) ++response;
          if (std::abs(got - want) > 1e-9 * want && ++failures <= 3) {
            ADD_FAILURE() << "game " << game << " move " << m << ": strength(" << to_gtp(v, size) << ") incremental "
                          << got << " full " << want << " last " << to_gtp(last, size) << "\n"
                          << b.to_string();
          }
        }
      }
      if (::testing::Test::HasFailure()) return;
      Vertex v = own_moves ? policy.sample(rng) : random_move(b, c, rng);
      if (rng.below(50) == 0) v = Vertex::pass();
      second_last = last;
      last = v;
      policy.play(v);
      if (v.is_pass() && second_last.is_pass()) break;
    }
  }
  EXPECT_GT(compared, 100000);
  EXPECT_GT(response, 10);  // response escapes (with their ladder reads) were met
}

TEST(GammaPolicy, SamplingFollowsTheStrengths) {
  const auto model = random_model(3);
  GammaPolicy policy(model);
  Board b(9);
  Rng r(5);
  for (int i = 0; i < 30; ++i) {
    const Color c = i % 2 ? Color::kWhite : B;
    b.play(random_move(b, c, r), c);
  }
  policy.reset(b, B);
  std::vector<double> p(policy.slots());
  for (int s = 0; s < policy.slots(); ++s) p[s] = *policy.probability(policy.slot_vertex(s));
  std::vector<int> count(policy.slots(), 0);
  Rng rng(11);
  const int draws = 200000;
  for (int i = 0; i < draws; ++i) {
    const Vertex v = policy.sample(rng);
    ASSERT_TRUE(v.is_point());
    ++count[b.geometry().y(v) * 9 + b.geometry().x(v)];
  }
  // Pearson's chi-square over the candidates: about its degrees of freedom (k - 1 ~ 50), far
  // below 2x that with overwhelming probability for a correct sampler.
  double chi2 = 0;
  int k = 0;
  for (int s = 0; s < policy.slots(); ++s) {
    if (p[s] == 0) {
      EXPECT_EQ(count[s], 0);
      continue;
    }
    ++k;
    const double e = p[s] * draws;
    chi2 += (count[s] - e) * (count[s] - e) / e;
  }
  EXPECT_GT(k, 20);
  EXPECT_LT(chi2, 2.0 * k);
}

TEST(GammaModel, RoundTripsThroughItsFileAndLoadsAsGuesserAndPolicy) {
  const auto model = random_model(8);
  const std::string path = (std::filesystem::temp_directory_path() / "hane-gamma-roundtrip.model").string();
  ASSERT_TRUE(save_gamma_model(*model, path).ok());
  absl::StatusOr<ModelFile> file = read_model_file(path);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<GammaModel> back = gamma_model_from_file(*file, path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->pattern_codes, model->pattern_codes);
  EXPECT_EQ(back->gammas, model->gammas);
  for (uint32_t code : model->pattern_codes) EXPECT_EQ(back->pattern_index(code), model->pattern_index(code));
  absl::StatusOr<std::unique_ptr<Guesser>> g = load_guesser(path);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->name(), "gamma");
  absl::StatusOr<std::unique_ptr<PlayoutPolicy>> p = make_policy("gamma:" + path);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ((*p)->name(), "gamma");
  // The guesser's probabilities are the policy's, eyes aside (none on an empty board).
  Board b(9);
  (*p)->reset(b, B);
  std::vector<Vertex> moves(81);
  moves.resize(legal_moves(b, B, moves));
  std::vector<float> probs(moves.size());
  (*g)->score(Position{&b, B}, moves, probs);
  for (size_t i = 0; i < moves.size(); ++i) EXPECT_NEAR(probs[i], *(*p)->probability(moves[i]), 1e-6);
  // A corrupt file names the path.
  file->payload.resize(file->payload.size() - 4);
  absl::StatusOr<GammaModel> bad = gamma_model_from_file(*file, path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(path), std::string::npos);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace hane
