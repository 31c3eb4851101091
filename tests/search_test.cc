// The search on small boards with the uniform policy: known answers, budgets, determinism,
// tree reuse, the memory cap, threads, superko at the root, the end of the game.
// Tests name only the SearchOptions they change ({.threads = 2}); the rest keep their defaults.
#include "search/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "go/score.h"
#include "go_fixtures.h"
#include "gtp/search_player.h"
#include "search/search_impl.h"
#include "search/tree.h"

namespace hane {
namespace {

using testing::game_from_ascii;
using testing::gtp;

std::unique_ptr<Search> make_search(SearchOptions options = {}) {
  auto s = Search::create(options);
  EXPECT_TRUE(s.ok()) << s.status();
  return std::move(*s);
}

SearchLimits playouts(int64_t n) {
  SearchLimits l;
  l.playouts = n;
  return l;
}

// The player on top of the search, for the decisions (pass, resign, cleanup): `playouts` new
// simulations a move.
std::unique_ptr<gtp::SearchPlayer> make_player(SearchOptions options = {}, int64_t playouts = 500,
                                               int resign_moves = 1) {
  gtp::EngineOptions o;
  o.search = options;
  o.playouts = playouts;
  o.resign_moves = resign_moves;
  auto p = gtp::SearchPlayer::create(o);
  EXPECT_TRUE(p.ok()) << p.status();
  return std::move(*p);
}

SearchResult player_move(gtp::SearchPlayer& player, const Game& g, Color c, bool cleanup = false) {
  gtp::Request request;
  request.color = c;
  request.cleanup = cleanup;
  return player.genmove(g, request);
}

const MoveStats* find_child(const SearchResult& r, Vertex v) {
  for (const MoveStats& s : r.children) {
    if (s.move == v) return &s;
  }
  return nullptr;
}

// Black's corner group (A6-D6, D7) has the straight three A7-B7-C7 as its only eye space; the
// white wall around it is alive with single eyes. B7 is the vital point: Black lives there, or
// White kills there. Komi −40.5 makes the game turn on it: Black wins by 7.5 when the corner
// lives (8 points against 41), loses by 8.5 when it dies.
constexpr std::string_view kVitalPoint = R"(
  . . . X O . O
  X X X X O O O
  O O O O O . O
  O . O O O O O
  O O O . O O .
  O . O O O O O
  O O O O . O O)";

TEST(Search, FindsTheVitalPointOfAStraightThreeForBothColours) {
  for (Color c : {Color::kBlack, Color::kWhite}) {
    Game g = game_from_ascii(kVitalPoint, {.komi = -40.5}, c);
    auto s = make_search();
    const SearchResult r = s->search(g, c, playouts(2000));
    EXPECT_EQ(to_gtp(r.move, 7), "B7") << color_name(c);
    EXPECT_GT(r.winrate, 0.8) << color_name(c);
    EXPECT_FALSE(r.resign);
  }
}

// Three open rows above a White wall that lives whatever happens (single eyes B3, F2, B1 and the
// two-point eye D3-E3). With komi −10.5 Black wins only by owning all but a point of the open rows.
constexpr std::string_view kOpenTopAndAnEye = R"(
  . . . . . . .
  . . . . . . .
  . . . . . . .
  O O O O O O O
  O . O . . O O
  O O O O O . O
  O . O O O O O)";

TEST(Search, CriticalityIsZeroInsideSettledGroundAndHighWhereTheGameIsDecided) {
  // Komi −30.5: Black wins when it owns 10 of the 21 open points, about one playout in five.
  Game g = game_from_ascii(kOpenTopAndAnEye, {.komi = -30.5}, Color::kBlack);
  auto s = make_search();
  const SearchResult r = s->search(g, Color::kBlack, playouts(4000));
  int open_moves = 0;
  for (const MoveStats& m : r.children) {
    if (m.move.is_pass() || m.visits < 100) continue;
    const std::string name = to_gtp(m.move, 7);
    if (name == "D3" || name == "E3") {
      // Inside White's eye: White's in every playout, whoever wins.
      EXPECT_NEAR(m.criticality, 0, 1e-9) << name;
    } else {
      // In the open rows: Black keeps the point in the playouts it wins.
      EXPECT_GT(m.criticality, 0.15) << name;
      ++open_moves;
    }
  }
  EXPECT_GE(open_moves, 3);
  // With criticality in the selection the search still finds the vital point for both sides.
  for (Color c : {Color::kBlack, Color::kWhite}) {
    Game h = game_from_ascii(kVitalPoint, {.komi = -40.5}, c);
    auto with = make_search({.criticality = 1.1, .criticality_min_visits = 100});
    const SearchResult rc = with->search(h, c, playouts(2000));
    EXPECT_EQ(to_gtp(rc.move, 7), "B7") << color_name(c);
  }
}

// The same corner with a White stone at C7 in atari (its last liberty B7): capturing it gives
// Black two eyes; any other move lets White connect at B7 and kill.
constexpr std::string_view kCaptureToLive = R"(
  . . O X O . O
  X X X X O O O
  O O O O O . O
  O . O O O O O
  O O O . O O .
  O . O O O O O
  O O O O . O O)";

TEST(Search, CapturesToLive) {
  Game g = game_from_ascii(kCaptureToLive, {.komi = -40.5}, Color::kBlack);
  auto s = make_search();
  const SearchResult r = s->search(g, Color::kBlack, playouts(2000));
  ASSERT_EQ(to_gtp(r.move, 7), "B7");
  ASSERT_EQ(g.play(r.move), Legality::kLegal);
  EXPECT_EQ(g.board().prisoners(Color::kBlack), 1);
  EXPECT_GT(r.winrate, 0.8);
}

// The end of a game on 7x7: Black owns columns A-D, White E-G, every eye a single point; D4 is
// the one open point (dame: it touches both colours). Area: Black 27 + D4, White 21.
constexpr std::string_view kEnd = R"(
  . X . X O . O
  X X X X O O O
  X . X X O . O
  X X X . O O O
  X . X X O . O
  X X X X O O O
  . X . X O . O)";

Game end_game_after_white_pass(double komi) {
  Game g = game_from_ascii(kEnd, {.komi = komi}, Color::kWhite);
  EXPECT_EQ(g.play(Vertex::pass()), Legality::kLegal);
  return g;
}

TEST(SearchPlayer, PassesAfterTheOpponentPassesWhenPassingWins) {
  Game g = end_game_after_white_pass(5.5);  // 27 - 21 - 5.5 = +0.5 for Black without D4
  const SearchResult r = player_move(*make_player(), g, Color::kBlack);
  EXPECT_TRUE(r.move.is_pass()) << to_gtp(r.move, 7);
}

// A pass in reply ends the game: not while the board is open, however far ahead the komi puts
// the player (`hane play`: a pass on the first move ended the game).
TEST(SearchPlayer, AnEarlyPassIsAnsweredWithAMove) {
  Game g(9, Rules{false, Superko::kPositional, 7.5});
  ASSERT_EQ(g.play(Vertex::pass()), Legality::kLegal);  // Black passes at once
  const SearchResult r = player_move(*make_player(), g, Color::kWhite);
  EXPECT_FALSE(r.move.is_pass());
  EXPECT_EQ(g.legal(r.move, Color::kWhite), Legality::kLegal);
}

TEST(SearchPlayer, PlaysTheLastPointWhenPassingLoses) {
  Game g = end_game_after_white_pass(6.5);  // passing loses by 0.5, D4 wins by 0.5
  const SearchResult r = player_move(*make_player(), g, Color::kBlack);
  EXPECT_EQ(to_gtp(r.move, 7), "D4");
}

TEST(Search, NeverFillsItsOwnEyes) {
  Game g = end_game_after_white_pass(6.5);
  auto s = make_search();
  const SearchResult r = s->search(g, Color::kBlack, playouts(300));
  for (const MoveStats& m : r.children) {
    EXPECT_TRUE(m.move.is_pass() || to_gtp(m.move, 7) == "D4") << to_gtp(m.move, 7);
  }
}

TEST(SearchPlayer, ResignsBelowTheThresholdOnlyWhenAsked) {
  Game g = game_from_ascii(kVitalPoint, {.komi = 40.5}, Color::kBlack);  // hopeless for Black
  EXPECT_FALSE(player_move(*make_player({}, 300), g, Color::kBlack).resign);
  EXPECT_TRUE(player_move(*make_player({.resign_threshold = 0.1}, 300), g, Color::kBlack).resign);
  // With resign_moves 3: only at the third move in a row below the threshold.
  auto p = make_player({.resign_threshold = 0.1}, 300, 3);
  EXPECT_FALSE(player_move(*p, g, Color::kBlack).resign);
  EXPECT_FALSE(player_move(*p, g, Color::kBlack).resign);
  EXPECT_TRUE(player_move(*p, g, Color::kBlack).resign);
  p->new_game();  // a new game starts the count again
  EXPECT_FALSE(player_move(*p, g, Color::kBlack).resign);
  // Never in the opening: an empty 9x9 board at komi 80 is hopeless for Black, but no resign.
  Game opening(9, {.komi = 80.5});
  EXPECT_FALSE(player_move(*make_player({.resign_threshold = 0.5}, 300), opening, Color::kBlack).resign);
}

TEST(Search, PlayoutBudgetCountsNewSimulationsExactly) {
  for (int threads : {1, 2}) {
    Game g(9);
    auto s = make_search({.threads = threads});
    const SearchResult first = s->search(g, Color::kBlack, playouts(1234));
    EXPECT_EQ(first.playouts, 1234);
    EXPECT_EQ(first.root_visits, 1234);
    ASSERT_EQ(g.play(first.move), Legality::kLegal);
    const SearchResult second = s->search(g, Color::kWhite, playouts(777));
    EXPECT_EQ(second.playouts, 777);
    EXPECT_GT(second.root_visits, 777);  // the reused subtree's visits come on top
  }
}

TEST(Search, VisitBudgetCountsTheReusedSubtree) {
  for (int threads : {1, 2}) {
    Game g(9);
    auto s = make_search({.threads = threads});
    SearchLimits visits;
    visits.visits = 1500;
    const SearchResult first = s->search(g, Color::kBlack, visits);
    EXPECT_EQ(first.playouts, 1500);  // an empty tree: every visit is new
    EXPECT_EQ(first.root_visits, 1500);
    const MoveStats* best = find_child(first, first.move);
    ASSERT_NE(best, nullptr);
    ASSERT_GT(best->visits, 1);
    ASSERT_EQ(g.play(first.move), Legality::kLegal);
    const SearchResult second = s->search(g, Color::kWhite, visits);
    EXPECT_EQ(second.root_visits, 1500);
    EXPECT_EQ(second.playouts, 1500 - best->visits);
    // With a playout limit too, the first reached stops.
    visits.playouts = 10;
    ASSERT_EQ(g.play(second.move), Legality::kLegal);
    EXPECT_EQ(s->search(g, Color::kBlack, visits).playouts, 10);
  }
  // A root that already holds the budget still gets one new simulation.
  Game g(9);
  auto s = make_search({.playouts = 0, .visits = 40});
  const SearchResult r = s->search(g, Color::kBlack);
  EXPECT_EQ(r.root_visits, 40);
  EXPECT_EQ(s->search(g, Color::kBlack).playouts, 1);
  EXPECT_FALSE(Search::create({.playouts = 0}).ok());  // no default budget at all
}

TEST(Search, TreeReuseKeepsTheVisitsOfThePlayedMove) {
  Game g(7);
  auto s = make_search();
  const SearchResult r = s->search(g, Color::kBlack, playouts(2000));
  const MoveStats* best = find_child(r, r.move);
  ASSERT_NE(best, nullptr);
  ASSERT_GT(best->visits, 10);
  ASSERT_EQ(g.play(r.move), Legality::kLegal);
  const SearchResult next = s->search(g, Color::kWhite, playouts(500));
  EXPECT_EQ(next.root_visits, best->visits + 500);

  // Without reuse (or after clear()) the root starts from nothing.
  s->clear();
  EXPECT_EQ(s->search(g, Color::kWhite, playouts(500)).root_visits, 500);
  // A position that does not continue the searched one is not reused either.
  Game other(7);
  ASSERT_EQ(other.play(gtp(other.board(), "A1")), Legality::kLegal);
  EXPECT_EQ(s->search(other, Color::kWhite, playouts(300)).root_visits, 300);
}

TEST(Search, OneThreadIsDeterministicForASeed) {
  auto run = [](uint64_t seed) {
    Game g(9);
    auto s = make_search({.seed = seed});
    std::vector<std::pair<int, int64_t>> out;
    for (int move = 0; move < 3; ++move) {
      const SearchResult r = s->search(g, g.to_move(), playouts(800));
      for (const MoveStats& m : r.children) out.push_back({m.move.index(), m.visits});
      EXPECT_EQ(g.play(r.move), Legality::kLegal);
    }
    return out;
  };
  EXPECT_EQ(run(7), run(7));
  EXPECT_NE(run(7), run(8));
}

TEST(Search, TiesBetweenChildrenGoToOneAtRandom) {
  // On the empty board with even priors only, every child of the root starts with the same
  // value: the first simulation's move is a tie broken by the seed, not the first child.
  std::set<int> first;
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    Game g(9);
    auto s = make_search({.seed = seed});
    const SearchResult r = s->search(g, g.to_move(), playouts(1));
    for (const MoveStats& m : r.children) {
      if (m.visits > 0) first.insert(m.move.index());
    }
  }
  EXPECT_GE(first.size(), 8u);
}

TEST(Search, NoPassInTheTreeBeforeTheOpeningIsOver) {
  // UCB exploration visits every child of the root within a few thousand simulations: pass is
  // among them only once a quarter of the points have been played (5x5: 6 moves or stones).
  const auto pass_visits = [](const Game& g) {
    auto s = make_search({.uct_c = 1.0});
    const SearchResult r = s->search(g, g.to_move(), playouts(3000));
    EXPECT_NE(r.move, Vertex::pass());
    const MoveStats* pass = find_child(r, Vertex::pass());
    return pass ? pass->visits : int64_t{0};
  };
  Game opening(5);
  EXPECT_EQ(pass_visits(opening), 0);
  Game later(5);
  for (const char* v : {"B2", "D4", "B4", "D2", "C3", "C4"}) ASSERT_EQ(later.play(gtp(later.board(), v)), Legality::kLegal);
  EXPECT_GT(pass_visits(later), 0);
}

TEST(Search, MemoryCapStopsTreeGrowth) {
  Game g(9);
  auto s = make_search({.expand_visits = 1, .max_tree_mb = 1});
  const SearchResult r = s->search(g, Color::kBlack, playouts(3000));
  EXPECT_TRUE(r.tree_full);
  EXPECT_EQ(r.playouts, 3000);
  EXPECT_LE(r.tree_nodes * sizeof(search_internal::Node), size_t{1} << 20);
  EXPECT_EQ(g.legal(r.move, Color::kBlack), Legality::kLegal);
  // The next move reuses what fits and still searches.
  ASSERT_EQ(g.play(r.move), Legality::kLegal);
  const SearchResult next = s->search(g, Color::kWhite, playouts(1000));
  EXPECT_EQ(next.playouts, 1000);
  EXPECT_EQ(g.legal(next.move, Color::kWhite), Legality::kLegal);
}

TEST(Search, TwoThreadsGiveLegalMovesAndSaneVisits) {
  Game g(9);
  auto s = make_search({.threads = 2});
  for (int move = 0; move < 4; ++move) {
    const Color c = g.to_move();
    const SearchResult r = s->search(g, c, playouts(3000));
    EXPECT_EQ(r.playouts, 3000);
    int64_t child_visits = 0;
    for (const MoveStats& m : r.children) child_visits += m.visits;
    // Every new simulation passes through one child: the root is expanded before they start.
    // A reused root also holds the visits it had as a leaf, and with two threads the ones that
    // stopped at it while the other thread expanded it, so only the first search is tight.
    EXPECT_LE(child_visits, r.root_visits);
    EXPECT_GE(child_visits, r.playouts);
    if (move == 0) {
      EXPECT_GE(child_visits, r.root_visits - 2);
    }
    ASSERT_EQ(g.play(r.move), Legality::kLegal) << to_gtp(r.move, 9);
  }
}

TEST(Search, RootObeysPositionalSuperko) {
  // The triple ko of go_game_test.cc: after C7 B3 H7 B7 C3, White's G7 repeats a position.
  constexpr std::string_view kTripleKo = R"(
    . . . . . . . . .
    . X O . . . X O .
    X O . O . X O . O
    . X O . . . X O .
    . . . . . . . . .
    . X O . . . . . .
    X . X O . . . . .
    . X O . . . . . .
    . . . . . . . . .)";
  Game g = game_from_ascii(kTripleKo, {.superko = Superko::kPositional});
  for (const char* m : {"C7", "B3", "H7", "B7", "C3"}) ASSERT_EQ(g.play(gtp(g.board(), m)), Legality::kLegal);
  const Vertex g7 = gtp(g.board(), "G7");
  ASSERT_EQ(g.board().legal(g7, Color::kWhite), Legality::kLegal);
  auto s = make_search();
  const SearchResult r = s->search(g, Color::kWhite, playouts(2000));
  EXPECT_EQ(find_child(r, g7), nullptr);
  EXPECT_NE(r.move, g7);
}

TEST(Search, TreeLinesThatBreakSuperkoAreInvalid) {
  // 5x5: Black's group lives with two eyes, White's with the eye B1. From the position below,
  // with E1 empty, Black's D1 is a self-atari and White's only move (but pass) is E1, which
  // captures it and brings back the position with White on E1 that the game has seen (the
  // setup below passes through it). Under positional superko that reply is invalid in the tree,
  // two moves below the root: D1's line goes on with White's pass.
  Game g = game_from_ascii(R"(
    X X X X X
    X . X . X
    X X X X X
    O O O O O
    O . O . O)",
                           {.superko = Superko::kPositional});
  const Vertex d1 = gtp(g.board(), "D1"), e1 = gtp(g.board(), "E1");
  g.set_stone(e1, Color::kEmpty);
  for (const Superko rule : {Superko::kPositional, Superko::kNone}) {
    Game game = g;
    if (rule == Superko::kNone) {
      game = game_from_ascii(R"(
        X X X X X
        X . X . X
        X X X X X
        O O O O O
        O . O . .)",
                             {.superko = Superko::kNone});
    }
    auto s = make_search();
    const SearchResult r = s->search(game, Color::kBlack, playouts(3000));
    const MoveStats* d = find_child(r, d1);
    ASSERT_NE(d, nullptr);
    ASSERT_GE(d->pv.size(), 2u);
    if (rule == Superko::kPositional) {
      EXPECT_NE(d->pv[1], e1) << "the capture repeats a position of the game";
    } else {
      EXPECT_EQ(d->pv[1], e1) << "without superko the capture is White's reply";
    }
  }
}

TEST(Search, PruneLaddersLeavesOutARunFromAWorkingLadder) {
  // White D6 is in atari from Black's D5; running at E6 leaves two liberties and a working
  // ladder (the start of the ladder in features_tactics_test.cc).
  Game g = game_from_ascii(R"(
    . . . . . . . . .
    . . . . . . . . .
    . . . X X . . . .
    . . X O . . . . .
    . . . X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .)",
                           {}, Color::kWhite);
  const Vertex e6 = gtp(g.board(), "E6");
  for (const bool prune : {false, true}) {
    auto s = make_search({.prune_ladders = prune});
    const SearchResult r = s->search(g, Color::kWhite, playouts(300));
    if (prune) {
      EXPECT_EQ(find_child(r, e6), nullptr);
    } else {
      EXPECT_NE(find_child(r, e6), nullptr);
    }
  }
}

// 9x9: a seki in the top middle (Black's C8-C7 and White's E8-E7 share D8 and D7, no eyes), a
// dead White stone at G3 in Black's bottom-right area, both outer groups alive.
constexpr std::string_view kSekiAndDead = R"(
  . O O O X X . . .
  O O X . O X . . .
  O O X . O X . . .
  . O O O X X . . .
  O O O O X X X X X
  . O . O X . . . .
  O O O O X . O . .
  . O . O X . . . .
  O O O O X . . . .)";

TEST(Search, EndEstimateFindsDeadStonesAndSeki) {
  Game g = game_from_ascii(kSekiAndDead, {.komi = 7.5}, Color::kBlack);
  auto s = make_search();
  const EndEstimate e = s->estimate_end(g, 1000);
  const Board& b = g.board();
  auto status = [&](const char* v) { return e.status[gtp(b, v).index()]; };
  EXPECT_EQ(status("G3"), PointStatus::kDead);
  for (const char* v : {"C8", "C7", "E8", "E7"}) EXPECT_EQ(status(v), PointStatus::kSeki) << v;
  for (const char* v : {"A8", "D9", "E9", "E1", "A1"}) EXPECT_EQ(status(v), PointStatus::kAlive) << v;
  EXPECT_EQ(status("D8"), PointStatus::kEmpty);
  EXPECT_GT(e.ownership[gtp(b, "H2").index()], 0.5f);  // Black's area
  EXPECT_LT(e.ownership[gtp(b, "A9").index()], -0.5f);  // White's eye
  // Area: Black 15 outer + 2 seki stones + 28 area (G3 removed) = 45; White 32 + 2 = 34; the two
  // shared liberties neutral. Territory: Black 28 + 1 prisoner, White 6 eyes.
  EXPECT_DOUBLE_EQ(e.area_margin, 45 - 34 - 7.5);
  EXPECT_DOUBLE_EQ(e.territory_margin, 29 - 6 - 7.5);
}

TEST(SearchPlayer, CleanupCapturesDeadStonesInsteadOfPassing) {
  Game g = game_from_ascii(kSekiAndDead, {.komi = 7.5}, Color::kWhite);
  ASSERT_EQ(g.play(Vertex::pass()), Legality::kLegal);
  auto p = make_player({}, 1000);
  // Normal genmove: White passed and Black wins with G3 dead, so Black passes.
  EXPECT_TRUE(player_move(*p, g, Color::kBlack).move.is_pass());
  // Cleanup: a liberty of the dead stone.
  const SearchResult r = player_move(*p, g, Color::kBlack, /*cleanup=*/true);
  const std::string m = to_gtp(r.move, 9);
  EXPECT_TRUE(m == "G4" || m == "F3" || m == "H3" || m == "G2") << m;
}

TEST(Search, TimeLimitStopsTheSearch) {
  Game g(9);
  auto s = make_search();
  SearchLimits l;
  l.seconds = 0.05;
  const SearchResult r = s->search(g, Color::kBlack, l);
  EXPECT_GT(r.playouts, 0);
  EXPECT_EQ(g.legal(r.move, Color::kBlack), Legality::kLegal);
  std::atomic<bool> stop{true};
  SearchLimits stopped;
  stopped.stop = &stop;
  EXPECT_EQ(s->search(g, Color::kBlack, stopped).playouts, 0);
}

TEST(Search, AnalysisCallbackSeesTheRoot) {
  Game g(7);
  auto s = make_search();
  int calls = 0;
  int64_t last_visits = -1;
  AnalysisCallback cb{.interval_ms = 0, .on_update = [&](const SearchResult& r) {
                        ++calls;
                        EXPECT_GT(r.root_visits, last_visits);
                        last_visits = r.root_visits;
                        // Live ownership over the playouts so far: at the end of a playout
                        // nearly every point has an owner.
                        double owned = 0;
                        for (float o : s->ownership()) {
                          EXPECT_TRUE(o >= -1 && o <= 1) << o;
                          owned += std::abs(o);
                        }
                        if (calls == 1) {
                          EXPECT_GT(owned, 40);  // of 49 points, one playout
                        }
                      }};
  s->search(g, Color::kBlack, playouts(200), &cb);
  EXPECT_EQ(calls, 200);
  EXPECT_EQ(s->ownership().size(), g.board().geometry().num_vertices());
}

TEST(Search, GuesserPriorsLeadTheFirstVisits) {
  const std::string model = std::string(HANE_TEST_DATA_DIR) + "/../../patterns/kgs-3x3.model";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "no shipped model at " << model;
  // A heavy prior: the move the guesser likes best gets the most of few simulations.
  auto s = make_search({.prior = model, .prior_weight = 1000});
  Game g(9);
  ASSERT_EQ(g.play(gtp(g.board(), "E5")), Legality::kLegal);
  const SearchResult r = s->search(g, Color::kWhite, playouts(300));
  double sum = 0;
  const MoveStats* top = nullptr;
  for (const MoveStats& m : r.children) {
    sum += m.prior;
    if (!top || m.prior > top->prior) top = &m;
  }
  EXPECT_NEAR(sum, 1.0, 1e-3);
  ASSERT_NE(top, nullptr);
  // (Symmetric moves share the top prior; any of them will do.)
  EXPECT_FLOAT_EQ(find_child(r, r.move)->prior, top->prior) << to_gtp(r.move, 9) << " vs " << to_gtp(top->move, 9);
  // Even priors only: no prior is reported.
  for (const MoveStats& m : make_search()->search(g, Color::kWhite, playouts(100)).children) EXPECT_EQ(m.prior, 0);
}

TEST(Search, SelfPlayEndsWithTwoPasses) {
  Game g(7, {.komi = 7.5});
  auto s = make_search();
  auto player = make_player({}, 300);
  int moves = 0;
  while (g.consecutive_passes() < 2 && moves < 200) {
    const SearchResult r = player_move(*player, g, g.to_move());
    ASSERT_FALSE(r.resign);
    ASSERT_EQ(g.play(r.move), Legality::kLegal) << to_gtp(r.move, 7) << " at move " << moves;
    ++moves;
  }
  ASSERT_EQ(g.consecutive_passes(), 2) << "no end after " << moves << " moves";
  // What the final position implies for the estimate: the margin is the area score of the
  // board with the stones marked dead removed, komi 7.5 taken off (so a whole number and a
  // half, within the 49 points of the board), and each chain's status agrees with its mean
  // ownership seen from its own colour (dead below 0, alive at 0 or above; seki aside).
  const EndEstimate e = s->estimate_end(g, 500);
  Board cleaned = g.board();
  int dead = 0;
  for (int i = 0; i < 49; ++i) {
    const Vertex v = g.board().at(i % 7, i / 7);
    const size_t k = static_cast<size_t>(v.index());
    if (!g.board().is_stone(v)) {
      EXPECT_EQ(e.status[k], PointStatus::kEmpty) << to_gtp(v, 7);
      continue;
    }
    // The chain's mean ownership from its own colour.
    double own = 0;
    int stones = 0;
    Vertex c = v;
    do {
      own += e.ownership[static_cast<size_t>(c.index())];
      ++stones;
      c = g.board().next_in_chain(c);
    } while (c != v);
    own *= (g.board().color(v) == Color::kBlack ? 1.0 : -1.0) / stones;
    if (e.status[k] == PointStatus::kDead) {
      EXPECT_LT(own, 0) << to_gtp(v, 7);
      cleaned.set_stone(v, Color::kEmpty);
      ++dead;
    } else if (e.status[k] == PointStatus::kAlive) {
      EXPECT_GE(own, -1e-6) << to_gtp(v, 7);
    }
  }
  const Score area = area_score(cleaned);
  EXPECT_LE(area.black + area.white, 49);
  EXPECT_DOUBLE_EQ(e.area_margin, area.black - area.white - 7.5) << dead << " dead stones";
  EXPECT_DOUBLE_EQ(e.area_margin - std::floor(e.area_margin), 0.5);
}

// ---- The parts of the search, on hand-built trees (search/search_impl.h, search/tree.h).

using search_internal::NodePool;

// Children [first, first + count) for `parent`, their moves 1, 2, ... unless given.
int32_t add_children(NodePool& pool, int32_t parent, int count) {
  const int32_t first = pool.allocate(count);
  if (first < 0) return -1;
  for (int k = 0; k < count; ++k) pool[first + k].move = static_cast<int16_t>(1 + k % 300);
  pool[parent].first_child = first;
  pool[parent].num_children = static_cast<uint16_t>(count);
  pool[parent].state.store(search_internal::Node::kExpanded);
  return first;
}

TEST(SearchParts, PriorArithmetic) {
  using search_internal::child_prior;
  // Even prior only (no guesser): 10 visits at win rate 0.5.
  EXPECT_FLOAT_EQ(child_prior(10, 40, 0, 0).visits, 10);
  EXPECT_FLOAT_EQ(child_prior(10, 40, 0, 0).wins, 5);
  // Relative: p = 0.1 of p_max 0.4: 40 * sqrt(1/4) = 20 more visits, all wins.
  EXPECT_FLOAT_EQ(child_prior(10, 40, 0.1, 0.4).visits, 30);
  EXPECT_FLOAT_EQ(child_prior(10, 40, 0.1, 0.4).wins, 25);
  EXPECT_FLOAT_EQ(child_prior(10, 40, 0.4, 0.4).visits, 50);  // the top move gets the weight
  // Absolute (scale = the sum, 1 for probabilities): p = 0.04 gives 80 * 0.2 = 16.
  EXPECT_FLOAT_EQ(child_prior(10, 80, 0.04, 1).visits, 26);
  EXPECT_FLOAT_EQ(child_prior(10, 80, 0.04, 1).wins, 21);
  EXPECT_FLOAT_EQ(child_prior(0, 80, 0.25, 1).wins, 40);
  // A negative score counts as 0.
  EXPECT_FLOAT_EQ(child_prior(10, 40, -1, 1).visits, 10);
}

TEST(SearchParts, CriticalityArithmetic) {
  using search_internal::point_criticality;
  // The winner always owns the point, each side wins half: 1 − (0.25 + 0.25).
  EXPECT_DOUBLE_EQ(point_criticality(0.5, 1, 0.5), 0.5);
  EXPECT_DOUBLE_EQ(point_criticality(0.5, 0, 0.5), -0.5);  // the loser always owns it
  // Owning and winning independent (Black wins 0.3, owns 0.6): the winner owns it
  // 0.3 · 0.6 + 0.7 · 0.4 = 0.46 of the time, as chance predicts.
  EXPECT_NEAR(point_criticality(0.3, 0.46, 0.6), 0, 1e-12);
  // Black owns it always (secure territory): no covariance, whoever wins.
  EXPECT_NEAR(point_criticality(0.8, 0.8, 1), 0, 1e-12);
}

TEST(SearchParts, RootCriticalityCountsOwnersAndWinners) {
  // Four simulations through E5, worked by hand in half-points (own 2, neutral 1):
  //   Black stone, Black wins:   winner 2, Black 2, Black's half-wins 2
  //   White stone, White wins:   winner 2, Black 0, 0
  //   White stone, Black wins:   winner 0, Black 0, 2
  //   neutral (empty, both colours next to it), White wins: winner 1, Black 1, 0
  // P(Black wins) = 4/8, P(winner owns) = 5/8, P(Black owns) = 3/8:
  // crit = 0.625 − (0.375 · 0.5 + 0.625 · 0.5) = 0.125.
  Board black(9), white(9), neutral(9);
  const Vertex e5 = gtp(black, "E5");
  ASSERT_EQ(black.play(e5, Color::kBlack), Legality::kLegal);
  ASSERT_EQ(white.play(e5, Color::kWhite), Legality::kLegal);
  ASSERT_EQ(neutral.play(gtp(neutral, "E6"), Color::kBlack), Legality::kLegal);
  ASSERT_EQ(neutral.play(gtp(neutral, "E4"), Color::kWhite), Legality::kLegal);
  search_internal::RootCriticality crit;
  crit.clear();
  EXPECT_EQ(crit.criticality(e5), 0);
  crit.add(e5, black, 2);
  crit.add(e5, white, 0);
  crit.add(e5, white, 2);
  crit.add(e5, neutral, 0);
  EXPECT_EQ(crit.visits(e5), 4);
  EXPECT_DOUBLE_EQ(crit.criticality(e5), 0.125);
  EXPECT_EQ(crit.visits(gtp(black, "D4")), 0);
  crit.clear();
  EXPECT_EQ(crit.visits(e5), 0);
}

TEST(SearchParts, AmafCreditsFirstPlaysOfTheMoverOnly) {
  const Board b(9);
  const Vertex a = gtp(b, "A1"), bb = gtp(b, "B1"), c = gtp(b, "C1");
  NodePool pool(size_t{1} << 20);
  const int32_t root = pool.allocate(1);
  const int32_t kids = add_children(pool, root, 3);  // A1, B1, pass
  pool[kids].move = static_cast<int16_t>(a.index());
  pool[kids + 1].move = static_cast<int16_t>(bb.index());
  pool[kids + 2].move = static_cast<int16_t>(Vertex::pass().index());
  const int32_t grand = add_children(pool, kids, 2);  // under A1: B1, C1
  pool[grand].move = static_cast<int16_t>(bb.index());
  pool[grand + 1].move = static_cast<int16_t>(c.index());
  // Tree: Black A1, White C1; playout: Black B1, then Black C1 (after a capture, say).
  const std::vector<int32_t> path{root, kids, grand + 1};
  const std::vector<Move> moves{{Color::kBlack, a}, {Color::kWhite, c}, {Color::kBlack, bb}, {Color::kBlack, c}};
  search_internal::AmafScratch scratch(b.geometry().num_vertices());
  const search_internal::AmafWeights plain;
  search_internal::backup_amaf(pool, path, moves, {}, /*black_half=*/2, plain, scratch);  // Black won
  auto amaf = [&](int32_t i) { return std::pair{pool[i].amaf_visits.load(), pool[i].amaf_half_wins.load()}; };
  // At the root Black is to move: A1 and B1 were first played by Black (a win: 2 half-wins).
  EXPECT_EQ(amaf(kids), (std::pair{1, 2}));
  EXPECT_EQ(amaf(kids + 1), (std::pair{1, 2}));
  EXPECT_EQ(amaf(kids + 2), (std::pair{0, 0}));  // pass is never credited
  // Under A1 White is to move: C1 first by White (a loss for White), B1 by Black (no credit).
  EXPECT_EQ(amaf(grand + 1), (std::pair{1, 0}));
  EXPECT_EQ(amaf(grand), (std::pair{0, 0}));
  // The leaf C1 has no children; the scratch is left clean.
  EXPECT_TRUE(std::all_of(scratch.color.begin(), scratch.color.end(), [](uint8_t x) { return x == 0; }));
  // A jigo gives each side one half-win.
  search_internal::backup_amaf(pool, path, moves, {}, /*black_half=*/1, plain, scratch);
  EXPECT_EQ(amaf(kids), (std::pair{2, 3}));
  EXPECT_EQ(amaf(grand + 1), (std::pair{2, 1}));
}

TEST(SearchParts, AmafWeighsEarlierMovesMoreByDistance) {
  const Board b(9);
  const Vertex a = gtp(b, "A1"), bb = gtp(b, "B1"), c = gtp(b, "C1");
  NodePool pool(size_t{1} << 20);
  const int32_t root = pool.allocate(1);
  const int32_t kids = add_children(pool, root, 2);  // A1, B1
  pool[kids].move = static_cast<int16_t>(a.index());
  pool[kids + 1].move = static_cast<int16_t>(bb.index());
  const int32_t grand = add_children(pool, kids, 1);  // under A1: C1
  pool[grand].move = static_cast<int16_t>(c.index());
  const std::vector<int32_t> path{root, kids, grand};
  const std::vector<Move> moves{{Color::kBlack, a}, {Color::kWhite, c}, {Color::kBlack, bb}, {Color::kWhite, Vertex::pass()}};
  search_internal::AmafScratch scratch(b.geometry().num_vertices());
  // Distance 3, L = 4 moves: weight 1 + 3 (L - f) / (L - j + 1), rounded down.
  search_internal::backup_amaf(pool, path, moves, {}, /*black_half=*/2, {.distance = 3}, scratch);
  auto amaf = [&](int32_t i) { return std::pair{pool[i].amaf_visits.load(), pool[i].amaf_half_wins.load()}; };
  EXPECT_EQ(amaf(kids), (std::pair{3, 6}));       // A1: f 0, j 0: 1 + 12 / 5 = 3, won
  EXPECT_EQ(amaf(kids + 1), (std::pair{2, 4}));   // B1: f 2, j 0: 1 + 6 / 5 = 2
  EXPECT_EQ(amaf(grand), (std::pair{3, 0}));      // C1: f 1, j 1: 1 + 9 / 4 = 3, lost by White
}

TEST(SearchParts, AmafGivesKoThreatsBeforeTheRetakeNoCredit) {
  const Board b(9);
  // Black takes a ko (K), White threatens, Black answers (A), White retakes, Black threatens
  // (T), White answers, Black retakes, White plays elsewhere.
  const std::vector<Vertex> v{gtp(b, "E5"), gtp(b, "A9"), gtp(b, "B9"), gtp(b, "E6"),
                              gtp(b, "J1"), gtp(b, "H1"), gtp(b, "E5"), gtp(b, "C3")};
  std::vector<Move> moves;
  for (size_t i = 0; i < v.size(); ++i) moves.push_back({i % 2 == 0 ? Color::kBlack : Color::kWhite, v[i]});
  const std::vector<uint8_t> ko{1, 0, 0, 1, 0, 0, 1, 0};
  NodePool pool(size_t{1} << 20);
  const int32_t root = pool.allocate(1);
  const int32_t kids = add_children(pool, root, 3);  // K, A, T
  pool[kids].move = static_cast<int16_t>(v[0].index());
  pool[kids + 1].move = static_cast<int16_t>(v[2].index());
  pool[kids + 2].move = static_cast<int16_t>(v[4].index());
  const std::vector<int32_t> path{root, kids};
  search_internal::AmafScratch scratch(b.geometry().num_vertices());
  auto visits = [&](int32_t i) { return pool[i].amaf_visits.load(); };
  search_internal::backup_amaf(pool, path, moves, ko, 2, {.ko_threats = false}, scratch);
  EXPECT_EQ(visits(kids), 1);
  EXPECT_EQ(visits(kids + 1), 1);  // the answer to White's threat, distance 2
  EXPECT_EQ(visits(kids + 2), 0);  // Black's threat, distance 4, before the retake at 6
  // With threats credited, or when White never retook the ko, the same move is credited.
  search_internal::backup_amaf(pool, path, moves, ko, 2, {.ko_threats = true}, scratch);
  EXPECT_EQ(visits(kids + 2), 1);
  const std::vector<uint8_t> no_retake{1, 0, 0, 0, 0, 0, 0, 0};
  search_internal::backup_amaf(pool, path, moves, no_retake, 2, {.ko_threats = false}, scratch);
  EXPECT_EQ(visits(kids + 2), 2);
}

TEST(SearchParts, RerootOfAFullPoolKeepsWhatFits) {
  constexpr int32_t C = NodePool::kChunk;
  NodePool pool(2 * static_cast<size_t>(C) * sizeof(search_internal::Node));
  // Old layout, two full chunks: root, its children X and Y, X's children k1 and k2, k2's block
  // of C - 5 (filling chunk 0), then k1's block of C (chunk 1).
  const int32_t root = pool.allocate(1);
  const int32_t x = add_children(pool, root, 2);
  const int32_t k = add_children(pool, x, 2);
  ASSERT_EQ(add_children(pool, k + 1, C - 5), 5);
  ASSERT_EQ(add_children(pool, k, C), C);
  ASSERT_EQ(pool.used(), size_t{2} * C);
  pool[x].visits.store(1000);
  pool[k].visits.store(600);
  pool[k + 1].visits.store(300);
  pool[k].half_wins.store(700);
  // Breadth first, k1's block comes first and takes chunk 1; k2's block then has no room left,
  // so k2 stays a leaf and its children are dropped.
  const int32_t new_root = search_internal::reroot(pool, x);
  ASSERT_EQ(new_root, 0);
  const auto& r = pool[new_root];
  EXPECT_EQ(r.visits.load(), 1000);
  ASSERT_TRUE(r.expanded());
  ASSERT_EQ(r.num_children, 2);
  const auto& k1 = pool[r.first_child];
  const auto& k2 = pool[r.first_child + 1];
  EXPECT_EQ(k1.visits.load(), 600);
  EXPECT_EQ(k1.half_wins.load(), 700);
  EXPECT_EQ(k2.visits.load(), 300);
  ASSERT_TRUE(k1.expanded());
  EXPECT_EQ(k1.num_children, C);
  EXPECT_FALSE(k2.expanded());
  EXPECT_TRUE(pool.full());
  // What a search on top of such a tree needs (Search.MemoryCapStopsTreeGrowth runs one): the
  // kept blocks inside the pool's two chunks, where its walk reads them (k1's block is chunk 1,
  // whole), and no room for another node, so its leaves stay leaves and play out.
  EXPECT_EQ(r.first_child, 1);
  EXPECT_EQ(k1.first_child, C);
  EXPECT_EQ(pool.used(), 3 + static_cast<size_t>(C));
  EXPECT_EQ(pool.allocate(1), -1);
}

TEST(Search, CreateRejectsBadOptions) {
  const auto rejected = [](void (*set)(SearchOptions&)) {
    SearchOptions o;
    set(o);
    return !Search::create(o).ok();
  };
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.policy = "no-such-policy"; }));
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.prior = "/no/such/model"; }));
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.threads = 0; }));
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.max_tree_mb = 0; }));
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.resign_threshold = 1.5; }));
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.visits = -1; }));
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.criticality = -1; }));
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.criticality_min_visits = -1; }));
  EXPECT_TRUE(rejected([](SearchOptions& o) { o.policy_options.settings["uniform.nonsense"] = "1"; }));
}

}  // namespace
}  // namespace hane
