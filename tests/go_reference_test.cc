// Property test: the fast board against a deliberately naive reference (flood fill for chains
// and liberties, hash recomputed from scratch) over a million random moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "go/board.h"
#include "go/random.h"
#include "go/zobrist.h"

namespace hane {
namespace {

// A plain 2-D board. Every question is answered by flood fill from scratch.
class NaiveBoard {
 public:
  NaiveBoard(int size, bool allow_suicide) : n_(size), suicide_(allow_suicide), c_(size * size, Color::kEmpty) {}

  Color at(int x, int y) const { return c_[y * n_ + x]; }

  // Stones of the chain at p and its liberties, both as sorted point lists.
  void chain(int p, std::vector<int>& stones, std::vector<int>& libs) const {
    stones.assign(1, p);
    libs.clear();
    std::vector<bool> seen(n_ * n_, false), lib_seen(n_ * n_, false);
    seen[p] = true;
    for (size_t i = 0; i < stones.size(); ++i) {
      for (int q : neighbours(stones[i])) {
        if (c_[q] == c_[p] && !seen[q]) {
          seen[q] = true;
          stones.push_back(q);
        } else if (c_[q] == Color::kEmpty && !lib_seen[q]) {
          lib_seen[q] = true;
          libs.push_back(q);
        }
      }
    }
  }

  Legality legal(int p, Color c) const {
    if (c_[p] != Color::kEmpty) return Legality::kOccupied;
    if (p == ko_ && c == ko_color_) return Legality::kKo;
    NaiveBoard copy = *this;
    copy.place(p, c);
    if (!suicide_ && copy.suicided_) return Legality::kSuicide;
    return Legality::kLegal;
  }

  void play(int p, Color c) { place(p, c); }
  void pass() {
    ko_ = -1;
    ko_color_ = Color::kEmpty;
  }

  // Labels every chain: label[p] = chain number or -1; sizes and liberty counts per chain.
  void label(std::vector<int>& label, std::vector<int>& sizes, std::vector<int>& libs) const {
    label.assign(n_ * n_, -1);
    sizes.clear();
    libs.clear();
    std::vector<int> lib_mark(n_ * n_, -1), stack;
    for (int p = 0; p < n_ * n_; ++p) {
      if (c_[p] == Color::kEmpty || label[p] >= 0) continue;
      const int id = static_cast<int>(sizes.size());
      sizes.push_back(0);
      libs.push_back(0);
      stack.assign(1, p);
      label[p] = id;
      while (!stack.empty()) {
        const int s = stack.back();
        stack.pop_back();
        ++sizes[id];
        for (int q : neighbours(s)) {
          if (c_[q] == c_[p] && label[q] < 0) {
            label[q] = id;
            stack.push_back(q);
          } else if (c_[q] == Color::kEmpty && lib_mark[q] != id) {
            lib_mark[q] = id;
            ++libs[id];
          }
        }
      }
    }
  }

  uint64_t hash(const Geometry& g) const {
    uint64_t h = 0;
    for (int y = 0; y < n_; ++y) {
      for (int x = 0; x < n_; ++x) {
        if (at(x, y) != Color::kEmpty) h ^= zobrist::stone(g.at(x, y).index(), at(x, y));
      }
    }
    return h;
  }

  int captured_ = 0;  // opponent stones removed by the last move
  int removed_ = 0;   // all stones removed by the last move (captures or the suicided chain)
  bool suicided_ = false;

 private:
  std::vector<int> neighbours(int p) const {
    std::vector<int> out;
    const int x = p % n_, y = p / n_;
    if (x > 0) out.push_back(p - 1);
    if (x < n_ - 1) out.push_back(p + 1);
    if (y > 0) out.push_back(p - n_);
    if (y < n_ - 1) out.push_back(p + n_);
    return out;
  }

  void place(int p, Color c) {
    c_[p] = c;
    captured_ = 0;
    suicided_ = false;
    int captured_at = -1;
    std::vector<int> stones, libs;
    for (int q : neighbours(p)) {
      if (c_[q] != opponent(c)) continue;
      chain(q, stones, libs);
      if (libs.empty()) {
        for (int s : stones) c_[s] = Color::kEmpty;
        captured_ += static_cast<int>(stones.size());
        captured_at = stones[0];
      }
    }
    chain(p, stones, libs);
    ko_ = -1;
    ko_color_ = Color::kEmpty;
    removed_ = captured_;
    if (libs.empty()) {
      suicided_ = true;
      removed_ += static_cast<int>(stones.size());
      for (int s : stones) c_[s] = Color::kEmpty;
    } else if (captured_ == 1 && stones.size() == 1 && libs.size() == 1) {
      ko_ = captured_at;
      ko_color_ = opponent(c);
    }
  }

  int n_;
  bool suicide_;
  std::vector<Color> c_;
  int ko_ = -1;
  Color ko_color_ = Color::kEmpty;
};

// Compares colours, chain membership, chain sizes and exact liberty sets at every point.
void expect_same(const Board& b, const NaiveBoard& naive, int64_t move) {
  const int n = b.size();
  std::vector<int> label, sizes, libs;
  naive.label(label, sizes, libs);
  std::vector<Vertex> head_of_label(sizes.size(), Vertex::none());
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const Vertex v = b.at(x, y);
      const int p = y * n + x;
      if (b.color(v) != naive.at(x, y)) {
        FAIL() << "colour differs, move " << move << " at " << to_gtp(v, n) << "\n" << b.to_string();
      }
      if (!b.is_stone(v)) continue;
      const int id = label[p];
      if (head_of_label[id].is_none()) head_of_label[id] = b.chain_head(v);
      if (b.chain_head(v) != head_of_label[id] || b.chain_size(v) != sizes[id] || b.liberties(v) != libs[id]) {
        FAIL() << "chain differs, move " << move << " at " << to_gtp(v, n) << ": size " << b.chain_size(v)
               << " vs " << sizes[id] << ", liberties " << b.liberties(v) << " vs " << libs[id] << "\n"
               << b.to_string();
      }
      for (Vertex q : b.neighbours(v)) {
        if (b.is_empty(q) && !b.has_liberty(v, q)) FAIL() << "missing liberty, move " << move;
      }
    }
  }
  ASSERT_EQ(b.hash(), naive.hash(b.geometry())) << "move " << move;
}

// Random games: each move is a uniformly random empty point (eyes included, so captures,
// ko and suicide attempts are frequent); both boards must agree on legality and result.
int64_t play_random_games(int size, bool allow_suicide, int64_t moves, uint64_t seed) {
  Rng rng(seed);
  int64_t played = 0, captures = 0, refused = 0;
  while (played < moves) {
    Board b(size, allow_suicide);
    NaiveBoard naive(size, allow_suicide);
    Color c = Color::kBlack;
    for (int m = 0; m < 4 * size * size && played < moves; ++m) {
      const auto empties = b.empty_points();
      if (empties.empty()) break;
      const Vertex v(empties[rng.below(static_cast<uint32_t>(empties.size()))]);
      const int p = b.geometry().y(v) * size + b.geometry().x(v);
      const Legality expected = naive.legal(p, c);
      const uint64_t hash_before = b.hash();
      const uint64_t predicted = expected == Legality::kLegal ? b.hash_after(v, c) : 0;
      const Legality got = b.play(v, c);
      EXPECT_EQ(got, expected) << "move " << played << " " << to_gtp(v, size) << "\n" << b.to_string();
      if (got != expected) return played;
      if (got == Legality::kLegal) {
        naive.play(p, c);
        EXPECT_EQ(b.hash(), predicted);
        EXPECT_EQ(static_cast<int>(b.last_removed().size()), naive.removed_);
        captures += naive.captured_;
        ++played;
        c = opponent(c);
      } else {
        EXPECT_EQ(b.hash(), hash_before);
        ++refused;
        if (rng.below(4) == 0) {  // sometimes pass, to exercise ko release
          b.play(Vertex::pass(), c);
          naive.pass();
          c = opponent(c);
        }
      }
      expect_same(b, naive, played);
      if (::testing::Test::HasFatalFailure()) return played;
    }
  }
  EXPECT_GT(captures, moves / 50) << "random games should capture often";
  if (!allow_suicide) {
    EXPECT_GT(refused, 0);
  }
  return played;
}

// Half a million moves per board size in the Release pass. Under AddressSanitizer (tests at
// -O0) the naive reference is far slower, so the sanitizer pass plays a hundredth of them (CI
// time budget: a tenth took 162 s on 19x19, a fortieth 34-82 s); the Release pass checks the
// full count.
#if defined(__SANITIZE_ADDRESS__)  // GCC
#define HANE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)  // Clang
#define HANE_UNDER_ASAN 1
#endif
#endif
#ifdef HANE_UNDER_ASAN
constexpr int kScale = 100;
#else
constexpr int kScale = 1;
#endif

TEST(BoardReference, RandomMovesOn9x9) {
  EXPECT_EQ(play_random_games(9, /*allow_suicide=*/false, 400'000 / kScale, 1), 400'000 / kScale);
  EXPECT_EQ(play_random_games(9, /*allow_suicide=*/true, 100'000 / kScale, 2), 100'000 / kScale);
}

TEST(BoardReference, RandomMovesOn19x19) {
  EXPECT_EQ(play_random_games(19, /*allow_suicide=*/false, 400'000 / kScale, 3), 400'000 / kScale);
  EXPECT_EQ(play_random_games(19, /*allow_suicide=*/true, 100'000 / kScale, 4), 100'000 / kScale);
}

TEST(BoardReference, OddSizes) {
  for (int size : {2, 3, 5, 13, 25}) {
    // At most a fortieth under the sanitizers: fewer moves on a 25x25 board capture too seldom.
    const int64_t moves = 20'000 / std::min(kScale, 40);
    EXPECT_EQ(play_random_games(size, size % 2 == 0, moves, size), moves);
  }
}

}  // namespace
}  // namespace hane
