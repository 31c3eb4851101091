// Every playout policy behind the interface: made by name, legal moves only, never an own eye;
// the interface's softmax equals the incremental policy; the guesser policy samples by the
// guesser's probabilities; explanations of guessers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "go/random.h"
#include "go_fixtures.h"
#include "playout/guesser_policy.h"
#include "playout/registry.h"
#include "playout/softmax.h"
#include "playout/uniform.h"
#include "predict/load.h"
#include "predict/pattern_table.h"
#include "predict/softmax.h"
#include "test_files.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;
using testing::temp_path;

// A softmax rollout model with random weights on its fixed features and on the 3x3 and
// response keys met in a few random positions, written to a model file.
std::string random_softmax_file(uint64_t seed) {
  Rng rng(seed);
  SoftmaxModel m;
  m.feature_set = FeatureSet::kRollout;
  for (int i = 0; i < num_fixed_features(m.feature_set); ++i) m.fixed.push_back(static_cast<float>(rng.uniform() * 4 - 2));
  BoardStates states;
  Board b(9);
  Color c = Color::kBlack;
  Vertex last = Vertex::none();
  for (int move = 0; move < 60; ++move) {
    states.fill(b);
    for (int16_t p : b.empty_points()) {
      if (b.legal(Vertex(p), c) != Legality::kLegal) continue;
      CandidateFeatures f;
      candidate_features(m.feature_set, Position{&b, c, last}, Vertex(p), states.diamond_code(Vertex(p), b.stride()),
                         &states, &f);
      for (int k = 0; k < kNumPatternKinds; ++k) {
        if (f.has_key(static_cast<PatternKind>(k))) m.patterns[k].emplace(f.keys[k], static_cast<float>(rng.uniform() * 3 - 1.5));
      }
    }
    const Vertex v = random_move(b, c, rng);
    b.play(v, c);
    last = v;
    c = opponent(c);
  }
  const std::string path = temp_path("policy", "softmax" + std::to_string(seed) + ".model");
  EXPECT_TRUE(save_softmax_model(m, path).ok());
  return path;
}

// A 3x3 pattern table where each pattern's ratio is drawn at random, written to a model file.
// The patterns of `also` (for both colours) are in the table too.
std::string random_table_file(uint64_t seed, const Board& also = Board(9)) {
  Rng rng(seed);
  PatternTable t;
  t.shape = PatternShape::k3x3;
  t.overall_ratio = 0.01;
  for (Color c : {Color::kBlack, Color::kWhite}) {
    for (int16_t p : also.empty_points()) {
      const uint64_t raw = pattern_code(also, Vertex(p), c, PatternShape::kDiamond12);
      t.ratio3x3.emplace(canonical(shrink(raw, PatternShape::k3x3), PatternShape::k3x3), static_cast<float>(rng.uniform()));
    }
  }
  Board b(9);
  Color c = Color::kBlack;
  for (int move = 0; move < 60; ++move) {
    for (int16_t p : b.empty_points()) {
      const uint64_t raw = pattern_code(b, Vertex(p), c, PatternShape::kDiamond12);
      t.ratio3x3.emplace(canonical(shrink(raw, PatternShape::k3x3), PatternShape::k3x3), static_cast<float>(rng.uniform()));
    }
    const Vertex v = random_move(b, c, rng);
    b.play(v, c);
    c = opponent(c);
  }
  const std::string path = temp_path("policy", "table" + std::to_string(seed) + ".model");
  EXPECT_TRUE(save_pattern_table(t, path).ok());
  return path;
}

TEST(PolicyRegistry, MakesEveryPolicyByNameAndRefusesBadSpecs) {
  const std::string softmax = random_softmax_file(1), table = random_table_file(2);
  for (const std::string& spec : std::vector<std::string>{"uniform", "softmax:" + softmax, "guesser:" + table}) {
    auto p = make_policy(spec);
    ASSERT_TRUE(p.ok()) << spec << ": " << p.status();
    EXPECT_EQ((*p)->name(), spec.substr(0, spec.find(':')));
  }
  auto unknown = make_policy("heavy");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("known: uniform"), std::string_view::npos) << unknown.status();
  EXPECT_FALSE(make_policy("uniform:" + table).ok());       // takes no model
  EXPECT_FALSE(make_policy("softmax").ok());                // needs one
  auto missing = make_policy("softmax:/nonexistent/x.model");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/x.model"), std::string_view::npos) << missing.status();
  auto wrong = make_policy("softmax:" + table);  // a pattern table is not a softmax model
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("guesser:"), std::string_view::npos) << wrong.status();
  PolicyOptions o;
  o.settings["uniform.speed"] = "2";
  EXPECT_FALSE(make_policy("uniform", o).ok());
  o.settings = {{"other.key", "1"}};  // another policy's setting is not ours to refuse
  EXPECT_TRUE(make_policy("uniform", o).ok());
  std::filesystem::remove(softmax);
  std::filesystem::remove(table);
}

// Plays playouts on 9x9 and 19x19 through the interface, checking every sampled move before
// it is played; the clone plays the same as the original.
void expect_legal_playouts(PlayoutPolicy& policy, int playouts, const std::string& what) {
  Rng rng(17);
  for (int i = 0; i < playouts; ++i) {
    const int size = i % 2 ? 19 : 9;
    policy.reset(Board(size), Color::kBlack);
    int passes = 0, moves = 0;
    while (passes < 2 && moves < 3 * size * size) {
      const Board& b = policy.board();
      const Color c = policy.to_move();
      const Vertex v = policy.sample(rng);
      if (v.is_pass()) {
        ++passes;
      } else {
        passes = 0;
        ASSERT_EQ(b.legal(v, c), Legality::kLegal) << what << " " << to_gtp(v, size) << "\n" << b.to_string();
        ASSERT_FALSE(b.is_eye(v, c)) << what << " fills its own eye at " << to_gtp(v, size);
      }
      policy.play(v);
      ++moves;
    }
    EXPECT_LT(moves, 3 * size * size) << what;
  }
  // A clone from the same position and seed plays the same playout.
  auto copy = policy.clone();
  for (PlayoutPolicy* p : {&policy, copy.get()}) p->reset(Board(9), Color::kBlack);
  Rng r1(5), r2(5);
  std::vector<Move> a, b;
  run_playout(policy, r1, -1, &a);
  run_playout(*copy, r2, -1, &b);
  EXPECT_EQ(a, b) << what;
}

TEST(PlayoutPolicies, EveryPolicyPlaysLegalMovesAndNoOwnEye) {
  const std::string softmax = random_softmax_file(3), table = random_table_file(4);
  for (const std::string& spec : std::vector<std::string>{"uniform", "softmax:" + softmax, "guesser:" + table, "guesser:uniform"}) {
    auto p = make_policy(spec);
    ASSERT_TRUE(p.ok()) << p.status();
    expect_legal_playouts(**p, spec.starts_with("guesser") ? 4 : 20, spec);
  }
  std::filesystem::remove(softmax);
  std::filesystem::remove(table);
}

TEST(PlayoutPolicies, InterfaceSoftmaxEqualsTheIncrementalPolicy) {
  const std::string path = random_softmax_file(5);
  auto by_name = make_policy("softmax:" + path);
  ASSERT_TRUE(by_name.ok()) << by_name.status();
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok());
  auto model = softmax_model_from_file(*file, path);
  ASSERT_TRUE(model.ok());
  SoftmaxPolicy direct(std::make_shared<const SoftmaxModel>(std::move(*model)));
  PlayoutPolicy& p = **by_name;
  p.reset(Board(9), Color::kBlack);
  direct.reset(Board(9), Color::kBlack);
  Rng r1(9), r2(9);
  for (int move = 0; move < 120; ++move) {
    const Board& b = p.board();
    for (int16_t q : b.empty_points()) {
      ASSERT_EQ(p.probability(Vertex(q)), direct.probability(Vertex(q))) << "move " << move;
    }
    const Vertex v = p.sample(r1);
    ASSERT_EQ(v, direct.sample(r2)) << "move " << move;
    p.play(v);
    direct.play(v);
  }
  std::filesystem::remove(path);
}

TEST(PlayoutPolicies, SoftmaxTemperatureRaisesProbabilitiesToOneOverT) {
  const std::string path = random_softmax_file(6);
  PolicyOptions hot;
  hot.settings["softmax.temperature"] = "2";
  auto plain = make_policy("softmax:" + path);
  auto flat = make_policy("softmax:" + path, hot);
  ASSERT_TRUE(plain.ok() && flat.ok());
  Board b(9);
  Rng rng(3);
  for (int move = 0; move < 30; ++move) {
    const Color c = move % 2 ? Color::kWhite : Color::kBlack;
    b.play(random_move(b, c, rng), c);
  }
  (*plain)->reset(b, Color::kBlack);
  (*flat)->reset(b, Color::kBlack);
  // p_T(v) = p(v)^(1/T) / sum_u p(u)^(1/T).
  double sum = 0;
  for (int16_t q : b.empty_points()) sum += std::sqrt((*plain)->probability(Vertex(q)).value());
  int checked = 0;
  for (int16_t q : b.empty_points()) {
    const double want = std::sqrt((*plain)->probability(Vertex(q)).value()) / sum;
    EXPECT_NEAR((*flat)->probability(Vertex(q)).value(), want, 1e-5 + 1e-3 * want);
    checked += want > 0;
  }
  EXPECT_GT(checked, 20);
  for (const char* bad : {"0", "-1", "x", "1000"}) {
    PolicyOptions o;
    o.settings["softmax.temperature"] = bad;
    EXPECT_FALSE(make_policy("softmax:" + path, o).ok()) << bad;
  }
  PolicyOptions typo;
  typo.settings["softmax.temprature"] = "2";
  auto refused = make_policy("softmax:" + path, typo);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("softmax.temperature"), std::string_view::npos);
  std::filesystem::remove(path);
}

TEST(PlayoutPolicies, SoftmaxMovesHandsThePlayoutToTheRulesPolicy) {
  const std::string path = random_softmax_file(7);
  PolicyOptions head;
  head.settings["softmax.moves"] = "6";
  auto policy = make_policy("softmax:" + path, head);
  ASSERT_TRUE(policy.ok()) << policy.status();
  EXPECT_EQ((*policy)->name(), "softmax+rules");
  Board b(9);
  Rng rng(5);
  for (int playout = 0; playout < 5; ++playout) {
    (*policy)->reset(b, Color::kBlack);
    (*policy)->start_playout();
    for (int move = 0; move < 10; ++move) {
      // Probabilities while the softmax plays, none once the rules do.
      EXPECT_EQ((*policy)->probability(Vertex(b.empty_points()[0])).has_value(), move < 6) << move;
      const Vertex v = (*policy)->sample(rng);
      ASSERT_TRUE(v.is_pass() || (*policy)->board().legal(v, (*policy)->to_move()) == Legality::kLegal);
      (*policy)->play(v);
    }
    EXPECT_GT(run_playout(**policy, rng).moves, 10);
  }
  for (const char* bad : {"-1", "x", "2.5"}) {
    PolicyOptions o;
    o.settings["softmax.moves"] = bad;
    EXPECT_FALSE(make_policy("softmax:" + path, o).ok()) << bad;
  }
  std::filesystem::remove(path);
}

TEST(GuesserPolicy, SamplesByTheGuessersProbabilitiesWithoutOwnEyes) {
  // Black: A5 is an own eye, D2 and E1 suicide; the table's ratios decide the rest.
  const Board b = board_from_ascii(R"(
    . X . . .
    X X . . .
    . . . O .
    . . O . O
    . . . O .)");
  const std::string path = random_table_file(6, b);
  auto guesser = load_guesser(path);
  ASSERT_TRUE(guesser.ok());
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, Color::kBlack, moves));
  std::erase_if(moves, [&](Vertex v) { return b.is_eye(v, Color::kBlack); });
  std::vector<float> want(moves.size());
  (*guesser)->score(Position{&b, Color::kBlack}, moves, want);
  GuesserPolicy policy(std::move(*guesser));
  policy.reset(b, Color::kBlack);
  EXPECT_EQ(*policy.probability(gtp(b, "A5")), 0.0);
  EXPECT_EQ(*policy.probability(gtp(b, "D2")), 0.0);
  double total = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    const double got = *policy.probability(moves[i]);
    EXPECT_NEAR(got, want[i], 1e-6);
    total += got;
  }
  EXPECT_NEAR(total, 1.0, 1e-5);
  // Sampling frequencies follow the probabilities.
  std::map<int, int> counts;
  Rng rng(8);
  const int n = 40'000;
  for (int i = 0; i < n; ++i) ++counts[policy.sample(rng).index()];
  for (size_t i = 0; i < moves.size(); ++i) {
    EXPECT_NEAR(counts[moves[i].index()], n * want[i], 5 * std::sqrt(n * want[i]) + 5) << to_gtp(moves[i], 5);
  }
  std::filesystem::remove(path);
}

TEST(GuesserExplain, EveryGuesserSaysSomethingAboutTheMove) {
  const Board b = board_from_ascii(R"(
    . X . . .
    X X . . .
    . . . O .
    . . O . O
    . . . O .)");
  const Position pos{&b, Color::kBlack, gtp(b, "D3")};
  const std::string softmax = random_softmax_file(7), table = random_table_file(8, b);
  auto s = load_guesser(softmax);
  auto t = load_guesser(table);
  auto u = load_guesser("uniform");
  ASSERT_TRUE(s.ok() && t.ok() && u.ok());
  EXPECT_EQ((*s)->explain(pos, gtp(b, "C3")).rfind("p = ", 0), 0u) << (*s)->explain(pos, gtp(b, "C3"));
  EXPECT_NE((*s)->explain(pos, gtp(b, "C3")).find("response"), std::string::npos) << (*s)->explain(pos, gtp(b, "C3"));
  EXPECT_NE((*t)->explain(pos, gtp(b, "C3")).find("3x3 pattern, played"), std::string::npos) << (*t)->explain(pos, gtp(b, "C3"));
  const int legal = static_cast<int>(b.empty_points().size()) - 2;  // D2 and E1 are suicide
  EXPECT_EQ((*u)->explain(pos, gtp(b, "C3")), "ranked 1 of " + std::to_string(legal) + " legal moves (p = " +
                                                   [&] { char buf[16]; std::snprintf(buf, sizeof buf, "%.1f", 100.0 / legal); return std::string(buf); }() + "%)");
  EXPECT_EQ((*u)->explain(pos, gtp(b, "D2")), "not a legal move");
  std::filesystem::remove(softmax);
  std::filesystem::remove(table);
}

}  // namespace
}  // namespace hane
