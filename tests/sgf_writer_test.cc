#include "sgf/writer.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hane {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

GameRecord parse_ok(std::string_view text) {
  absl::StatusOr<GameRecord> r = read_game(text);
  EXPECT_TRUE(r.ok()) << r.status() << "\n" << text;
  return r.ok() ? *std::move(r) : GameRecord{};
}

// read -> write -> read gives the same record (but for warnings and skipped variations).
void expect_round_trip(std::string_view text) {
  GameRecord first = parse_ok(text);
  const std::string written = write_sgf(first);
  GameRecord second = parse_ok(written);
  first.warnings.clear();
  second.warnings.clear();
  first.num_variations = second.num_variations = 0;
  EXPECT_EQ(first, second) << "original:\n" << text << "\nwritten:\n" << written;
}

TEST(SgfWriterTest, WritesGameInfoSetupAndMoves) {
  GameRecord r;
  r.board_size = 9;
  r.komi = 6.5;
  r.handicap = 2;
  r.black_name = "Alice";
  r.white_name = "Bob";
  r.black_rank_text = "3k";
  r.result = "W+R";
  const Geometry g(9);
  r.setup.black = {g.at(2, 2), g.at(6, 6)};
  r.to_play = Color::kWhite;
  r.events = {GameEvent::move(Color::kWhite, g.at(4, 4)),
              GameEvent::move(Color::kBlack, Vertex::pass())};
  EXPECT_EQ(write_sgf(r),
            "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[6.5]HA[2]PB[Alice]BR[3k]PW[Bob]RE[W+R]"
            "AB[cc][gg]PL[W]\n;W[ee];B[])\n");
}

TEST(SgfWriterTest, EscapesBracketsAndBackslashes) {
  GameRecord r;
  r.black_name = "a]b\\c";
  r.comment = "see ] here";
  const std::string text = write_sgf(r);
  EXPECT_THAT(text, HasSubstr(R"(PB[a\]b\\c])"));
  EXPECT_THAT(text, HasSubstr(R"(C[see \] here])"));
  EXPECT_EQ(parse_ok(text).black_name, "a]b\\c");
}

TEST(SgfWriterTest, OmitsEmptyFieldsAndInferablePlayer) {
  GameRecord r;
  r.events = {GameEvent::move(Color::kBlack, Geometry(19).at(3, 3))};
  const std::string text = write_sgf(r);
  EXPECT_THAT(text, Not(HasSubstr("PB[")));
  EXPECT_THAT(text, Not(HasSubstr("PL[")));
  EXPECT_THAT(text, Not(HasSubstr("HA[")));
  r.to_play = Color::kWhite;  // not what the moves imply: must be written
  EXPECT_THAT(write_sgf(r), HasSubstr("PL[W]"));
  EXPECT_EQ(parse_ok(write_sgf(r)).to_play, Color::kWhite);
}

TEST(SgfWriterTest, RoundTripGameInfoAndText) {
  expect_round_trip(
      "(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]SZ[19]KM[7.5]PB[Lee \u674e]BR[9p]PW[W\\]x]WR[6d?]"
      "RE[B+0.5]DT[2001-01-01,02]RU[Chinese]EV[ev]GN[gn]PC[pc]C[multi\nline \\\\ comment\n]"
      ";B[pd];W[dp];B[];W[tt])");
}

TEST(SgfWriterTest, RoundTripCharsetsAreWrittenAsUtf8) {
  expect_round_trip("(;CA[GB2312]PB[\xC0\xEE\xB2\xFD]PW[\xFF];B[aa])");
  expect_round_trip("(;PB[M\xFCller];B[aa])");
  EXPECT_THAT(write_sgf(parse_ok("(;CA[latin1]PB[M\xFCller])")), HasSubstr("PB[M\u00fcller]"));
}

TEST(SgfWriterTest, RoundTripSetupAndEvents) {
  expect_round_trip("(;SZ[9]HA[3]AB[aa:bb][ee]AW[cc]AE[dd]PL[W];W[ff];B[gg];AE[aa]AB[hh]PL[B]"
                    ";B[ii];AW[ab];AB[ba];AE[bb];PL[W];PL[B];W[ca]B[cb];B[cc]AB[dd])");
  expect_round_trip("(;SZ[21]B[tt];W[];B[uu])");
  expect_round_trip("(;SZ[25]AB[yy]PL[B])");
  expect_round_trip("(;AB[dd][pp])");
}

TEST(SgfWriterTest, RoundTripKomi) {
  expect_round_trip("(;KM[0.1])");
  expect_round_trip("(;KM[-7.25])");
  expect_round_trip("(;KM[1e10])");
  expect_round_trip("(;AP[foxwq]KM[375])");
  expect_round_trip("(;AP[foxwq]KM[123456])");
  expect_round_trip("(;KM[6,5]HA[even])");
}

TEST(SgfWriterTest, RoundTripOfWrittenRecordIsStable) {
  const GameRecord r = parse_ok("(;SZ[13]AB[cc]AW[dd];B[ee];AE[cc];W[ff])");
  const std::string once = write_sgf(r);
  EXPECT_EQ(write_sgf(parse_ok(once)), once);
}

}  // namespace
}  // namespace hane
