#include "go/board.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <type_traits>

#include "go/zobrist.h"

namespace hane {

namespace {
// The Log of plain play: records nothing.
struct NoLog {
  template <class T>
  void operator()(const T&) const {}
};
}  // namespace

std::string_view legality_name(Legality l) {
  switch (l) {
    case Legality::kLegal: return "legal";
    case Legality::kOffBoard: return "off board";
    case Legality::kOccupied: return "occupied";
    case Legality::kKo: return "ko";
    case Legality::kSuicide: return "suicide";
    case Legality::kSuperko: return "superko";
  }
  return "?";
}

Board::Board(int size, bool allow_suicide) : geometry_(size), allow_suicide_(allow_suicide) {
  assert(size >= Geometry::kMinSize && size <= Geometry::kMaxSize);
  const int n = geometry_.num_vertices();
  libs_.words = (n + 63) / 64;
  std::fill_n(color_.begin(), n, Color::kWall);
  std::fill_n(head_.begin(), n, int16_t{0});
  std::fill_n(next_.begin(), n, int16_t{0});
  std::fill_n(chain_size_.begin(), n, int16_t{0});
  std::fill_n(lib_count_.begin(), n, int16_t{0});
  std::fill_n(empty_pos_.begin(), n, int16_t{-1});
  std::fill_n(libs_.bits.begin(), n * libs_.words, uint64_t{0});
  std::fill_n(nbr_.begin(), n, uint16_t{0});
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const int v = geometry_.at(x, y).index();
      color_[v] = Color::kEmpty;
      add_empty(v, NoLog{});
    }
  }
  const int s = stride();
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const int v = geometry_.at(x, y).index();
      for (int w : {v - s, v - 1, v + 1, v + s}) {
        nbr_[v] += color_[w] == Color::kEmpty ? 1 : (1 << 4) | (1 << 8);
      }
    }
  }
}

// The Log of play_legal(v, c, log): keeps each field's value before it is written.
struct Board::Recorder {
  UndoLog* log;
  template <class T>
  [[gnu::always_inline]] void operator()(T& field) const {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 8);
    uint64_t old = 0;
    std::memcpy(&old, &field, sizeof(T));
    assert(log->num_writes_ < log->writes_.size());
    log->writes_[log->num_writes_++] = {&field, old, sizeof(T)};
  }
};

template <class Log>
[[gnu::always_inline]] inline void Board::count_neighbour(int v, Color c, int sign, Log log) {
  // A stone of colour c appears at v (sign +1) or leaves it (sign -1).
  const int delta = sign * ((1 << (4 * static_cast<int>(c))) - 1);
  const int s = stride();
  for (int w : {v - s, v - 1, v + 1, v + s}) {
    log(nbr_[w]);
    nbr_[w] = static_cast<uint16_t>(nbr_[w] + delta);
  }
}

Board& Board::operator=(const Board& o) {
  if (this == &o) return *this;
  geometry_ = o.geometry_;
  allow_suicide_ = o.allow_suicide_;
  num_empty_ = o.num_empty_;
  ko_point_ = o.ko_point_;
  ko_color_ = o.ko_color_;
  hash_ = o.hash_;
  prisoners_ = o.prisoners_;
  num_removed_ = o.num_removed_;
  const int n = geometry_.num_vertices();
  std::copy_n(o.color_.begin(), n, color_.begin());
  std::copy_n(o.head_.begin(), n, head_.begin());
  std::copy_n(o.next_.begin(), n, next_.begin());
  std::copy_n(o.chain_size_.begin(), n, chain_size_.begin());
  std::copy_n(o.lib_count_.begin(), n, lib_count_.begin());
  std::copy_n(o.empty_pos_.begin(), n, empty_pos_.begin());
  std::copy_n(o.empties_.begin(), num_empty_, empties_.begin());
  std::copy_n(o.removed_.begin(), num_removed_, removed_.begin());
  std::copy_n(o.nbr_.begin(), n, nbr_.begin());
  // Liberty sets only at chain heads: no other set is read before place_stone() clears it, and
  // the heads' sets are a small part of the whole (on 19x19, 7 words each of 420).
  libs_.words = o.libs_.words;
  const int words = libs_.words;
  for (int v = 0; v < n; ++v) {
    if (o.head_[v] == v && is_player(o.color_[v])) std::copy_n(o.libs_.of(v), words, libs_.of(v));
  }
  return *this;
}

template <class Log>
[[gnu::always_inline]] inline void Board::add_empty(int v, Log log) {
  log(empty_pos_[v]);
  empty_pos_[v] = static_cast<int16_t>(num_empty_);
  log(empties_[num_empty_]);
  empties_[num_empty_++] = static_cast<int16_t>(v);
}

template <class Log>
[[gnu::always_inline]] inline void Board::remove_empty(int v, Log log) {
  const int pos = empty_pos_[v];
  const int last = empties_[--num_empty_];
  log(empties_[pos]);
  empties_[pos] = static_cast<int16_t>(last);
  log(empty_pos_[last]);
  empty_pos_[last] = static_cast<int16_t>(pos);
  log(empty_pos_[v]);
  empty_pos_[v] = -1;
}

Vertex Board::first_liberty(Vertex v) const {
  const uint64_t* w = libs_.of(head_[v.index()]);
  for (int i = 0; i < libs_.words; ++i) {
    if (w[i]) return Vertex(i * 64 + std::countr_zero(w[i]));
  }
  return Vertex::none();
}

int Board::liberties_of(Vertex v, std::span<Vertex> out) const {
  const uint64_t* w = libs_.of(head_[v.index()]);
  size_t found = 0;
  for (int i = 0; i < libs_.words && found < out.size(); ++i) {
    for (uint64_t bits = w[i]; bits && found < out.size(); bits &= bits - 1) {
      out[found++] = Vertex(i * 64 + std::countr_zero(bits));
    }
  }
  return static_cast<int>(found);
}

Legality Board::play(Vertex v, Color c) {
  const Legality l = legal(v, c);
  if (l != Legality::kLegal) return l;
  if (v.is_pass()) {
    ko_point_ = Vertex::none().index();
    ko_color_ = Color::kEmpty;
    num_removed_ = 0;
  } else {
    play_legal(v, c);
  }
  return l;
}

template <class Log>
[[gnu::always_inline]] inline void Board::place_stone(int v, Color c, Log log) {
  constexpr bool kRecord = !std::is_same_v<Log, NoLog>;
  log(color_[v]);
  color_[v] = c;
  hash_ ^= zobrist::stone(v, c);
  remove_empty(v, log);
  count_neighbour(v, c, +1, log);
  log(head_[v]);
  head_[v] = static_cast<int16_t>(v);
  log(next_[v]);
  next_[v] = static_cast<int16_t>(v);
  log(chain_size_[v]);
  chain_size_[v] = 1;
  uint64_t* w = libs_.of(v);
  if constexpr (kRecord) {
    for (int i = 0; i < libs_.words; ++i) {
      if (w[i]) {
        log(w[i]);
        w[i] = 0;
      }
    }
  } else {
    std::fill_n(w, libs_.words, uint64_t{0});
  }
  const int s = stride();
  int libs = 0;
  for (int n : {v - s, v - 1, v + 1, v + s}) {
    if (color_[n] == Color::kEmpty) {
      log(w[n >> 6]);
      libs_.set(v, n);
      ++libs;
    }
  }
  log(lib_count_[v]);
  lib_count_[v] = static_cast<int16_t>(libs);
}

template <class Log>
[[gnu::always_inline]] inline void Board::merge_chains(int a, int b, Log log) {
  constexpr bool kRecord = !std::is_same_v<Log, NoLog>;
  if (chain_size_[a] < chain_size_[b]) std::swap(a, b);
  int s = b;
  do {
    log(head_[s]);
    head_[s] = static_cast<int16_t>(a);
    s = next_[s];
  } while (s != b);
  log(next_[a]);
  log(next_[b]);
  std::swap(next_[a], next_[b]);
  log(chain_size_[a]);
  chain_size_[a] = static_cast<int16_t>(chain_size_[a] + chain_size_[b]);
  uint64_t* wa = libs_.of(a);
  const uint64_t* wb = libs_.of(b);
  int libs = 0;
  for (int i = 0; i < libs_.words; ++i) {
    if constexpr (kRecord) {
      if (wb[i] & ~wa[i]) log(wa[i]);
    }
    wa[i] |= wb[i];
    libs += std::popcount(wa[i]);
  }
  log(lib_count_[a]);
  lib_count_[a] = static_cast<int16_t>(libs);
}

template <class Log>
int Board::remove_chain(int head, Log log) {
  const Color c = color_[head];
  const Color opp = opponent(c);
  const int st = stride();
  int removed = 0;
  int s = head;
  do {
    const int next = next_[s];
    log(color_[s]);
    color_[s] = Color::kEmpty;
    hash_ ^= zobrist::stone(s, c);
    add_empty(s, log);
    count_neighbour(s, c, -1, log);
    log(removed_[num_removed_]);
    removed_[num_removed_++] = static_cast<int16_t>(s);
    ++removed;
    for (int n : {s - st, s - 1, s + 1, s + st}) {
      if (color_[n] == opp) {
        const int h = head_[n];
        log(libs_.of(h)[s >> 6]);
        if (libs_.set(h, s)) {
          log(lib_count_[h]);
          ++lib_count_[h];
        }
      }
    }
    s = next;
  } while (s != head);
  return removed;
}

template <class Log>
void Board::play_legal(int v, Color c, Log log) {
  const Color opp = opponent(c);
  const int s = stride();
  const int nbr[4] = {v - s, v - 1, v + 1, v + s};
  num_removed_ = 0;
  place_stone(v, c, log);
  for (int n : nbr) {
    if (is_player(color_[n])) {
      const int h = head_[n];
      log(libs_.of(h)[v >> 6]);
      if (libs_.clear(h, v)) {
        log(lib_count_[h]);
        --lib_count_[h];
      }
    }
  }
  for (int n : nbr) {
    if (color_[n] == c && head_[n] != head_[v]) merge_chains(head_[n], head_[v], log);
  }
  int captured = 0;
  for (int n : nbr) {
    if (color_[n] == opp && lib_count_[head_[n]] == 0) captured += remove_chain(head_[n], log);
  }
  prisoners_[static_cast<int>(c)] += captured;
  ko_point_ = Vertex::none().index();
  ko_color_ = Color::kEmpty;
  const int h = head_[v];
  if (captured == 1 && chain_size_[h] == 1 && lib_count_[h] == 1) {
    ko_point_ = removed_[0];
    ko_color_ = opp;
  } else if (lib_count_[h] == 0) {
    // Suicide (only reached when allowed): the chain is removed and counts for the opponent.
    prisoners_[static_cast<int>(opp)] += remove_chain(h, log);
  }
}

void Board::play_legal(Vertex v, Color c) { play_legal(v.index(), c, NoLog{}); }

void Board::play_legal(Vertex v, Color c, UndoLog& log) {
  // Room for the most a move can write: the new stone (up to 30 fields with a 14-word liberty
  // set), its neighbours' liberties (8), up to 3 merges (18 each), and per stone merged or
  // removed at most 17 (head; colour, empty-point entries, neighbour counts, removal entry and
  // its neighbours' liberty words and counts).
  const size_t room = 128 + 24 * static_cast<size_t>(geometry_.num_vertices());
  if (log.writes_.size() < log.num_writes_ + room) log.writes_.resize(log.num_writes_ + room);
  log.frames_.push_back({this, log.num_writes_, hash_, prisoners_, num_empty_, ko_point_, num_removed_, ko_color_});
  play_legal(v.index(), c, Recorder{&log});
}

void Board::undo(UndoLog& log) {
  assert(!log.frames_.empty());
  const UndoLog::Frame& f = log.frames_.back();
  assert(f.board == this);
  for (size_t i = log.num_writes_; i-- > f.first_write;) {
    const UndoLog::Write& w = log.writes_[i];
    // Fixed-size copies: each compiles to one store.
    switch (w.bytes) {
      case 1: std::memcpy(w.at, &w.old, 1); break;
      case 2: std::memcpy(w.at, &w.old, 2); break;
      default: std::memcpy(w.at, &w.old, 8); break;
    }
  }
  log.num_writes_ = f.first_write;
  hash_ = f.hash;
  prisoners_ = f.prisoners;
  num_empty_ = f.num_empty;
  ko_point_ = f.ko_point;
  num_removed_ = f.num_removed;
  ko_color_ = f.ko_color;
  log.frames_.pop_back();
}

uint64_t Board::hash_after(Vertex vertex, Color c) const {
  if (!vertex.is_point()) return hash_;
  const int v = vertex.index();
  const int s = stride();
  const Color opp = opponent(c);
  uint64_t h = hash_ ^ zobrist::stone(v, c);
  int seen[4];
  int num_seen = 0;
  bool alive = false;
  auto xor_chain = [&](int head) {
    for (int i = 0; i < num_seen; ++i) {
      if (seen[i] == head) return;
    }
    seen[num_seen++] = head;
    const Color cc = color_[head];
    int t = head;
    do {
      h ^= zobrist::stone(t, cc);
      t = next_[t];
    } while (t != head);
  };
  for (int n : {v - s, v - 1, v + 1, v + s}) {
    const Color nc = color_[n];
    if (nc == Color::kEmpty) alive = true;
    if (nc == c && lib_count_[head_[n]] > 1) alive = true;
    if (nc == opp && lib_count_[head_[n]] == 1) {
      xor_chain(head_[n]);
      alive = true;
    }
  }
  if (!alive) {  // suicide: the stone and its own neighbouring chains leave the board
    h ^= zobrist::stone(v, c);
    for (int n : {v - s, v - 1, v + 1, v + s}) {
      if (color_[n] == c) xor_chain(head_[n]);
    }
  }
  return h;
}

void Board::set_stone(Vertex vertex, Color c) {
  const int v = vertex.index();
  assert(geometry_.on_board(vertex));
  const Color old = color_[v];
  if (old == c) return;
  if (is_player(old)) {
    hash_ ^= zobrist::stone(v, old);
    add_empty(v, NoLog{});
    count_neighbour(v, old, -1, NoLog{});
  }
  if (is_player(c)) {
    hash_ ^= zobrist::stone(v, c);
    remove_empty(v, NoLog{});
    count_neighbour(v, c, +1, NoLog{});
  }
  color_[v] = c;
  ko_point_ = Vertex::none().index();
  ko_color_ = Color::kEmpty;
  rebuild_chains();
}

void Board::rebuild_chains() {
  const int n = geometry_.num_vertices();
  const int s = stride();
  std::fill_n(libs_.bits.begin(), n * libs_.words, uint64_t{0});
  for (int v = 0; v < n; ++v) {
    if (is_player(color_[v])) {
      head_[v] = next_[v] = static_cast<int16_t>(v);
      chain_size_[v] = 1;
      lib_count_[v] = 0;
    }
  }
  for (int v = 0; v < n; ++v) {
    if (!is_player(color_[v])) continue;
    for (int w : {v + 1, v + s}) {
      if (color_[w] == color_[v] && head_[w] != head_[v]) merge_chains(head_[v], head_[w], NoLog{});
    }
  }
  for (int v = 0; v < n; ++v) {
    if (color_[v] != Color::kEmpty) continue;
    for (int w : {v - s, v - 1, v + 1, v + s}) {
      if (is_player(color_[w]) && libs_.set(head_[w], v)) ++lib_count_[head_[w]];
    }
  }
}

std::string Board::to_string() const {
  static constexpr std::string_view kColumns = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  std::string out = "   ";
  for (int x = 0; x < size(); ++x) {
    out += ' ';
    out += kColumns[x];
  }
  out += '\n';
  for (int y = 0; y < size(); ++y) {
    const int row = size() - y;
    if (row < 10) out += ' ';
    out += std::to_string(row) + ' ';
    for (int x = 0; x < size(); ++x) {
      const Color c = color(at(x, y));
      out += ' ';
      out += c == Color::kBlack ? 'X' : c == Color::kWhite ? 'O' : '.';
    }
    out += '\n';
  }
  return out;
}

int legal_moves(const Board& board, Color to_move, std::span<Vertex> out) {
  int n = 0;
  for (int16_t v : board.empty_points()) {
    if (board.legal(Vertex(v), to_move) == Legality::kLegal) out[n++] = Vertex(v);
  }
  return n;
}

Vertex chain_without_liberties(const Board& b) {
  for (int y = 0; y < b.size(); ++y) {
    for (int x = 0; x < b.size(); ++x) {
      const Vertex v = b.at(x, y);
      if (b.is_stone(v) && b.liberties(v) == 0) return v;
    }
  }
  return Vertex::none();
}

}  // namespace hane
