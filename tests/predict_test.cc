// Model files, the pattern table, the uniform baseline and the evaluation arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "corpus_games.h"
#include "test_files.h"
#include "corpus/replay.h"
#include "eval/evaluate.h"
#include "predict/load.h"
#include "predict/model_file.h"
#include "train/pattern_train.h"
#include "predict/uniform.h"

namespace hane {
namespace {

using testing::games_from;

namespace fs = std::filesystem;

std::string predict_path(const std::string& name) { return testing::temp_path("predict", name); }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void spit(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

TEST(ModelFile, RoundTripAndEveryKindOfDamage) {
  const std::string path = predict_path("m");
  PayloadWriter w;
  w.u64(42);
  w.f32(1.5f);
  ASSERT_TRUE(write_model_file(path, {{"kind", "test"}, {"feature_version", 1}}, w.bytes()).ok());
  auto m = read_model_file(path);
  ASSERT_TRUE(m.ok()) << m.status();
  PayloadReader r(m->payload);
  EXPECT_EQ(r.u64(), 42u);
  EXPECT_EQ(r.f32(), 1.5f);
  EXPECT_TRUE(r.ok());
  r.u8();
  EXPECT_FALSE(r.ok());  // past the end

  const std::string good = slurp(path);
  auto error_of = [&](const std::string& bytes) {
    spit(path, bytes);
    auto result = read_model_file(path);
    return result.ok() ? std::string("ok") : std::string(result.status().message());
  };
  EXPECT_NE(error_of(good.substr(0, good.size() - 3)).find("truncated: the payload has 9 of 12 bytes"), std::string::npos);
  EXPECT_NE(error_of("GIF89a" + good).find("not a hane model file"), std::string::npos);
  std::string flipped = good;
  flipped.back() ^= 0x40;
  EXPECT_NE(error_of(flipped).find("checksum"), std::string::npos);
  std::string bad_json = good;
  bad_json[good.find('{') + 1] = '#';
  EXPECT_NE(error_of(bad_json).find("corrupt header (not JSON) at byte"), std::string::npos);
  std::string future = good;
  future.replace(future.find("\"format\":1"), 10, "\"format\":9");
  EXPECT_NE(error_of(future).find("model format 9 is not supported"), std::string::npos);
  EXPECT_NE(error_of(good + "x").find("after the payload"), std::string::npos);
  EXPECT_NE(error_of("").find("not a hane model"), std::string::npos);
  EXPECT_EQ(load_guesser(predict_path("missing")).status().code(), absl::StatusCode::kNotFound);
  fs::remove(path);
}

// A corpus of games that all play the four 2-2 points: the table must learn that corner shape.
TEST(PatternTable, LearnsWhatIsPlayedAndSurvivesTheModelFile) {
  std::vector<std::string> sgfs;
  for (int i = 0; i < 20; ++i) sgfs.push_back("(;GM[1]SZ[9];B[bb];W[hh];B[bh];W[hb])");
  const std::vector<CorpusGame> games = games_from(sgfs);
  PatternTableOptions o;
  o.progress = false;
  o.min_seen = 1;
  const PatternTable table = train_pattern_table(games, o);
  EXPECT_EQ(table.training["positions"], 80);
  const std::string path = predict_path("table");
  ASSERT_TRUE(save_pattern_table(table, path).ok());
  auto loaded = load_guesser(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  Guesser& g = **loaded;
  EXPECT_EQ(g.name(), "diamond12 table");
  // On the empty 9x9 board the four 2-2 points share the most played pattern.
  Board b(9);
  const Position p{&b, Color::kBlack};
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, Color::kBlack, moves));
  std::vector<float> scores(moves.size());
  g.score(p, moves, scores);
  double sum = 0;
  for (float s : scores) sum += s;
  EXPECT_NEAR(sum, 1.0, 1e-5);
  const size_t best = std::max_element(scores.begin(), scores.end()) - scores.begin();
  const int x = b.geometry().x(moves[best]), y = b.geometry().y(moves[best]);
  EXPECT_TRUE((x == 1 || x == 7) && (y == 1 || y == 7)) << to_gtp(moves[best], 9);
  // On its own training games the table ties the remaining 2-2 points first: top-1 is
  // (1/4 + 1/3 + 1/2 + 1) / 4 in expectation.
  EvalOptions eo;
  eo.progress = false;
  eo.threads = 1;
  const EvalResult r = evaluate(g, games, eo);
  EXPECT_EQ(r.positions, 80);
  EXPECT_NEAR(r.accuracy(1), (1.0 / 4 + 1.0 / 3 + 1.0 / 2 + 1) / 4, 1e-9);
  EXPECT_GT(r.accuracy(10), r.accuracy(1));
  // Several guessers at once (each position guessed by each in turn) give each its own result.
  const UniformGuesser uniform;
  const Guesser* both[] = {&g, &uniform};
  const std::vector<EvalResult> two = evaluate(both, games, eo);
  ASSERT_EQ(two.size(), 2u);
  const EvalResult u = evaluate(uniform, games, eo);
  EXPECT_EQ(two[0].top, r.top);
  EXPECT_EQ(two[0].log_likelihood, r.log_likelihood);
  EXPECT_EQ(two[0].phase_top1, r.phase_top1);
  EXPECT_EQ(two[1].top, u.top);
  EXPECT_EQ(two[1].log_likelihood, u.log_likelihood);
  EXPECT_TRUE(two[0].has_probabilities && two[1].has_probabilities);
  fs::remove(path);
}

TEST(PatternTable, RefusesAModelOfAnotherFeatureVersion) {
  const std::string path = predict_path("old");
  PayloadWriter w;
  ASSERT_TRUE(write_model_file(path, {{"kind", "pattern-table"}, {"feature_version", kPatternVersion + 1},
                                      {"pattern_shape", "diamond12"}}, w.bytes()).ok());
  auto g = load_guesser(path);
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("retrain"), absl::string_view::npos);
  fs::remove(path);
}

TEST(Evaluate, UniformAccuracyIsExactlyTheMeanOfOneOverN) {
  const std::vector<CorpusGame> games = games_from({"(;GM[1]SZ[5];B[cc];W[bb];B[];W[dd])"});
  EvalOptions eo;
  eo.progress = false;
  const EvalResult r = evaluate(UniformGuesser(), games, eo);
  ASSERT_EQ(r.positions, 3);  // the pass is not a position
  // Legal moves: 25, 24, then 22 (after B pass, W to move with 2 stones on board).
  EXPECT_NEAR(r.accuracy(1), (1.0 / 25 + 1.0 / 24 + 1.0 / 23) / 3, 1e-9);
  EXPECT_NEAR(r.accuracy(10), (10.0 / 25 + 10.0 / 24 + 10.0 / 23) / 3, 1e-9);
  EXPECT_NEAR(r.mean_log_likelihood(), -(std::log(25.0) + std::log(24.0) + std::log(23.0)) / 3, 1e-5);
  EXPECT_EQ(r.phase_positions[0], 3);
  const nlohmann::json j = eval_json(r);
  for (const char* key : {"positions", "top1", "top3", "top5", "top10", "log_likelihood", "us_per_guess", "ratio", "by_phase"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
}

TEST(Evaluate, PhasesByMoveNumber) {
  EXPECT_EQ(phase_of(1), 0);
  EXPECT_EQ(phase_of(30), 0);
  EXPECT_EQ(phase_of(31), 1);
  EXPECT_EQ(phase_of(100), 1);
  EXPECT_EQ(phase_of(101), 2);
  EXPECT_EQ(phase_of(201), 3);
}

}  // namespace
}  // namespace hane
