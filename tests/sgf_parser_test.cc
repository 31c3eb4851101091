#include "sgf/parser.h"

#include <random>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace hane {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> values(const SgfNode& node, std::string_view id) {
  std::vector<std::string> out;
  if (const SgfProperty* p = node.find(id)) {
    for (std::string_view v : p->values) out.emplace_back(v);
  }
  return out;
}

std::vector<std::string> ids(const SgfNode& node) {
  std::vector<std::string> out;
  for (const SgfProperty& p : node.properties) out.emplace_back(p.id);
  return out;
}

ParsedTree parse_one(std::string_view text) {
  ParseResult r = parse_sgf(text);
  EXPECT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.trees.size(), 1u);
  if (r.trees.empty()) return {};
  return std::move(r.trees.front());
}

TEST(SgfParserTest, ReadsMainLineNodesAndProperties) {
  const ParsedTree t = parse_one("(;GM[1]SZ[9];B[aa];W[bb])");
  ASSERT_EQ(t.main_line().size(), 3u);
  EXPECT_THAT(ids(t.main_line()[0]), ElementsAre("GM", "SZ"));
  EXPECT_THAT(values(t.main_line()[0], "SZ"), ElementsAre("9"));
  EXPECT_THAT(values(t.main_line()[1], "B"), ElementsAre("aa"));
  EXPECT_THAT(values(t.main_line()[2], "W"), ElementsAre("bb"));
  EXPECT_EQ(t.main_line()[1].offset, 12u);
  EXPECT_EQ(t.main_line()[0].find("XX"), nullptr);
  EXPECT_EQ(t.num_variations(), 0u);
  EXPECT_EQ(t.begin_offset(), 0u);
  EXPECT_EQ(t.end_offset(), 25u);
}

TEST(SgfParserTest, WhiteSpaceAndLineBreaksBetweenTokens) {
  const ParsedTree t = parse_one(" \r\n( \t; AB \n [aa]\r\n[bb] \r;\nW\r\n[cc] \n) \n");
  ASSERT_EQ(t.main_line().size(), 2u);
  EXPECT_THAT(values(t.main_line()[0], "AB"), ElementsAre("aa", "bb"));
  EXPECT_THAT(values(t.main_line()[1], "W"), ElementsAre("cc"));
}

TEST(SgfParserTest, EscapedBracketsDoNotEndValues) {
  const ParsedTree t = parse_one(R"((;C[a\]b\\]GN[x\\\]y];B[aa]))");
  ASSERT_EQ(t.main_line().size(), 2u);
  EXPECT_THAT(values(t.main_line()[0], "C"), ElementsAre(R"(a\]b\\)"));
  EXPECT_THAT(values(t.main_line()[0], "GN"), ElementsAre(R"(x\\\]y)"));
  EXPECT_THAT(values(t.main_line()[1], "B"), ElementsAre("aa"));
}

TEST(SgfParserTest, EmptyValue) {
  const ParsedTree t = parse_one("(;B[]W[])");
  EXPECT_THAT(values(t.main_line()[0], "B"), ElementsAre(""));
}

TEST(SgfParserTest, SkipsByteOrderMarkAndLeadingJunk) {
  EXPECT_EQ(parse_one("\xEF\xBB\xBF(;B[aa])").main_line().size(), 1u);
  const ParsedTree t = parse_one("From: someone (not SGF)\r\nSubject: game (1)\n(;GN[g];B[aa])");
  ASSERT_EQ(t.main_line().size(), 2u);
  EXPECT_THAT(values(t.main_line()[0], "GN"), ElementsAre("g"));
}

TEST(SgfParserTest, IgnoresTrailingJunk) {
  ParseResult r = parse_sgf("(;B[aa])\n\x1A garbage here");
  EXPECT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.trees.size(), 1u);
}

TEST(SgfParserTest, LowerCaseLettersInIdentifiersAreDropped) {
  const ParsedTree t = parse_one("(;GaMe[1]SiZe[9]PlayerBlack[Shusaku];Black[cc];White[dd])");
  EXPECT_THAT(ids(t.main_line()[0]), ElementsAre("GM", "SZ", "PB"));
  EXPECT_THAT(values(t.main_line()[1], "B"), ElementsAre("cc"));
  EXPECT_THAT(values(t.main_line()[2], "W"), ElementsAre("dd"));
}

TEST(SgfParserTest, IdentifierWithoutCapitalIsAnError) {
  ParseResult r = parse_sgf("(;abc[1])");
  EXPECT_FALSE(r.status.ok());
  EXPECT_THAT(r.status.message(), HasSubstr("byte 2 "));
  EXPECT_THAT(r.status.message(), HasSubstr("no capital letter"));
}

TEST(SgfParserTest, RepeatedPropertyInANodeIsMerged) {
  const ParsedTree t = parse_one("(;AB[aa]AW[bb]AB[cc][dd]AW[ee]C[x];AB[ff]AB[gg])");
  EXPECT_THAT(ids(t.main_line()[0]), ElementsAre("AB", "AW", "C"));
  EXPECT_THAT(values(t.main_line()[0], "AB"), ElementsAre("aa", "cc", "dd"));
  EXPECT_THAT(values(t.main_line()[0], "AW"), ElementsAre("bb", "ee"));
  EXPECT_THAT(values(t.main_line()[0], "C"), ElementsAre("x"));
  EXPECT_THAT(values(t.main_line()[1], "AB"), ElementsAre("ff", "gg"));
}

TEST(SgfParserTest, ManyRepeatedPropertiesAreMerged) {
  std::string text = "(;";
  for (int i = 0; i < 1000; ++i) text += (i % 2 ? "AW[" : "AB[") + std::to_string(i) + "]";
  text += ")";
  const ParsedTree t = parse_one(text);
  ASSERT_EQ(t.main_line()[0].properties.size(), 2u);
  EXPECT_EQ(t.main_line()[0].find("AB")->values.size(), 500u);
  EXPECT_EQ(t.main_line()[0].find("AW")->values[499], "999");
}

TEST(SgfParserTest, MainLineIsFirstChildAndVariationsAreCounted) {
  const ParsedTree t =
      parse_one("(;GM[1](;B[aa];W[bb](;B[cc];W[ee])(;B[dd](;W[ff])(;W[gg])))(;B[hh]))");
  std::vector<std::string> line;
  for (const SgfNode& n : t.main_line()) {
    for (const SgfProperty& p : n.properties) line.push_back(std::string(p.id) + std::string(p.values[0]));
  }
  EXPECT_THAT(line, ElementsAre("GM1", "Baa", "Wbb", "Bcc", "Wee"));
  EXPECT_EQ(t.num_variations(), 4u);  // (;B[dd]..), (;W[ff]), (;W[gg]), (;B[hh])
}

TEST(SgfParserTest, SeveralTreesInOneFile) {
  const std::string text = "(;GN[a])\n(;GN[b];B[aa])  (;GN[c])";
  ParseResult r = parse_sgf(text);
  ASSERT_TRUE(r.status.ok()) << r.status;
  ASSERT_EQ(r.trees.size(), 3u);
  EXPECT_THAT(values(r.trees[1].main_line()[0], "GN"), ElementsAre("b"));
  EXPECT_EQ(r.trees[1].main_line().size(), 2u);
  EXPECT_EQ(r.trees[1].begin_offset(), 9u);
  EXPECT_EQ(text.substr(r.trees[2].begin_offset(),
                        r.trees[2].end_offset() - r.trees[2].begin_offset()),
            "(;GN[c])");
}

TEST(SgfParserTest, BrokenTreeKeepsTreesBeforeIt) {
  ParseResult r = parse_sgf("(;GN[a])\n(;GN[b];B[aa]#)");
  EXPECT_EQ(r.trees.size(), 1u);
  EXPECT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status.message(), HasSubstr("byte 22 (line 2, column 14)"));
  EXPECT_THAT(r.status.message(), HasSubstr("unexpected '#'"));
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].offset, 22u);
  EXPECT_EQ(r.errors[0].tree_index, 1u);
}

TEST(SgfParserTest, UnterminatedValueNamesItsOffset) {
  ParseResult r = parse_sgf("(;GN[a])\n(;C[abc\\]");
  EXPECT_EQ(r.trees.size(), 1u);
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(r.status.message(), HasSubstr("byte 12 (line 2, column 4)"));
  EXPECT_THAT(r.status.message(), HasSubstr("unterminated value of property C"));
}

TEST(SgfParserTest, LineNumbersCountCrLfAndCr) {
  ParseResult r = parse_sgf("(;GN[a]\r\n;B[aa]\r;W[bb]\r\n#)");
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(r.status.message(), HasSubstr("byte 24 (line 4, column 1)"));
  EXPECT_THAT(r.status.message(), HasSubstr("unexpected '#'"));
}

TEST(SgfParserTest, SyntaxErrors) {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"", "byte 0 (line 1, column 1): empty input"},
      {"  \n ", "no game tree"},
      {"hello (world)", "no game tree"},
      {"(;B)", "byte 3 (line 1, column 4): property B without a value"},
      {"(;B[aa](;W[bb])C[x])", "byte 15 (line 1, column 16): property outside a node"},
      {"(;B[aa](;W[bb]);B[cc])", "byte 15 (line 1, column 16): node after a variation"},
      {"(;B[aa]())", "byte 8 (line 1, column 9): game tree without nodes"},
      {"(;B[aa]\x01\xFF)", "unexpected byte 0xFF"},
      {"(;B[aa]1)", "byte 7 (line 1, column 8): unexpected '1'"},
      {"(;B[aa](", "byte 8 (line 1, column 9): game tree without nodes"},
      {"(;B[aa](B)", "byte 8 (line 1, column 9): game tree without nodes"},
  };
  for (const Case& c : cases) {
    ParseResult r = parse_sgf(c.text);
    EXPECT_FALSE(r.status.ok()) << c.text;
    EXPECT_THAT(r.status.message(), HasSubstr(c.message)) << c.text;
    EXPECT_THAT(r.status.message(), HasSubstr("sgf: byte ")) << c.text;
  }
}

TEST(SgfParserTest, ValueSizeLimit) {
  ParseOptions options;
  options.max_value_bytes = 10;
  EXPECT_TRUE(parse_sgf("(;C[0123456789])", options).status.ok());
  ParseResult r = parse_sgf("(;C[0123456789A])", options);
  EXPECT_FALSE(r.status.ok());
  EXPECT_THAT(r.status.message(), HasSubstr("byte 3 "));
  EXPECT_THAT(r.status.message(), HasSubstr("longer than 10 bytes"));
}

TEST(SgfParserTest, EnormousValue) {
  std::string big(900'000, 'x');
  const std::string text = "(;C[" + big + "];B[aa])";  // must outlive the parse result
  ParseResult ok = parse_sgf(text);
  ASSERT_TRUE(ok.status.ok()) << ok.status;
  EXPECT_EQ(ok.trees[0].main_line()[0].find("C")->values[0].size(), big.size());
  big.assign(2'000'000, '\\');  // even run of backslashes: the ']' after it closes the value
  ParseResult too_big = parse_sgf("(;GN[a])(;C[" + big + "];B[aa])");
  EXPECT_EQ(too_big.trees.size(), 1u);
  EXPECT_THAT(too_big.status.message(), HasSubstr("byte 11 "));
  EXPECT_THAT(too_big.status.message(), HasSubstr("longer than 1048576 bytes"));
}

TEST(SgfParserTest, HundredThousandNestedMainLineTrees) {
  constexpr int kDepth = 100'000;
  std::string text = "(;GM[1]";
  for (int i = 0; i < kDepth; ++i) text += i % 2 ? "(;W[bb]" : "(;B[aa]";
  text += std::string(kDepth + 1, ')');
  const ParsedTree t = parse_one(text);
  EXPECT_EQ(t.main_line().size(), kDepth + 1u);
  EXPECT_EQ(t.num_variations(), 0u);
  EXPECT_THAT(values(t.main_line()[kDepth], "W"), ElementsAre("bb"));
}

TEST(SgfParserTest, HundredThousandNestedVariations) {
  constexpr int kDepth = 100'000;
  std::string text = "(;GM[1](;B[aa])";
  for (int i = 0; i < kDepth; ++i) text += "(;B[bb]";
  text += std::string(kDepth + 1, ')');
  const ParsedTree t = parse_one(text);
  EXPECT_EQ(t.main_line().size(), 2u);
  EXPECT_EQ(t.num_variations(), static_cast<size_t>(kDepth));
  // Unclosed: repaired at the end of input, naming how many ')' were missing.
  ParseResult cut = parse_sgf(text.substr(0, text.size() - kDepth));
  ASSERT_TRUE(cut.status.ok()) << cut.status;
  ASSERT_EQ(cut.trees.size(), 1u);
  ASSERT_EQ(cut.trees[0].repairs().size(), 1u);
  EXPECT_EQ(cut.trees[0].repairs()[0].kind, "missing ')'");
  EXPECT_THAT(cut.trees[0].repairs()[0].message, HasSubstr("100000 ')' missing"));
}

TEST(SgfParserTest, RandomBytesDoNotCrash) {
  std::mt19937 rng(12345);
  const std::string tokens[] = {"(", ")", ";", "[", "]", "\\", "B", "W", "AB", "aa", "\n",
                                "(;", "GM[1]", "SZ[19]", "\xEF\xBB\xBF", "x", " ", "\xFF"};
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const int len = rng() % 200;
    for (int i = 0; i < len; ++i) {
      if (round % 2) {
        text.push_back(static_cast<char>(rng() & 0xFF));
      } else {
        text += tokens[rng() % std::size(tokens)];
      }
    }
    ParseResult r = parse_sgf(text);
    for (const ParsedTree& t : r.trees) {
      EXPECT_FALSE(t.main_line().empty());
      EXPECT_LE(t.end_offset(), text.size());
    }
    if (r.trees.empty()) {
      EXPECT_FALSE(r.status.ok());
    }
  }
}

}  // namespace
}  // namespace hane
