// The decision tree: question inputs on drawn boards, the canonical frame, growth, the model
// file and its damage, the dump.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "corpus_games.h"
#include "test_files.h"
#include "eval/evaluate.h"
#include "go/random.h"
#include "go_fixtures.h"
#include "predict/load.h"
#include "predict/tree.h"
#include "train/tree_train.h"

namespace hane {
namespace {

using testing::games_from;

namespace fs = std::filesystem;
using testing::board_from_ascii;

using testing::B;
using testing::W;
constexpr int in(TreeInput i) { return static_cast<int>(i); }

std::string tree_path(const std::string& name) { return testing::temp_path("tree", name); }

TreeInputs inputs_of(const Position& p, Vertex v, TreeFeatureOptions o = {}) {
  TreeInputMaker maker(o);
  maker.set_position(p);
  TreeInputs out;
  maker.inputs(v, out);
  return out;
}

// (dx, dy) -> point index.
int point(int dx, int dy) {
  for (int i = 0; i < kRadius3Points; ++i) {
    if (kRadius3Offsets[i].dx == dx && kRadius3Offsets[i].dy == dy) return i;
  }
  return -1;
}

// --- Inputs ----------------------------------------------------------------------------------

constexpr char kCapture[] = R"(
    . . . . .
    . X O X .
    . . X . .
    . . . . .
    . . . . .)";

TEST(TreeInputs, PointsAndFactsOfACapture) {
  const Board b = board_from_ascii(kCapture);
  const Vertex v = b.at(2, 0);  // captures the white stone below it
  Position p{&b, B};
  TreeFeatureOptions board_frame;
  board_frame.canonical = false;
  const TreeInputs x = inputs_of(p, v, board_frame);
  EXPECT_EQ(x.v[point(0, -1)], tree_point::kOffBoard);
  EXPECT_EQ(x.v[point(-1, -1)], tree_point::kOffBoard);
  EXPECT_EQ(x.v[point(1, 0)], tree_point::kEmpty);
  EXPECT_EQ(x.v[point(0, 1)], tree_point::stone(false, 1));  // opp1
  EXPECT_EQ(x.v[point(0, 1)], 2);
  EXPECT_EQ(x.v[point(1, 1)], tree_point::stone(true, 3));   // own3
  EXPECT_EQ(x.v[point(-1, 1)], tree_point::stone(true, 3));
  EXPECT_EQ(x.v[point(0, 2)], tree_point::stone(true, 3));
  EXPECT_EQ(x.v[point(0, 3)], tree_point::kEmpty);
  EXPECT_EQ(x.v[point(-3, 0)], tree_point::kOffBoard);  // x = -1
  EXPECT_EQ(x.v[point(2, 1)], tree_point::kEmpty);      // (4, 1)
  EXPECT_EQ(x.v[in(TreeInput::kCaptureStones)], 1);
  EXPECT_EQ(x.v[in(TreeInput::kLiberties)], 3);
  EXPECT_EQ(x.v[in(TreeInput::kChainSize)], 1);
  EXPECT_EQ(x.v[in(TreeInput::kAtariStones)], 0);
  EXPECT_EQ(x.v[in(TreeInput::kKo)], 0);
  EXPECT_EQ(x.v[in(TreeInput::kLine)], 1);
  EXPECT_EQ(x.v[in(TreeInput::kOtherLine)], 3);
  EXPECT_EQ(x.v[in(TreeInput::kOwnNear)], 3);
  EXPECT_EQ(x.v[in(TreeInput::kOpponentNear)], 1);
  EXPECT_EQ(x.v[in(TreeInput::kNearestStone)], 1);
  EXPECT_EQ(x.v[in(TreeInput::kMoveNumber)], 0);
  EXPECT_EQ(x.v[in(TreeInput::kLastDistance)], 19);  // none
  EXPECT_EQ(x.v[in(TreeInput::kLastOffset)], kRadius3Points);
  for (int i = 0; i < kTreeInputs; ++i) EXPECT_LT(x.v[i], tree_input_values(i)) << tree_input_name(i);

  // For White the same points are the other way round: the white stone is its own, in atari.
  p.to_move = W;
  const TreeInputs y = inputs_of(p, b.at(2, 3), board_frame);
  EXPECT_EQ(y.v[in(TreeInput::kOwnNear)], 1);
  EXPECT_EQ(y.v[in(TreeInput::kOpponentNear)], 3);
  EXPECT_EQ(y.v[point(0, -2)], tree_point::stone(true, 1));
  const TreeInputs corner = inputs_of(p, b.at(4, 4), board_frame);
  EXPECT_EQ(corner.v[in(TreeInput::kOwnNear)] + corner.v[in(TreeInput::kOpponentNear)], 0);
  EXPECT_EQ(corner.v[in(TreeInput::kNearestStone)], 4);  // (3,1) and (2,2)
  EXPECT_EQ(inputs_of(p, b.at(2, 0), board_frame).v[point(0, 1)], tree_point::stone(true, 1));
}

TEST(TreeInputs, PreviousMovesAndMoveNumber) {
  const Board b = board_from_ascii(kCapture);
  Position p{&b, B};
  p.last_move = b.at(2, 2);
  p.second_last_move = Vertex::pass();
  p.move_number = 57;
  TreeFeatureOptions board_frame;
  board_frame.canonical = false;
  const TreeInputs x = inputs_of(p, b.at(2, 0), board_frame);
  EXPECT_EQ(x.v[in(TreeInput::kLastDistance)], 4);  // 0 + 2 + max(0, 2)
  EXPECT_EQ(x.v[in(TreeInput::kLastOffset)], point(0, 2));
  EXPECT_EQ(x.v[in(TreeInput::kSecondLastDistance)], 18);  // pass
  EXPECT_EQ(x.v[in(TreeInput::kSecondLastOffset)], kRadius3Points);
  EXPECT_EQ(x.v[in(TreeInput::kMoveNumber)], 5);  // moves 51-60
  // Far away: the distance is clamped, the offset is "far".
  const Board big(19);
  Position q{&big, B};
  q.last_move = big.at(0, 0);
  const TreeInputs z = inputs_of(q, big.at(18, 18), board_frame);
  EXPECT_EQ(z.v[in(TreeInput::kLastDistance)], 17);
  EXPECT_EQ(z.v[in(TreeInput::kLastOffset)], kRadius3Points);
  EXPECT_EQ(z.v[in(TreeInput::kNearestStone)], 15);  // no stone at all
  EXPECT_EQ(z.v[in(TreeInput::kLine)], 1);
  EXPECT_EQ(z.v[in(TreeInput::kOtherLine)], 1);
  EXPECT_EQ(inputs_of(q, big.at(9, 12), board_frame).v[in(TreeInput::kOtherLine)], 10);
  EXPECT_EQ(inputs_of(q, big.at(9, 12), board_frame).v[in(TreeInput::kLine)], 7);
}

TEST(TreeInputs, LadderIsReadOnlyWhenAsked) {
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . X X . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  const Position p{&b, B};
  const Vertex atari = b.at(3, 4);
  EXPECT_EQ(inputs_of(p, atari).v[in(TreeInput::kLadder)], 1);
  EXPECT_EQ(inputs_of(p, atari).v[in(TreeInput::kAtariStones)], 1);
  EXPECT_EQ(inputs_of(p, atari).v[in(TreeInput::kAtariChains)], 1);
  EXPECT_EQ(inputs_of(p, b.at(4, 3)).v[in(TreeInput::kLadder)], 0);  // White runs out
  TreeFeatureOptions no_ladders;
  no_ladders.ladders = false;
  EXPECT_EQ(inputs_of(p, atari, no_ladders).v[in(TreeInput::kLadder)], 0);
}

TEST(TreeInputs, SymmetriesExtendThePatternSymmetries) {
  for (int s = 0; s < 8; ++s) {
    for (int i = 0; i < kMaxPatternPoints; ++i) EXPECT_EQ(kTreeSymmetries[s][i], kPatternSymmetries[s][i]);
    std::array<bool, kRadius3Points> hit{};
    for (int i = 0; i < kRadius3Points; ++i) hit[kTreeSymmetries[s][i]] = true;
    EXPECT_TRUE(std::all_of(hit.begin(), hit.end(), [](bool h) { return h; })) << "not a permutation: " << s;
  }
}

// A 19x19 board after `moves` random legal moves, and the last two of them.
struct RandomPosition {
  Board board{19};
  Vertex last = Vertex::none(), second_last = Vertex::none();
  Color to_move = B;
};
RandomPosition random_position(uint64_t seed, int moves) {
  RandomPosition r;
  Rng rng(seed);
  for (int m = 0; m < moves; ++m) {
    const auto empties = r.board.empty_points();
    const Vertex v(empties[rng.below(static_cast<uint32_t>(empties.size()))]);
    if (r.board.legal(v, r.to_move) != Legality::kLegal) continue;
    r.board.play_legal(v, r.to_move);
    r.second_last = r.last;
    r.last = v;
    r.to_move = opponent(r.to_move);
  }
  return r;
}

// Symmetry s of the square on an n x n board, as in kTreeSymmetries: mirror x if s >= 4, then
// rotate s % 4 times clockwise as drawn.
Vertex transform(const Board& b, Vertex v, int s) {
  if (!v.is_point()) return v;
  const Geometry& g = b.geometry();
  int x = g.x(v), y = g.y(v);
  if (s >= 4) x = b.size() - 1 - x;
  for (int r = 0; r < s % 4; ++r) {
    const int t = x;
    x = b.size() - 1 - y;
    y = t;
  }
  return b.at(x, y);
}

TEST(TreeInputs, CanonicalFrameIsTheSameOnTurnedAndMirroredBoards) {
  for (uint64_t seed : {1, 2, 3}) {
    const RandomPosition r = random_position(seed, 150);
    const Position p{&r.board, r.to_move, r.last, r.second_last, 80};
    std::vector<Vertex> moves(r.board.empty_points().size());
    moves.resize(legal_moves(r.board, r.to_move, moves));
    TreeInputMaker maker;
    maker.set_position(p);
    for (int s = 1; s < 8; ++s) {
      Board turned(19);
      for (int y = 0; y < 19; ++y) {
        for (int x = 0; x < 19; ++x) {
          const Vertex v = r.board.at(x, y);
          if (r.board.is_stone(v)) turned.set_stone(transform(turned, v, s), r.board.color(v));
        }
      }
      const Position q{&turned, r.to_move, transform(turned, r.last, s), transform(turned, r.second_last, s), 80};
      TreeInputMaker turned_maker;
      turned_maker.set_position(q);
      int differ_on_board = 0;
      for (Vertex v : moves) {
        TreeInputs a, c;
        maker.inputs(v, a);
        turned_maker.inputs(transform(turned, v, s), c);
        ASSERT_EQ(a.v, c.v) << "seed " << seed << " symmetry " << s << " at " << to_gtp(v, 19);
        TreeFeatureOptions board_frame;
        board_frame.canonical = false;
        differ_on_board += inputs_of(p, v, board_frame).v != inputs_of(q, transform(turned, v, s), board_frame).v;
      }
      EXPECT_GT(differ_on_board, 0);  // the board frame does see the turn
    }
  }
}

// --- Questions -------------------------------------------------------------------------------

TEST(TreeQuestions, AnswersAndDescriptions) {
  TreeInputs x;
  x.v[0] = tree_point::stone(false, 2);
  x.v[in(TreeInput::kLastDistance)] = 3;
  const TreeQuestion opp12{0, (1u << 2) | (1u << 6)};
  EXPECT_TRUE(answer(x, opp12));
  EXPECT_FALSE(answer(x, TreeQuestion{0, 1u << 2}));
  EXPECT_EQ(describe(opp12), "(0,-1) in {opp1, opp2}");
  EXPECT_EQ(describe(TreeQuestion{0, tree_input_mask(0) & ~1u}), "(0,-1) not in {empty}");
  const TreeQuestion near{static_cast<uint8_t>(in(TreeInput::kLastDistance)), (1u << 5) - 1};
  EXPECT_TRUE(answer(x, near));
  EXPECT_EQ(describe(near), "last_move_distance <= 4");
  const uint8_t captures = static_cast<uint8_t>(in(TreeInput::kCaptureStones));
  EXPECT_EQ(describe(TreeQuestion{captures, tree_input_mask(captures) & ~1u}), "captures >= 1");
  EXPECT_EQ(describe(TreeQuestion{captures, 1u << 15}), "captures >= 15+");
  const uint8_t move = static_cast<uint8_t>(in(TreeInput::kMoveNumber));
  EXPECT_EQ(describe(TreeQuestion{move, 1u << 31}), "move_number >= 311+");
  EXPECT_EQ(describe(TreeQuestion{move, 0b11}), "move_number <= 11-20");
  EXPECT_EQ(describe(TreeQuestion{captures, 0b101}), "captures in {0, 2}");
  EXPECT_EQ(describe(TreeQuestion{static_cast<uint8_t>(in(TreeInput::kLastOffset)), 1u << 24}), "last_move_at in {far}");
  EXPECT_TRUE(valid_question(opp12));
  EXPECT_FALSE(valid_question(TreeQuestion{0, 0}));
  EXPECT_FALSE(valid_question(TreeQuestion{0, tree_input_mask(0)}));
  EXPECT_FALSE(valid_question(TreeQuestion{0, 1u << 16}));  // points have 16 values
  EXPECT_FALSE(valid_question(TreeQuestion{static_cast<uint8_t>(kTreeInputs), 1}));
  for (int i = 0; i < kTreeInputs; ++i) {
    EXPECT_GE(tree_input_values(i), 2);
    EXPECT_LE(tree_input_values(i), 32);
  }
}

// --- Growth ----------------------------------------------------------------------------------

// Random rows where a move is played with probability 0.5 if `rule` holds, else 0.01.
TreeSample synthetic_sample(uint64_t seed, int rows, const std::function<bool(const TreeInputs&)>& rule) {
  TreeSample s;
  Rng rng(seed);
  for (int r = 0; r < rows; ++r) {
    TreeInputs in;
    for (int i = 0; i < kTreeInputs; ++i) in.v[i] = static_cast<uint8_t>(rng.below(tree_input_values(i)));
    const TreeRow row(in, rng.uniform() < (rule(in) ? 0.5 : 0.01));
    EXPECT_EQ(row.inputs().v, in.v);
    s.rows.push_back(row);
  }
  s.positions = rows;
  s.legal_moves = rows;
  return s;
}

TEST(TreeGrowth, FindsTheObviousQuestion) {
  TreeTrainOptions o;
  o.max_leaves = 2;
  o.progress = false;
  o.threads = 2;
  const TreeSample none;
  {
    TreeSample s = synthetic_sample(1, 20000, [](const TreeInputs& x) { return x.v[in(TreeInput::kCaptureStones)] >= 3; });
    const TreeTrainResult r = grow_tree(s, none, o);
    ASSERT_EQ(r.tree.num_leaves(), 2);
    const TreeQuestion q = r.tree.nodes[0].question;
    EXPECT_EQ(q.input, in(TreeInput::kCaptureStones)) << describe(q);
    const uint32_t low = 0b111, mask = tree_input_mask(q.input);
    EXPECT_TRUE(q.values == low || q.values == (mask & ~low)) << describe(q);
    const TreeLeaf& yes = r.tree.leaves[~r.tree.nodes[0].child[1]];
    const TreeLeaf& no = r.tree.leaves[~r.tree.nodes[0].child[0]];
    const float hit = q.values == low ? no.probability : yes.probability;
    const float miss = q.values == low ? yes.probability : no.probability;
    EXPECT_NEAR(hit, 0.5, 0.03);
    EXPECT_NEAR(miss, 0.01, 0.005);
  }
  {
    // A category: the point north is an opponent stone with 1 or 2 liberties.
    TreeSample s = synthetic_sample(2, 20000, [](const TreeInputs& x) { return x.v[0] == 2 || x.v[0] == 6; });
    const TreeTrainResult r = grow_tree(s, none, o);
    const TreeQuestion q = r.tree.nodes[0].question;
    const uint32_t set = (1u << 2) | (1u << 6);
    EXPECT_TRUE(q.input == 0 && (q.values == set || q.values == (tree_input_mask(0) & ~set))) << describe(q);
  }
}

TEST(TreeGrowth, RespectsBudgetMinLeafAndSnapshots) {
  TreeSample s = synthetic_sample(3, 30000, [](const TreeInputs& x) { return x.v[1] == 0 && (x.v[2] & 3) == 2; });
  TreeTrainOptions o;
  o.max_leaves = 40;
  o.min_leaf = 500;
  o.progress = false;
  o.snapshots = {2, 10, 1000};
  const TreeTrainResult r = grow_tree(s, TreeSample{}, o);
  EXPECT_LE(r.tree.num_leaves(), 40);
  EXPECT_EQ(r.tree.leaves.size(), r.tree.nodes.size() + 1);
  for (const TreeLeaf& l : r.tree.leaves) EXPECT_GE(l.seen, 500);
  ASSERT_EQ(r.snapshot_leaves, (std::vector<int>{2, 10}));
  EXPECT_EQ(r.snapshots[0].num_leaves(), 2);
  EXPECT_EQ(r.snapshots[1].num_leaves(), 10);
  // Earlier trees are prefixes of the split sequence: the same root, and questions that the
  // full tree also asks.
  EXPECT_EQ(r.snapshots[0].nodes[0].question, r.tree.nodes[0].question);
  for (const TreeNode& n : r.snapshots[1].nodes) {
    EXPECT_TRUE(std::any_of(r.tree.nodes.begin(), r.tree.nodes.end(),
                            [&](const TreeNode& m) { return m.question == n.question; }));
  }
  // Questions come in pre-order: each yes-child that is a question follows its parent.
  for (size_t i = 0; i < r.tree.nodes.size(); ++i) {
    const int32_t yes = r.tree.nodes[i].child[1];
    if (yes >= 0) {
      EXPECT_EQ(yes, static_cast<int32_t>(i + 1));
    }
  }
  // The batched walk agrees with the single one, for any number of candidates.
  for (size_t n : {0, 3, 8, 13, 100}) {
    std::vector<TreeInputs> inputs;
    for (size_t i = 0; i < n; ++i) inputs.push_back(s.rows[i * 97 % s.rows.size()].inputs());
    std::vector<int32_t> leaves(n, -1);
    r.tree.leaves_of(inputs, leaves);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(leaves[i], r.tree.leaf_of(inputs[i])) << n << " " << i;
  }
  // The seen counts of the leaves add up to the sample.
  double seen = 0;
  for (const TreeLeaf& l : r.tree.leaves) seen += l.seen;
  EXPECT_NEAR(seen, 30000, 1e-3);
}

// Games of random moves on 9x9, as SGF.
std::vector<std::string> random_games(uint64_t seed, int games, int moves) {
  std::vector<std::string> out;
  for (int g = 0; g < games; ++g) {
    Rng rng(seed + g);
    Board b(9);
    Color c = B;
    std::string sgf = "(;GM[1]SZ[9]";
    for (int m = 0; m < moves; ++m) {
      const auto empties = b.empty_points();
      const Vertex v(empties[rng.below(static_cast<uint32_t>(empties.size()))]);
      if (b.legal(v, c) != Legality::kLegal) continue;
      b.play_legal(v, c);
      sgf += std::string(";") + (c == B ? "B[" : "W[") + to_sgf(v, 9) + "]";
      c = opponent(c);
    }
    out.push_back(sgf + ")");
  }
  return out;
}

TEST(TreeGrowth, LearnsTheCornerPointsAndMeasuresAsEvaluateDoes) {
  std::vector<std::string> sgfs;
  for (int i = 0; i < 20; ++i) sgfs.push_back("(;GM[1]SZ[9];B[bb];W[hh];B[bh];W[hb])");
  const std::vector<CorpusGame> games = games_from(sgfs);
  TreeSampleOptions so;
  so.progress = false;
  TreeSample train = sample_tree_inputs(games, so);
  EXPECT_EQ(train.positions, 80);
  EXPECT_EQ(train.rows.size(), static_cast<size_t>(train.legal_moves));
  so.whole_positions = true;
  const TreeSample val = sample_tree_inputs(games, so);
  ASSERT_EQ(val.position_start.size(), 81u);
  TreeTrainOptions o;
  o.max_leaves = 8;
  o.min_leaf = 1;
  o.early_stop = false;
  o.progress = false;
  const TreeTrainResult r = grow_tree(train, val, o);
  ASSERT_FALSE(r.curve.empty());
  EXPECT_EQ(r.curve.back().leaves, r.tree.num_leaves());

  const std::string path = tree_path("corner");
  ASSERT_TRUE(save_tree(r.tree, path).ok());
  auto loaded = load_guesser(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  Guesser& g = **loaded;
  EXPECT_TRUE(g.gives_probabilities());
  Board b(9);
  const Position p{&b, B};
  std::vector<Vertex> moves(b.empty_points().size());
  moves.resize(legal_moves(b, B, moves));
  std::vector<float> scores(moves.size());
  g.score(p, moves, scores);
  double sum = 0;
  for (float s : scores) sum += s;
  EXPECT_NEAR(sum, 1.0, 1e-5);
  const size_t best = std::max_element(scores.begin(), scores.end()) - scores.begin();
  const int x = b.geometry().x(moves[best]), y = b.geometry().y(moves[best]);
  EXPECT_TRUE((x == 1 || x == 7) && (y == 1 || y == 7)) << to_gtp(moves[best], 9);

  // The growth's own measure of the validation sample is evaluate()'s.
  EvalOptions eo;
  eo.progress = false;
  const EvalResult e = evaluate(g, games, eo);
  EXPECT_NEAR(e.accuracy(1), r.curve.back().top1, 1e-9);
  EXPECT_NEAR(e.mean_log_likelihood(), r.curve.back().log_likelihood, 1e-4);
  fs::remove(path);
}

TEST(TreeGrowth, SampleIsTheSameWithOneOrTwoThreadsAndThinsTheOthers) {
  const std::vector<CorpusGame> games = games_from(random_games(7, 6, 60));
  TreeSampleOptions so;
  so.progress = false;
  so.positions = 100;
  so.negatives = 0.2;
  so.threads = 1;
  TreeSample one = sample_tree_inputs(games, so);
  so.threads = 2;
  TreeSample two = sample_tree_inputs(games, so);
  ASSERT_EQ(one.rows.size(), two.rows.size());
  EXPECT_EQ(one.positions, two.positions);
  EXPECT_EQ(std::memcmp(one.rows.data(), two.rows.data(), one.rows.size() * sizeof(TreeRow)), 0);
  // Whole positions: the boundaries split the rows into positions of one played move each.
  so.whole_positions = true;
  so.negatives = 1;
  const TreeSample whole = sample_tree_inputs(games, so);
  ASSERT_EQ(whole.position_start.size(), static_cast<size_t>(whole.positions) + 1);
  EXPECT_EQ(whole.position_start.back(), static_cast<int64_t>(whole.rows.size()));
  EXPECT_EQ(whole.legal_moves, static_cast<int64_t>(whole.rows.size()));
  for (int64_t i = 0; i < whole.positions; ++i) {
    int played_here = 0;
    for (int64_t r = whole.position_start[i]; r < whole.position_start[i + 1]; ++r) played_here += whole.rows[r].played;
    EXPECT_EQ(played_here, 1);
  }
  // Every drawn position keeps its played move; about a fifth of the others are kept.
  int64_t played = 0;
  for (const TreeRow& r : one.rows) played += r.played;
  EXPECT_EQ(played, one.positions);
  const double kept = static_cast<double>(one.rows.size() - played) / (one.legal_moves - played);
  EXPECT_NEAR(kept, 0.2, 0.05);
  EXPECT_DOUBLE_EQ(one.negative_weight, 5.0);
}

// --- Model file --------------------------------------------------------------------------------

// Two questions, three leaves.
DecisionTree small_tree() {
  DecisionTree t;
  const uint8_t captures = static_cast<uint8_t>(in(TreeInput::kCaptureStones));
  t.nodes.push_back({{captures, tree_input_mask(captures) & ~1u}, {~1, 1}});
  t.nodes.push_back({{0, 1u << 2}, {~2, ~0}});
  t.leaves = {{0.5f, 5, 10}, {0.01f, 1, 100}, {0.25f, 1, 4}};
  t.prior_strength = 4;
  return t;
}

TEST(TreeModel, DumpIsReadable) {
  const std::string expected = "decision tree: 3 leaves, 2 questions, depth 2, feature version " +
                               std::to_string(kTreeFeatureVersion) +
                               ", orientation canonical, ladders read\n"
                               "[0] captures >= 1\n"
                               "  yes: [1] (0,-1) in {opp1}\n"
                               "    yes: leaf 0: p=0.5 played=5 seen=10.0\n"
                               "    no: leaf 2: p=0.25 played=1 seen=4.0\n"
                               "  no: leaf 1: p=0.01 played=1 seen=100.0\n";
  EXPECT_EQ(small_tree().dump(), expected);
  EXPECT_EQ(small_tree().depth(), 2);
  DecisionTree single;
  single.leaves = {{0.1f, 1, 10}};
  EXPECT_EQ(single.depth(), 0);
  EXPECT_NE(single.dump().find("leaf 0: p=0.1 played=1 seen=10.0"), std::string::npos);
}

TEST(TreeModel, ExplainGivesTheLeafAndTheAnswersOnTheWay) {
  // Black at C3 captures the white stone in atari at C4, the neighbour the canonical frame puts
  // at (0,-1): leaf 0.
  const Board b = testing::board_from_ascii(R"(
    . . X . .
    . X O X .
    . . . . .
    . . . . .
    . . . . .)");
  TreeGuesser g(std::make_shared<const DecisionTree>(small_tree()));
  const Position p{&b, Color::kBlack};
  EXPECT_EQ(g.explain(p, testing::gtp(b, "C3")),
            "leaf 0, p = 0.500 (played 5 of 10 seen): yes: (0,-1) in {opp1}; yes: captures >= 1");
  EXPECT_EQ(g.explain(p, testing::gtp(b, "E1")), "leaf 1, p = 0.010 (played 1 of 100 seen): no: captures >= 1");
  EXPECT_EQ(g.dump(), small_tree().dump());
}

TEST(TreeModel, RoundTrip) {
  DecisionTree t = small_tree();
  t.features.ladders = false;
  t.training = {{"games", 3}};
  t.validation_curve = nlohmann::json::array({{{"leaves", 1}, {"top1", 0.1}}});
  const std::string path = tree_path("round");
  ASSERT_TRUE(save_tree(t, path).ok());
  auto file = read_model_file(path);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->header["kind"], "decision-tree");
  EXPECT_EQ(file->header["leaves"], 3);
  EXPECT_EQ(file->header["depth"], 2);
  EXPECT_EQ(file->header["features"]["orientation"], "canonical");
  EXPECT_EQ(file->header["features"]["ladders"], false);
  auto back = tree_from_file(*file, path);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->nodes.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back->nodes[i].question, t.nodes[i].question);
    EXPECT_EQ(back->nodes[i].child, t.nodes[i].child);
  }
  ASSERT_EQ(back->leaves.size(), 3u);
  EXPECT_EQ(back->leaves[2].probability, 0.25f);
  EXPECT_EQ(back->leaves[1].seen, 100.0f);
  EXPECT_FALSE(back->features.ladders);
  EXPECT_EQ(back->training["games"], 3);
  EXPECT_EQ(back->dump(), [&] { DecisionTree u = small_tree(); u.features.ladders = false; return u.dump(); }());
  auto g = load_guesser(path);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->name(), "tree (3 leaves)");
  EXPECT_EQ((*g)->info()["leaves"], 3);
  fs::remove(path);
}

// The payload of small_tree(), to damage.
struct Payload {
  std::vector<uint8_t> bytes;
  void put32(size_t at, uint32_t v) { std::memcpy(&bytes[at], &v, 4); }
  void putf(size_t at, float v) { std::memcpy(&bytes[at], &v, 4); }
};

TEST(TreeModel, RefusesDamage) {
  const std::string path = tree_path("damage");
  ASSERT_TRUE(save_tree(small_tree(), path).ok());
  const ModelFile good = *read_model_file(path);
  auto error_of = [&](const nlohmann::json& header, const std::string& payload) {
    EXPECT_TRUE(write_model_file(path, header, payload).ok());
    auto g = load_guesser(path);
    return g.ok() ? std::string("ok") : std::string(g.status().message());
  };
  auto contains = [](const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
  };
  EXPECT_EQ(error_of(good.header, good.payload), "ok");

  nlohmann::json h = good.header;
  h["feature_version"] = kTreeFeatureVersion + 1;
  EXPECT_TRUE(contains(error_of(h, good.payload), "retrain")) << error_of(h, good.payload);
  h = good.header;
  h["features"]["orientation"] = "sideways";
  EXPECT_TRUE(contains(error_of(h, good.payload), "unknown orientation 'sideways'"));
  h = good.header;
  h["features"].erase("ladders");
  EXPECT_TRUE(contains(error_of(h, good.payload), "ladders"));

  const std::string& p = good.payload;
  // Layout: 8 bytes of sizes, nodes of 13 bytes (input, values, no, yes), leaves of 12.
  EXPECT_TRUE(contains(error_of(good.header, p.substr(0, p.size() - 4)), "corrupt payload: 58 bytes for 2 questions and 3 leaves (expected 62)"));
  EXPECT_TRUE(contains(error_of(good.header, p + "abcd"), "corrupt payload"));
  EXPECT_TRUE(contains(error_of(good.header, p.substr(0, 5)), "truncated before the tree's size"));
  auto damaged = [&](const std::function<void(Payload&)>& damage) {
    Payload d{std::vector<uint8_t>(p.begin(), p.end())};
    damage(d);
    return error_of(good.header, std::string(d.bytes.begin(), d.bytes.end()));
  };
  EXPECT_TRUE(contains(damaged([](Payload& d) { d.put32(4, 4); }), "4 leaves for 2 questions"));
  EXPECT_TRUE(contains(damaged([](Payload& d) { d.bytes[8] = 200; }), "question 0 asks input 200"));
  EXPECT_TRUE(contains(damaged([](Payload& d) { d.put32(9, 0); }), "question 0 asks input"));
  EXPECT_TRUE(contains(damaged([](Payload& d) { d.put32(17, 0); }), "question 0 has a bad child 0"));
  EXPECT_TRUE(contains(damaged([](Payload& d) { d.put32(8 + 13 + 5, static_cast<uint32_t>(~0)); }),
                       "question 1 has a bad leaf 0"));  // leaf 0 twice
  EXPECT_TRUE(contains(damaged([](Payload& d) { d.put32(8 + 13 + 5, static_cast<uint32_t>(~7)); }), "bad leaf 7"));
  EXPECT_TRUE(contains(damaged([](Payload& d) { d.putf(8 + 26, 0.0f); }), "leaf 0 has probability"));
  EXPECT_TRUE(contains(damaged([](Payload& d) { d.putf(8 + 26 + 12, NAN); }), "leaf 1 has probability"));

  // A file cut short fails the container's check.
  {
    std::ifstream in_file(path, std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in_file), {}};
    std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() - 10);
  }
  auto g = load_guesser(path);
  ASSERT_FALSE(g.ok());
  EXPECT_TRUE(contains(std::string(g.status().message()), "truncated"));
  fs::remove(path);
}

}  // namespace
}  // namespace hane
