#include "features/tactics.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdlib>
#include <memory>
#include <vector>
#include <atomic>

#include "features/pattern.h"

namespace hane {

static_assert(sizeof(MoveFacts) <= 16, "MoveFacts is documented as at most 16 bytes");

namespace {

constexpr int kWords = (Board::kMaxVertices + 63) / 64;

// The chains around a candidate point, deduplicated by head.
struct Neighbourhood {
  std::array<int, 4> own{};  // heads of `c` chains next to v
  std::array<int, 4> opp{};  // heads of opponent chains next to v
  int num_own = 0;
  int num_opp = 0;
  int empties = 0;

  Neighbourhood(const Board& b, Vertex v, Color c) {
    const Color o = opponent(c);
    for (Vertex n : b.neighbours(v)) {
      const Color nc = b.color(n);
      if (nc == Color::kEmpty) {
        ++empties;
      } else if (nc == c) {
        add(own, num_own, b.chain_head(n).index());
      } else if (nc == o) {
        add(opp, num_opp, b.chain_head(n).index());
      }
    }
  }
  bool is_own(int head) const {
    for (int i = 0; i < num_own; ++i) {
      if (own[i] == head) return true;
    }
    return false;
  }

 private:
  static void add(std::array<int, 4>& heads, int& n, int head) {
    for (int i = 0; i < n; ++i) {
      if (heads[i] == head) return;
    }
    heads[n++] = head;
  }
};

// A set of vertex indices that counts its distinct members.
class PointSet {
 public:
  explicit PointSet(const Board& b) : words_((b.geometry().num_vertices() + 63) / 64) {
    std::fill_n(bits_.begin(), words_, uint64_t{0});
  }
  // Adds p; true if it was new.
  bool add(int p) {
    uint64_t& w = bits_[p >> 6];
    const uint64_t m = uint64_t{1} << (p & 63);
    if (w & m) return false;
    w |= m;
    ++count_;
    return true;
  }
  int count() const { return count_; }

 private:
  std::array<uint64_t, kWords> bits_;
  int words_;
  int count_ = 0;
};

// True if a neighbour of `p` is `v` or a stone of one of the chains merged at `v`.
bool touches_merged(const Board& b, Vertex p, Vertex v, Color c, const Neighbourhood& nb) {
  for (Vertex u : b.neighbours(p)) {
    if (u == v) return true;
    if (b.color(u) == c && nb.is_own(b.chain_head(u).index())) return true;
  }
  return false;
}

int merged_liberties(const Board& b, Vertex v, Color c, const Neighbourhood& nb, int cap) {
  // A joined chain keeps all its liberties but v; captures only add liberties.
  for (int i = 0; i < nb.num_own; ++i) {
    if (b.liberties(Vertex(nb.own[i])) - 1 >= cap) return cap;
  }
  bool captures = false;
  for (int i = 0; i < nb.num_opp; ++i) {
    if (b.liberties(Vertex(nb.opp[i])) == 1) captures = true;
  }
  // Fast path: a lone stone that captures nothing has its empty neighbours.
  if (nb.num_own == 0 && !captures) return std::min(nb.empties, cap);

  PointSet libs(b);
  for (Vertex n : b.neighbours(v)) {
    if (b.is_empty(n)) libs.add(n.index());
  }
  if (libs.count() >= cap) return cap;
  std::array<Vertex, 16> small;
  std::vector<Vertex> large;
  for (int i = 0; i < nb.num_own; ++i) {
    const Vertex head(nb.own[i]);
    const int n = b.liberties(head);
    std::span<Vertex> out(small);
    if (n > static_cast<int>(small.size())) {
      large.resize(n);
      out = std::span<Vertex>(large);
    }
    const int got = b.liberties_of(head, out);
    for (int j = 0; j < got; ++j) {
      if (out[j] != v && libs.add(out[j].index()) && libs.count() >= cap) return cap;
    }
  }
  if (captures) {
    for (int i = 0; i < nb.num_opp; ++i) {
      const Vertex head(nb.opp[i]);
      if (b.liberties(head) != 1) continue;
      Vertex s = head;
      do {
        if (touches_merged(b, s, v, c, nb) && libs.add(s.index()) && libs.count() >= cap) return cap;
        s = b.next_in_chain(s);
      } while (s != head);
    }
  }
  return libs.count();
}

// ---------------------------------------------------------------------------------------------
// Ladders.

// Scratch boards for ladder reads, per thread, allocated on first use. Slot 0 holds the board
// after a candidate move (move_facts, ladder_capture, ladder_escape), slot 1 the board a read
// starts from, and slot p + 2 the copy made by a branching node at ply p.
Board& scratch(int slot) {
  thread_local std::vector<std::unique_ptr<Board>> pool;
  while (static_cast<int>(pool.size()) <= slot) pool.push_back(std::make_unique<Board>(Geometry::kMinSize));
  return *pool[slot];
}

class LadderReader {
 public:
  LadderReader(Vertex target, Color attacker, const LadderLimits& limits)
      : target_(target), attacker_(attacker), defender_(opponent(attacker)), limits_(limits) {}

  // `b` (a scratch board the read may change) holds the target with 1 or 2 liberties.
  bool captured(Board& b) {
    const int libs = b.liberties(target_);
    if (libs == 1) return !defender_escapes(b, 0);
    if (libs == 2) return attacker_captures(b, 0);
    return false;
  }

 private:
  bool out_of_budget(int ply) { return ++nodes_ > limits_.max_nodes || ply > limits_.max_plies; }

  // `b` for a branch: the last branch may use the node's own board, earlier ones a copy.
  Board& branch_board(Board& b, int ply, bool last) {
    if (last) return b;
    Board& copy = scratch(ply + 2);
    copy = b;
    return copy;
  }

  // True if a chain of `victim` next to the empty point m is in atari (m captures it).
  static bool captures_next_to(const Board& b, Vertex m, Color victim) {
    for (Vertex n : b.neighbours(m)) {
      if (b.color(n) == victim && b.liberties(n) == 1) return true;
    }
    return false;
  }

  // Liberties of the target after the defender plays the legal move m (at most 3).
  int target_liberties_after(const Board& b, Vertex m) const {
    if (b.has_liberty(target_, m)) return liberties_after(b, m, defender_, 3);
    // m captures next to the target: each captured stone touching the target is a new liberty.
    PointSet libs(b);
    libs.add(b.first_liberty(target_).index());
    const Vertex target_head = b.chain_head(target_);
    for (Vertex n : b.neighbours(m)) {
      if (b.color(n) != attacker_ || b.liberties(n) != 1) continue;
      const Vertex head = b.chain_head(n);
      Vertex s = head;
      do {
        for (Vertex u : b.neighbours(s)) {
          if (b.color(u) == defender_ && b.chain_head(u) == target_head) {
            libs.add(s.index());
            break;
          }
        }
        s = b.next_in_chain(s);
      } while (s != head);
      if (libs.count() >= 3) return 3;
    }
    return libs.count();
  }

  // The target has one liberty and the defender is to move. True if some defender move gets
  // the target out (3+ liberties, or 2 and no atari then works).
  bool defender_escapes(Board& b, int ply) {
    if (out_of_budget(ply)) return true;
    std::array<Vertex, 32> moves;
    int num_moves = 0;
    auto push = [&](Vertex m) {
      for (int i = 0; i < num_moves; ++i) {
        if (moves[i] == m) return;
      }
      if (num_moves < static_cast<int>(moves.size())) moves[num_moves++] = m;
    };
    // Counter-captures: attacking chains in atari that touch the target.
    const Vertex head = b.chain_head(target_);
    Vertex s = head;
    do {
      for (Vertex u : b.neighbours(s)) {
        if (b.color(u) == attacker_ && b.liberties(u) == 1) push(b.first_liberty(u));
      }
      s = b.next_in_chain(s);
    } while (s != head);
    push(b.first_liberty(target_));  // running
    // Moves that leave the target 2 liberties need reading; 3+ is an escape; 1 fails.
    std::array<Vertex, 32> reads;
    int num_reads = 0;
    for (int i = 0; i < num_moves; ++i) {
      const Vertex m = moves[i];
      if (b.legal(m, defender_) != Legality::kLegal) continue;
      const int libs = target_liberties_after(b, m);
      if (libs >= 3) return true;
      if (libs == 2) reads[num_reads++] = m;
    }
    for (int i = 0; i < num_reads; ++i) {
      Board& nb = branch_board(b, ply, i + 1 == num_reads);
      nb.play_legal(reads[i], defender_);
      if (nb.color(target_) != defender_) continue;  // suicide where allowed
      if (nb.liberties(target_) >= 3) return true;
      if (nb.liberties(target_) == 2 && !attacker_captures(nb, ply + 1)) return true;
    }
    return false;
  }

  // The target has two liberties and the attacker is to move. True if an atari on one of them
  // leads to a capture.
  bool attacker_captures(Board& b, int ply) {
    if (out_of_budget(ply)) return false;
    std::array<Vertex, 2> libs;
    b.liberties_of(target_, libs);
    std::array<Vertex, 2> reads;
    int num_reads = 0;
    for (int i = 0; i < 2; ++i) {
      const Vertex m = libs[i], other = libs[1 - i];
      if (b.legal(m, attacker_) != Legality::kLegal) continue;
      // After the atari at m the defender runs at `other`. Its liberties there, counted before
      // m is played, include m. If m captures nothing, the atari cannot lower the rest: the
      // chains the run captures have `other` as their only liberty, so they do not touch m.
      // (A capture at m could give them liberties.) So 4+ now means the run escapes with 3+
      // after the atari: this atari fails without reading.
      if (!captures_next_to(b, m, defender_) && b.legal(other, defender_) == Legality::kLegal &&
          liberties_after(b, other, defender_, 4) >= 4) {
        continue;
      }
      reads[num_reads++] = m;
    }
    for (int i = 0; i < num_reads; ++i) {
      Board& nb = branch_board(b, ply, i + 1 == num_reads);
      nb.play_legal(reads[i], attacker_);
      if (nb.liberties(target_) != 1) continue;  // not an atari after all (suicide where allowed)
      if (!defender_escapes(nb, ply + 1)) return true;
    }
    return false;
  }

  Vertex target_;
  Color attacker_;
  Color defender_;
  LadderLimits limits_;
  int nodes_ = 0;
};

// Reads the ladder on `chain` of `board` (left unchanged), using scratch slot 1.
bool read_ladder(const Board& board, Vertex chain, Color attacker, const LadderLimits& limits) {
  const int libs = board.liberties(chain);
  if (libs < 1 || libs > 2) return false;
  Board& work = scratch(1);
  work = board;
  return LadderReader(chain, attacker, limits).captured(work);
}

// Up to 16 own chains in atari saved by the move: their heads (on `board`).
int saved_chains(const Board& board, Color c, const Neighbourhood& nb, int libs_after, std::array<Vertex, 16>& out,
                 int* saved_stones) {
  int n = 0;
  int stones = 0;
  auto add = [&](Vertex head) {
    for (int i = 0; i < n; ++i) {
      if (out[i] == head) return;
    }
    if (n < static_cast<int>(out.size())) out[n++] = head;
    stones += board.chain_size(head);
  };
  if (libs_after >= 2) {
    for (int i = 0; i < nb.num_own; ++i) {
      if (board.liberties(Vertex(nb.own[i])) == 1) add(Vertex(nb.own[i]));
    }
  }
  // Atari chains elsewhere that touch a captured chain gain its stones as liberties.
  for (int i = 0; i < nb.num_opp; ++i) {
    const Vertex head(nb.opp[i]);
    if (board.liberties(head) != 1) continue;
    Vertex s = head;
    do {
      for (Vertex u : board.neighbours(s)) {
        if (board.color(u) == c && board.liberties(u) == 1 && !nb.is_own(board.chain_head(u).index())) {
          add(board.chain_head(u));
        }
      }
      s = board.next_in_chain(s);
    } while (s != head);
  }
  if (saved_stones) *saved_stones = stones;
  return n;
}

struct LadderAnswers {
  bool capture = false;
  bool escape = false;
};

// Ladder capture and escape (as declared in tactics.h) of `c` playing v: `libs` is the
// merged chain's liberties after the move (capped, >= 3 meaning 3+), `captures` whether the
// move captures, `saved` the chains it saves. Each answer is decided without a board when it
// can be; otherwise the move is played once (scratch slot 0) and each read starts from a copy
// (slot 1), except the last one, which reads on that board itself.
LadderAnswers move_ladders(const Board& board, Vertex v, Color c, const Neighbourhood& nb, int libs, bool captures,
                           const std::array<Vertex, 16>& saved, int num_saved, bool want_capture, bool want_escape,
                           const LadderLimits& limits) {
  const Color opp = opponent(c);
  LadderAnswers out;
  struct Read {
    Vertex chain;
    bool escape;  // a saved chain (attacker: opp) or an atari target (attacker: c)
  };
  std::array<Read, 20> reads;
  int num_reads = 0;
  if (want_escape) {
    for (int i = 0; i < num_saved && !out.escape; ++i) {
      if (nb.is_own(saved[i].index())) {
        if (libs >= 3) out.escape = true;  // joined at v: its liberties are the move's
        else reads[num_reads++] = {saved[i], true};
      } else {
        reads[num_reads++] = {saved[i], true};  // freed by a capture: look on the board after
      }
    }
    if (out.escape) num_reads = 0;
  }
  if (want_capture) {
    for (int i = 0; i < nb.num_opp; ++i) {
      const Vertex target(nb.opp[i]);
      if (board.liberties(target) != 2) continue;
      // The target runs at its other liberty. As in LadderReader::attacker_captures: if the
      // atari captures nothing and the run has 4+ liberties before it, it has 3+ after it.
      std::array<Vertex, 2> two;
      board.liberties_of(target, two);
      const Vertex other = two[0] == v ? two[1] : two[0];
      if (!captures && board.legal(other, opp) == Legality::kLegal && liberties_after(board, other, opp, 4) >= 4) {
        continue;
      }
      reads[num_reads++] = {target, false};
    }
  }
  if (num_reads == 0) return out;
  Board& after = scratch(0);
  after = board;
  after.play_legal(v, c);
  for (int i = 0; i < num_reads; ++i) {
    const Read& r = reads[i];
    if (r.escape ? out.escape : out.capture) continue;
    const int chain_libs = after.liberties(r.chain);
    bool captured;
    if (r.escape && chain_libs >= 3) {
      captured = false;
    } else if (chain_libs < 1 || chain_libs > 2) {
      captured = false;
    } else if (i + 1 == num_reads) {
      captured = LadderReader(r.chain, r.escape ? opp : c, limits).captured(after);
    } else {
      captured = read_ladder(after, r.chain, r.escape ? opp : c, limits);
    }
    if (r.escape && !captured) out.escape = true;
    if (!r.escape && captured) out.capture = true;
  }
  return out;
}

}  // namespace

int capture_size(const Board& board, Vertex v, Color c) {
  const Neighbourhood nb(board, v, c);
  int stones = 0;
  for (int i = 0; i < nb.num_opp; ++i) {
    if (board.liberties(Vertex(nb.opp[i])) == 1) stones += board.chain_size(Vertex(nb.opp[i]));
  }
  return stones;
}

bool is_self_atari(const Board& board, Vertex v, Color c, int min_stones) {
  if (board.empty_neighbours(v) >= 2) return false;
  const Neighbourhood nb(board, v, c);
  for (int i = 0; i < nb.num_opp; ++i) {
    if (board.liberties(Vertex(nb.opp[i])) == 1) return false;  // a capture
  }
  int stones = 1;
  for (int i = 0; i < nb.num_own; ++i) stones += board.chain_size(Vertex(nb.own[i]));
  return stones >= min_stones && merged_liberties(board, v, c, nb, 2) == 1;
}

int liberties_after(const Board& board, Vertex v, Color c, int cap) {
  assert(cap >= 1);
  return merged_liberties(board, v, c, Neighbourhood(board, v, c), cap);
}

bool ladder_captured(const Board& board, Vertex chain, Color attacker, const LadderLimits& limits) {
  if (board.color(chain) != opponent(attacker)) return false;
  return read_ladder(board, chain, attacker, limits);
}

bool ladder_capture(const Board& board, Vertex v, Color c, const LadderLimits& limits) {
  const Neighbourhood nb(board, v, c);
  bool captures = false;
  for (int i = 0; i < nb.num_opp; ++i) captures |= board.liberties(Vertex(nb.opp[i])) == 1;
  const std::array<Vertex, 16> none{};
  return move_ladders(board, v, c, nb, 0, captures, none, 0, true, false, limits).capture;
}

bool ladder_escape(const Board& board, Vertex v, Color c, const LadderLimits& limits) {
  const Neighbourhood nb(board, v, c);
  const int libs = merged_liberties(board, v, c, nb, 3);
  std::array<Vertex, 16> saved;
  const int num_saved = saved_chains(board, c, nb, libs, saved, nullptr);
  return move_ladders(board, v, c, nb, libs, false, saved, num_saved, false, true, limits).escape;
}

// ---------------------------------------------------------------------------------------------
// Nakade.

std::string_view eye_shape_name(EyeShape s) {
  switch (s) {
    case EyeShape::kNone: return "none";
    case EyeShape::kStraightThree: return "straight three";
    case EyeShape::kBentThree: return "bent three";
    case EyeShape::kPyramidFour: return "pyramid four";
    case EyeShape::kCrossedFive: return "crossed five";
    case EyeShape::kBulkyFive: return "bulky five";
    case EyeShape::kRabbitySix: return "rabbity six";
  }
  return "?";
}

std::optional<EyeSpace> nakade_shape(const Board& board, Vertex v) {
  if (!board.is_empty(v)) return std::nullopt;
  constexpr int kMax = 6;
  std::array<Vertex, kMax> pts;
  int n = 0;
  pts[n++] = v;
  Color owner = Color::kEmpty;
  for (int i = 0; i < n; ++i) {
    for (Vertex u : board.neighbours(pts[i])) {
      const Color cu = board.color(u);
      if (cu == Color::kEmpty) {
        if (std::find(pts.begin(), pts.begin() + n, u) != pts.begin() + n) continue;
        if (n == kMax) return std::nullopt;
        pts[n++] = u;
      } else if (cu != Color::kWall) {
        if (owner == Color::kEmpty) {
          owner = cu;
        } else if (owner != cu) {
          return std::nullopt;
        }
      }
    }
  }
  if (n < 3 || owner == Color::kEmpty) return std::nullopt;

  // Degrees inside the region and the number of adjacent pairs classify the shapes.
  std::array<int, kMax> degree{};
  int pairs2 = 0;
  for (int i = 0; i < n; ++i) {
    for (Vertex u : board.neighbours(pts[i])) {
      if (std::find(pts.begin(), pts.begin() + n, u) != pts.begin() + n) ++degree[i];
    }
    pairs2 += degree[i];
  }
  const int edges = pairs2 / 2;
  auto with_degree = [&](int d) {
    int found = -1;
    for (int i = 0; i < n; ++i) {
      if (degree[i] == d) {
        if (found >= 0) return -1;  // not unique
        found = i;
      }
    }
    return found;
  };
  EyeSpace eye;
  eye.size = n;
  eye.owner = owner;
  int vital = -1;
  if (n == 3) {
    vital = with_degree(2);  // every connected three is a path
    int ends[2], k = 0;
    for (int i = 0; i < n; ++i) {
      if (i != vital) ends[k++] = i;
    }
    const Geometry& g = board.geometry();
    const bool straight = g.x(pts[ends[0]]) == g.x(pts[ends[1]]) || g.y(pts[ends[0]]) == g.y(pts[ends[1]]);
    eye.shape = straight ? EyeShape::kStraightThree : EyeShape::kBentThree;
  } else if (n == 4) {
    vital = with_degree(3);  // only the T tetromino has a point of degree 3
    eye.shape = EyeShape::kPyramidFour;
  } else if (n == 5) {
    if (edges == 4 && (vital = with_degree(4)) >= 0) {
      eye.shape = EyeShape::kCrossedFive;
    } else if (edges == 5) {  // the P pentomino is the only one with a 2x2 block
      vital = with_degree(3);
      eye.shape = EyeShape::kBulkyFive;
    }
  } else if (n == 6) {
    // A plus with the sixth point on a diagonal of the centre touches two arms: 6 pairs.
    if (edges == 6 && (vital = with_degree(4)) >= 0) eye.shape = EyeShape::kRabbitySix;
  }
  if (vital < 0) return std::nullopt;
  eye.vital = pts[vital];
  return eye;
}

// ---------------------------------------------------------------------------------------------
// Distances.

int manhattan_distance(const Geometry& g, Vertex a, Vertex b) {
  return std::abs(g.x(a) - g.x(b)) + std::abs(g.y(a) - g.y(b));
}

int move_distance(const Geometry& g, Vertex a, Vertex b) {
  const int dx = std::abs(g.x(a) - g.x(b)), dy = std::abs(g.y(a) - g.y(b));
  return dx + dy + std::max(dx, dy);
}

int edge_line(const Geometry& g, Vertex v) {
  const int x = g.x(v), y = g.y(v);
  return 1 + std::min(std::min(x, y), std::min(g.size - 1 - x, g.size - 1 - y));
}

// ---------------------------------------------------------------------------------------------

MoveFacts move_facts(const Board& board, Vertex v, Color c, LadderReading ladders, const LadderLimits& limits) {
  assert(board.legal(v, c) == Legality::kLegal && v.is_point());
  const Neighbourhood nb(board, v, c);
  MoveFacts f;
  int chain = 1;
  for (int i = 0; i < nb.num_own; ++i) chain += board.chain_size(Vertex(nb.own[i]));
  f.chain_size = static_cast<uint16_t>(chain);
  bool own_atari = false;
  for (int i = 0; i < nb.num_own; ++i) {
    if (board.liberties(Vertex(nb.own[i])) == 1) own_atari = true;
  }
  const int libs = merged_liberties(board, v, c, nb, MoveFacts::kLibertyCap);
  int captured = 0, captured_chains = 0, atari = 0, atari_chains = 0;
  for (int i = 0; i < nb.num_opp; ++i) {
    const Vertex head(nb.opp[i]);
    const int chain_libs = board.liberties(head);
    if (chain_libs == 1) {
      captured += board.chain_size(head);
      ++captured_chains;
    } else if (chain_libs == 2 && libs > 0) {  // a suicide (where legal) gives v back
      atari += board.chain_size(head);
      ++atari_chains;
    }
  }
  f.capture_size = static_cast<uint16_t>(captured);
  f.captured_chains = static_cast<uint8_t>(captured_chains);
  f.atari_stones = static_cast<uint16_t>(atari);
  f.atari_chains = static_cast<uint8_t>(atari_chains);
  f.liberties = static_cast<uint8_t>(libs);
  f.self_atari = libs == 1;
  f.ko = libs == 1 && captured == 1 && chain == 1;
  f.line = static_cast<uint8_t>(edge_line(board.geometry(), v));

  std::array<Vertex, 16> saved;
  int num_saved = 0;
  if (own_atari || captured > 0) {
    int stones = 0;
    num_saved = saved_chains(board, c, nb, libs, saved, &stones);
    f.saved_stones = static_cast<uint16_t>(stones);
  }

  // Vital points have at least two empty neighbours and touch at most one colour, and in
  // every killing shape the vital point's neighbours have at most 2 neighbours in the space (all
  // of their empty neighbours): open areas fail this at once, without a flood fill.
  bool maybe_vital = nb.empties >= 2 && (nb.num_own == 0 || nb.num_opp == 0);
  if (maybe_vital) {
    for (Vertex n : board.neighbours(v)) {
      if (board.is_empty(n) && board.empty_neighbours(n) > 2) maybe_vital = false;
    }
  }
  if (maybe_vital) {
    if (const auto eye = nakade_shape(board, v); eye && eye->vital == v) {
      f.nakade_size = static_cast<uint8_t>(eye->size);
      f.nakade_own = eye->owner == c;
    }
  }

  if (ladders == LadderReading::kRead) {
    f.ladders_read = true;
    if (atari_chains > 0 || num_saved > 0) {
      const LadderAnswers answers =
          move_ladders(board, v, c, nb, libs, captured > 0, saved, num_saved, atari_chains > 0, num_saved > 0, limits);
      f.ladder_capture = answers.capture;
      f.ladder_escape = answers.escape;
    }
  }
  return f;
}

namespace {
// As move_facts(): a vital point has at least two empty neighbours, touches at most one
// colour, and each of its empty neighbours has at most two empty neighbours.
bool nakade_prefilter(const Board& board, Vertex v) {
  int empties = 0;
  bool black = false, white = false;
  for (Vertex n : board.neighbours(v)) {
    const Color c = board.color(n);
    if (c == Color::kEmpty) {
      ++empties;
      if (board.empty_neighbours(n) > 2) return false;
    }
    black |= c == Color::kBlack;
    white |= c == Color::kWhite;
  }
  return empties >= 2 && !(black && white);
}
}  // namespace

bool nakade_vital(const Board& board, Vertex v, int* size, Color* owner) {
  return nakade_prefilter(board, v) && nakade_vital_unfiltered(board, v, size, owner);
}

bool nakade_vital(const Board& board, Vertex v, uint64_t black_diamond, int* size, Color* owner) {
  return nakade_possible(black_diamond) && nakade_prefilter(board, v) && nakade_vital_unfiltered(board, v, size, owner);
}

bool nakade_vital_unfiltered(const Board& board, Vertex v, int* size, Color* owner) {
  const auto eye = nakade_shape(board, v);
  if (!eye || eye->vital != v) return false;
  *size = eye->size;
  *owner = eye->owner;
  return true;
}

namespace {
// Whether the centre is the vital point of the killing eye space made of the centre and the
// diamond points of `mask` (bit i: point i is empty), every other point within distance 3 a
// stone of one colour.
bool centre_is_vital(uint32_t mask) {
  const Geometry g(9);
  Board b(9);
  for (int dy = -3; dy <= 3; ++dy) {
    for (int dx = -3; dx <= 3; ++dx) {
      if (std::abs(dx) + std::abs(dy) > 3 || (dx == 0 && dy == 0)) continue;
      bool empty = false;
      for (int i = 0; i < kMaxPatternPoints; ++i) {
        if (kPatternOffsets[i].dx == dx && kPatternOffsets[i].dy == dy) empty = (mask >> i) & 1;
      }
      if (!empty) b.set_stone(g.at(4 + dx, 4 + dy), Color::kBlack);
    }
  }
  const auto eye = nakade_shape(b, g.at(4, 4));
  return eye && eye->vital == g.at(4, 4);
}
}  // namespace

bool nakade_possible(uint64_t diamond12) {
  // 0: not computed yet, 1: no, 2: yes. Filled in on first use of each mask (few masks
  // occur); threads that race compute the same value.
  static std::array<std::atomic<int8_t>, 4096> table{};
  // Bit 4i of `empty` is set iff nibble i is 0; then each 16-bit lane's 4 flags are packed.
  uint64_t t = diamond12 | (diamond12 >> 1);
  t |= t >> 2;
  const uint64_t empty = ~t & 0x1111'1111'1111ull;
  const uint64_t lanes = (empty | (empty >> 3) | (empty >> 6) | (empty >> 9)) & 0x000F'000F'000Full;
  const uint32_t mask = static_cast<uint32_t>((lanes & 0xF) | ((lanes >> 12) & 0xF0) | ((lanes >> 24) & 0xF00));
  int8_t known = table[mask].load(std::memory_order_relaxed);
  if (known == 0) {
    known = centre_is_vital(mask) ? 2 : 1;
    table[mask].store(known, std::memory_order_relaxed);
  }
  return known == 2;
}

bool saves_atari(const Board& board, Vertex v, Color c) {
  // As MoveFacts::saved_stones > 0: an own chain next to v in atari that the move gives 2+
  // liberties, or an own chain in atari elsewhere touching an opponent chain the move captures.
  const Color opp = opponent(c);
  bool own_atari = false, captures = false;
  for (Vertex n : board.neighbours(v)) {
    const Color nc = board.color(n);
    if (nc == c && board.liberties(n) == 1) own_atari = true;
    if (nc == opp && board.liberties(n) == 1) captures = true;
  }
  if (own_atari && liberties_after(board, v, c, 2) >= 2) return true;
  if (!captures) return false;
  for (Vertex n : board.neighbours(v)) {
    if (board.color(n) != opp || board.liberties(n) != 1) continue;
    Vertex s = n;
    do {
      for (Vertex u : board.neighbours(s)) {
        if (board.color(u) != c || board.liberties(u) != 1) continue;
        // Chains next to v are joined by the move: they count above, not here.
        const Vertex head = board.chain_head(u);
        bool next_to_v = false;
        for (Vertex w : board.neighbours(v)) next_to_v |= board.color(w) == c && board.chain_head(w) == head;
        if (!next_to_v) return true;
      }
      s = board.next_in_chain(s);
    } while (s != n);
  }
  return false;
}

}  // namespace hane
