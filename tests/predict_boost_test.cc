// Boosted trees: the loss falls on games made here, the model file round-trips and refuses
// damage and stale versions, a base tree alone guesses as the tree does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "corpus_games.h"
#include "eval/evaluate.h"
#include "go/random.h"
#include "predict/boost.h"
#include "predict/load.h"
#include "predict/tree.h"
#include "sgf/record.h"
#include "answering_games.h"
#include "test_files.h"
#include "train/boost_train.h"
#include "train/tree_train.h"

namespace hane {
namespace {

using testing::games_from;

namespace fs = std::filesystem;

std::string boost_path(const std::string& name) { return testing::temp_path("boost", name); }

TreeSample whole_sample(const std::vector<CorpusGame>& games) {
  TreeSampleOptions so;
  so.progress = false;
  so.whole_positions = true;
  return sample_tree_inputs(games, so);
}

// The guess of `g` on board `b` with `to_move` to play, over every legal move.
std::vector<float> guess(Guesser& g, const Board& b, Color to_move) {
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, to_move, moves));
  std::vector<float> scores(moves.size());
  g.score(Position{&b, to_move}, moves, scores);
  return scores;
}

// No sampling of the rows (sample_below 0): every step is an exact Newton step with shrinkage.
BoostTrainOptions small_options() {
  BoostTrainOptions o;
  o.sample_below = 0;
  o.rounds = 8;
  o.leaves = 8;
  o.min_leaf = 5;
  o.learning_rate = 0.5;
  o.early_stop = false;
  o.progress = false;
  o.threads = 2;
  return o;
}

TEST(BoostTraining, LossFallsAndTheFileRoundTrips) {
  const std::vector<CorpusGame> train_games = games_from(testing::answering_games(1, 12, 40));
  const std::vector<CorpusGame> val_games = games_from(testing::answering_games(101, 4, 40));
  const TreeSample train = whole_sample(train_games), val = whole_sample(val_games);
  const BoostTrainResult r = train_boost(train, val, nullptr, small_options());
  ASSERT_EQ(r.curve.size(), 9u);
  EXPECT_EQ(r.model.boosted_trees(), 8);
  EXPECT_FALSE(r.model.has_base);
  // Round 0 is the uniform guess: ln(1 / legal moves) on average.
  double uniform = 0;
  for (size_t i = 0; i + 1 < val.position_start.size(); ++i) {
    uniform -= std::log(static_cast<double>(val.position_start[i + 1] - val.position_start[i]));
  }
  EXPECT_NEAR(r.curve[0].log_likelihood, uniform / val.positions, 1e-5);
  // The training loss falls every round (Newton steps with shrinkage on a convex loss), and
  // the rule is learnt: the validation guess is far better than uniform.
  for (size_t i = 1; i < r.curve.size(); ++i) {
    EXPECT_GT(r.curve[i].train_log_likelihood, r.curve[i - 1].train_log_likelihood) << i;
  }
  EXPECT_GT(r.curve.back().log_likelihood, r.curve[0].log_likelihood + 1.0);
  EXPECT_GT(r.curve.back().top1, 0.3);

  const std::string path = boost_path("round_trip.model");
  ASSERT_TRUE(save_boosted_trees(r.model, path).ok());
  auto loaded = load_guesser(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->name(), "boosted trees (8 trees)");
  EXPECT_TRUE((*loaded)->gives_probabilities());
  // evaluate() on the validation games measures what training measured after the last round.
  EvalOptions eo;
  eo.progress = false;
  const EvalResult e = evaluate(**loaded, val_games, eo);
  EXPECT_EQ(e.positions, val.positions);
  EXPECT_NEAR(e.accuracy(1), r.curve.back().top1, 1e-9);
  EXPECT_NEAR(e.mean_log_likelihood(), r.curve.back().log_likelihood, 1e-4);
  // The loaded trees are those saved.
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  auto again = boosted_trees_from_file(*file, path);
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_EQ(again->trees.size(), r.model.trees.size());
  for (size_t t = 0; t < r.model.trees.size(); ++t) {
    EXPECT_EQ(again->trees[t].values, r.model.trees[t].values);
    ASSERT_EQ(again->trees[t].nodes.size(), r.model.trees[t].nodes.size());
    for (size_t n = 0; n < r.model.trees[t].nodes.size(); ++n) {
      EXPECT_EQ(again->trees[t].nodes[n].question, r.model.trees[t].nodes[n].question);
      EXPECT_EQ(again->trees[t].nodes[n].child, r.model.trees[t].nodes[n].child);
    }
  }
  // The same model whatever the threads.
  BoostTrainOptions one = small_options();
  one.threads = 1;
  const BoostTrainResult r1 = train_boost(train, val, nullptr, one);
  ASSERT_EQ(r1.model.trees.size(), r.model.trees.size());
  for (size_t t = 0; t < r.model.trees.size(); ++t) EXPECT_EQ(r1.model.trees[t].values, r.model.trees[t].values);
  fs::remove(path);
}

TEST(BoostTraining, ABaseTreeAloneGuessesAsTheTreeAndBoostingImprovesOnIt) {
  const std::vector<CorpusGame> train_games = games_from(testing::answering_games(7, 12, 40));
  const std::vector<CorpusGame> val_games = games_from(testing::answering_games(201, 4, 40));
  TreeSampleOptions so;
  so.progress = false;
  TreeSample tree_train = sample_tree_inputs(train_games, so);
  TreeTrainOptions to;
  to.max_leaves = 4;  // a weak base, that boosting can improve on
  to.min_leaf = 5;
  to.early_stop = false;
  to.progress = false;
  const DecisionTree tree = grow_tree(tree_train, TreeSample{}, to).tree;
  const RegressionTree base = log_tree(tree);

  const TreeSample train = whole_sample(train_games), val = whole_sample(val_games);
  const BoostTrainResult r = train_boost(train, val, &base, small_options());
  ASSERT_TRUE(r.model.has_base);
  EXPECT_EQ(r.model.trees.size(), 9u);
  TreeGuesser tg(std::make_shared<const DecisionTree>(tree));
  EvalOptions eo;
  eo.progress = false;
  const EvalResult te = evaluate(tg, val_games, eo);
  EXPECT_NEAR(r.curve[0].log_likelihood, te.mean_log_likelihood(), 1e-4);
  EXPECT_NEAR(r.curve[0].top1, te.accuracy(1), 1e-9);
  // Boosting fits the training positions better than the base; on so few validation games it
  // may overfit, and early stopping then keeps fewer rounds, never worse than the base alone.
  EXPECT_GT(r.curve.back().train_log_likelihood, r.curve[0].train_log_likelihood + 0.05);
  BoostTrainOptions stop = small_options();
  stop.early_stop = true;
  const BoostTrainResult s = train_boost(train, val, &base, stop);
  EXPECT_EQ(s.model.boosted_trees(), s.best_rounds);
  EXPECT_GE(s.curve[s.best_rounds].log_likelihood, s.curve[0].log_likelihood);
  for (const BoostCurvePoint& c : s.curve) EXPECT_LE(c.log_likelihood, s.curve[s.best_rounds].log_likelihood);

  // The base alone (first(0)) gives the tree's probabilities.
  BoostGuesser bg(std::make_shared<const BoostedTrees>(r.model.first(0)));
  Board b(9);
  b.play_legal(b.geometry().at(4, 4), Color::kBlack);
  const std::vector<float> want = guess(tg, b, Color::kWhite), got = guess(bg, b, Color::kWhite);
  ASSERT_EQ(want.size(), got.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << i;
}

TEST(BoostModelFile, RefusesStaleVersionsAndDamage) {
  BoostedTrees m;
  RegressionTree t;
  t.nodes.push_back({TreeQuestion{static_cast<uint8_t>(TreeInput::kLine), 0b10}, {~0, ~1}});
  t.values = {0.5f, -0.25f};
  m.trees = {t};
  const std::string path = boost_path("damage.model");
  ASSERT_TRUE(save_boosted_trees(m, path).ok());
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(boosted_trees_from_file(*file, path).ok());

  ModelFile stale = *file;
  stale.header["feature_version"] = kBoostFeatureVersion + 1;
  auto s = boosted_trees_from_file(stale, path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("retrain"), std::string::npos) << s.status();
  stale = *file;
  stale.header["tree_feature_version"] = kTreeFeatureVersion + 1;
  s = boosted_trees_from_file(stale, path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("retrain"), std::string::npos) << s.status();

  ModelFile cut = *file;
  cut.payload.resize(cut.payload.size() - 2);
  s = boosted_trees_from_file(cut, path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("tree 0"), std::string::npos) << s.status();
  ModelFile longer = *file;
  longer.payload += "xx";
  EXPECT_FALSE(boosted_trees_from_file(longer, path).ok());
  ModelFile nan = *file;
  const float bad = NAN;
  std::memcpy(nan.payload.data() + nan.payload.size() - 4, &bad, 4);
  s = boosted_trees_from_file(nan, path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("not finite"), std::string::npos) << s.status();
  ModelFile loop = *file;
  // The "no" child of question 0 (bytes 17-20: after the tree count, the sizes, the input and
  // the value set) made question 0 itself.
  std::fill(loop.payload.begin() + 17, loop.payload.begin() + 21, 0);
  s = boosted_trees_from_file(loop, path);
  ASSERT_FALSE(s.ok());
  // The trees' questions are read by the decision tree's reader (tree.h, read_tree_questions):
  // the same checks, in the same words, with the tree and its byte offset.
  EXPECT_NE(s.status().message().find("tree 0 (at byte 4): corrupt tree: question 0 has a bad child 0"),
            std::string::npos) << s.status();
  ModelFile input = *file;
  input.payload[12] = static_cast<char>(200);  // question 0's input
  s = boosted_trees_from_file(input, path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("corrupt tree: question 0 asks input 200"), std::string::npos) << s.status();
  ModelFile leaves = *file;
  leaves.payload[8] = 3;  // 3 leaves for 1 question
  s = boosted_trees_from_file(leaves, path);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("3 leaves for 1 questions (a binary tree has one more leaf than questions)"),
            std::string::npos) << s.status();
  fs::remove(path);
}

}  // namespace
}  // namespace hane
