// The gamma trainers: minorisation-maximisation learns from records (its likelihood rises and
// the model file round-trips), and simulation balancing moves the weights the right way on a
// constructed position.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "answering_games.h"
#include "corpus_games.h"
#include "go/random.h"
#include "go_fixtures.h"
#include "predict/gamma.h"
#include "predict/load.h"
#include "features/pattern.h"
#include "features/tactics.h"
#include "sgf/record.h"
#include "train/gamma_train.h"

namespace hane {
namespace {

using testing::games_from;


TEST(GammaTrain, LikelihoodRisesAndTheModelRoundTrips) {
  Rng rng(5);
  const std::vector<CorpusGame> train = games_from(testing::answering_below_games(rng, 60));
  const std::vector<CorpusGame> validation = games_from(testing::answering_below_games(rng, 10), Split::kValidation, 1000);
  GammaTrainOptions o;
  o.progress = false;
  o.min_count = 1;
  o.sweeps = 6;
  std::vector<GammaSweep> sweeps;
  const GammaModel model = train_gamma(train, validation, o, [&](const GammaSweep& s) { sweeps.push_back(s); });
  ASSERT_EQ(sweeps.size(), 6u);
  for (size_t i = 1; i < sweeps.size(); ++i) EXPECT_GE(sweeps[i].train_log_likelihood, sweeps[i - 1].train_log_likelihood - 1e-9);
  EXPECT_GT(sweeps.back().train_log_likelihood, sweeps.front().train_log_likelihood + 0.5);
  EXPECT_EQ(model.training["train_positions"], 60 * 12);
  // Playing next to the previous move (move distance 2) is what White does.
  EXPECT_GT(model.gammas[model.flag_index(kGammaDistance, 1)], 5.0f);
  // (Canonical patterns cannot tell below from beside: 4 equal answers, and Black's moves are random.)
  EXPECT_GT(sweeps.back().validation_top1, 0.15);

  const std::string path = (std::filesystem::temp_directory_path() / "hane-gamma-train.model").string();
  ASSERT_TRUE(save_gamma_model(model, path).ok());
  auto loaded = load_guesser(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  Board b(9);
  b.play(b.at(4, 4), Color::kBlack);
  const Position p{&b, Color::kWhite, b.at(4, 4), Vertex::none(), 2};
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, Color::kWhite, moves));
  std::vector<float> scores(moves.size());
  (*loaded)->score(p, moves, scores);
  const size_t best = std::max_element(scores.begin(), scores.end()) - scores.begin();
  EXPECT_EQ(move_distance(b.geometry(), moves[best], b.at(4, 4)), 2) << to_gtp(moves[best], 9);
  std::filesystem::remove(path);
}

// A white chain of six stones in atari, Black to move: capturing it wins the game, and Black
// is meant to win (target 1). Balancing must make captures likelier.
TEST(GammaBalance, RaisesTheGammaOfTheMoveThatWins) {
  const Board board = testing::board_from_ascii(R"(
    . . . . . . .
    . . . . . . .
    . . . . . . .
    X X X X X X .
    O O O O O O .
    X X X X X X .
    . . . . . . .
  )");
  BalancePosition bp;
  bp.board = board;
  bp.to_move = Color::kBlack;
  bp.komi = 0;
  bp.target = 1;
  const GammaModel start = GammaModel::uniform({});
  GammaBalanceOptions o;
  o.progress = false;
  o.value_playouts = 16;
  o.gradient_playouts = 16;
  o.rate = 10;
  const GammaModel balanced = balance_gamma(start, std::vector<BalancePosition>(16, bp), o);
  // The same position with White meant to win: captures must become less likely.
  bp.target = 0;
  const GammaModel reversed = balance_gamma(start, std::vector<BalancePosition>(16, bp), o);
  const int capture = balanced.flag_index(kGammaCapture, 2);  // captures 2 or more stones
  EXPECT_GT(balanced.gammas[capture], 1.1f);
  EXPECT_LT(reversed.gammas[capture], 1.0f);
  EXPECT_TRUE(balanced.training.contains("balance"));
}

// rules-gamma's pattern answer: White's last move F3 is in a chain of six in atari at G3, and
// neither the capture nor the save rule is on, so only the pattern answer (G2, G3, G4 around F3,
// against the background of the rest of the board) can capture. With Black meant to win,
// balancing must raise G3's pattern gamma; with White meant to win, lower it.
TEST(GammaBalance, RulesGammaRaisesThePatternAnswerThatWins) {
  const Board board = testing::board_from_ascii(R"(
    . . . . . . .
    . . . . . . .
    . . . . . . .
    X X X X X X .
    O O O O O O .
    X X X X X X .
    . . . . . . .
  )");
  BalancePosition bp;
  bp.board = board;
  bp.to_move = Color::kBlack;
  bp.last = testing::gtp(board, "F3");
  bp.komi = 0;
  bp.target = 1;
  auto code = [&](const char* v) {
    return static_cast<uint32_t>(
        canonical(pattern_code(board, testing::gtp(board, v), Color::kBlack, PatternShape::k3x3), PatternShape::k3x3));
  };
  const GammaModel start = GammaModel::uniform(std::vector<uint32_t>{0, code("G2"), code("G3"), code("G4")});
  const int g3 = start.pattern_index(code("G3"));
  ASSERT_NE(g3, start.pattern_index(code("G2")));
  ASSERT_NE(g3, start.pattern_index(code("G4")));
  GammaBalanceOptions o;
  o.progress = false;
  o.policy = "rules-gamma";
  o.rules.capture = o.rules.save = 0;
  o.rules.gamma_liberties = true;  // patterns read with liberties: G3's is the atari's own
  o.rules.gamma_background = 1;
  o.rate = 10;
  // One run is a noisy estimate (Black already wins most playouts, V about 0.93, so the raise is
  // the smaller move): the mean of ln gamma(G3) over four seeds must move the right way.
  double raised = 0, lowered = 0;
  GammaModel balanced;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    o.seed = seed;
    bp.target = 1;
    balanced = balance_gamma(start, std::vector<BalancePosition>(32, bp), o);
    bp.target = 0;
    const GammaModel reversed = balance_gamma(start, std::vector<BalancePosition>(32, bp), o);
    raised += std::log(balanced.gammas[g3]) / 4;
    lowered += std::log(reversed.gammas[g3]) / 4;
  }
  EXPECT_GT(raised, 0.005);
  EXPECT_LT(lowered, -0.05);
  EXPECT_EQ(balanced.training["balance"]["policy"], "rules-gamma");
  o.rules.pattern_second = 0.5;
  EXPECT_THROW(balance_gamma(start, {bp}, o), std::invalid_argument);
}

}  // namespace
}  // namespace hane
