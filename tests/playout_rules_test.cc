// The `rules` playout policy (lib/playout/rules.h) on drawn positions, and over whole playouts.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "go/random.h"
#include "features/mogo3x3.h"
#include "features/tactics.h"
#include "go_fixtures.h"
#include "playout/rules.h"
#include "playout/uniform.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;

RulesOptions all_rules() {
  RulesOptions o;
  o.capture = o.save = o.ladder = o.nakade = o.two_liberty = o.pattern = o.self_atari = 1;
  return o;
}

RulesOptions no_rules() {
  RulesOptions o;
  o.capture = o.save = o.ladder = o.nakade = o.two_liberty = o.pattern = o.self_atari = 0;
  return o;
}

// The moves sampled from one position over `n` seeds, with their counts.
std::map<std::string, int> sampled(const RulesOptions& options, const Board& b, Color to_move, Vertex last,
                                   Vertex second_last = Vertex::none(), int n = 200,
                                   std::set<RulesRule>* rules = nullptr) {
  std::map<std::string, int> counts;
  RulesPolicy policy(options);
  for (int seed = 0; seed < n; ++seed) {
    policy.reset(b, to_move, last, second_last);
    Rng rng(seed);
    ++counts[to_gtp(policy.sample(rng), b.size())];
    if (rules) rules->insert(policy.last_rule());
  }
  return counts;
}

TEST(RulesPolicy, CapturesTheLastMoveInAtari) {
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . X . . . . .
    . . X O X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  std::set<RulesRule> rules;
  const auto counts = sampled(all_rules(), b, Color::kBlack, gtp(b, "D7"), Vertex::none(), 200, &rules);
  EXPECT_EQ(counts, (std::map<std::string, int>{{"D6", 200}}));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kCapture});
}

TEST(RulesPolicy, CapturesTheLargestChainInAtari) {
  // White D7 (the last move) and white C9-D9 (touching black's previous move D8) are in atari.
  const Board b = board_from_ascii(R"(
    . X O O . . . . .
    . . X X . . . . .
    . . . . . . . . .
    . . . . . X . . .
    . . . . X O X . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  const auto counts = sampled(all_rules(), b, Color::kBlack, gtp(b, "F5"), gtp(b, "D8"));
  EXPECT_EQ(counts, (std::map<std::string, int>{{"E9", 200}}));
  // Without the previous move, only the last move's chain is looked at.
  const auto only_last = sampled(all_rules(), b, Color::kBlack, gtp(b, "F5"));
  EXPECT_EQ(only_last, (std::map<std::string, int>{{"F4", 200}}));
}

TEST(RulesPolicy, SavesItsChainByExtending) {
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . O . . . . .
    . . O X O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  std::set<RulesRule> rules;
  const auto counts = sampled(all_rules(), b, Color::kBlack, gtp(b, "E7"), Vertex::none(), 200, &rules);
  EXPECT_EQ(counts, (std::map<std::string, int>{{"D6", 200}}));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kSave});
}

TEST(RulesPolicy, SavesItsChainByCapturingWhenExtendingFails) {
  // Black C9 is in atari; extending at D9 leaves one liberty (D8). Capturing white C8 (at D8)
  // or white B9 (at A9) saves it.
  const Board b = board_from_ascii(R"(
    . O X . O . . . .
    . X O . . . . . .
    . . X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  RulesOptions o = all_rules();
  o.capture = 0;  // the save rule alone
  std::set<RulesRule> rules;
  const auto counts = sampled(o, b, Color::kBlack, gtp(b, "C8"), Vertex::none(), 200, &rules);
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_GT(counts.at("A9"), 50);
  EXPECT_GT(counts.at("D8"), 50);
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kSave});
}

TEST(RulesPolicy, SafeCaptureRefusesACaptureThatLeavesItsChainInAtari) {
  // White's throw-in A2 puts Black's corner (A4, A3, B3, B2, B1) in atari. Taking it at A1
  // leaves the corner, now 6 stones, with one liberty (A2), where White takes all 6; capturing
  // White's C3-C1 at D1 saves it (the corner of a KGS game that final_score got wrong).
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O . . . . . . .
    X O X X . . . . .
    X X O X . . . . .
    O X O X . . . . .
    . X O . X . . . .)");
  EXPECT_EQ(sampled(all_rules(), b, Color::kBlack, gtp(b, "A2")), (std::map<std::string, int>{{"A1", 200}}));
  RulesOptions safe = all_rules();
  safe.safe_capture = true;
  std::set<RulesRule> rules;
  EXPECT_EQ(sampled(safe, b, Color::kBlack, gtp(b, "A2"), Vertex::none(), 200, &rules),
            (std::map<std::string, int>{{"D1", 200}}));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kSave});
  // A lone capturing stone left in atari is a ko capture: still taken.
  const Board ko = board_from_ascii(R"(
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  EXPECT_EQ(sampled(safe, ko, Color::kBlack, gtp(ko, "B8")), (std::map<std::string, int>{{"C8", 200}}));
  // The setting is read as the others are.
  auto parsed = rules_options(PolicyOptions{{{"rules.safe_capture", "1"}}}, "rules");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(parsed->safe_capture);
  EXPECT_FALSE(rules_options(PolicyOptions{{{"rules.safe_capture", "0.5"}}}, "rules").ok());
}

// White D6 has two liberties; Black's D5 ataris it and starts a working ladder towards the
// lower right (the classic start of tests/features_tactics_test.cc).
constexpr char kLadderStart[] = R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . X X . . . .
    . . X O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)";

TEST(RulesPolicy, DoesNotRunFromAWorkingLadder) {
  Board b = board_from_ascii(kLadderStart);
  b.play_legal(gtp(b, "D5"), Color::kBlack);  // the atari; White's run at E6 keeps 2 liberties
  RulesOptions o = all_rules();
  o.pattern = 0;
  o.ladder = 0;
  std::set<RulesRule> rules;
  EXPECT_EQ(sampled(o, b, Color::kWhite, gtp(b, "D5"), Vertex::none(), 200, &rules),
            (std::map<std::string, int>{{"E6", 200}}));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kSave});
  // With the ladder check the run is refused: only a random move lands there now and then.
  o.ladder = 1;
  rules.clear();
  const auto counts = sampled(o, b, Color::kWhite, gtp(b, "D5"), Vertex::none(), 200, &rules);
  EXPECT_LT(counts.count("E6") ? counts.at("E6") : 0, 20);
  EXPECT_EQ(rules.count(RulesRule::kSave), 0u);
}

TEST(RulesPolicy, StartsAWorkingLadderOnTheLastMovesChain) {
  // White D6 (the last move) has two liberties: the atari at D5 works, the one at E6 does not.
  const Board b = board_from_ascii(kLadderStart);
  std::set<RulesRule> rules;
  EXPECT_EQ(sampled(all_rules(), b, Color::kBlack, gtp(b, "D6"), Vertex::none(), 200, &rules),
            (std::map<std::string, int>{{"D5", 200}}));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kTwoLiberty});
  // Without the rule, D5 is only one move among others.
  RulesOptions o = all_rules();
  o.two_liberty = 0;
  EXPECT_GT(sampled(o, b, Color::kBlack, gtp(b, "D6")).size(), 1u);
}

TEST(RulesPolicy, DefendsATwoLibertyChainCaughtInALadder) {
  // Black's last move C6 touches White D6, which Black could catch by the atari at D5: White
  // extends to three liberties or more (D5 gives 4, E6 gives 3).
  const Board b = board_from_ascii(kLadderStart);
  std::set<RulesRule> rules;
  const auto counts = sampled(all_rules(), b, Color::kWhite, gtp(b, "C6"), Vertex::none(), 200, &rules);
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_GT(counts.at("D5"), 50);
  EXPECT_GT(counts.at("E6"), 50);
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kTwoLiberty});
}

// Only the two-liberty rule, without ladder reads (Pachi's heuristic).
RulesOptions two_liberty_heuristic() {
  RulesOptions o = no_rules();
  o.two_liberty = 1;
  o.two_liberty_reads = false;
  return o;
}

TEST(RulesPolicy, TwoLibertyHeuristicAtarisOnEitherLibertyAndExtendsToThree) {
  // Without reading, both ataris on White D6 are candidates (the reads keep only D5).
  const Board b = board_from_ascii(kLadderStart);
  std::set<RulesRule> rules;
  auto counts = sampled(two_liberty_heuristic(), b, Color::kBlack, gtp(b, "D6"), Vertex::none(), 200, &rules);
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_GT(counts.at("D5"), 50);
  EXPECT_GT(counts.at("E6"), 50);
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kTwoLiberty});
  // White, after Black's C6, extends at either liberty (4 and 3 liberties after).
  counts = sampled(two_liberty_heuristic(), b, Color::kWhite, gtp(b, "C6"));
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_GT(counts.at("D5"), 50);
  EXPECT_GT(counts.at("E6"), 50);
}

TEST(RulesPolicy, TwoLibertyHeuristicLeavesAChainWithMiaiAlone) {
  // White D6 connects at E6 to F6 and at D5 to D4: an atari on either liberty is answered.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . X X . . . .
    . . X O . O . . .
    . . . . . . . . .
    . . . O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  std::set<RulesRule> rules;
  sampled(two_liberty_heuristic(), b, Color::kBlack, gtp(b, "D6"), Vertex::none(), 200, &rules);
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kRandom});
  // With Black F6 and E5 instead of White F6, E6 neither connects nor pulls out: no miai.
  Board open = b;
  open.set_stone(gtp(b, "F6"), Color::kBlack);
  open.set_stone(gtp(b, "E5"), Color::kBlack);
  rules.clear();
  sampled(two_liberty_heuristic(), open, Color::kBlack, gtp(b, "D6"), Vertex::none(), 200, &rules);
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kTwoLiberty});
}

TEST(RulesPolicy, TwoLibertyHeuristicPrefersTheLessLumpyLiberty) {
  // White B9 has liberties A9 (the corner: wall twice and Black A8 around it) and C9: the
  // atari from C9 is kept, the one from A9 dropped.
  const Board b = board_from_ascii(R"(
    . O . . . . . . .
    X X . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  EXPECT_EQ(sampled(two_liberty_heuristic(), b, Color::kBlack, gtp(b, "B9")),
            (std::map<std::string, int>{{"C9", 200}}));
}

TEST(RulesPolicy, PlaysTheVitalPointOfAKillingEyeSpace) {
  // White encloses the straight three A1-C1; its vital point is B1, next to White's last move.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . X . . .
    O O O O . . . . .
    . . . O . . . . .)");
  std::set<RulesRule> rules;
  EXPECT_EQ(sampled(all_rules(), b, Color::kBlack, gtp(b, "C2"), Vertex::none(), 200, &rules),
            (std::map<std::string, int>{{"B1", 200}}));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kNakade});
  // Only next to the last move: after F3 (Black's), B1 is one random move among many.
  const auto after_f3 = sampled(all_rules(), b, Color::kWhite, gtp(b, "F3"), Vertex::none(), 200, &rules);
  EXPECT_LT(after_f3.count("B1") ? after_f3.at("B1") : 0, 20);
}

TEST(RulesPolicy, NeverFillsItsOwnEye) {
  // Black's only empty points are its own eyes: it passes, whatever the rates.
  const Board b = board_from_ascii(R"(
    . X X X X
    X X . X X
    X X X X X
    X X X X X
    . X . X .)");
  for (const RulesOptions& o : {all_rules(), RulesOptions{}}) {
    const auto counts = sampled(o, b, Color::kBlack, Vertex::pass(), Vertex::pass());
    EXPECT_EQ(counts, (std::map<std::string, int>{{"pass", 200}}));
  }
}

TEST(RulesPolicy, RefusesBigSelfAtari) {
  // Black A9 and D9 each leave the three stones A9-C9 (or B9-D9) with one liberty.
  const Board b = board_from_ascii(R"(
    . X X . O . . . .
    O O O O O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  EXPECT_TRUE(is_self_atari(b, gtp(b, "A9"), Color::kBlack, 3));
  EXPECT_TRUE(is_self_atari(b, gtp(b, "D9"), Color::kBlack, 3));
  EXPECT_FALSE(is_self_atari(b, gtp(b, "D9"), Color::kBlack, 4));
  EXPECT_FALSE(is_self_atari(b, gtp(b, "E5"), Color::kBlack, 1));
  // White D9 joins a chain with many liberties.
  EXPECT_FALSE(is_self_atari(b, gtp(b, "D9"), Color::kWhite, 1));

  const int n = 3000;
  const auto filtered = sampled(all_rules(), b, Color::kBlack, Vertex::none(), Vertex::none(), n);
  EXPECT_EQ(filtered.count("A9"), 0u);
  EXPECT_EQ(filtered.count("D9"), 0u);
  // The same draws without the filter do play them (so the check above could fail).
  RulesOptions allowed = all_rules();
  allowed.self_atari_stones = 4;
  const auto unfiltered = sampled(allowed, b, Color::kBlack, Vertex::none(), Vertex::none(), n);
  EXPECT_GT(unfiltered.count("A9"), 0u);
  EXPECT_GT(unfiltered.count("D9"), 0u);
}

TEST(RulesPolicy, PassesRatherThanABigSelfAtari) {
  // Black's only moves that fill no eye: C1 (self-atari of C2-C5 and more) and its eye A5.
  const Board b = board_from_ascii(R"(
    . X O . O
    X X O O O
    X X O O .
    X X O O O
    X X . O .)");
  EXPECT_TRUE(is_self_atari(b, gtp(b, "C1"), Color::kBlack, 3));
  EXPECT_EQ(sampled(all_rules(), b, Color::kBlack, Vertex::pass(), Vertex::pass()),
            (std::map<std::string, int>{{"pass", 200}}));
}

TEST(RulesPolicy, PatternsMatchInAllSymmetriesAndBothColours) {
  // The enclosing hane at D4 and D6 (around white D5) is good for either side to move.
  const Board hane = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X O X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  for (const char* v : {"D4", "D6"}) {
    EXPECT_TRUE(mogo3x3_matches(hane, gtp(hane, v), Color::kBlack)) << v;
    EXPECT_TRUE(mogo3x3_matches(hane, gtp(hane, v), Color::kWhite)) << v;
  }
  EXPECT_FALSE(mogo3x3_matches(hane, gtp(hane, "G7"), Color::kBlack));
  EXPECT_FALSE(mogo3x3_matches(Board(9), gtp(hane, "E5"), Color::kBlack));
  // The same shape turned a quarter and with colours swapped.
  const Board turned = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . O . . . .
    . . . . X . . . .
    . . . . O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  for (const char* v : {"D5", "F5"}) {
    EXPECT_TRUE(mogo3x3_matches(turned, gtp(turned, v), Color::kBlack)) << v;
    EXPECT_TRUE(mogo3x3_matches(turned, gtp(turned, v), Color::kWhite)) << v;
  }
  // The thin hane is good only for the side that owns the lone stone.
  const Board thin = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X O O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  EXPECT_TRUE(mogo3x3_matches(thin, gtp(thin, "D4"), Color::kBlack));
  EXPECT_FALSE(mogo3x3_matches(thin, gtp(thin, "D4"), Color::kWhite));
  // An edge pattern: black C1 blocks the cut along the first line (B2 O, C2 X, B1 X, D1 O).
  const Board edge = board_from_ascii(R"(
    . . . . .
    . . . . .
    . . . . .
    . O X . .
    . X . O .)");
  EXPECT_TRUE(mogo3x3_matches(edge, gtp(edge, "C1"), Color::kBlack));
  EXPECT_TRUE(mogo3x3_matches(edge, gtp(edge, "C1"), Color::kWhite));
}

TEST(RulesPolicy, PlaysAPatternMoveAfterAMatchingLastMove) {
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X O X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  std::set<RulesRule> rules;
  const auto counts = sampled(all_rules(), b, Color::kBlack, gtp(b, "D5"), Vertex::none(), 200, &rules);
  // D4 and D6: enclosing hanes of D5; C4, C6, E4, E6: white's non-cutting hanes (around C5 or
  // E5), good points for black as well.
  std::set<std::string> moves;
  for (const auto& [v, k] : counts) moves.insert(v);
  EXPECT_EQ(moves, (std::set<std::string>{"C4", "C6", "D4", "D6", "E4", "E6"}));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kPattern});
  // After white E5 next to a thin-hane shape: only the thin hanes D4 and D6 match.
  const Board thin = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X O O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  const auto thin_counts = sampled(all_rules(), thin, Color::kBlack, gtp(thin, "E5"));
  ASSERT_EQ(thin_counts.size(), 2u);
  EXPECT_GT(thin_counts.at("D4"), 50);
  EXPECT_GT(thin_counts.at("D6"), 50);
  // Not after a pass.
  const auto elsewhere = sampled(all_rules(), b, Color::kBlack, Vertex::pass());
  EXPECT_GT(elsewhere.size(), 20u);
}

TEST(RulesPolicy, PatternSecondAlsoAnswersAroundTheSecondLastMove) {
  // Black's previous move was E5 next to white D5, and White passed: with pattern_second the
  // pattern rule answers around E5 (the enclosing hanes D4 and D6 of D5 among them).
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X O X . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  RulesOptions o = all_rules();
  o.pattern_second = 1;
  std::set<RulesRule> rules;
  const auto counts = sampled(o, b, Color::kBlack, Vertex::pass(), gtp(b, "E5"), 200, &rules);
  const std::set<std::string> around{"D4", "D6", "E4", "E6", "F4", "F5", "F6"};
  for (const auto& [v, k] : counts) EXPECT_TRUE(around.contains(v)) << v;
  EXPECT_TRUE(counts.contains("D4"));
  EXPECT_TRUE(counts.contains("D6"));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kPattern});
  // Without it, the pass leaves the pattern rule nothing to answer.
  const auto without = sampled(all_rules(), b, Color::kBlack, Vertex::pass(), gtp(b, "E5"));
  EXPECT_GT(without.size(), 20u);
}

// The moves sampled, over `n` seeds, after `moves` are played from `b` with Black to move,
// with the rules that chose them.
std::pair<std::map<std::string, int>, std::set<RulesRule>> sampled_after(const RulesOptions& options, const Board& b,
                                                                         const std::vector<std::string>& moves,
                                                                         int n) {
  RulesPolicy policy(options);
  std::map<std::string, int> counts;
  std::set<RulesRule> rules;
  for (int seed = 0; seed < n; ++seed) {
    policy.reset(b, Color::kBlack);
    for (const std::string& m : moves) policy.play(gtp(b, m.c_str()));
    Rng rng(seed);
    ++counts[to_gtp(policy.sample(rng), b.size())];
    rules.insert(policy.last_rule());
  }
  return {counts, rules};
}

TEST(RulesPolicy, KoRuleRetakesAfterAThreatAndItsAnswer) {
  // Black E5 takes the ko at D5.
  const Board b = board_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . X O . . . .
    . . X O . O . . .
    . . . X O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)");
  RulesOptions o = no_rules();
  o.ko = 1;
  // The moves sampled after `moves`, from Black's E5 on, over 100 seeds.
  auto after = [&](std::vector<std::string> moves) {
    moves.insert(moves.begin(), "E5");
    return sampled_after(o, b, moves, 100);
  };
  // Right after the capture White may not retake: the rule has nothing.
  EXPECT_FALSE(after({}).first.contains("D5"));
  // After White's threat A1 and Black's answer J9, White retakes.
  const auto [retake, rules] = after({"A1", "J9"});
  EXPECT_EQ(retake, (std::map<std::string, int>{{"D5", 100}}));
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kKo});
  // Four moves after the capture the ko is old: the moves are random again.
  EXPECT_LT(after({"A1", "J9", "A2", "J8"}).first["D5"], 20);
}

TEST(RulesPolicy, KoThreatAtarisRightAfterTheOpponentsKoCapture) {
  // Black E5 takes the ko at D5, so White may not retake at once. Black's B2-C2 has 2
  // liberties (A2, C3), and so has G9-H9 (H8, and J9 where White would be in atari); every
  // other Black chain has 1 or 3 and more.
  const Board b = board_from_ascii(R"(
    . . . . . O X X .
    . . . . . . O . .
    . . . . . . . . .
    . . . X O . . . .
    . . X O . O . . .
    . . . X O . . . .
    . O . . . . . . .
    . X X O . . . . .
    . O O . . . . . .)");
  // The moves White samples after `moves` (from Black's E5 on), over 200 seeds.
  auto after = [&](const RulesOptions& o, std::vector<std::string> moves) {
    moves.insert(moves.begin(), "E5");
    return sampled_after(o, b, moves, 200);
  };
  RulesOptions o = no_rules();
  o.ko_threat = 1;
  // Right after the capture: an atari on either chain, never the self-atari J9.
  const auto [threats, rules] = after(o, {});
  EXPECT_EQ(rules, std::set<RulesRule>{RulesRule::kKoThreat});
  ASSERT_EQ(threats.size(), 3u) << ::testing::PrintToString(threats);
  for (const char* v : {"A2", "C3", "H8"}) EXPECT_GT(threats.at(v), 35) << v;
  // Once a move elsewhere has cleared the ko, the rule has nothing (the moves are random).
  EXPECT_FALSE(after(o, {"J9", "J1"}).second.contains(RulesRule::kKoThreat));
  // At rate 0 it never plays.
  EXPECT_FALSE(after(no_rules(), {}).second.contains(RulesRule::kKoThreat));

  // With the save rule: White's threat on B2-C2, then Black's answer at its other liberty,
  // both sampled.
  o.save = 1;
  int answered = 0;
  for (int seed = 0; seed < 200; ++seed) {
    RulesPolicy policy(o);
    policy.reset(b, Color::kBlack);
    policy.play(gtp(b, "E5"));
    Rng rng(seed);
    const Vertex threat = policy.sample(rng);
    ASSERT_EQ(policy.last_rule(), RulesRule::kKoThreat);
    if (threat == gtp(b, "H8")) continue;  // G9-H9 cannot be saved by extending: no rule answers
    policy.play(threat);
    EXPECT_EQ(to_gtp(policy.sample(rng), 9), threat == gtp(b, "A2") ? "C3" : "A2");
    EXPECT_EQ(policy.last_rule(), RulesRule::kSave);
    ++answered;
  }
  EXPECT_GT(answered, 100);
  // With the ko rule too, Black, who took the ko, connects it instead (the ko rule comes
  // first, and D5 is no eye of Black's: White holds two of its diagonals).
  o.ko = 1;
  RulesPolicy policy(o);
  policy.reset(b, Color::kBlack);
  policy.play(gtp(b, "E5"));
  policy.play(gtp(b, "A2"));
  Rng rng(1);
  EXPECT_EQ(to_gtp(policy.sample(rng), 9), "D5");
  EXPECT_EQ(policy.last_rule(), RulesRule::kKo);
}

// Plays `n` playouts from the empty board, checking every move; returns the rules used.
std::map<RulesRule, int> check_playouts(int size, int n, uint64_t seed, const RulesOptions& options = {}) {
  std::map<RulesRule, int> used;
  RulesPolicy policy(options);
  Rng rng(seed);
  const int cap = 3 * size * size;
  int ended_by_passes = 0;
  for (int i = 0; i < n; ++i) {
    policy.reset(Board(size), Color::kBlack);
    int moves = 0, passes = 0;
    while (passes < 2 && moves < cap) {
      const Color c = policy.to_move();
      const Vertex v = policy.sample(rng);
      if (!v.is_pass()) {
        EXPECT_EQ(policy.board().legal(v, c), Legality::kLegal) << to_gtp(v, size);
        EXPECT_FALSE(policy.board().is_eye(v, c)) << to_gtp(v, size);
        if (::testing::Test::HasFailure()) return used;
        ++used[policy.last_rule()];
      }
      passes = v.is_pass() ? passes + 1 : 0;
      policy.play(v);
      ++moves;
    }
    ended_by_passes += passes == 2;
  }
  EXPECT_GE(ended_by_passes, n * 9 / 10);
  return used;
}

TEST(RulesPolicy, EveryMoveIsLegalOverManyPlayouts) {
  for (const auto& [size, n] : {std::pair{9, 300}, std::pair{19, 30}}) {
    const std::map<RulesRule, int> used = check_playouts(size, n, static_cast<uint64_t>(size));
    for (const RulesRule r : {RulesRule::kCapture, RulesRule::kSave, RulesRule::kPattern, RulesRule::kRandom}) {
      EXPECT_GT(used.count(r), 0u) << "size " << size << ": rule " << static_cast<int>(r) << " never used";
    }
  }
}

TEST(RulesPolicy, EveryRuleMoveIsLegalOverManyPlayouts) {
  // Every rule on, the two-liberty rule with and without ladder reads (it then visits many
  // chains around the last move; the sanitizer pass checks its bookkeeping).
  for (const bool reads : {true, false}) {
    RulesOptions o = all_rules();
    o.two_liberty_reads = reads;
    o.ko = o.ko_threat = o.pattern_second = 1;
    for (const auto& [size, n] : {std::pair{9, 200}, std::pair{19, 10}}) {
      const std::map<RulesRule, int> used = check_playouts(size, n, static_cast<uint64_t>(size) + 7, o);
      EXPECT_GT(used.count(RulesRule::kTwoLiberty), 0u) << "size " << size << ", reads " << reads;
      EXPECT_GT(used.count(RulesRule::kKo), 0u) << "size " << size << ", reads " << reads;
      EXPECT_GT(used.count(RulesRule::kKoThreat), 0u) << "size " << size << ", reads " << reads;
    }
  }
}

TEST(RulesPolicy, IsDeterministicForASeed) {
  RulesPolicy a, b;
  a.reset(Board(19), Color::kBlack);
  b.reset(Board(19), Color::kBlack);
  Rng r1(5), r2(5);
  std::vector<Move> x, y;
  run_playout(a, r1, -1, &x);
  run_playout(b, r2, -1, &y);
  EXPECT_EQ(x, y);
  EXPECT_EQ(a.board().hash(), b.board().hash());
}

TEST(RulesPolicy, WithEveryRateZeroItIsTheUniformPolicy) {
  // The same draws as the uniform policy, move for move...
  RulesPolicy rules(no_rules());
  UniformPolicy uniform;
  rules.reset(Board(9), Color::kBlack);
  uniform.reset(Board(9), Color::kBlack);
  Rng r1(9), r2(9);
  std::vector<Move> x, y;
  run_playout(rules, r1, -1, &x);
  run_playout(uniform, r2, -1, &y);
  EXPECT_EQ(x, y);
  // ...and, where a capture is on, every candidate equally likely (a count check).
  const Board b = board_from_ascii(R"(
    . X . . .
    X O X . .
    . . . . .
    . . . O .
    . . . . .)");
  const int n = 40'000;
  const auto counts = sampled(no_rules(), b, Color::kBlack, gtp(b, "B4"), Vertex::none(), n);
  const int candidates = static_cast<int>(b.empty_points().size());  // A5 is a false eye
  ASSERT_EQ(static_cast<int>(counts.size()), candidates);
  for (const auto& [v, k] : counts) EXPECT_NEAR(k, n / candidates, n / candidates / 5) << v;
}

TEST(RulesPolicy, ReadsItsSettings) {
  PolicyOptions o;
  o.settings["rules.capture"] = "0.25";
  o.settings["rules.self_atari_stones"] = "2";
  o.settings["rules.two_liberty_reads"] = "0";
  o.settings["rules.pattern_second"] = "1";
  o.settings["rules.ko"] = "0.5";
  o.settings["rules.ko_threat"] = "0.75";
  o.settings["uniform.other"] = "1";  // another policy's key is not ours to refuse
  absl::StatusOr<RulesOptions> r = rules_options(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->capture, 0.25);
  EXPECT_EQ(r->self_atari_stones, 2);
  EXPECT_FALSE(r->two_liberty_reads);
  EXPECT_TRUE(RulesOptions{}.two_liberty_reads);
  EXPECT_EQ(r->pattern_second, 1);
  EXPECT_EQ(r->ko, 0.5);
  EXPECT_EQ(r->ko_threat, 0.75);
  EXPECT_EQ(RulesOptions{}.ko_threat, 0);
  EXPECT_EQ(r->save, RulesOptions{}.save);

  o.settings["rules.capture"] = "1.5";
  EXPECT_NE(std::string(rules_options(o).status().message()).find("rules.capture=1.5"), std::string::npos);
  o.settings["rules.capture"] = "0.5";
  o.settings["rules.ladders"] = "1";
  EXPECT_NE(std::string(rules_options(o).status().message()).find("rules.ladders"), std::string::npos);
  o.settings.erase("rules.ladders");
  o.settings["rules.two_liberty_reads"] = "0.5";
  EXPECT_NE(std::string(rules_options(o).status().message()).find("expected 0 or 1"), std::string::npos);
  o.settings["rules.two_liberty_reads"] = "1";
  o.settings["rules.self_atari_stones"] = "0";
  EXPECT_FALSE(rules_options(o).ok());

  // Through the registry, by name.
  PolicyOptions good;
  good.settings["rules.pattern"] = "0";
  absl::StatusOr<std::unique_ptr<PlayoutPolicy>> p = make_policy("rules", good);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ((*p)->name(), "rules");
  EXPECT_EQ(dynamic_cast<RulesPolicy&>(**p).options().pattern, 0);
  EXPECT_EQ(dynamic_cast<RulesPolicy&>(*(*p)->clone()).options().pattern, 0);
  EXPECT_FALSE(make_policy("rules:model", {}).ok());
  EXPECT_FALSE(make_policy("rules", o).ok());
}

}  // namespace
}  // namespace hane
