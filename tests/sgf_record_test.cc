#include "sgf/record.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hane {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

GameRecord read_ok(std::string_view text, bool strict = false) {
  ReadOptions options;
  options.strict = strict;
  absl::StatusOr<GameRecord> r = read_game(text, options);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : GameRecord{};
}

absl::Status read_error(std::string_view text, bool strict = false) {
  ReadOptions options;
  options.strict = strict;
  absl::StatusOr<GameRecord> r = read_game(text, options);
  EXPECT_FALSE(r.ok()) << text;
  return r.status();
}

const ReadOptions kStrict{.strict = true, .parse = {}};

Vertex at(int size, int x, int y) { return Geometry(size).at(x, y); }

bool has_warning(const GameRecord& r, std::string_view fragment) {
  for (const RecordWarning& w : r.warnings) {
    if (w.message.find(fragment) != std::string::npos) return true;
  }
  return false;
}

TEST(SgfRecordTest, GameInfo) {
  const GameRecord r = read_ok(
      "(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]SZ[13]KM[6.5]HA[0]PB[Alice]BR[3k]PW[Bob]WR[2d?]"
      "RE[W+3.5]DT[2017-01-02]RU[Japanese]EV[Cup]GN[Final]PC[Tokyo]C[Hello\nthere];B[aa])");
  EXPECT_EQ(r.board_size, 13);
  EXPECT_EQ(r.komi, 6.5);
  EXPECT_EQ(r.handicap, 0);
  EXPECT_EQ(r.black_name, "Alice");
  EXPECT_EQ(r.white_name, "Bob");
  EXPECT_EQ(r.black_rank_text, "3k");
  EXPECT_EQ(r.white_rank_text, "2d?");
  EXPECT_EQ(r.black_rank, (Rank{-3, 0, false}));
  EXPECT_EQ(r.white_rank, (Rank{2, 0, true}));
  EXPECT_EQ(r.result, "W+3.5");
  EXPECT_EQ(r.date, "2017-01-02");
  EXPECT_EQ(r.rules, "Japanese");
  EXPECT_EQ(r.application, "CGoban:3");
  EXPECT_EQ(r.event, "Cup");
  EXPECT_EQ(r.game_name, "Final");
  EXPECT_EQ(r.place, "Tokyo");
  EXPECT_EQ(r.comment, "Hello\nthere");
  EXPECT_THAT(r.events, ElementsAre(GameEvent::move(Color::kBlack, at(13, 0, 0))));
  EXPECT_EQ(r.num_moves(), 1u);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SgfRecordTest, GameInfoOutsideTheRootIsFound) {
  const GameRecord r = read_ok("(;SZ[9];PB[Alice]KM[5.5];W[aa]PB[Other])");
  EXPECT_EQ(r.black_name, "Alice");
  EXPECT_EQ(r.komi, 5.5);
}

TEST(SgfRecordTest, MissingSizeIs19) { EXPECT_EQ(read_ok("(;B[ss])").board_size, 19); }

TEST(SgfRecordTest, BadSizes) {
  EXPECT_THAT(read_error("(;SZ[1];B[aa])").message(), HasSubstr("outside 2..25"));
  EXPECT_THAT(read_error("(;SZ[26])").message(), HasSubstr("outside 2..25"));
  EXPECT_THAT(read_error("(;SZ[0])").message(), HasSubstr("outside 2..25"));
  EXPECT_THAT(read_error("(;SZ[big])").message(), HasSubstr("not a board size"));
  EXPECT_THAT(read_error("(;SZ[19:13])").message(), HasSubstr("non-square"));
  EXPECT_EQ(read_ok("(;SZ[13:13])").board_size, 13);
  EXPECT_EQ(read_ok("(;SZ[ 25 ])").board_size, 25);
  EXPECT_EQ(read_ok("(;SZ[2])").board_size, 2);
}

TEST(SgfRecordTest, OnlyGo) {
  EXPECT_THAT(read_error("(;GM[2];B[aa])").message(), HasSubstr("not a Go game"));
  EXPECT_EQ(read_ok("(;GM[1];B[aa])").num_moves(), 1u);
  EXPECT_TRUE(has_warning(read_ok("(;GM[];B[aa])"), "GM[] is empty"));
}

TEST(SgfRecordTest, CompressedPointLists) {
  const GameRecord r = read_ok("(;SZ[9]AB[aa:cb][ee]AW[gg:ff]AE[ii])");
  EXPECT_THAT(r.setup.black, ElementsAre(at(9, 0, 0), at(9, 1, 0), at(9, 2, 0), at(9, 0, 1),
                                         at(9, 1, 1), at(9, 2, 1), at(9, 4, 4)));
  EXPECT_THAT(r.setup.white, ElementsAre(at(9, 5, 5), at(9, 6, 5), at(9, 5, 6), at(9, 6, 6)));
  EXPECT_THAT(r.setup.empty_points, ElementsAre(at(9, 8, 8)));
  EXPECT_THAT(read_error("(;SZ[9]AB[aa:jj])").message(), HasSubstr("outside 9x9 board"));
  EXPECT_THAT(read_error("(;SZ[9]AB[aa:])").message(), HasSubstr("malformed"));
}

TEST(SgfRecordTest, Passes) {
  const GameRecord r = read_ok("(;FF[3];B[];W[tt];B[ ])");
  EXPECT_THAT(r.events, ElementsAre(GameEvent::move(Color::kBlack, Vertex::pass()),
                                    GameEvent::move(Color::kWhite, Vertex::pass()),
                                    GameEvent::move(Color::kBlack, Vertex::pass())));
}

TEST(SgfRecordTest, TtIsAPointOnLargeBoards) {
  const GameRecord r = read_ok("(;SZ[21];B[tt];W[])");
  EXPECT_THAT(r.events, ElementsAre(GameEvent::move(Color::kBlack, at(21, 19, 19)),
                                    GameEvent::move(Color::kWhite, Vertex::pass())));
}

TEST(SgfRecordTest, OffBoardMoveIsAnErrorNotAPass) {
  const absl::Status s = read_error("(;SZ[19];B[aa];W[zz])");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("move 2: point 'zz' outside 19x19 board (node at byte 14)"));
  EXPECT_THAT(read_error("(;SZ[9];B[jj])").message(),
              HasSubstr("move 1: point 'jj' outside 9x9 board"));
  EXPECT_THAT(read_error("(;B[abc])").message(), HasSubstr("move 1: point 'abc' malformed"));
  EXPECT_THAT(read_error("(;B[a1])").message(), HasSubstr("malformed"));
  EXPECT_THAT(read_error("(;SZ[9];AB[zz])").message(), HasSubstr("AB: point 'zz' outside"));
}

TEST(SgfRecordTest, TtOrEmptyInSetupIsSkipped) {
  const GameRecord r = read_ok("(;AB[tt][dd][])");
  EXPECT_THAT(r.setup.black, ElementsAre(at(19, 3, 3)));
  EXPECT_TRUE(has_warning(r, "not a point"));
  EXPECT_FALSE(read_game("(;AB[tt])", kStrict).ok());
}

TEST(SgfRecordTest, EscapesInText) {
  const GameRecord r = read_ok(R"((;PB[a\]b]PW[c\\d]C[x\:y\\\]z]))");
  EXPECT_EQ(r.black_name, "a]b");
  EXPECT_EQ(r.white_name, R"(c\d)");
  EXPECT_EQ(r.comment, R"(x:y\]z)");
}

TEST(SgfRecordTest, LineEndingsInTextBecomeNewlines) {
  const GameRecord r = read_ok("(;C[one\r\ntwo\rthree\n\rfour\nfive\ttab])");
  EXPECT_EQ(r.comment, "one\ntwo\nthree\nfour\nfive tab");
}

TEST(SgfRecordTest, SoftLineBreaksAreRemoved) {
  EXPECT_EQ(read_ok("(;C[abc\\\ndef\\\r\nghi\\\rjkl])").comment, "abcdefghijkl");
  EXPECT_EQ(read_ok("(;PB[Hon\\\ninbo])").black_name, "Honinbo");
}

TEST(SgfRecordTest, SimpleTextTurnsLineBreaksIntoSpacesAndTrims) {
  const GameRecord r = read_ok("(;PB[  John\r\nSmith ]RE[\nB+R\n])");
  EXPECT_EQ(r.black_name, "John Smith");
  EXPECT_EQ(r.result, "B+R");
}

TEST(SgfRecordTest, CharsetLatin1) {
  EXPECT_EQ(read_ok("(;CA[ISO-8859-1]PB[M\xFCller])").black_name, "M\u00fcller");
  EXPECT_EQ(read_ok("(;CA[latin1]PW[Jos\xE9])").white_name, "Jos\u00e9");
}

TEST(SgfRecordTest, CharsetGb2312) {
  const GameRecord r = read_ok(
      "(;CA[gb2312]PB[\xC0\xEE\xB2\xFD]PW[\xB3\xA3\xEA\xBB]C[\xC6\xE5])");
  EXPECT_EQ(r.black_name, "\u674e\u660c");  // 李昌
  EXPECT_EQ(r.white_name, "\u5e38\u660a");  // 常昊
  EXPECT_EQ(r.comment, "\u68cb");           // 棋
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SgfRecordTest, CharsetGbkAndBig5) {
  // GBK-only character (not in GB2312): 鎬 = E6 80.
  EXPECT_EQ(read_ok("(;CA[GBK]PB[\xE6\x80])").black_name, "\u93ac");
  // Big5: 曹薰鉉 = B1 E4 C2 C8 B9 62.
  EXPECT_EQ(read_ok("(;CA[Big5]PB[\xB1\xE4\xC2\xC8\xB9\x62])").black_name,
            "\u66f9\u85b0\u9249");
}

TEST(SgfRecordTest, CharsetUtf8) {
  const GameRecord r = read_ok("(;CA[utf-8]PB[\u674e\u660c\u9550])");
  EXPECT_EQ(r.black_name, "\u674e\u660c\u9550");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SgfRecordTest, UndecodableBytesBecomeReplacementCharacters) {
  const GameRecord gb = read_ok("(;CA[GB2312]PB[\xC0\xEE\xFF\xB2\xFD];B[aa])");
  EXPECT_EQ(gb.black_name, "\u674e\ufffd\u660c");
  EXPECT_EQ(gb.num_moves(), 1u);
  EXPECT_TRUE(has_warning(gb, "U+FFFD"));
  const GameRecord utf8 = read_ok("(;CA[UTF-8]PB[a\xC3(b\xFF])");
  EXPECT_EQ(utf8.black_name, "a\ufffd(b\ufffd");
  EXPECT_FALSE(read_game("(;CA[UTF-8]PB[a\xFF])", kStrict).ok());
}

TEST(SgfRecordTest, NoCharsetFallsBackToLatin1ForInvalidUtf8) {
  const GameRecord valid = read_ok("(;PB[\u00fcml\u00e4ut])");
  EXPECT_EQ(valid.black_name, "\u00fcml\u00e4ut");
  EXPECT_TRUE(valid.warnings.empty());
  const GameRecord latin1 = read_ok("(;PB[M\xFCller])");
  EXPECT_EQ(latin1.black_name, "M\u00fcller");
  EXPECT_TRUE(has_warning(latin1, "Latin-1"));
  EXPECT_THAT(read_error("(;PB[M\xFCller])", true).message(), HasSubstr("Latin-1"));
}

TEST(SgfRecordTest, UnknownCharsetWarns) {
  const GameRecord r = read_ok("(;CA[klingon]PB[abc])");
  EXPECT_EQ(r.black_name, "abc");
  EXPECT_TRUE(has_warning(r, "unknown charset"));
}

TEST(SgfRecordTest, KomiOddities) {
  const GameRecord empty = read_ok("(;KM[])");
  EXPECT_EQ(empty.komi, 0);
  EXPECT_TRUE(has_warning(empty, "KM[] is empty"));
  EXPECT_EQ(read_ok("(;KM[6,5])").komi, 6.5);
  EXPECT_EQ(read_ok("(;KM[ -3.5 ])").komi, -3.5);
  EXPECT_EQ(read_ok("(;KM[+0.5])").komi, 0.5);
  const GameRecord fox = read_ok("(;AP[foxwq]KM[375])");
  EXPECT_EQ(fox.komi, 7.5);
  EXPECT_TRUE(fox.warnings.empty());
  EXPECT_EQ(read_ok("(;AP[FoxWQ:1.0]KM[325])").komi, 6.5);
  EXPECT_EQ(read_ok("(;AP[foxwq]KM[6.5])").komi, 6.5);
  // Fox writes two AP values; the Fox one wins, without a warning.
  const GameRecord fox2 = read_ok("(;KM[375]AP[GNU Go:3.8]BR[P9\u6bb5]WR[5\u6bb5]AP[foxwq])");
  EXPECT_EQ(fox2.komi, 7.5);
  EXPECT_EQ(fox2.application, "foxwq");
  EXPECT_EQ(fox2.black_rank, (Rank{0, 9, false}));
  EXPECT_EQ(fox2.white_rank, (Rank{5, 0, false}));
  EXPECT_TRUE(fox2.warnings.empty());
  const GameRecord absurd = read_ok("(;KM[375])");
  EXPECT_EQ(absurd.komi, 375);
  EXPECT_TRUE(has_warning(absurd, "absurd komi"));
  const GameRecord junk = read_ok("(;KM[six])");
  EXPECT_EQ(junk.komi, 0);
  EXPECT_TRUE(has_warning(junk, "not a number"));
  const GameRecord suffix = read_ok("(;KM[5.5 points])");
  EXPECT_EQ(suffix.komi, 5.5);
  EXPECT_TRUE(has_warning(suffix, "text after the number"));
  EXPECT_THAT(read_error("(;KM[])", true).message(), HasSubstr("strict: KM[] is empty"));
}

TEST(SgfRecordTest, HandicapOddities) {
  const GameRecord even = read_ok("(;HA[even])");
  EXPECT_EQ(even.handicap, 0);
  EXPECT_TRUE(has_warning(even, "not a number"));
  const GameRecord bare = read_ok("(;HA[4];W[aa])");
  EXPECT_EQ(bare.handicap, 4);
  EXPECT_TRUE(bare.setup.black.empty());
  EXPECT_TRUE(has_warning(bare, "no stones placed"));
  const GameRecord placed = read_ok("(;HA[2]AB[dd][pp];W[aa])");
  EXPECT_EQ(placed.handicap, 2);
  EXPECT_EQ(placed.setup.black.size(), 2u);
  EXPECT_TRUE(placed.warnings.empty());
  EXPECT_EQ(read_ok("(;HA[-1])").handicap, 0);
}

TEST(SgfRecordTest, SideToMove) {
  EXPECT_EQ(read_ok("(;AB[dd]PL[B];B[aa])").to_play, Color::kBlack);
  EXPECT_EQ(read_ok("(;AB[dd]PL[w];B[aa])").to_play, Color::kWhite);
  EXPECT_EQ(read_ok("(;;W[aa];B[bb])").to_play, Color::kWhite);
  EXPECT_EQ(read_ok("(;AB[dd][pp])").to_play, Color::kWhite);
  EXPECT_EQ(read_ok("(;GM[1])").to_play, Color::kBlack);
  EXPECT_EQ(read_ok("(;AB[dd]AW[pp])").to_play, Color::kBlack);
  EXPECT_TRUE(has_warning(read_ok("(;PL[X])"), "PL[X]"));
}

TEST(SgfRecordTest, SameColourTwiceIsKept) {
  const GameRecord r = read_ok("(;B[aa];B[bb];W[cc])");
  EXPECT_THAT(r.events, ElementsAre(GameEvent::move(Color::kBlack, at(19, 0, 0)),
                                    GameEvent::move(Color::kBlack, at(19, 1, 1)),
                                    GameEvent::move(Color::kWhite, at(19, 2, 2))));
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SgfRecordTest, MidGameSetupAndPlayer) {
  const GameRecord r = read_ok("(;SZ[9]AB[cc];B[aa];PL[W]AW[bb]AE[aa];W[dd])");
  EXPECT_THAT(r.setup.black, ElementsAre(at(9, 2, 2)));
  EXPECT_THAT(r.events, ElementsAre(GameEvent::move(Color::kBlack, at(9, 0, 0)),
                                    GameEvent::setup(Color::kEmpty, at(9, 0, 0)),
                                    GameEvent::setup(Color::kWhite, at(9, 1, 1)),
                                    GameEvent::to_play(Color::kWhite),
                                    GameEvent::move(Color::kWhite, at(9, 3, 3))));
}

TEST(SgfRecordTest, MixedNodesAreOrderedAndWarned) {
  const GameRecord r = read_ok("(;SZ[9];W[bb]AB[cc]B[aa])");
  EXPECT_THAT(r.events, ElementsAre(GameEvent::setup(Color::kBlack, at(9, 2, 2)),
                                    GameEvent::move(Color::kBlack, at(9, 0, 0)),
                                    GameEvent::move(Color::kWhite, at(9, 1, 1))));
  EXPECT_TRUE(has_warning(r, "both B and W"));
  EXPECT_TRUE(has_warning(r, "mixes setup and a move"));
  const GameRecord merged = read_ok("(;SZ[9];B[aa]B[bb])");
  EXPECT_EQ(merged.num_moves(), 2u);
  EXPECT_TRUE(has_warning(merged, "2 B values"));
}

TEST(SgfRecordTest, MovesInRootAndMainLineOnly) {
  const GameRecord r = read_ok("(;SZ[9]B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee]))");
  EXPECT_THAT(r.events, ElementsAre(GameEvent::move(Color::kBlack, at(9, 0, 0)),
                                    GameEvent::move(Color::kWhite, at(9, 1, 1)),
                                    GameEvent::move(Color::kBlack, at(9, 2, 2))));
  EXPECT_EQ(r.num_variations, 2u);
}

TEST(SgfRecordTest, LowerCaseIdentifiers) {
  const GameRecord r = read_ok("(;GaMe[1]SiZe[9]PlayerBlack[Go Seigen];Black[cc];White[dd])");
  EXPECT_EQ(r.board_size, 9);
  EXPECT_EQ(r.black_name, "Go Seigen");
  EXPECT_THAT(r.events, ElementsAre(GameEvent::move(Color::kBlack, at(9, 2, 2)),
                                    GameEvent::move(Color::kWhite, at(9, 3, 3))));
}

TEST(SgfRecordTest, MgtStyleFile) {
  const GameRecord r = read_ok(
      "\n(;SZ[19]PW[Sekiyama Riichi]PB[Kato Shin]KM[0]TM[13h]RE[B+R]GM[1]FF[3]DT[1941-]BS[0]"
      "WS[0];B[pd];W[dc]\n;B[pp])\n");
  EXPECT_EQ(r.white_name, "Sekiyama Riichi");
  EXPECT_EQ(r.num_moves(), 3u);
}

TEST(SgfRecordTest, SeveralTreesWarnAndSyntaxErrorsAfterTheFirst) {
  const GameRecord r = read_ok("(;PB[a])(;PB[b])(;C[x]#)");
  EXPECT_EQ(r.black_name, "a");
  EXPECT_TRUE(has_warning(r, "1 more game trees ignored"));
  EXPECT_TRUE(has_warning(r, "ignored after the first game tree"));
  ParseResult parsed = parse_sgf("(;PB[a])(;PB[b])");
  ASSERT_EQ(parsed.trees.size(), 2u);
  absl::StatusOr<GameRecord> second = to_record(parsed.trees[1]);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->black_name, "b");
}

TEST(SgfRecordTest, SyntaxErrorsPassThrough) {
  EXPECT_THAT(read_error("(;B[aa]#)").message(), HasSubstr("sgf: byte 7"));
  EXPECT_THAT(read_error("").message(), HasSubstr("empty input"));
}

TEST(SgfRecordTest, ParseRank) {
  struct Case {
    std::string text;
    Rank rank;
  };
  const std::vector<Case> cases = {
      {"6d", {6, 0, false}},       {"2k", {-2, 0, false}},      {"3p", {0, 3, false}},
      {"6d?", {6, 0, true}},       {"1 dan", {1, 0, false}},    {"", {}},
      {"9 Dan", {9, 0, false}},    {"30k", {-30, 0, false}},    {" 12 Kyu ", {-12, 0, false}},
      {"9d, Tengen", {9, 0, false}}, {"9P", {0, 9, false}},      {"7 pro", {0, 7, false}},
      {"Meijin", {}},              {"-", {}},                   {"?", {}},
      {"10d", {}},                 {"0k", {}},                  {"51k", {}},
      {"9f", {}},                  {"9days", {}},               {"100k", {}},
      {"\u4e5d\u6bb5", {9, 0, false}}, {"5\u7d1a", {-5, 0, false}},
      {"3\u7ea7", {-3, 0, false}}, {"2\u6bb5", {2, 0, false}},
      {"P9\u6bb5", {0, 9, false}}, {"p3d", {0, 3, false}},   {"P5k", {}},
      {"Pro", {}},                 {"7\ub2e8", {7, 0, false}}, {"4\uae09", {-4, 0, false}},
  };
  for (const Case& c : cases) EXPECT_EQ(parse_rank(c.text), c.rank) << c.text;
  EXPECT_EQ((Rank{6, 0, true}).to_string(), "6d?");
  EXPECT_EQ((Rank{-2, 0, false}).to_string(), "2k");
  EXPECT_EQ((Rank{0, 3, false}).to_string(), "3p");
  EXPECT_EQ(Rank{}.to_string(), "");
  EXPECT_FALSE(Rank{}.known());
}

TEST(SgfRecordTest, StrictAcceptsCleanGames) {
  const GameRecord r = read_ok("(;GM[1]FF[4]SZ[19]KM[7.5]PB[a]PW[b];B[pd];W[dp])", true);
  EXPECT_EQ(r.num_moves(), 2u);
}

}  // namespace
}  // namespace hane
