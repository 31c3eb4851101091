// The fast board: stones, chains with exact liberties, captures, suicide, simple ko, zobrist
// hash. No history: superko, undo of a game and scoring live in the game layer (game.h,
// score.h); Board::undo takes back moves recorded in an UndoLog, for tactical reading.
//
// Chains are kept as a circular list of stones with a head; each head owns a bitset of the
// chain's liberties (one bit per vertex index), so merging is a word-wise OR and an empty point
// touching a chain twice is still one liberty. The liberty count is cached per head.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "go/color.h"
#include "go/vertex.h"

namespace hane {

/// Why a move may not be played. kLegal is the only legal outcome.
enum class Legality : uint8_t {
  kLegal,
  kOffBoard,  // not a point of this board (pass and none are never off-board: pass is legal)
  kOccupied,
  kKo,        // retakes a simple ko at once
  kSuicide,   // would leave its own chain without liberties (when suicide is not allowed)
  kSuperko,   // repeats an earlier position (decided by Game, never by Board)
};
std::string_view legality_name(Legality l);

class Board {
 public:
  static constexpr int kMaxVertices = Geometry::kMaxVertices;

  /// An empty board of `size` x `size`, 2 <= size <= 25. `allow_suicide`: multi-stone and
  /// single-stone suicide are legal and remove the suicided chain (Tromp-Taylor, New Zealand).
  explicit Board(int size = 19, bool allow_suicide = false);
  Board(const Board& other) : geometry_(other.geometry_) { *this = other; }
  /// Copies only the part of the arrays the board size uses (fast for small boards).
  Board& operator=(const Board& other);

  int size() const { return geometry_.size; }
  const Geometry& geometry() const { return geometry_; }
  int stride() const { return geometry_.stride; }
  bool allow_suicide() const { return allow_suicide_; }
  Vertex at(int x, int y) const { return geometry_.at(x, y); }

  Color color(Vertex v) const { return color_[v.index()]; }
  bool is_empty(Vertex v) const { return color_[v.index()] == Color::kEmpty; }
  bool is_stone(Vertex v) const { return is_player(color_[v.index()]); }

  /// The four orthogonal neighbours (may be wall).
  std::array<Vertex, 4> neighbours(Vertex v) const {
    const int i = v.index(), s = stride();
    return {Vertex(i - s), Vertex(i - 1), Vertex(i + 1), Vertex(i + s)};
  }
  /// The four diagonal neighbours (may be wall).
  std::array<Vertex, 4> diagonals(Vertex v) const {
    const int i = v.index(), s = stride();
    return {Vertex(i - s - 1), Vertex(i - s + 1), Vertex(i + s - 1), Vertex(i + s + 1)};
  }

  // Chains. `v` must hold a stone.
  Vertex chain_head(Vertex v) const { return Vertex(head_[v.index()]); }
  /// Next stone of the chain (circular: following it from any stone visits the whole chain).
  Vertex next_in_chain(Vertex v) const { return Vertex(next_[v.index()]); }
  int chain_size(Vertex v) const { return chain_size_[head_[v.index()]]; }
  /// Exact number of distinct empty points adjacent to the chain of `v`.
  int liberties(Vertex v) const { return lib_count_[head_[v.index()]]; }
  /// True if the chain of `v` has a liberty at `lib`.
  bool has_liberty(Vertex v, Vertex lib) const { return libs_.test(head_[v.index()], lib.index()); }
  /// The liberty of a chain with liberties(v) >= 1 of lowest index.
  Vertex first_liberty(Vertex v) const;
  /// Up to `out.size()` liberties of the chain of `v`, in index order; returns how many.
  int liberties_of(Vertex v, std::span<Vertex> out) const;

  /// The simple-ko point, and the colour forbidden to play there; none() if no ko.
  Vertex ko_point() const { return Vertex(ko_point_); }
  Color ko_color() const { return ko_color_; }

  /// Legality under the board's rules (off-board, occupied, simple ko, suicide). Pass is legal.
  Legality legal(Vertex v, Color c) const;
  /// Plays `v` for `c` if legal and returns kLegal; otherwise returns the reason and leaves the
  /// board exactly as it was. A pass clears the ko.
  Legality play(Vertex v, Color c);
  /// Plays a move already known to be legal (precondition: legal(v, c) == kLegal, v not pass).
  void play_legal(Vertex v, Color c);

  /// The changes made by moves played with play_legal(v, c, log), newest last, for undo(). Its
  /// storage grows to the largest need and is kept, so a reused log allocates nothing once warm.
  class UndoLog {
   public:
    /// Moves recorded and not yet undone.
    int moves() const { return static_cast<int>(frames_.size()); }

   private:
    friend class Board;
    struct Write {
      void* at;
      uint64_t old;
      uint64_t bytes;
    };
    struct Frame {
      const Board* board;  // the board the move was played on
      size_t first_write;
      uint64_t hash;
      std::array<int, 4> prisoners;
      int num_empty, ko_point, num_removed;
      Color ko_color;
    };
    std::vector<Write> writes_;  // the first num_writes_ are recorded; room for a move after them
    size_t num_writes_ = 0;
    std::vector<Frame> frames_;
  };
  /// play_legal() that also records in `log` the old value of every field it changes (about
  /// twice the cost of play_legal(); no board copy). The log holds addresses into this board
  /// object: the moves of one log are undone on the same object, newest first, and nothing else
  /// may change the board in between (play, set_stone, assignment to it); copying from it is
  /// harmless. Checked by assertions in debug builds.
  void play_legal(Vertex v, Color c, UndoLog& log);
  /// Takes back the newest move recorded in `log` (log.moves() >= 1): the board is again
  /// exactly what it was before that move, field for field (liberty sets, chain lists, ko,
  /// hash, prisoners, last_removed() and the order of empty_points() included). As Pachi's
  /// board_quick_undo and GNU Go's popgo, for tactical reading without copies.
  void undo(UndoLog& log);

  /// Places or removes a stone without any capture (SGF AB/AW/AE). Chains and liberties are
  /// rebuilt; chains left without liberties stay on the board (the caller may reject them).
  void set_stone(Vertex v, Color c);

  /// Zobrist hash of the stones on the board (positional; no side to move, no ko).
  uint64_t hash() const { return hash_; }
  /// The hash after `c` plays the legal move `v`, with its captures (and a suicide's removal).
  uint64_t hash_after(Vertex v, Color c) const;

  /// Stones captured so far by `c` (prisoners taken by c).
  int prisoners(Color c) const { return prisoners_[static_cast<int>(c)]; }
  /// Stones removed by the last play(): the captured opponent stones (or the suicided chain).
  std::span<const int16_t> last_removed() const { return {removed_.data(), static_cast<size_t>(num_removed_)}; }

  /// The empty points, in no particular order.
  std::span<const int16_t> empty_points() const { return {empties_.data(), static_cast<size_t>(num_empty_)}; }
  int num_stones() const { return size() * size() - num_empty_; }

  /// Playout eye test: every neighbour is `c` or wall, and the opponent holds at most one
  /// diagonal (none when the point touches the edge).
  bool is_eye(Vertex v, Color c) const;

  /// Number of empty orthogonal neighbours of `v`.
  int empty_neighbours(Vertex v) const { return nbr_[v.index()] & 7; }
  /// Number of orthogonal neighbours of `v` that are `c` stones or wall (black or white only).
  int neighbours_or_wall(Vertex v, Color c) const { return (nbr_[v.index()] >> (4 * static_cast<int>(c))) & 7; }

  /// Rows of "X O ." with a header; `.` empty, `X` black, `O` white. For tests and debugging.
  std::string to_string() const;

 private:
  // One liberty bitset per vertex index (used at chain heads). Words per set depend on size.
  struct LibSets {
    static constexpr int kMaxWords = (kMaxVertices + 63) / 64;
    std::array<uint64_t, kMaxVertices * kMaxWords> bits;
    int words = 0;
    uint64_t* of(int head) { return &bits[head * words]; }
    const uint64_t* of(int head) const { return &bits[head * words]; }
    bool test(int head, int i) const { return (of(head)[i >> 6] >> (i & 63)) & 1; }
    // Set/clear bit i of set `head`; return true if the bit changed.
    bool set(int head, int i) {
      uint64_t& w = of(head)[i >> 6];
      const uint64_t m = uint64_t{1} << (i & 63);
      const bool changed = !(w & m);
      w |= m;
      return changed;
    }
    bool clear(int head, int i) {
      uint64_t& w = of(head)[i >> 6];
      const uint64_t m = uint64_t{1} << (i & 63);
      const bool changed = w & m;
      w &= ~m;
      return changed;
    }
  };

  // The mutating helpers take a Log: called with a reference to each field just before it is
  // written (board.cc: NoLog does nothing; Recorder keeps the old value in an UndoLog).
  struct Recorder;
  template <class Log>
  void add_empty(int v, Log log);
  template <class Log>
  void remove_empty(int v, Log log);
  template <class Log>
  void count_neighbour(int v, Color c, int sign, Log log);  // updates nbr_ around v for a change at v
  template <class Log>
  void place_stone(int v, Color c, Log log);  // the stone only: colour, hash, empties, single-stone chain
  template <class Log>
  void merge_chains(int a, int b, Log log);  // heads; result has the larger one's head
  template <class Log>
  int remove_chain(int head, Log log);  // returns stones removed; gives liberties to neighbours
  template <class Log>
  void play_legal(int v, Color c, Log log);
  void rebuild_chains();

  Geometry geometry_;
  bool allow_suicide_;
  int num_empty_ = 0;
  int ko_point_ = 1;
  Color ko_color_ = Color::kEmpty;
  uint64_t hash_ = 0;
  std::array<int, 4> prisoners_{};
  int num_removed_ = 0;

  std::array<Color, kMaxVertices> color_;
  std::array<int16_t, kMaxVertices> head_;
  std::array<int16_t, kMaxVertices> next_;
  std::array<int16_t, kMaxVertices> chain_size_;  // at heads
  std::array<int16_t, kMaxVertices> lib_count_;   // at heads
  std::array<int16_t, kMaxVertices> empty_pos_;   // index into empties_ of an empty point
  std::array<int16_t, kMaxVertices> empties_;
  std::array<int16_t, kMaxVertices> removed_;
  // Neighbour counts per point, 4 bits each: empty, black or wall (<< 4), white or wall (<< 8).
  std::array<uint16_t, kMaxVertices> nbr_;
  LibSets libs_;
};

// Hot in playouts: defined here so that callers can inline them.

inline Legality Board::legal(Vertex vertex, Color c) const {
  if (!vertex.is_point()) return vertex.is_pass() ? Legality::kLegal : Legality::kOffBoard;
  const int v = vertex.index();
  if (v >= geometry_.num_vertices() || color_[v] == Color::kWall) return Legality::kOffBoard;
  if (color_[v] != Color::kEmpty) return Legality::kOccupied;
  if (v == ko_point_ && c == ko_color_) return Legality::kKo;
  if (allow_suicide_ || (nbr_[v] & 7)) return Legality::kLegal;
  const int s = stride();
  const int nbr[4] = {v - s, v - 1, v + 1, v + s};
  for (int n : nbr) {
    const Color nc = color_[n];
    if (nc == Color::kEmpty) return Legality::kLegal;
    if (nc == Color::kWall) continue;
    const int libs = lib_count_[head_[n]];
    if (nc == c ? libs > 1 : libs == 1) return Legality::kLegal;
  }
  return Legality::kSuicide;
}

inline bool Board::is_eye(Vertex vertex, Color c) const {
  const int v = vertex.index();
  const int s = stride();
  if (((nbr_[v] >> (4 * static_cast<int>(c))) & 7) != 4) return false;
  const Color opp = opponent(c);
  int opponent_diagonals = 0;
  bool edge = false;
  for (int d : {v - s - 1, v - s + 1, v + s - 1, v + s + 1}) {
    if (color_[d] == opp) ++opponent_diagonals;
    if (color_[d] == Color::kWall) edge = true;
  }
  return opponent_diagonals + (edge ? 1 : 0) < 2;
}

/// The first stone (row by row from the top-left) whose chain has no liberty, or none: what
/// set_stone can leave, which a game record's setup must not.
Vertex chain_without_liberties(const Board& board);

/// The legal moves of `to_move` (no pass), in the board's empty-point order. Returns how many
/// were written to `out` (which must hold board.empty_points().size() vertices).
int legal_moves(const Board& board, Color to_move, std::span<Vertex> out);

}  // namespace hane
