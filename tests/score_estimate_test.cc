// The quick score estimate (search/score_estimate.h): the static count on a board worked out by
// hand, and the dead stones the playouts add.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "go/score.h"
#include "go_fixtures.h"
#include "search/score_estimate.h"
#include "search/search.h"

namespace hane {
namespace {

using testing::game_from_ascii;

// Black's wall on the left, White's on the right (the D and E columns); a white stone at B3
// inside Black's side and a black one at G2 inside White's, both with three liberties (so the
// tactics reader leaves them), both dead to any player.
constexpr const char* kFinished = R"(
    . X . X O . .
    X X X X O . O
    . . . X O . .
    X X X X O O O
    . O . X O . .
    . . . X O . X
    . . . X O . .)";

TEST(ScoreEstimate, StaticCountsTheClassesWithKomi) {
  Game game = game_from_ascii(kFinished, Rules{false, Superko::kPositional, 0.5});
  ScoreEstimateOptions o;
  const ScoreEstimate e = estimate_score(game, nullptr, o);
  EXPECT_EQ(e.playouts, 0);
  EXPECT_TRUE(e.ownership.empty());
  EXPECT_EQ(e.maps.dead.count(), 0u);  // no chain in atari
  // The same count by hand from the classes, rounded, komi off.
  EXPECT_DOUBLE_EQ(e.margin, std::round(static_margin(game.board(), e.maps, 0, false)) - 0.5);
  // An empty board: komi alone, on any size.
  for (const int size : {2, 9, 19, 25}) {
    const Game empty(size, Rules{false, Superko::kPositional, 7.5});
    EXPECT_DOUBLE_EQ(estimate_score(empty, nullptr, o).margin, -7.5);
  }
}

TEST(ScoreEstimate, PlayoutsFindTheDeadStones) {
  const Game game = game_from_ascii(kFinished, Rules{false, Superko::kPositional, 0.5});
  SearchOptions so;
  so.policy = "uniform";
  so.seed = 3;
  auto search = Search::create(so);
  ASSERT_TRUE(search.ok()) << search.status();
  ScoreEstimateOptions o;
  o.playouts = 200;
  o.ownership_weight = 0;  // the classes alone count the empty points (the default blends in the
                           // playouts' owners, which a few playouts leave short of +-1)
  const ScoreEstimate e = estimate_score(game, search->get(), o);
  EXPECT_EQ(e.playouts, 200);
  const Board& b = game.board();
  EXPECT_TRUE(e.maps.dead.test(static_cast<size_t>(b.at(1, 4).index())));  // B3
  EXPECT_TRUE(e.maps.dead.test(static_cast<size_t>(b.at(6, 5).index())));  // G2
  EXPECT_EQ(e.maps.dead.count(), 2u);
  EXPECT_EQ(e.maps.at(b.at(1, 4)), PointClass::kDeadWhite);
  // Every empty point is surrounded, so the estimate is the count the rules give once the dead
  // stones are removed (go/score.h).
  Board cleaned = b;
  cleaned.set_stone(b.at(1, 4), Color::kEmpty);
  cleaned.set_stone(b.at(6, 5), Color::kEmpty);
  const double area = area_score(cleaned).margin(0.5);
  EXPECT_DOUBLE_EQ(e.margin, area);
  // The same position under territory counting: the two dead stones cancel, territory decides.
  o.territory = true;
  EXPECT_DOUBLE_EQ(estimate_score(game, search->get(), o).margin, territory_score(b, std::vector<Vertex>{b.at(1, 4), b.at(6, 5)}).margin(0.5));
}

TEST(ScoreEstimate, PlayoutsRefuseUnsafeCapturesWhereThePolicyCan) {
  // `rules` and `rules-gamma` take the setting; `uniform` has no settings and stays as it is;
  // a value the caller gives is kept, and the caller's other settings too.
  for (const std::string policy : {"rules", "rules-gamma"}) {
    PolicyOptions given;
    given.settings[policy + ".ladder"] = "1";
    const PolicyOptions o = estimate_policy_options(policy == "rules" ? policy : policy + ":g.model", given);
    EXPECT_EQ(o.settings.size(), 2u) << policy;
    EXPECT_EQ(o.settings.at(policy + ".safe_capture"), "1") << policy;
    EXPECT_EQ(o.settings.at(policy + ".ladder"), "1") << policy;
  }
  EXPECT_TRUE(estimate_policy_options("uniform", PolicyOptions{}).settings.empty());
  PolicyOptions off;
  off.settings["rules.safe_capture"] = "0";
  EXPECT_EQ(estimate_policy_options("rules", off).settings.at("rules.safe_capture"), "0");
}

}  // namespace
}  // namespace hane
