// Damaged SGF as real-world files have it: resynchronisation after an error in a file of
// several games, framing repairs (lenient) and their rejection with the offset (strict), and
// normalisations that must warn.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sgf/parser.h"
#include "sgf/record.h"

namespace hane {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> game_names(const ParseResult& r) {
  std::vector<std::string> out;
  for (const ParsedTree& t : r.trees) {
    const SgfProperty* gn = t.main_line()[0].find("GN");
    out.emplace_back(gn != nullptr ? std::string(gn->values[0]) : "?");
  }
  return out;
}

std::vector<std::string> repair_kinds(const ParsedTree& t) {
  std::vector<std::string> out;
  for (const SgfRepair& r : t.repairs()) out.emplace_back(r.kind);
  return out;
}

std::vector<std::string> warning_kinds(const GameRecord& r) {
  std::vector<std::string> out;
  for (const RecordWarning& w : r.warnings) out.push_back(w.kind);
  return out;
}

// --- 1. One broken game does not lose the games after it -----------------------------------

TEST(SgfResync, OverLongValueLosesOnlyItsGame) {
  ParseOptions options;
  options.max_value_bytes = 8;
  const std::string text = "(;GN[a];B[aa])\n(;GN[b]C[0123456789abc](;B[bb])(;B[cc]))\n(;GN[c];W[dd])";
  const ParseResult r = parse_sgf(text, options);
  EXPECT_THAT(game_names(r), ElementsAre("a", "c"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].tree_index, 1u);
  EXPECT_EQ(r.errors[0].offset, text.find("C[") + 1);
  EXPECT_THAT(r.errors[0].message, HasSubstr("longer than 8 bytes"));
  EXPECT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.message(), r.errors[0].message);
}

TEST(SgfResync, EveryBrokenGameIsNamedAndTheRestKept) {
  // Games 2 and 4 are broken (a stray byte, a node after a variation); 1, 3, 5 survive.
  const ParseResult r = parse_sgf(
      "(;GN[1];B[aa])(;GN[2];B[bb]#;W[cc])(;GN[3])(;GN[4](;B[aa]);W[bb])(;GN[5];B[ee])");
  EXPECT_THAT(game_names(r), ElementsAre("1", "3", "5"));
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].tree_index, 1u);
  EXPECT_THAT(r.errors[0].message, HasSubstr("unexpected '#'"));
  EXPECT_EQ(r.errors[1].tree_index, 2u);
  EXPECT_THAT(r.errors[1].message, HasSubstr("node after a variation"));
}

TEST(SgfResync, UnclosableBrokenGameResumesAtTheNextTreeStart) {
  // The broken game's parentheses never balance: reading resumes at the next "(;" after the
  // error.
  const ParseResult r = parse_sgf("(;GN[a]#((\n(;GN[b];B[aa])");
  EXPECT_THAT(game_names(r), ElementsAre("b"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].tree_index, 0u);
}

TEST(SgfResync, StrayCloseParenthesisAfterAGameIsNotedOnIt) {
  const ParseResult r = parse_sgf("(;GN[a];B[aa]))\n)(;GN[b];W[bb])");
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(game_names(r), ElementsAre("a", "b"));
  EXPECT_THAT(repair_kinds(r.trees[0]), ElementsAre("stray ')'", "stray ')'"));
  EXPECT_EQ(r.trees[0].repairs()[0].offset, 14u);
  EXPECT_TRUE(r.trees[1].repairs().empty());
}

TEST(SgfResync, ManyBrokenGamesStayLinear) {
  // Each of 20,000 games is broken; none closes. Must finish quickly and count them all.
  std::string text;
  for (int i = 0; i < 20'000; ++i) text += "(;B[aa]#[";
  const ParseResult r = parse_sgf(text);
  EXPECT_TRUE(r.trees.empty());
  EXPECT_EQ(r.errors.size(), 20'000u);
}

// --- 2. Framing repairs ------------------------------------------------------------------

TEST(SgfRepair, MissingSemicolonAfterParenthesis) {
  const ParseResult r = parse_sgf("(GM[1]SZ[9];B[ee](W[ff]))");
  ASSERT_TRUE(r.status.ok()) << r.status;
  ASSERT_EQ(r.trees.size(), 1u);
  const ParsedTree& t = r.trees[0];
  ASSERT_EQ(t.main_line().size(), 3u);
  EXPECT_NE(t.main_line()[0].find("SZ"), nullptr);
  EXPECT_NE(t.main_line()[2].find("W"), nullptr);
  EXPECT_THAT(repair_kinds(t), ElementsAre("missing ';'", "missing ';'"));
  EXPECT_EQ(t.repairs()[0].offset, 1u);
  EXPECT_THAT(t.repairs()[0].message, HasSubstr("byte 1 (line 1, column 2)"));
}

TEST(SgfRepair, FileCutAtTheEndIsClosed) {
  const ParseResult r = parse_sgf("(;GN[a])(;GN[b];B[aa](;W[bb];B[cc]");
  ASSERT_TRUE(r.status.ok()) << r.status;
  ASSERT_EQ(r.trees.size(), 2u);
  EXPECT_EQ(r.trees[1].main_line().size(), 4u);
  EXPECT_THAT(repair_kinds(r.trees[1]), ElementsAre("missing ')'"));
  EXPECT_THAT(r.trees[1].repairs()[0].message, HasSubstr("2 ')' missing"));
  EXPECT_EQ(r.trees[1].end_offset(), 34u);
}

TEST(SgfRepair, StrayClosingBracketBetweenNodes) {
  const ParseResult r = parse_sgf("(;GN[a];B[aa]];W[bb]\n] ;B[cc])");
  ASSERT_TRUE(r.status.ok()) << r.status;
  ASSERT_EQ(r.trees[0].main_line().size(), 4u);
  EXPECT_THAT(repair_kinds(r.trees[0]), ElementsAre("stray ']'", "stray ']'"));
  EXPECT_EQ(r.trees[0].repairs()[0].offset, 13u);
  EXPECT_THAT(r.trees[0].repairs()[1].message, HasSubstr("byte 21 (line 2, column 1)"));
}

TEST(SgfRepair, ControlBytesBetweenTokensAreNoted) {
  const std::string text("(;GN[a]\0\0;B[aa]\x01;W[bb])", 23);
  const ParseResult r = parse_sgf(text);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.trees[0].main_line().size(), 3u);
  ASSERT_THAT(repair_kinds(r.trees[0]), ElementsAre("control bytes"));
  EXPECT_EQ(r.trees[0].repairs()[0].offset, 7u);
  EXPECT_THAT(r.trees[0].repairs()[0].message, HasSubstr("3 control byte(s)"));
  EXPECT_THAT(r.trees[0].repairs()[0].message, HasSubstr("byte 0x00"));
  // Tabs, CR and LF are ordinary white space.
  EXPECT_TRUE(parse_sgf("(;GN[a]\t\r\n;B[aa])").trees[0].repairs().empty());
}

TEST(SgfRepair, LenientWarnsAndStrictRejectsWithTheOffset) {
  const ReadOptions strict{.strict = true, .parse = {}};
  struct Case {
    std::string text;
    std::string kind;
    std::string where;  // in the strict error
  };
  const std::vector<Case> cases = {
      {"(GM[1];B[aa])", "missing ';'", "byte 1 "},
      {"(;GM[1];B[aa]", "missing ')'", "byte 13 "},
      {"(;GM[1];B[aa]];W[bb])", "stray ']'", "byte 13 "},
      {"(;GM[1];B[aa]))", "stray ')'", "byte 14 "},
      {std::string("(;GM[1]\0;B[aa])", 15), "control bytes", "byte 7 "},
  };
  for (const Case& c : cases) {
    const absl::StatusOr<GameRecord> lenient = read_game(c.text);
    ASSERT_TRUE(lenient.ok()) << lenient.status();
    EXPECT_THAT(warning_kinds(*lenient), ElementsAre(c.kind)) << c.text;
    EXPECT_GE(lenient->num_moves(), 1u);
    const absl::StatusOr<GameRecord> rejected = read_game(c.text, strict);
    ASSERT_FALSE(rejected.ok()) << c.text;
    EXPECT_THAT(rejected.status().message(), HasSubstr("sgf: strict: " + c.where)) << c.text;
  }
}

// --- 3. Every normalisation warns; strict rejects every warning ---------------------------

TEST(SgfNormalisation, EachWarnsWithItsKindAndStrictRejectsIt) {
  const ReadOptions strict{.strict = true, .parse = {}};
  struct Case {
    std::string text;
    std::string kind;
  };
  const std::vector<Case> cases = {
      {"(;GM[1];B[  ];W[aa])", "blank move"},
      {"(;GM[1]KM[6,5];B[aa])", "komi"},
      {"(;GM[1]PL[white]AB[aa];W[bb])", "PL value"},
      {"(;GM[1]PL[w]AB[aa];W[bb])", "PL value"},
      {"(;GM[1]RU[Klingon];B[aa])", "unknown RU"},
      {"(;GM[];B[aa])", "empty GM"},
      {"(;GM[1]HA[3];B[aa])", "handicap"},
      {"(;GM[1]AB[tt];B[aa])", "setup point skipped"},
      {"(;GM[1]PB[a]PB[b];B[aa])", "several values"},
  };
  for (const Case& c : cases) {
    const absl::StatusOr<GameRecord> lenient = read_game(c.text);
    ASSERT_TRUE(lenient.ok()) << c.text << ": " << lenient.status();
    ASSERT_FALSE(lenient->warnings.empty()) << c.text;
    EXPECT_EQ(lenient->warnings[0].kind, c.kind) << c.text;
    EXPECT_THAT(lenient->warnings[0].message, HasSubstr("byte ")) << c.text;
    EXPECT_FALSE(read_game(c.text, strict).ok()) << c.text;
  }
  EXPECT_EQ(read_game("(;GM[1]KM[6,5])")->komi, 6.5);
  EXPECT_TRUE(read_game("(;B[ \n])")->events[0].vertex.is_pass());
}

TEST(SgfNormalisation, CleanSpellingsDoNotWarn) {
  const ReadOptions strict{.strict = true, .parse = {}};
  for (const std::string text : {"(;GM[1]KM[6.5];B[];W[aa])", "(;GM[1]PL[W]AB[aa];W[bb])",
                                 "(;GM[1]RU[Japanese];B[aa])", "(;GM[1];B[aa])"}) {
    const absl::StatusOr<GameRecord> r = read_game(text, strict);
    EXPECT_TRUE(r.ok()) << text << ": " << r.status();
  }
}

// --- 7. Boards over 25x25 -----------------------------------------------------------------

TEST(SgfBoardSize, OverTwentyFiveIsRefusedClearly) {
  for (const std::string size : {"26", "37", "52"}) {
    const absl::StatusOr<GameRecord> r = read_game("(;GM[1]SZ[" + size + "];B[aA])");
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.status().message(), HasSubstr("outside 2..25"));
    EXPECT_THAT(r.status().message(), HasSubstr("at most 25x25"));
  }
  // An upper-case coordinate on a board that has no such point.
  const absl::StatusOr<GameRecord> r = read_game("(;GM[1]SZ[25];B[aA])");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("outside 25x25 board"));
}

}  // namespace
}  // namespace hane
