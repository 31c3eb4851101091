// Replay under the rules a record's RU names: suicide, superko, and the default.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "corpus/replay.h"
#include "sgf/rules.h"

namespace hane {
namespace {

using ::testing::HasSubstr;

GameRecord record(const std::string& sgf) {
  auto r = read_game(sgf);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : GameRecord{};
}

TEST(RecordRules, SpellingsOfEachRuleSet) {
  struct Case {
    std::string ru;
    std::string name;
    bool suicide;
    Superko superko;
  };
  const Case cases[] = {
      {"Japanese", "Japanese", false, Superko::kNone},
      {"japanese rules", "Japanese", false, Superko::kNone},
      {"JP", "Japanese", false, Superko::kNone},
      {"\u65e5\u672c\u30eb\u30fc\u30eb", "Japanese", false, Superko::kNone},
      {"Korean", "Korean", false, Superko::kNone},
      {"Chinese", "Chinese", false, Superko::kPositional},
      {"cn", "Chinese", false, Superko::kPositional},
      {"\u4e2d\u56fd\u89c4\u5219", "Chinese", false, Superko::kPositional},
      {"AGA", "AGA", false, Superko::kSituational},
      {"aga rules", "AGA", false, Superko::kSituational},
      {"New Zealand", "New Zealand", true, Superko::kSituational},
      {"NZ", "New Zealand", true, Superko::kSituational},
      {"Tromp-Taylor", "Tromp-Taylor", true, Superko::kPositional},
      {"tromp taylor", "Tromp-Taylor", true, Superko::kPositional},
      {"TT", "Tromp-Taylor", true, Superko::kPositional},
      {"Ing", "Ing", true, Superko::kNone},
      {"koPOSITIONALscoreAREAtaxNONEsui1", "KataGo", true, Superko::kPositional},
      {"koSITUATIONALscoreTERRITORYsui0", "KataGo", false, Superko::kSituational},
  };
  for (const Case& c : cases) {
    const auto r = rules_from_ru(c.ru);
    ASSERT_TRUE(r.has_value()) << c.ru;
    EXPECT_EQ(r->name, c.name) << c.ru;
    EXPECT_EQ(r->allow_suicide, c.suicide) << c.ru;
    EXPECT_EQ(r->superko, c.superko) << c.ru;
  }
  for (const std::string ru : {"", "Klingon", "koWEIRDscoreAREA", "Japanese-ish"}) {
    EXPECT_FALSE(rules_from_ru(ru).has_value()) << ru;
  }
}

TEST(RecordRules, RecordKeepsWhatRuNames) {
  EXPECT_EQ(record("(;RU[NZ])").declared_rules->name, "New Zealand");
  EXPECT_FALSE(record("(;GM[1])").declared_rules.has_value());
  const GameRecord unknown = record("(;RU[Klingon])");
  EXPECT_FALSE(unknown.declared_rules.has_value());
  EXPECT_EQ(unknown.rules, "Klingon");
  ASSERT_EQ(unknown.warnings.size(), 1u);
  EXPECT_EQ(unknown.warnings[0].kind, "unknown RU");
  // An absent RU is normal: no warning, strict reading keeps the game.
  EXPECT_TRUE(record("(;GM[1];B[aa])").warnings.empty());
  EXPECT_TRUE(read_game("(;GM[1];B[aa])", {.strict = true, .parse = {}}).ok());
}

// A two-stone suicide by Black at ba: the chain aa-ba has no liberty and captures nothing.
constexpr std::string_view kSuicide = "SZ[3]AB[aa]AW[ca][bb][ab];B[ba];W[aa])";

TEST(ReplayRules, MultiStoneSuicideIsLegalUnderNewZealandAndTrompTaylor) {
  for (const std::string ru : {"NZ", "New Zealand", "Tromp-Taylor"}) {
    Board final_board;
    int moves = 0;
    const absl::Status s = replay(record("(;RU[" + ru + "]" + std::string(kSuicide)),
                                  [&](const Position&, Vertex) { ++moves; }, &final_board);
    ASSERT_TRUE(s.ok()) << ru << ": " << s;
    EXPECT_EQ(moves, 2);
    const Geometry g(3);
    EXPECT_EQ(final_board.color(g.at(0, 0)), Color::kWhite) << ru;  // W played where B suicided
    EXPECT_EQ(final_board.color(g.at(1, 0)), Color::kEmpty) << ru;
  }
}

TEST(ReplayRules, SuicideIsIllegalUnderJapaneseChineseAgaAndByDefault) {
  for (const std::string ru : {"RU[Japanese]", "RU[Chinese]", "RU[AGA]", "", "RU[Klingon]"}) {
    const absl::Status s = replay(record("(;" + ru + std::string(kSuicide)), {});
    ASSERT_FALSE(s.ok()) << ru;
    EXPECT_THAT(s.message(), HasSubstr("move 1 (B ba): suicide")) << ru;
  }
  EXPECT_THAT(replay(record("(;" + std::string(kSuicide)), {}).message(),
              HasSubstr("(Japanese rules, assumed)"));
  EXPECT_THAT(replay(record("(;RU[AGA]" + std::string(kSuicide)), {}).message(),
              HasSubstr("(AGA rules)"));
  // The caller's default applies when RU is absent.
  EXPECT_TRUE(replay(record("(;" + std::string(kSuicide)), {}, nullptr, *rules_from_ru("NZ")).ok());
}

// On 2x2: move 8 (W bb) recreates the board after move 3, but with Black to move instead of
// White. Positional superko forbids it; situational superko and simple ko allow it.
constexpr std::string_view kRepeat = "SZ[2];B[aa];W[bb];B[ba];W[ab];B[aa];W[];B[ba];W[bb])";

TEST(ReplayRules, SuperkoFollowsTheRuleSet) {
  for (const std::string ru : {"Chinese", "Tromp-Taylor", "koPOSITIONALscoreAREAsui0"}) {
    const absl::Status s = replay(record("(;RU[" + ru + "]" + std::string(kRepeat)), {});
    ASSERT_FALSE(s.ok()) << ru;
    EXPECT_THAT(s.message(), HasSubstr("move 8 (W bb): superko")) << ru;
  }
  for (const std::string ru : {"RU[AGA]", "RU[NZ]", "RU[Japanese]", ""}) {
    const absl::Status s = replay(record("(;" + ru + std::string(kRepeat)), {});
    EXPECT_TRUE(s.ok()) << ru << ": " << s;
  }
}

TEST(ReplayRules, SituationalSuperkoForbidsTheSameSituation) {
  // On 2x2: move 7 (B aa, taking three stones) recreates the board after move 1 with White to
  // move, as then: forbidden by every superko rule, allowed under simple ko.
  const std::string game = "SZ[2];B[aa];W[ba];B[];W[ab];B[];W[bb];B[aa])";
  for (const std::string ru : {"AGA", "NZ", "Chinese", "Tromp-Taylor"}) {
    const absl::Status s = replay(record("(;RU[" + ru + "]" + game), {});
    ASSERT_FALSE(s.ok()) << ru;
    EXPECT_THAT(s.message(), HasSubstr("move 7 (B aa): superko")) << ru;
  }
  EXPECT_TRUE(replay(record("(;RU[Japanese]" + game), {}).ok());
}

}  // namespace
}  // namespace hane
