// The incremental pattern tracker against from-scratch codes: random games on every common
// board size, captures, suicide, and real games; its dirty list and which of its points had
// their 3x3 code changed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "features/pattern_tracker.h"
#include "playout/uniform.h"
#include "go_fixtures.h"
#include "sgf/record.h"

namespace hane {
namespace {

using testing::board_from_ascii;
using testing::gtp;

// Every on-board point's tracked codes (both shapes, both colours) equal pattern_code().
// Two from-scratch codes per point (diamond12 for Black, 3x3 for White); the other two are
// derived from them, which the pattern tests check separately.
::testing::AssertionResult matches_scratch(const PatternTracker& tracker, const Board& board) {
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Vertex v = board.at(x, y);
      const uint64_t black12 = pattern_code(board, v, Color::kBlack, PatternShape::kDiamond12);
      const uint64_t white3 = pattern_code(board, v, Color::kWhite, PatternShape::k3x3);
      struct Check {
        PatternShape shape;
        Color to_move;
        uint64_t want;
      };
      for (const Check& c : {Check{PatternShape::kDiamond12, Color::kBlack, black12},
                             Check{PatternShape::k3x3, Color::kWhite, white3},
                             Check{PatternShape::kDiamond12, Color::kWhite, swap_colors(black12)},
                             Check{PatternShape::k3x3, Color::kBlack, shrink(black12, PatternShape::k3x3)}}) {
        const uint64_t got = tracker.code(v, c.shape, c.to_move);
        if (got != c.want) {
          return ::testing::AssertionFailure()
                 << "at " << to_gtp(v, board.size()) << " " << pattern_shape_name(c.shape) << " for "
                 << color_name(c.to_move) << ": tracked\n" << pattern_to_string(got, c.shape) << "scratch\n"
                 << pattern_to_string(c.want, c.shape) << board.to_string();
        }
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// Codes and emptiness of every on-board point, for computing the expected dirty list.
struct Snapshot {
  std::vector<uint64_t> codes;
  std::vector<bool> empty;
};

Snapshot snapshot(const Board& board) {
  Snapshot s;
  s.codes.assign(Board::kMaxVertices, 0);
  s.empty.assign(Board::kMaxVertices, false);
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const Vertex v = board.at(x, y);
      s.codes[v.index()] = pattern_code(board, v, Color::kBlack, PatternShape::kDiamond12);
      s.empty[v.index()] = board.is_empty(v);
    }
  }
  return s;
}

// The dirty list as documented: the played point, empty points whose code changed, points
// that became empty.
std::set<int> expected_dirty(const Snapshot& before, const Snapshot& after, const Board& board, Vertex move) {
  std::set<int> out;
  if (!move.is_point()) return out;
  out.insert(move.index());
  for (int y = 0; y < board.size(); ++y) {
    for (int x = 0; x < board.size(); ++x) {
      const int v = board.at(x, y).index();
      if (!after.empty[v]) continue;
      if (after.codes[v] != before.codes[v] || !before.empty[v]) out.insert(v);
    }
  }
  return out;
}

::testing::AssertionResult dirty_is_exact(const PatternTracker& tracker, const std::set<int>& want) {
  const auto dirty = tracker.dirty();
  const std::set<int> got(dirty.begin(), dirty.end());
  if (got.size() != dirty.size()) return ::testing::AssertionFailure() << "a point is listed twice";
  if (got != want) {
    std::ostringstream out;
    out << "dirty list differs: got";
    for (int v : got) out << ' ' << v;
    out << ", want";
    for (int v : want) out << ' ' << v;
    return ::testing::AssertionFailure() << out.str();
  }
  return ::testing::AssertionSuccess();
}

void play_random_games(int size, bool allow_suicide, int games, uint64_t seed, bool check_dirty,
                       int* moves_checked, int* captures_seen, int* suicides_seen = nullptr) {
  Rng rng(seed);
  for (int game = 0; game < games; ++game) {
    Board board(size, allow_suicide);
    PatternTracker tracker(board);
    ASSERT_TRUE(matches_scratch(tracker, board));
    Color c = Color::kBlack;
    int passes = 0;
    const int max_moves = 3 * size * size;
    for (int m = 0; m < max_moves && passes < 2; ++m) {
      const Vertex v = random_move(board, c, rng);
      Snapshot before;
      if (check_dirty) before = snapshot(board);
      ASSERT_EQ(board.play(v, c), Legality::kLegal);
      tracker.update(board, v);
      *captures_seen += board.last_removed().empty() ? 0 : 1;
      if (suicides_seen && v.is_point() && board.is_empty(v)) ++*suicides_seen;
      ASSERT_TRUE(matches_scratch(tracker, board)) << "size " << size << " game " << game << " move " << m;
      if (check_dirty) {
        const Snapshot after = snapshot(board);
        ASSERT_TRUE(dirty_is_exact(tracker, expected_dirty(before, after, board, v)))
            << "size " << size << " game " << game << " move " << m << "\n" << board.to_string();
        // changed_3x3(): whether the 3x3 part of each dirty point's code changed.
        for (int16_t p : tracker.dirty()) {
          const bool changed = shrink(after.codes[p], PatternShape::k3x3) != shrink(before.codes[p], PatternShape::k3x3);
          ASSERT_EQ(tracker.changed_3x3(p), changed) << "at " << to_gtp(Vertex(p), size) << ", size " << size << " game "
                                                     << game << " move " << m << "\n" << board.to_string();
        }
      }
      passes = v.is_pass() ? passes + 1 : 0;
      c = opponent(c);
      ++*moves_checked;
    }
  }
}

TEST(PatternTracker, MatchesScratchOnRandomGames) {
  for (int size : {5, 9, 13, 19}) {
    int moves = 0, captures = 0;
    const int games = size <= 9 ? 40 : size == 13 ? 12 : 6;
    play_random_games(size, /*allow_suicide=*/false, games, 1234 + size, /*check_dirty=*/true, &moves, &captures);
    EXPECT_GT(moves, games * size * size / 2) << size;
    EXPECT_GT(captures, games) << size;  // random games capture a lot
  }
}

TEST(PatternTracker, MatchesScratchWithSuicideAllowed) {
  // Uniform-random moves include multi-stone suicides when they are legal.
  for (int size : {5, 9}) {
    int moves = 0, captures = 0, suicides = 0;
    play_random_games(size, /*allow_suicide=*/true, 40, 99 + size, /*check_dirty=*/true, &moves, &captures, &suicides);
    EXPECT_GT(suicides, 10) << size;
  }
}

TEST(PatternTracker, ManyGamesWithoutDirtyCheck) {
  for (int size : {5, 9, 13, 19}) {
    int moves = 0, captures = 0;
    play_random_games(size, false, size <= 9 ? 80 : 12, 77 + size, /*check_dirty=*/false, &moves, &captures);
  }
}

TEST(PatternTracker, CaptureAndSuicideOnDrawnBoards) {
  // Black D4 captures four white stones; the black stones around them gain liberties.
  Board board = board_from_ascii(R"(
    . . . . . . .
    . X X . . . .
    X O O X . . .
    X O O . . . .
    . X X . . . .
    . . . . . . .
    . . . . . . .)");
  PatternTracker tracker(board);
  ASSERT_TRUE(matches_scratch(tracker, board));
  Snapshot before = snapshot(board);
  const Vertex d4 = gtp(board, "D4");
  ASSERT_EQ(board.play(d4, Color::kBlack), Legality::kLegal);
  ASSERT_EQ(board.last_removed().size(), 4u);
  tracker.update(board, d4);
  EXPECT_TRUE(matches_scratch(tracker, board));
  EXPECT_TRUE(dirty_is_exact(tracker, expected_dirty(before, snapshot(board), board, d4)));
  std::set<int> listed(tracker.dirty().begin(), tracker.dirty().end());
  for (const char* p : {"B5", "C5", "B4", "C4", "D4"}) EXPECT_TRUE(listed.count(gtp(board, p).index())) << p;

  // Multi-stone suicide: Black B2 fills the last liberty of the black pair, and all three
  // stones leave the board.
  Board suicide = board_from_ascii(R"(
    . O . . .
    O X O . .
    O X O . .
    O . O . .
    . O . . .)", /*allow_suicide=*/true);
  PatternTracker t2(suicide);
  before = snapshot(suicide);
  const Vertex b2 = gtp(suicide, "B2");
  ASSERT_EQ(suicide.play(b2, Color::kBlack), Legality::kLegal);
  ASSERT_EQ(suicide.last_removed().size(), 3u);
  ASSERT_TRUE(suicide.is_empty(b2));
  t2.update(suicide, b2);
  EXPECT_TRUE(matches_scratch(t2, suicide));
  EXPECT_TRUE(dirty_is_exact(t2, expected_dirty(before, snapshot(suicide), suicide, b2)));
  listed = std::set<int>(t2.dirty().begin(), t2.dirty().end());
  for (const char* p : {"B4", "B3", "B2"}) EXPECT_TRUE(listed.count(gtp(suicide, p).index())) << p;
}

TEST(PatternTracker, PassAndReset) {
  Board board(9);
  PatternTracker tracker(board);
  EXPECT_TRUE(tracker.dirty().empty());
  board.play(gtp(board, "E5"), Color::kBlack);
  tracker.update(board, gtp(board, "E5"));
  EXPECT_EQ(tracker.dirty().size(), 13u);  // E5 and the 12 empty points around it
  EXPECT_EQ(tracker.num_changed_points(), 1);
  board.play(Vertex::pass(), Color::kWhite);
  tracker.update(board, Vertex::pass());
  EXPECT_TRUE(tracker.dirty().empty());
  EXPECT_TRUE(matches_scratch(tracker, board));
  board.set_stone(gtp(board, "C3"), Color::kWhite);
  tracker.reset(board);
  EXPECT_TRUE(tracker.dirty().empty());
  EXPECT_TRUE(matches_scratch(tracker, board));
  // Tracking a new board of another size.
  Board small(5);
  tracker.reset(small);
  EXPECT_TRUE(matches_scratch(tracker, small));
  EXPECT_EQ(tracker.black_code(small.at(0, 0)), pattern_code(small, small.at(0, 0), Color::kBlack, PatternShape::kDiamond12));
}

// Real games: replay every SGF file shipped with the goban package, if it is installed.
TEST(PatternTracker, MatchesScratchOnRealGames) {
  const std::filesystem::path dir = "/usr/share/goban";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is absent (Debian package goban)";
  int games = 0, moves = 0;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".sgf") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) GTEST_SKIP() << "no .sgf files in " << dir;
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const auto record = read_game(text.str());
    if (!record.ok()) continue;
    Board board(record->board_size);
    for (Vertex v : record->setup.black) board.set_stone(v, Color::kBlack);
    for (Vertex v : record->setup.white) board.set_stone(v, Color::kWhite);
    PatternTracker tracker(board);
    ++games;
    for (const GameEvent& e : record->events) {
      if (e.type == GameEvent::Type::kSetup) {
        board.set_stone(e.vertex, e.color);
        tracker.reset(board);
      } else if (e.type == GameEvent::Type::kMove) {
        if (board.play(e.vertex, e.color) != Legality::kLegal) break;  // a broken record
        tracker.update(board, e.vertex);
        ++moves;
      }
      ASSERT_TRUE(matches_scratch(tracker, board)) << file << " after " << moves << " moves";
    }
  }
  EXPECT_GT(games, 0);
  std::cout << "[ replayed " << games << " games, " << moves << " moves from " << dir << " ]\n";
}

}  // namespace
}  // namespace hane
