// Replay, filters, split and the corpus reader.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "corpus/corpus.h"
#include "corpus/replay.h"
#include "go/random.h"

namespace hane {
namespace {

namespace fs = std::filesystem;

GameRecord record(std::string_view sgf) {
  auto r = read_game(sgf);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : GameRecord{};
}

TEST(Replay, GivesEveryPositionWithItsRecentMoves) {
  const GameRecord r = record("(;GM[1]SZ[9];B[ee];W[ce];B[];W[gg])");
  std::vector<std::string> seen;
  Board final_board(9);
  ASSERT_TRUE(replay(r, [&](const Position& p, Vertex played) {
                seen.push_back(std::to_string(p.move_number) + std::string(color_name(p.to_move)) + " " +
                               to_gtp(played, 9) + " after " + to_gtp(p.last_move, 9) + "," +
                               to_gtp(p.second_last_move, 9));
              }, &final_board).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"1black E5 after none,none", "2white C5 after E5,none",
                                            "3black pass after C5,E5", "4white G3 after pass,C5"}));
  EXPECT_EQ(final_board.num_stones(), 3);
}

TEST(Replay, HandicapStonesAndWhiteFirst) {
  const GameRecord r = record("(;GM[1]SZ[19]HA[2]AB[dd][pp];W[dp];B[pd])");
  std::vector<Color> to_move;
  ASSERT_TRUE(replay(r, [&](const Position& p, Vertex) {
                to_move.push_back(p.to_move);
                EXPECT_EQ(p.board->color(p.board->at(3, 3)), Color::kBlack);
              }).ok());
  EXPECT_EQ(to_move, (std::vector<Color>{Color::kWhite, Color::kBlack}));
}

TEST(Replay, IllegalMoveIsRejectedWithItsNumber) {
  const auto s = replay(record("(;GM[1]SZ[9];B[ee];W[dd];B[dd])"), {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "move 3 (B dd): occupied (Japanese rules, assumed)");
  // Retaking a ko at once is illegal too.
  const auto ko = replay(record("(;GM[1]SZ[9]AB[bb][ac][bd]AW[cb][bc][dc][cd];B[cc];W[bc])"), {});
  ASSERT_FALSE(ko.ok());
  EXPECT_EQ(ko.message(), "move 2 (W bc): ko (Japanese rules, assumed)");
}

TEST(Replay, SetupWithoutLibertiesIsRejected) {
  const auto s = replay(record("(;GM[1]SZ[9]AB[aa]AW[ba][ab];B[ee])"), {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("setup leaves a chain without liberties at aa"), absl::string_view::npos);
}

TEST(Replay, MidGameSetupAndPlayerToMove) {
  const GameRecord r = record("(;GM[1]SZ[9];B[ee];AW[dd]PL[W];W[ff])");
  std::vector<Color> to_move;
  int stones = 0;
  ASSERT_TRUE(replay(r, [&](const Position& p, Vertex) {
                to_move.push_back(p.to_move);
                stones = p.board->num_stones();
              }).ok());
  EXPECT_EQ(to_move, (std::vector<Color>{Color::kBlack, Color::kWhite}));
  EXPECT_EQ(stones, 2);  // E5 and the setup stone at D6
}

TEST(Filter, EachReason) {
  GameRecord r = record("(;GM[1]SZ[19]BR[6d]WR[5d]PB[Zen19X]PW[someone];B[dd];W[pp])");
  FilterOptions f;
  EXPECT_EQ(filter_out_reason(r, f), "");
  f.min_rank = parse_rank("6d");
  EXPECT_EQ(filter_out_reason(r, f), "rank");
  f.min_rank = parse_rank("5d");
  EXPECT_EQ(filter_out_reason(r, f), "");
  f.min_moves = 3;
  EXPECT_EQ(filter_out_reason(r, f), "too few moves");
  f.min_moves = 2;
  f.bots = {"zen19x"};
  EXPECT_EQ(filter_out_reason(r, f), "bot");
  f.bots.clear();
  f.handicap = HandicapGames::kOnly;
  EXPECT_EQ(filter_out_reason(r, f), "handicap");
  f.handicap = HandicapGames::kAny;
  f.board_size = 9;
  EXPECT_EQ(filter_out_reason(r, f), "board size");
  GameRecord unknown = record("(;GM[1]SZ[19];B[dd])");
  FilterOptions g;
  g.min_rank = parse_rank("1k");
  EXPECT_EQ(filter_out_reason(unknown, g), "rank");
  EXPECT_TRUE(is_handicap_game(record("(;GM[1]SZ[19]AB[dd][pp];W[dp])")));
  EXPECT_TRUE(is_handicap_game(record("(;GM[1]SZ[19]HA[3];W[dp])")));
  EXPECT_FALSE(is_handicap_game(unknown));
}

TEST(Split, IsStableAndNinetyFiveFive) {
  // The split must never change: a game's split is part of every published figure.
  const GameRecord r = record("(;GM[1]SZ[19];B[pd];W[dp];B[pp];W[dd])");
  EXPECT_EQ(game_hash(r), 0x2bb614f28fb01c3eull) << std::hex << game_hash(r);
  // Same moves, different metadata: same game.
  EXPECT_EQ(game_hash(r), game_hash(record("(;GM[1]SZ[19]PB[x]KM[6.5];B[pd];W[dp];B[pp];W[dd])")));
  EXPECT_NE(game_hash(r), game_hash(record("(;GM[1]SZ[19];B[pd];W[dp];B[pp];W[dc])")));
  int counts[3] = {};
  Rng rng(5);
  for (int i = 0; i < 20'000; ++i) ++counts[static_cast<int>(split_of(rng.next()))];
  EXPECT_NEAR(counts[0], 18'000, 300);
  EXPECT_NEAR(counts[1], 1'000, 120);
  EXPECT_NEAR(counts[2], 1'000, 120);
  EXPECT_EQ(parse_split("validation"), Split::kValidation);
  EXPECT_EQ(parse_split("dev"), std::nullopt);
}

class CorpusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hane_corpus_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  fs::path dir_;
};

TEST_F(CorpusTest, CountsEveryGameAndEveryReason) {
  write("a.sgf", "(;GM[1]SZ[19];B[pd];W[dp];B[pp])");
  write("b.sgf", "(;GM[1]SZ[19];B[pd];W[dp];B[pp])");  // duplicate of a
  write("c.sgf", "(;GM[1]SZ[19];B[pd];W[pd])");        // illegal
  write("d.sgf", "(;GM[1]SZ[19];B[pd]#)");              // broken
  write("e.sgf", "(;GM[1]SZ[9];B[ee])");               // 9x9, filtered out
  write("f.sgf", "(;GM[1]SZ[19];B[aa])(;GM[1]SZ[19];B[bb];W[cc])");  // two games
  write("g.sgf", "(;GM[1]SZ[19];B[zz])");              // off the board
  write("notes.txt", "not a game");
  CorpusOptions o;
  o.progress = false;
  std::vector<std::string> names;
  const CorpusStats s = read_corpus({dir_.string()}, o, [&](CorpusGame&& g) {
    names.push_back(fs::path(g.source).filename().string() + "#" + std::to_string(g.tree));
  });
  EXPECT_EQ(names, (std::vector<std::string>{"a.sgf#0", "f.sgf#0", "f.sgf#1"}));
  EXPECT_EQ(s.games_read, 8);
  EXPECT_EQ(s.games_kept, 3);
  EXPECT_EQ(s.positions, 3 + 1 + 2);
  EXPECT_EQ(s.rejected.at("duplicate").count, 1);
  EXPECT_EQ(s.rejected.at("illegal move").count, 1);
  EXPECT_EQ(s.rejected.at("sgf syntax").count, 1);
  EXPECT_EQ(s.rejected.at("board size").count, 1);
  EXPECT_EQ(s.rejected.at("sgf record").count, 1);
  EXPECT_NE(s.rejected.at("illegal move").examples[0].find("c.sgf: move 2 (W pd): occupied"), std::string::npos)
      << s.rejected.at("illegal move").examples[0];
  EXPECT_NE(s.rejected.at("sgf syntax").examples[0].find("d.sgf: sgf: byte"), std::string::npos);
  EXPECT_EQ(s.source.skipped_entries, 1);
}

TEST_F(CorpusTest, SplitsPartitionTheGames) {
  Rng rng(9);
  for (int i = 0; i < 200; ++i) {
    std::string sgf = "(;GM[1]SZ[19]";
    for (int m = 0; m < 6; ++m) sgf += std::string(";") + (m % 2 ? "W[" : "B[") + char('a' + m) + char('a' + rng.below(19)) + "]";
    write("g" + std::to_string(i) + ".sgf", sgf + ")");
  }
  CorpusOptions o;
  o.progress = false;
  int64_t total = 0;
  std::vector<uint64_t> all;
  for (Split split : {Split::kTrain, Split::kValidation, Split::kTest}) {
    o.split = split;
    const CorpusStats s = read_corpus({dir_.string()}, o, [&](CorpusGame&& g) {
      EXPECT_EQ(g.split, split);
      all.push_back(g.hash);
    });
    total += s.games_kept;
    EXPECT_EQ(s.games_kept + s.other_split + (s.rejected.count("duplicate") ? s.rejected.at("duplicate").count : 0), 200);
  }
  o.split = Split::kAll;
  EXPECT_EQ(load_corpus({dir_.string()}, o).size(), static_cast<size_t>(total));
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::unique(all.begin(), all.end()), all.end());
}

TEST(CorpusKgs, ReadsTheSharedArchives) {
  const fs::path kgs = fs::path(HANE_SHARED_DIR) / "datasets" / "kgs";
  if (!fs::exists(kgs)) GTEST_SKIP() << "no KGS archives at " << kgs << " (checks on the big data skip here)";
  CorpusOptions o;
  o.progress = false;
  o.max_games = 2000;
  const CorpusStats s = read_corpus({(kgs / "KGS-2001-19-2298-.tar.gz").string()}, o, [](CorpusGame&&) {});
  EXPECT_EQ(s.games_kept, 2000);
  EXPECT_EQ(s.rejected.count("unreadable"), 0u);
}

}  // namespace
}  // namespace hane
