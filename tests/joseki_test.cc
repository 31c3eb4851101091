// The joseki dictionary: corner keys alike in every corner, orientation and colour; the trainer
// on tiny records (a sequence repeated in every corner and orientation is found in all of them
// with its reply counts, a rare one is dropped); the model file and its corrupt forms; the
// search's joseki bonus; the command line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_run.h"
#include "features/corner.h"
#include "go/game.h"
#include "predict/joseki.h"
#include "predict/load.h"
#include "search/search.h"
#include "sgf/record.h"
#include "test_files.h"
#include "train/joseki_train.h"

namespace hane {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

constexpr int kSize = 19;
constexpr int kRegion = 9;

// One of the 8 board symmetries, as the corner a local sequence is played in and whether it
// is read transposed.
struct Symmetry {
  int corner = 0;
  bool transposed = false;
};

std::vector<Symmetry> all_symmetries() {
  std::vector<Symmetry> out;
  for (int corner = 0; corner < kNumCorners; ++corner) {
    for (bool t : {false, true}) out.push_back({corner, t});
  }
  return out;
}

// The board point of local (i, j) — i lines from the corner's left or right edge, j from its
// top or bottom edge — under `s`.
Vertex point(const Geometry& g, Symmetry s, std::pair<int, int> local) {
  auto [a, b] = local;
  if (s.transposed) std::swap(a, b);
  return g.at((s.corner & 1) ? g.size - 1 - a : a, (s.corner & 2) ? g.size - 1 - b : b);
}

using Sequence = std::vector<std::pair<int, int>>;
// A 4-4 point, a low approach, a knight's move answer and an extension: the repeated line.
const Sequence kJoseki = {{3, 3}, {5, 2}, {2, 5}, {8, 2}};
// The same start with another third move, in two games only.
const Sequence kRare = {{3, 3}, {5, 2}, {5, 3}, {6, 3}};

// `moves` of `sequence` played alternately from `first` under `s`, on an otherwise empty board.
Board board_after(const Sequence& sequence, size_t moves, Symmetry s, Color first) {
  Board b(kSize);
  Color c = first;
  for (size_t m = 0; m < moves; ++m) {
    EXPECT_EQ(b.play(point(b.geometry(), s, sequence[m]), c), Legality::kLegal);
    c = opponent(c);
  }
  return b;
}

// A record of `sequence` alone, played under `s` from `first`.
std::string sgf_of(const Sequence& sequence, Symmetry s, Color first, int size = kSize) {
  const Geometry g(size);
  std::string sgf = "(;GM[1]FF[4]SZ[" + std::to_string(size) + "]";
  Color c = first;
  for (const auto& local : sequence) {
    sgf += std::string(";") + (c == Color::kBlack ? "B[" : "W[") + to_sgf(point(g, s, local), size) + "]";
    c = opponent(c);
  }
  return sgf + ")";
}

CorpusGame game_of(const std::string& sgf, uint64_t hash) {
  auto r = read_game(sgf);
  EXPECT_TRUE(r.ok()) << r.status();
  CorpusGame g;
  g.record = *r;
  g.hash = hash;
  return g;
}

// kJoseki in every one of the 8 symmetries, Black first in half of them and White in the
// others; kRare in two games; one 9x9 game.
std::vector<CorpusGame> training_games() {
  std::vector<CorpusGame> games;
  int n = 0;
  for (Symmetry s : all_symmetries()) {
    games.push_back(game_of(sgf_of(kJoseki, s, n % 2 ? Color::kWhite : Color::kBlack), games.size()));
    ++n;
  }
  games.push_back(game_of(sgf_of(kRare, {1, true}, Color::kBlack), games.size()));
  games.push_back(game_of(sgf_of(kRare, {3, false}, Color::kWhite), games.size()));
  games.push_back(game_of(sgf_of({{3, 3}, {5, 2}}, {0, false}, Color::kBlack, 9), games.size()));
  return games;
}

JosekiTrainOptions small_options() {
  JosekiTrainOptions o;
  o.region = kRegion;
  o.min_games = 3;
  o.min_reply_games = 2;
  o.progress = false;
  return o;
}

// The replies corner_replies() gives in corner `corner` (points in its box), by point.
std::vector<std::pair<Vertex, float>> replies_in(const JosekiDictionary& d, const Board& b, Color to_move,
                                                 int move_number, int corner) {
  std::vector<JosekiMove> out;
  d.corner_replies(b, to_move, move_number, kAllCorners, out);
  std::vector<std::pair<Vertex, float>> in;
  for (const JosekiMove& m : out) {
    if (corner_index(b.geometry(), corner, d.region(), CornerReading::kAsIs, m.move) != kTenuki) in.push_back({m.move, m.share});
  }
  std::sort(in.begin(), in.end());
  return in;
}

TEST(JosekiCorner, KeysAreAlikeInEveryCornerOrientationAndColour) {
  const Board reference = board_after(kJoseki, 3, {0, false}, Color::kBlack);
  const CornerPosition r = read_corner(reference, 0, kRegion);
  EXPECT_EQ(r.stones, 3);
  EXPECT_NE(r.key[0], r.key[1]);  // the side to move matters
  for (Symmetry s : all_symmetries()) {
    for (Color first : {Color::kBlack, Color::kWhite}) {
      const Board b = board_after(kJoseki, 3, s, first);
      const CornerPosition p = read_corner(b, s.corner, kRegion);
      // Seen from the side to move: the same whoever began.
      EXPECT_EQ(p.key[side_index(opponent(first))], r.key[side_index(Color::kWhite)]) << s.corner << s.transposed;
      EXPECT_EQ(p.key[side_index(first)], r.key[side_index(Color::kBlack)]);
      // The other corners are empty: key 0 for either side.
      for (int k = 0; k < kNumCorners; ++k) {
        if (k == s.corner) continue;
        EXPECT_EQ(read_corner(b, k, kRegion).key, (std::array<uint64_t, 2>{0, 0}));
      }
    }
  }
  // A stone moved out of the box changes nothing; one moved inside changes the key.
  Board outside = reference, inside = reference;
  outside.play(outside.at(kRegion, 0), Color::kWhite);
  inside.play(inside.at(kRegion - 1, 0), Color::kWhite);
  EXPECT_EQ(read_corner(outside, 0, kRegion).key, r.key);
  EXPECT_NE(read_corner(inside, 0, kRegion).key, r.key);
}

TEST(JosekiCorner, LocalIndicesRoundTripUnderEveryReading) {
  const Geometry g(kSize);
  for (int corner = 0; corner < kNumCorners; ++corner) {
    for (CornerReading reading : {CornerReading::kAsIs, CornerReading::kTransposed, CornerReading::kSymmetric}) {
      for (int x = 0; x < kSize; ++x) {
        for (int y = 0; y < kSize; ++y) {
          const Vertex v = g.at(x, y);
          const uint16_t index = corner_index(g, corner, kRegion, reading, v);
          const bool in_box = ((corner & 1) ? kSize - 1 - x : x) < kRegion && ((corner & 2) ? kSize - 1 - y : y) < kRegion;
          ASSERT_EQ(index != kTenuki, in_box) << corner << " " << x << "," << y;
          if (!in_box) continue;
          std::array<Vertex, 2> points;
          const int n = corner_points(g, corner, kRegion, reading, index, points);
          EXPECT_TRUE(std::find(points.begin(), points.begin() + n, v) != points.begin() + n);
          EXPECT_EQ(n, reading == CornerReading::kSymmetric && index / kRegion != index % kRegion ? 2 : 1);
        }
      }
    }
  }
  EXPECT_EQ(corner_index(g, 0, kRegion, CornerReading::kAsIs, Vertex::pass()), kTenuki);
}

TEST(JosekiTrain, FindsTheSequenceInAllSymmetriesWithItsReplyCountsAndDropsTheRareOne) {
  const JosekiDictionary d = train_joseki(training_games(), {}, small_options());
  // The empty corner, the 4-4 point, the approach, the knight's move; not kRare's third move.
  EXPECT_EQ(d.size(), 4u);
  EXPECT_EQ(d.training["games"], 10);
  EXPECT_EQ(d.training["games_other_size"], 1);
  EXPECT_EQ(d.training["distinct_positions"], 5);
  EXPECT_EQ(d.training["positions_dropped"], 1);
  // Every corner at each of the 4 moves of 10 games.
  EXPECT_EQ(d.training["occurrences"], 160);
  const JosekiEntry* empty = d.find(0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(empty->occurrences, 130u);  // the other 3 corners at each move, the played one at move 1
  EXPECT_EQ(empty->games, 10u);
  ASSERT_EQ(empty->num_replies, 1);
  EXPECT_EQ(d.replies(*empty)[0].index, 3 * kRegion + 3);  // the 4-4 point
  EXPECT_EQ(d.replies(*empty)[0].count, 10u);

  for (Symmetry s : all_symmetries()) {
    for (Color first : {Color::kBlack, Color::kWhite}) {
      SCOPED_TRACE(std::to_string(s.corner) + (s.transposed ? " transposed, " : ", ") + std::string(color_name(first)) + " first");
      const Board board(kSize);
      const Geometry& g = board.geometry();
      // After the approach: the knight's move 8 times of 10, kRare's move twice.
      const Board approach = board_after(kJoseki, 2, s, first);
      const std::vector<std::pair<Vertex, float>> want2 = [&] {
        std::vector<std::pair<Vertex, float>> w = {{point(g, s, kJoseki[2]), 0.8f}, {point(g, s, kRare[2]), 0.2f}};
        std::sort(w.begin(), w.end());
        return w;
      }();
      const auto got2 = replies_in(d, approach, first, 3, s.corner);
      ASSERT_EQ(got2.size(), 2u);
      for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(got2[i].first, want2[i].first) << to_gtp(got2[i].first, kSize);
        EXPECT_FLOAT_EQ(got2[i].second, want2[i].second);
      }
      // After the knight's move: the extension, every time.
      const Board knight = board_after(kJoseki, 3, s, first);
      const auto got3 = replies_in(d, knight, opponent(first), 4, s.corner);
      ASSERT_EQ(got3.size(), 1u);
      EXPECT_EQ(got3[0].first, point(g, s, kJoseki[3]));
      EXPECT_FLOAT_EQ(got3[0].second, 1.0f);
      // The 4-4 stone alone is symmetric: the approach and its mirror image are one reply.
      const auto got1 = replies_in(d, board_after(kJoseki, 1, s, first), opponent(first), 2, s.corner);
      ASSERT_EQ(got1.size(), 2u);
      EXPECT_FLOAT_EQ(got1[0].second, 1.0f);
      // kRare's third move was seen in two games, fewer than --min-games 3.
      const Board rare = board_after(kRare, 3, s, first);
      EXPECT_EQ(d.find(read_corner(rare, s.corner, kRegion).key[side_index(opponent(first))]), nullptr);
      // Nothing after the dictionary's last move, nor on another board size.
      EXPECT_TRUE(replies_in(d, knight, opponent(first), d.max_moves() + 1, s.corner).empty());
    }
  }
  std::vector<JosekiMove> out;
  EXPECT_EQ(d.corner_replies(Board(13), Color::kBlack, 1, kAllCorners, out), 0);
  EXPECT_TRUE(out.empty());
}

TEST(JosekiTrain, OnlyTheOpeningAndCornersOfFewStonesAreRead) {
  JosekiTrainOptions o = small_options();
  o.max_moves = 2;  // positions before moves 1 and 2
  const JosekiDictionary early = train_joseki(training_games(), {}, o);
  EXPECT_EQ(early.size(), 2u);  // the empty corner and the 4-4 point
  EXPECT_EQ(early.training["occurrences"], 80);
  o = small_options();
  o.max_stones = 1;  // a corner of two stones is left alone
  const JosekiDictionary few = train_joseki(training_games(), {}, o);
  EXPECT_EQ(few.size(), 2u);
  EXPECT_EQ(few.training["occurrences"], 10 * (4 + 4 + 3 + 3));  // the played corner left after move 2
}

TEST(JosekiTrain, ValidationCountsKnownPositionsAndHits) {
  std::vector<CorpusGame> validation;
  validation.push_back(game_of(sgf_of(kJoseki, {2, true}, Color::kBlack), 100));
  validation.push_back(game_of(sgf_of(kRare, {0, false}, Color::kBlack), 101));
  const JosekiDictionary d = train_joseki(training_games(), validation, small_options());
  const JosekiValidation v = measure_joseki(d, validation);
  EXPECT_EQ(v.games, 2);
  EXPECT_EQ(v.occurrences, 32);
  EXPECT_EQ(v.local_moves, 8);
  // Known: all but kRare's last position (7 of 8 local moves; 31 of 32 positions).
  EXPECT_DOUBLE_EQ(v.known_local, 7.0 / 8);
  EXPECT_DOUBLE_EQ(v.known, 31.0 / 32);
  // Most played reply: all 4 of kJoseki's, kRare's first two (its third is the second reply).
  EXPECT_DOUBLE_EQ(v.top1, 6.0 / 7);
  EXPECT_DOUBLE_EQ(v.listed, 1.0);
  EXPECT_EQ(d.training["validation"]["games"], 2);
}

TEST(JosekiModel, RoundTripsThroughItsFile) {
  const JosekiDictionary d = train_joseki(training_games(), {}, small_options());
  const std::string path = testing::temp_path("joseki", "round.model");
  ASSERT_TRUE(save_joseki(d, path).ok());
  auto loaded = load_joseki(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const JosekiDictionary& l = **loaded;
  EXPECT_EQ(l.board_size(), kSize);
  EXPECT_EQ(l.region(), kRegion);
  EXPECT_EQ(l.max_moves(), d.max_moves());
  EXPECT_EQ(l.max_stones(), d.max_stones());
  ASSERT_EQ(l.size(), d.size());
  for (size_t i = 0; i < d.size(); ++i) {
    const JosekiEntry &a = d.entries()[i], &b = l.entries()[i];
    EXPECT_EQ(a.key, b.key);
    EXPECT_EQ(a.occurrences, b.occurrences);
    EXPECT_EQ(a.games, b.games);
    ASSERT_EQ(a.num_replies, b.num_replies);
    for (int r = 0; r < a.num_replies; ++r) {
      EXPECT_EQ(d.replies(a)[r].index, l.replies(b)[r].index);
      EXPECT_EQ(d.replies(a)[r].count, l.replies(b)[r].count);
    }
  }
  EXPECT_EQ(l.training, d.training);
  // Model info's line; not a guesser.
  auto line = describe_model(path);
  ASSERT_TRUE(line.ok()) << line.status();
  EXPECT_THAT(*line, HasSubstr("joseki dictionary: 4 corner positions"));
  auto guesser = load_guesser(path);
  ASSERT_FALSE(guesser.ok());
  EXPECT_THAT(guesser.status().message(), HasSubstr("not a move guesser"));
  fs::remove(path);
}

// A payload as save_joseki writes it: the parameters, then the entries as given.
struct RawEntry {
  uint64_t key;
  uint32_t occurrences, games;
  std::vector<std::pair<uint16_t, uint32_t>> replies;
};
std::string payload(uint32_t size, uint32_t region, std::vector<RawEntry> entries, uint32_t count_said = UINT32_MAX) {
  PayloadWriter w;
  for (uint32_t v : {size, region, 80u, 20u, count_said == UINT32_MAX ? static_cast<uint32_t>(entries.size()) : count_said}) w.u32(v);
  for (const RawEntry& e : entries) {
    w.u64(e.key);
    w.u32(e.occurrences);
    w.u32(e.games);
    w.u16(static_cast<uint16_t>(e.replies.size()));
    for (auto [index, count] : e.replies) {
      w.u16(index);
      w.u32(count);
    }
  }
  return w.bytes();
}

TEST(JosekiModel, CorruptFilesAreClearErrors) {
  const std::string path = testing::temp_path("joseki", "corrupt.model");
  const nlohmann::json header = {{"kind", "joseki"}, {"feature_version", kCornerKeyVersion}};
  auto error_of = [&](const nlohmann::json& h, const std::string& bytes) {
    EXPECT_TRUE(write_model_file(path, h, bytes).ok());
    auto d = load_joseki(path);
    EXPECT_FALSE(d.ok());
    EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(d.status().message(), HasSubstr(path));
    return std::string(d.status().message());
  };
  const RawEntry good{5, 10, 3, {{30, 4}, {23, 2}}};
  // A good file first, so that the errors below are the corruptions'.
  ASSERT_TRUE(write_model_file(path, header, payload(19, 9, {good})).ok());
  ASSERT_TRUE(load_joseki(path).ok());
  EXPECT_THAT(error_of(header, payload(19, 9, {good, {5, 10, 3, {}}})), HasSubstr("keys out of order"));
  EXPECT_THAT(error_of(header, payload(19, 9, {{5, 10, 3, {{81, 1}}}})), HasSubstr("outside the corner's box"));
  EXPECT_THAT(error_of(header, payload(19, 9, {{5, 10, 3, {{30, 8}, {23, 7}}}})), HasSubstr("above the occurrences"));
  EXPECT_THAT(error_of(header, payload(19, 9, {{5, 10, 3, {{30, 1}, {23, 2}}}})), HasSubstr("falling"));
  EXPECT_THAT(error_of(header, payload(19, 20, {good})), HasSubstr("at most the board size"));
  EXPECT_THAT(error_of(header, payload(40, 9, {good})), HasSubstr("board size 40"));
  EXPECT_THAT(error_of(header, payload(19, 9, {good}, 3)), HasSubstr("entries cannot fit"));
  EXPECT_THAT(error_of(header, payload(19, 9, {good}) + "xy"), HasSubstr("after the last entry"));
  const std::string cut = payload(19, 9, {good});
  EXPECT_THAT(error_of(header, cut.substr(0, cut.size() - 3)), HasSubstr("truncated"));
  EXPECT_THAT(error_of(header, cut.substr(0, 10)), HasSubstr("truncated"));
  nlohmann::json old = header;
  old["feature_version"] = kCornerKeyVersion + 1;
  EXPECT_THAT(error_of(old, payload(19, 9, {good})), HasSubstr("retrain"));
  nlohmann::json other = header;
  other["kind"] = "gamma";
  EXPECT_THAT(error_of(other, payload(19, 9, {good})), HasSubstr("not a joseki dictionary"));
  // A flipped byte of a saved dictionary: the container's checksum.
  ASSERT_TRUE(write_model_file(path, header, payload(19, 9, {good})).ok());
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  bytes[bytes.size() - 5] ^= 0x40;
  std::ofstream(path, std::ios::binary) << bytes;
  auto flipped = load_joseki(path);
  ASSERT_FALSE(flipped.ok());
  EXPECT_THAT(flipped.status().message(), HasSubstr("checksum"));
  fs::remove(path);
}

// The search: a dictionary whose only entry answers a black 4-4 stone with White's 1-1 point
// (a poor move, played every time) leads a small search there only with the joseki bonus.
TEST(JosekiSearch, TheBonusMakesTheDictionaryReplyTheMostVisited) {
  Game game(kSize);
  ASSERT_EQ(game.play(game.board().at(3, 3)), Legality::kLegal);  // D16, Black
  const Board& b = game.board();
  const CornerPosition p = read_corner(b, 0, kRegion);
  const int side = side_index(Color::kWhite);
  const Vertex reply = b.at(0, 0);
  auto d = JosekiDictionary::create(kSize, kRegion, 80, 20);
  ASSERT_TRUE(d.ok());
  const JosekiReply r{corner_index(b.geometry(), 0, kRegion, p.reading[side], reply), 50};
  ASSERT_TRUE(d->add(p.key[side], 50, 10, {&r, 1}).ok());
  const std::string path = testing::temp_path("joseki", "search.model");
  ASSERT_TRUE(save_joseki(*d, path).ok());

  SearchLimits limits;
  limits.playouts = 300;
  SearchOptions with{.joseki = path, .joseki_weight = 60};
  auto joseki = Search::create(with);
  ASSERT_TRUE(joseki.ok()) << joseki.status();
  const SearchResult a = (*joseki)->search(game, Color::kWhite, limits);
  EXPECT_EQ(a.move, reply) << to_gtp(a.move, kSize);
  // That was the bonus: with the same seed, the search without a dictionary differs, visit for
  // visit. Three playouts expand the root only (before the first), where the bonus draws every
  // visit to the dictionary's reply. With Black to move the position is another: no bonus, so
  // the two searches are the same.
  Game black_to_move = game;
  ASSERT_EQ(black_to_move.play(Vertex::pass()), Legality::kLegal);
  ASSERT_EQ(black_to_move.play(Vertex::pass()), Legality::kLegal);
  SearchLimits few;
  few.playouts = 3;
  auto visits = [&](const SearchOptions& o, const Game& g, Color to_play) {
    auto search = Search::create(o);
    EXPECT_TRUE(search.ok());
    std::vector<std::pair<int, int64_t>> out;
    for (const MoveStats& c : (*search)->search(g, to_play, few).children) out.emplace_back(c.move.index(), c.visits);
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto white_with = visits(with, game, Color::kWhite);
  EXPECT_NE(white_with, visits({}, game, Color::kWhite));
  EXPECT_EQ(white_with, (std::vector<std::pair<int, int64_t>>{{reply.index(), 3}}));
  const auto black_with = visits(with, black_to_move, Color::kBlack);
  EXPECT_EQ(black_with, visits({}, black_to_move, Color::kBlack));
  EXPECT_FALSE(black_with.empty());
  // A bad file or weight: an error from create.
  EXPECT_FALSE(Search::create({.joseki = path + ".missing"}).ok());
  EXPECT_FALSE(Search::create({.joseki = path, .joseki_weight = -1}).ok());
  fs::remove(path);
}

// The command line: train joseki, model info, the engine options and their errors.
TEST(JosekiCli, TrainsAndTheEngineTakesTheDictionary) {
  if (!fs::exists(HANE_BINARY)) GTEST_SKIP() << "hane not built: " << HANE_BINARY;
  const fs::path dir = testing::temp_path("joseki", "cli");
  fs::create_directories(dir / "games");
  int n = 0;
  for (Symmetry s : all_symmetries()) {
    std::ofstream(dir / "games" / ("g" + std::to_string(n++) + ".sgf")) << sgf_of(kJoseki, s, Color::kBlack);
  }
  auto run = [&](const std::string& args, const std::string& input = "") { return testing::run_hane(args, input, dir); };
  const std::string model = (dir / "j.model").string();
  const std::string games = (dir / "games").string() + " --split all --threads 1";
  const auto train = run("train joseki " + games + " --min-games 3 --out " + model + " --json " + (dir / "j.json").string());
  ASSERT_EQ(train.code, 0) << train.err;
  EXPECT_THAT(train.out, HasSubstr("4 corner positions with"));
  EXPECT_THAT(train.err, HasSubstr("corner positions in 8 games"));
  std::ifstream json(dir / "j.json");
  EXPECT_EQ(nlohmann::json::parse(json)["positions"], 4);
  const auto info = run("model info " + model);
  EXPECT_EQ(info.code, 0) << info.err;
  EXPECT_THAT(info.out, HasSubstr("joseki dictionary: 4 corner positions"));
  EXPECT_EQ(run("model info --dump " + model).code, 1);
  const auto eval = run("eval " + games + " -m " + model);
  EXPECT_EQ(eval.code, 1);
  EXPECT_THAT(eval.err, HasSubstr("not a move guesser"));
  EXPECT_EQ(run("train joseki " + games + " --size 0 --out " + model).code, 2);
  EXPECT_EQ(run("train joseki " + games + " --region 14 --out " + model).code, 2);
  EXPECT_EQ(run("train joseki " + games + " --size 7 --region 9 --out " + model).code, 2);

  const std::string engine = "gtp --policy uniform --prior none --playouts 50 --joseki ";
  const auto gtp = run(engine + model + " --joseki-weight 30", "genmove b\nquit\n");
  EXPECT_EQ(gtp.code, 0) << gtp.err;
  EXPECT_THAT(gtp.err, HasSubstr("joseki " + model + " (weight 30)"));
  EXPECT_THAT(gtp.out, HasSubstr("= "));
  EXPECT_EQ(run(engine + (dir / "missing.model").string(), "quit\n").code, 2);
  EXPECT_EQ(run(engine + model + " --joseki-weight -1", "quit\n").code, 2);
  // A model of another kind: the work fails (exit 1) with the reason.
  std::ofstream(dir / "games" / "x.txt") << "not a model";
  const auto wrong = run(engine + (dir / "games" / "x.txt").string(), "quit\n");
  EXPECT_EQ(wrong.code, 1);
  EXPECT_THAT(wrong.err, HasSubstr("not a hane model file"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hane
