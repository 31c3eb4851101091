// The corpus reader on damaged files: games lost and kept in files of several games, warnings
// by kind with examples, strict rejections by kind, and the rules games were replayed with.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "corpus/corpus.h"

namespace hane {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class CorpusWarningsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hane_corpus_warnings_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    // One game per file (distinct moves, so none is a duplicate), each with one oddity.
    write("a_multi.sgf",
          "(;GM[1]GN[1];B[aa])\n(;GM[1]GN[2]C[" + std::string(300, 'x') + "];B[bb])\n(;GM[1]GN[3];B[cc])");
    write("b_stray_paren.sgf", "(;GM[1];B[dd]))\n(;GM[1];B[ee])");
    write("c_no_semicolon.sgf", "(GM[1];B[ff])");
    write("d_cut.sgf", "(;GM[1];B[gg];W[hh]");
    write("e_bracket.sgf", "(;GM[1];B[ii]];W[jj])");
    write("f_nul.sgf", std::string("(;GM[1];B[kk]\0;W[ll])", 21));
    write("g_blank.sgf", "(;GM[1];B[mm];W[  ];B[nn])");
    write("h_comma.sgf", "(;GM[1]KM[6,5];B[oo])");
    write("i_nz.sgf", "(;GM[1]RU[NZ];B[pp])");
    write("j_unknown_ru.sgf", "(;GM[1]RU[Klingon];B[qq])");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  CorpusStats read(bool strict) {
    CorpusOptions o;
    o.progress = false;
    o.read.strict = strict;
    o.read.parse.max_value_bytes = 100;
    return read_corpus({dir_.string()}, o, [](CorpusGame&&) {});
  }
  fs::path dir_;
};

TEST_F(CorpusWarningsTest, LenientKeepsRepairedGamesAndShowsWarningsByKind) {
  const CorpusStats s = read(false);
  EXPECT_EQ(s.games_read, 13);
  EXPECT_EQ(s.games_kept, 12);
  ASSERT_EQ(s.rejected.size(), 1u);
  const Rejections& lost = s.rejected.at("sgf syntax");
  EXPECT_EQ(lost.count, 1);
  EXPECT_EQ(s.games_lost_in_collections, 1);
  EXPECT_THAT(lost.examples[0], HasSubstr("a_multi.sgf: game 2: sgf: byte "));
  EXPECT_THAT(lost.examples[0], HasSubstr("longer than 100 bytes"));
  for (const std::string kind : {"stray ')'", "missing ';'", "missing ')'", "stray ']'",
                                 "control bytes", "blank move", "komi", "unknown RU"}) {
    ASSERT_TRUE(s.warnings.count(kind)) << kind;
    EXPECT_EQ(s.warnings.at(kind).count, 1) << kind;
    ASSERT_EQ(s.warnings.at(kind).examples.size(), 1u) << kind;
    EXPECT_THAT(s.warnings.at(kind).examples[0], HasSubstr("byte ")) << kind;
  }
  EXPECT_EQ(s.warnings.size(), 8u);
  EXPECT_THAT(s.warnings.at("stray ')'").examples[0], HasSubstr("b_stray_paren.sgf: game 1: byte 14 "));
  EXPECT_THAT(s.warnings.at("control bytes").examples[0], HasSubstr("f_nul.sgf: byte 13 "));
  EXPECT_EQ(s.games_with_warnings, 8);
  EXPECT_EQ(s.rules.at("New Zealand"), 1);
  EXPECT_EQ(s.rules.at("Japanese (assumed: unknown RU)"), 1);
  EXPECT_EQ(s.rules.at("Japanese (assumed: no RU)"), 10);
}

TEST_F(CorpusWarningsTest, StrictRejectsEveryWarningByKind) {
  const CorpusStats s = read(true);
  EXPECT_EQ(s.games_read, 13);
  // Kept: games 1 and 3 of the collection, the second game of b, and the NZ game.
  EXPECT_EQ(s.games_kept, 4);
  EXPECT_TRUE(s.warnings.empty());
  for (const std::string kind : {"stray ')'", "missing ';'", "missing ')'", "stray ']'",
                                 "control bytes", "blank move", "komi", "unknown RU"}) {
    ASSERT_TRUE(s.rejected.count("strict: " + kind)) << kind;
    EXPECT_EQ(s.rejected.at("strict: " + kind).count, 1) << kind;
  }
  EXPECT_THAT(s.rejected.at("strict: missing ';'").examples[0], HasSubstr("c_no_semicolon.sgf: byte 1 "));
  EXPECT_THAT(s.rejected.at("strict: stray ']'").examples[0], HasSubstr("e_bracket.sgf: byte 13 "));
}

TEST_F(CorpusWarningsTest, NewZealandSuicideIsKeptAndJapaneseRejected) {
  write("k_suicide_nz.sgf", "(;GM[1]SZ[3]RU[NZ]AB[aa]AW[ca][bb][ab];B[ba];W[aa])");
  write("l_suicide_jp.sgf", "(;GM[1]SZ[3]RU[Japanese]AB[aa]AW[ca][bb][ab];B[ba];W[cc])");
  CorpusOptions o;
  o.progress = false;
  o.filter.board_size = 3;
  const CorpusStats s = read_corpus({dir_.string() + "/k_suicide_nz.sgf", dir_.string() + "/l_suicide_jp.sgf"},
                                    o, [](CorpusGame&&) {});
  EXPECT_EQ(s.games_kept, 1);
  ASSERT_TRUE(s.rejected.count("illegal move"));
  EXPECT_THAT(s.rejected.at("illegal move").examples[0], HasSubstr("l_suicide_jp.sgf: move 1 (B ba): suicide (Japanese rules)"));
  EXPECT_EQ(s.rules.at("New Zealand"), 1);
}

}  // namespace
}  // namespace hane
