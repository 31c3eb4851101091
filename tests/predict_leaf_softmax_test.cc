// The leaf-softmax guesser: untrained it guesses as its tree, training starts there and the
// loss falls on games made here, the model file round-trips and refuses damage and stale
// versions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

#include "corpus_games.h"
#include "eval/evaluate.h"
#include "go/random.h"
#include "predict/leaf_softmax.h"
#include "predict/load.h"
#include "predict/tree.h"
#include "sgf/record.h"
#include "answering_games.h"
#include "test_files.h"
#include "train/softmax_train.h"
#include "train/tree_train.h"

namespace hane {
namespace {

using testing::games_from;

namespace fs = std::filesystem;

std::string leaf_path(const std::string& name) { return testing::temp_path("leaf_softmax", name); }


DecisionTree small_tree(const std::vector<CorpusGame>& games, int leaves) {
  TreeSampleOptions so;
  so.progress = false;
  TreeSample sample = sample_tree_inputs(games, so);
  TreeTrainOptions to;
  to.max_leaves = leaves;
  to.min_leaf = 5;
  to.early_stop = false;
  to.progress = false;
  return grow_tree(sample, TreeSample{}, to).tree;
}

// Training on the few games made here: rollout features, every key kept, `epochs` epochs.
SoftmaxTrainOptions small_training(int epochs) {
  SoftmaxTrainOptions o;
  o.feature_set = FeatureSet::kRollout;
  o.progress = false;
  o.min_count = 1;
  o.max_epochs = epochs;
  o.patience = epochs;
  o.batch_size = 16;
  o.learning_rate = 0.05;
  o.threads = 2;
  return o;
}

std::vector<float> guess(Guesser& g, const Board& b, Color to_move, Vertex last) {
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, to_move, moves));
  std::vector<float> p(moves.size());
  g.score(Position{&b, to_move, last, Vertex::none(), 3}, moves, p);
  return p;
}

TEST(LeafSoftmax, UntrainedItGuessesAsItsTree) {
  const std::vector<CorpusGame> games = games_from(testing::answering_games(1, 10, 30), Split::kTrain);
  const DecisionTree tree = small_tree(games, 6);
  ASSERT_EQ(tree.num_leaves(), 6);
  TreeGuesser tg(std::make_shared<const DecisionTree>(tree));
  LeafSoftmaxGuesser lg(std::make_shared<const LeafSoftmaxModel>(LeafSoftmaxModel::from_tree(tree, FeatureSet::kTree)));
  Board b(9);
  b.play_legal(b.at(4, 4), Color::kBlack);
  b.play_legal(b.at(4, 5), Color::kWhite);
  b.play_legal(b.at(2, 6), Color::kBlack);
  const std::vector<float> pt = guess(tg, b, Color::kWhite, b.at(2, 6)), pl = guess(lg, b, Color::kWhite, b.at(2, 6));
  ASSERT_EQ(pt.size(), pl.size());
  for (size_t i = 0; i < pt.size(); ++i) EXPECT_NEAR(pl[i], pt[i], 1e-6) << i;
  EXPECT_EQ(lg.name(), "leaf softmax tree (6 leaves)");
  EXPECT_NE(lg.explain(Position{&b, Color::kWhite, b.at(2, 6)}, b.at(2, 5)).find("leaf "), std::string::npos);
}

TEST(LeafSoftmax, TrainingStartsAtTheTreeLearnsAndTheFileRoundTrips) {
  const std::vector<CorpusGame> train = games_from(testing::answering_games(11, 40, 30), Split::kTrain);
  const std::vector<CorpusGame> validation = games_from(testing::answering_games(211, 8, 30), Split::kValidation);
  const DecisionTree tree = small_tree(train, 3);  // a weak tree: the softmax can do better
  const SoftmaxTrainOptions o = small_training(6);
  std::vector<SoftmaxEpoch> epochs;
  const LeafSoftmaxModel model =
      train_leaf_softmax(train, validation, tree, o, [&](const SoftmaxEpoch& e) { epochs.push_back(e); });
  ASSERT_EQ(epochs.size(), 6u);
  ASSERT_EQ(model.leaf_weights.size(), 3u);

  // The start ("epoch 0") is the tree's own guess, as `hane eval` measures it.
  EvalOptions eo;
  eo.progress = false;
  TreeGuesser tg(std::make_shared<const DecisionTree>(tree));
  const EvalResult tree_eval = evaluate(tg, validation, eo);
  const nlohmann::json& start = model.training["start"];
  ASSERT_TRUE(start.is_object());
  EXPECT_NEAR(start["validation_log_likelihood"].get<double>(), tree_eval.mean_log_likelihood(), 1e-4);
  EXPECT_NEAR(start["validation_top1"].get<double>(), tree_eval.accuracy(1), 1e-6);

  // The loss falls, and the kept epoch beats the tree on the validation games (by 0.07 nats
  // here: the 3-leaf tree already sees the answers next to the last stone, and the games' fifth
  // of random moves and the order of the neighbours, which no feature tells, cap the gain; on
  // so few games the later epochs overfit, and the first is kept).
  EXPECT_LT(epochs.back().train_loss, epochs.front().train_loss);
  const double best = model.training["validation_log_likelihood"].get<double>();
  EXPECT_GT(best, tree_eval.mean_log_likelihood() + 0.04);
  EXPECT_GE(model.training["best_epoch"].get<int>(), 1);

  // The file round-trips: the loaded guesser measures what training measured.
  const std::string path = leaf_path("round_trip.model");
  ASSERT_TRUE(save_leaf_softmax(model, path).ok());
  auto loaded = load_guesser(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->name(), "leaf softmax rollout (3 leaves)");
  EXPECT_TRUE((*loaded)->gives_probabilities());
  const EvalResult e = evaluate(**loaded, validation, eo);
  EXPECT_NEAR(e.mean_log_likelihood(), best, 1e-4);
  EXPECT_NEAR(e.accuracy(1), model.training["validation_top1"].get<double>(), 1e-6);
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  auto again = leaf_softmax_from_file(*file, path);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->leaf_weights, model.leaf_weights);
  EXPECT_EQ(again->softmax.fixed, model.softmax.fixed);
  for (int k = 0; k < kNumPatternKinds; ++k) EXPECT_EQ(again->softmax.patterns[k], model.softmax.patterns[k]) << k;
  ASSERT_EQ(again->tree.nodes.size(), tree.nodes.size());
  for (size_t n = 0; n < tree.nodes.size(); ++n) EXPECT_EQ(again->tree.nodes[n].question, tree.nodes[n].question);
  fs::remove(path);
}

TEST(LeafSoftmax, FactorisedPairsTrainGuessAsTrainingMeasuredAndTheFileRoundTrips) {
  const std::vector<CorpusGame> train = games_from(testing::answering_games(11, 40, 30), Split::kTrain);
  const std::vector<CorpusGame> validation = games_from(testing::answering_games(211, 8, 30), Split::kValidation);
  const DecisionTree tree = small_tree(train, 3);
  SoftmaxTrainOptions o = small_training(3);
  o.factor_dim = 4;
  EXPECT_THROW(train_softmax(train, validation, o), std::invalid_argument);  // pairs need the tree
  const LeafSoftmaxModel model = train_leaf_softmax(train, validation, tree, o);
  ASSERT_EQ(model.factors.dim, 4);
  EXPECT_EQ(model.factors.fixed.size(), model.softmax.fixed.size() * 4);
  EXPECT_EQ(model.factors.leaves.size(), 3u * 4);
  EXPECT_EQ(model.training["options"]["factor_dim"], 4);
  // Training moved the vectors from their start (uniform in [-0.01, 0.01]).
  float largest = 0;
  for (float x : model.factors.pattern_data) largest = std::max(largest, std::abs(x));
  EXPECT_GT(largest, 0.02f);

  // The guesser adds the pairs as the trainer's loss did: it measures what training measured.
  const std::string path = leaf_path("pairs.model");
  ASSERT_TRUE(save_leaf_softmax(model, path).ok());
  auto loaded = load_guesser(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EvalOptions eo;
  eo.progress = false;
  const EvalResult e = evaluate(**loaded, validation, eo);
  EXPECT_NEAR(e.mean_log_likelihood(), model.training["validation_log_likelihood"].get<double>(), 1e-4);
  EXPECT_NEAR(e.accuracy(1), model.training["validation_top1"].get<double>(), 1e-6);
  // Without its pairs the same model guesses otherwise.
  LeafSoftmaxModel no_pairs = model;
  no_pairs.factors = PairFactors{};
  LeafSoftmaxGuesser plain(std::make_shared<const LeafSoftmaxModel>(no_pairs));
  EXPECT_GT(std::abs(evaluate(plain, validation, eo).mean_log_likelihood() - e.mean_log_likelihood()), 1e-4);
  Board b(9);
  b.play_legal(b.at(4, 4), Color::kBlack);
  EXPECT_NE((*loaded)->explain(Position{&b, Color::kWhite, b.at(4, 4)}, b.at(4, 5)).find(", pairs "), std::string::npos);
  EXPECT_EQ((*loaded)->info()["factor_dim"], 4);
  EXPECT_EQ((*loaded)->name(), "leaf softmax rollout (3 leaves, pairs of 4 factors)");

  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  auto again = leaf_softmax_from_file(*file, path);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->factors.fixed, model.factors.fixed);
  EXPECT_EQ(again->factors.leaves, model.factors.leaves);
  for (int k = 0; k < kNumPatternKinds; ++k) {
    ASSERT_EQ(again->factors.pattern_rows[k].size(), model.factors.pattern_rows[k].size()) << k;
    for (const auto& [key, row] : model.factors.pattern_rows[k]) {
      const uint32_t r2 = again->factors.pattern_rows[k].at(key);
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(again->factors.pattern_data[r2 * 4 + c], model.factors.pattern_data[row * 4 + c]) << key;
      }
    }
  }

  // Damage: the vectors truncated or not finite, factor_dim out of range or on a version 1 file.
  const ModelFile good = *file;
  auto error_of = [&](const nlohmann::json& header, const std::string& payload) {
    EXPECT_TRUE(write_model_file(path, header, payload).ok());
    auto g = load_guesser(path);
    return g.ok() ? std::string("ok") : std::string(g.status().message());
  };
  auto contains = [](const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; };
  EXPECT_TRUE(contains(error_of(good.header, good.payload.substr(0, good.payload.size() - 4)),
                       "truncated in the latent vectors"));
  std::string nan_payload = good.payload;
  const float nan = NAN;
  std::memcpy(nan_payload.data() + nan_payload.size() - 4, &nan, 4);
  EXPECT_TRUE(contains(error_of(good.header, nan_payload), "latent vector is not finite"));
  nlohmann::json h = good.header;
  h["factor_dim"] = 33;
  EXPECT_TRUE(contains(error_of(h, good.payload), "factor_dim 33 is not in 0..32"));
  h["factor_dim"] = 4;
  h["feature_version"] = 1;
  EXPECT_TRUE(contains(error_of(h, good.payload), "version 1 files have none"));
  fs::remove(path);
}

TEST(LeafSoftmax, TheModelFileRefusesDamageAndStaleVersions) {
  const std::vector<CorpusGame> games = games_from(testing::answering_games(5, 6, 20), Split::kTrain);
  LeafSoftmaxModel m = LeafSoftmaxModel::from_tree(small_tree(games, 3), FeatureSet::kRollout);
  m.softmax.patterns[0] = {{5, 0.5f}, {9, -0.25f}};
  const std::string path = leaf_path("damage.model");
  ASSERT_TRUE(save_leaf_softmax(m, path).ok());
  const ModelFile good = *read_model_file(path);
  auto error_of = [&](const nlohmann::json& header, const std::string& payload) {
    EXPECT_TRUE(write_model_file(path, header, payload).ok());
    auto g = load_guesser(path);
    return g.ok() ? std::string("ok") : std::string(g.status().message());
  };
  auto contains = [](const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; };
  EXPECT_EQ(error_of(good.header, good.payload), "ok");
  {  // a file of version 1 (before the factorised pairs; the shipped models) is still read
    nlohmann::json v1 = good.header;
    v1["feature_version"] = 1;
    v1.erase("factor_dim");
    EXPECT_EQ(error_of(v1, good.payload), "ok");
  }
  for (const char* key : {"feature_version", "tree_feature_version", "softmax_feature_version", "pattern_version"}) {
    nlohmann::json h = good.header;
    h[key] = h[key].get<int>() + 1;
    const std::string why = error_of(h, good.payload);
    EXPECT_TRUE(contains(why, key) && contains(why, "retrain")) << why;
  }
  nlohmann::json h = good.header;
  h["feature_set"] = "bogus";
  EXPECT_TRUE(contains(error_of(h, good.payload), "unknown feature set 'bogus'"));
  h = good.header;
  h["tree"]["features"]["orientation"] = "sideways";
  EXPECT_TRUE(contains(error_of(h, good.payload), "unknown orientation 'sideways'"));

  // Layout: the tree (8 bytes of sizes, 2 nodes of 13 bytes, 3 leaves of 12), the leaf count
  // and 3 weights, then the softmax weights.
  const std::string& p = good.payload;
  const size_t count_at = 8 + 2 * 13 + 3 * 12;
  auto damaged = [&](size_t at, const void* bytes, size_t n) {
    std::string d = p;
    std::memcpy(d.data() + at, bytes, n);
    return error_of(good.header, d);
  };
  const uint32_t four = 4;
  EXPECT_TRUE(contains(damaged(count_at, &four, 4), "4 leaf weights for a tree of 3 leaves"));
  const float nan = NAN;
  EXPECT_TRUE(contains(damaged(count_at + 8, &nan, 4), "leaf 1's weight is not finite"));
  const uint32_t bad_input = 200;
  EXPECT_TRUE(contains(damaged(8, &bad_input, 1), "(the tree's part)"));
  EXPECT_TRUE(contains(error_of(good.header, p.substr(0, p.size() - 4)), "(the softmax's part)"));
  EXPECT_TRUE(contains(error_of(good.header, p + "abcd"), "4 bytes after the end"));
  EXPECT_TRUE(contains(error_of(good.header, p.substr(0, count_at + 6)), "truncated in the leaf weights"));
  fs::remove(path);
}

}  // namespace
}  // namespace hane
