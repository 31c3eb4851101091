#include "train/joseki_train.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>

#include "corpus/replay.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace hane {
namespace {

// What is read, in the dictionary's terms.
struct Reading {
  int board_size, region, max_moves, max_stones;
};

// Calls on(key, reply) for every corner position of the opening of `record` (the top of
// joseki_train.h). Returns false for a game of another board size (nothing read) or one that
// does not replay (what was read before the error stays).
template <class OnCorner>
bool for_each_corner(const GameRecord& record, const Reading& r, OnCorner&& on) {
  if (record.board_size != r.board_size) return false;
  std::array<bool, kNumCorners> left{};  // corners that held more than max_stones
  const absl::Status s = replay(record, [&](const Position& p, Vertex played) {
    if (p.move_number > r.max_moves) return;
    const int side = side_index(p.to_move);
    for (int k = 0; k < kNumCorners; ++k) {
      if (left[k]) continue;
      const CornerPosition c = read_corner(*p.board, k, r.region);
      if (c.stones > r.max_stones) {
        left[k] = true;
        continue;
      }
      on(c.key[side], corner_index(p.board->geometry(), k, r.region, c.reading[side], played));
    }
  });
  return s.ok();
}

// One corner position read in a training game.
struct Occurrence {
  uint64_t key;
  uint32_t game;
  uint16_t reply;  // local index or kTenuki
};

// A reply of one position while it is being counted.
struct ReplyCount {
  uint16_t index;
  uint32_t count = 0;
  uint32_t games = 0;
  uint32_t last_game = UINT32_MAX;
};

double share(int64_t part, int64_t whole) { return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0; }

}  // namespace

JosekiDictionary train_joseki(const std::vector<CorpusGame>& train, const std::vector<CorpusGame>& validation,
                              const JosekiTrainOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<JosekiDictionary> made = JosekiDictionary::create(o.board_size, o.region, o.max_moves, o.max_stones);
  if (!made.ok()) throw std::invalid_argument(std::string(made.status().message()));
  if (o.min_games < 1 || o.min_reply_games < 1) throw std::invalid_argument("min games and min reply games must be >= 1");
  JosekiDictionary dictionary = std::move(*made);
  const Reading reading{o.board_size, o.region, o.max_moves, o.max_stones};

  // Every corner position of every game, then sorted: by key, and within a key by game.
  std::vector<Occurrence> all;
  int64_t used = 0, other_size = 0, unreadable = 0;
  bool stopped = false;
  {
    std::unique_ptr<Progress> bar;
    if (o.progress) bar = std::make_unique<Progress>("reading corners", "games", static_cast<int64_t>(train.size()));
    for (size_t g = 0; g < train.size(); ++g) {
      if ((stopped = interrupted())) break;
      const uint32_t game = static_cast<uint32_t>(g);
      const size_t before = all.size();
      if (for_each_corner(train[g].record, reading, [&](uint64_t key, uint16_t reply) { all.push_back({key, game, reply}); })) {
        ++used;
      } else if (train[g].record.board_size != o.board_size) {
        ++other_size;
      } else {
        ++unreadable;  // (a corpus game always replays; kept for records given directly)
        all.resize(before);
      }
      if (bar && (g + 1) % 1024 == 0) bar->update(static_cast<int64_t>(g + 1), with_thousands(static_cast<int64_t>(all.size())) + " corner positions");
    }
    if (bar) {
      bar->update(used + other_size + unreadable);
      bar->finish(with_thousands(static_cast<int64_t>(all.size())) + " corner positions");
    }
  }
  std::sort(all.begin(), all.end(), [](const Occurrence& a, const Occurrence& b) {
    return a.key != b.key ? a.key < b.key : a.game != b.game ? a.game < b.game : a.reply < b.reply;
  });

  // Per key: occurrences, distinct games, and each reply's count and distinct games.
  int64_t distinct = 0, dropped_rare = 0, replies_dropped = 0;
  std::vector<ReplyCount> counts;
  std::vector<JosekiReply> kept;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    uint32_t games = 0, last_game = UINT32_MAX;
    counts.clear();
    for (; j < all.size() && all[j].key == all[i].key; ++j) {
      const Occurrence& x = all[j];
      if (x.game != last_game) ++games, last_game = x.game;
      if (x.reply == kTenuki) continue;
      auto it = std::find_if(counts.begin(), counts.end(), [&](const ReplyCount& c) { return c.index == x.reply; });
      if (it == counts.end()) it = counts.insert(counts.end(), ReplyCount{x.reply});
      ++it->count;
      if (it->last_game != x.game) ++it->games, it->last_game = x.game;
    }
    ++distinct;
    if (games < o.min_games) {
      ++dropped_rare;
    } else {
      kept.clear();
      for (const ReplyCount& c : counts) {
        if (c.games >= o.min_reply_games) kept.push_back({c.index, c.count});
        else ++replies_dropped;
      }
      std::sort(kept.begin(), kept.end(), [](const JosekiReply& a, const JosekiReply& b) {
        return a.count != b.count ? a.count > b.count : a.index < b.index;
      });
      if (absl::Status s = dictionary.add(all[i].key, static_cast<uint32_t>(j - i), games, kept); !s.ok()) {
        throw std::logic_error("joseki trainer: " + std::string(s.message()));
      }
    }
    i = j;
  }
  const int64_t occurrences = static_cast<int64_t>(all.size());
  std::vector<Occurrence>().swap(all);

  const JosekiValidation v = measure_joseki(dictionary, validation);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  dictionary.training = {
      {"trainer", "corner positions counted in game records"},
      {"region", o.region},
      {"max_moves", o.max_moves},
      {"max_stones", o.max_stones},
      {"min_games", o.min_games},
      {"min_reply_games", o.min_reply_games},
      {"games", used},
      {"games_other_size", other_size},
      {"games_not_replayed", unreadable},
      {"interrupted", stopped},
      {"occurrences", occurrences},
      {"distinct_positions", distinct},
      {"positions_dropped", dropped_rare},
      {"positions", dictionary.size()},
      {"replies", dictionary.replies().size()},
      {"replies_dropped", replies_dropped},
      {"validation",
       {{"games", v.games},
        {"occurrences", v.occurrences},
        {"known", v.known},
        {"local_moves", v.local_moves},
        {"known_local", v.known_local},
        {"top1", v.top1},
        {"listed", v.listed}}},
      {"seconds", seconds},
  };
  if (o.progress) {
    std::fprintf(stderr, "%s corner positions in %s games: %s distinct, %s seen in at least %lld games kept with %s replies\n",
                 with_thousands(occurrences).c_str(), with_thousands(used).c_str(), with_thousands(distinct).c_str(),
                 with_thousands(static_cast<int64_t>(dictionary.size())).c_str(), static_cast<long long>(o.min_games),
                 with_thousands(static_cast<int64_t>(dictionary.replies().size())).c_str());
  }
  return dictionary;
}

JosekiValidation measure_joseki(const JosekiDictionary& d, const std::vector<CorpusGame>& games) {
  const Reading reading{d.board_size(), d.region(), d.max_moves(), d.max_stones()};
  JosekiValidation v;
  int64_t known = 0, known_local = 0;
  double top1 = 0;
  int64_t listed = 0;
  for (const CorpusGame& g : games) {
    const bool read = for_each_corner(g.record, reading, [&](uint64_t key, uint16_t reply) {
      ++v.occurrences;
      const JosekiEntry* e = d.find(key);
      known += e != nullptr;
      if (reply == kTenuki) return;
      ++v.local_moves;
      if (e == nullptr) return;
      ++known_local;
      const std::span<const JosekiReply> replies = d.replies(*e);
      if (replies.empty()) return;
      int ties = 0;
      bool among_top = false, among = false;
      for (const JosekiReply& r : replies) {
        if (r.count == replies[0].count) ++ties, among_top |= r.index == reply;
        among |= r.index == reply;
      }
      if (among_top) top1 += 1.0 / ties;
      listed += among;
    });
    v.games += read;
  }
  v.known = share(known, v.occurrences);
  v.known_local = share(known_local, v.local_moves);
  v.top1 = known_local > 0 ? top1 / static_cast<double>(known_local) : 0.0;
  v.listed = share(listed, known_local);
  return v;
}

}  // namespace hane
