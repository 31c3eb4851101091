// The joseki dictionary: the corner positions that strong players reached in many games, each
// with the moves they then played there and how often (train/joseki_train.h learns it from
// game records). The search gives those replies extra virtual wins when it expands a node
// (search.h, "Joseki"), as Pachi's joseki prior does (uct/prior.c, joseki_eqex).
//
// A local position is a corner's box and the side to move, keyed in every corner and
// orientation alike (features/corner.h). Its entry counts its occurrences (every position
// before a move of the training games' opening, each corner's box read at each move) and the
// replies: the moves played in the box, by local index, with their counts; the rest of the
// occurrences were tenuki (a move elsewhere) or replies too rare to keep. A reply's share is its
// count over the occurrences: the probability that a strong player, in this local position,
// played there next.
//
// Model file (kind "joseki", predict/model_file.h), numbers little-endian:
//   header: feature_version (kCornerKeyVersion), board_size, region, max_moves, max_stones, entries, replies,
//           training (options, corpus, figures)
//   payload: u32 board_size, u32 region, u32 max_moves, u32 max_stones, u32 entries, then per
//            entry, keys strictly increasing: u64 key, u32 occurrences, u32 games, u16 replies,
//            then per reply (most played first): u16 local index (< region²), u32 count; the
//            counts sum to at most the occurrences.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "features/corner.h"
#include "predict/model_file.h"

namespace hane {

/// A local position's kept replies and its counts.
struct JosekiEntry {
  uint64_t key = 0;
  uint32_t occurrences = 0;  // positions counted, over all corners of all training games
  uint32_t games = 0;        // distinct games among them
  uint32_t first_reply = 0;  // index of its first reply in JosekiDictionary::replies()
  uint16_t num_replies = 0;
};

struct JosekiReply {
  uint16_t index = 0;  // local index (features/corner.h)
  uint32_t count = 0;
};

/// A dictionary reply on the board: the point, and the reply's share (count / occurrences).
struct JosekiMove {
  Vertex move;
  float share = 0;
};

class JosekiDictionary {
 public:
  /// An empty dictionary for `board_size` boards read in boxes of `region` points a side,
  /// positions before move `max_moves` (counted from 1) with at most `max_stones` stones in the
  /// box. Errors: region outside kMinCornerRegion..kMaxCornerRegion or above the board size, a
  /// board size outside 2..25, max_moves or max_stones below 1.
  static absl::StatusOr<JosekiDictionary> create(int board_size, int region, int max_moves, int max_stones);

  int board_size() const { return board_size_; }
  int region() const { return region_; }
  int max_moves() const { return max_moves_; }
  int max_stones() const { return max_stones_; }
  size_t size() const { return entries_.size(); }
  std::span<const JosekiEntry> entries() const { return entries_; }
  std::span<const JosekiReply> replies() const { return replies_; }
  std::span<const JosekiReply> replies(const JosekiEntry& e) const { return {replies_.data() + e.first_reply, e.num_replies}; }

  /// Adds an entry (keys in strictly increasing order; replies with index < region², most
  /// played first, counts summing to at most `occurrences`). The trainer's way in; errors say
  /// which rule was broken.
  absl::Status add(uint64_t key, uint32_t occurrences, uint32_t games, std::span<const JosekiReply> replies);

  /// The entry of `key`, or nullptr.
  const JosekiEntry* find(uint64_t key) const;

  /// The dictionary's replies for `to_move` on `board` with `move_number` the number of the
  /// move about to be played (from 1): for each corner k with bit k set in `corners` whose
  /// local position is in the dictionary, every reply's points (two for an off-diagonal reply
  /// of a symmetric position), appended to `out` (cleared first). Nothing on boards of another
  /// size or after max_moves(). Returns the corners of `corners` whose local position is in the
  /// dictionary with either side to move: the ones still worth looking at after the next move.
  /// About region² board reads per corner looked at.
  uint8_t corner_replies(const Board& board, Color to_move, int move_number, uint8_t corners,
                         std::vector<JosekiMove>& out) const;

  /// How the dictionary was made (options, corpus, figures), as stored in the header.
  nlohmann::json training;

 private:
  JosekiDictionary(int board_size, int region, int max_moves, int max_stones)
      : board_size_(board_size), region_(region), max_moves_(max_moves), max_stones_(max_stones) {}

  int board_size_, region_, max_moves_, max_stones_;
  std::vector<JosekiEntry> entries_;
  std::vector<JosekiReply> replies_;
  absl::flat_hash_map<uint64_t, uint32_t> index_;  // key -> entry
};

/// Every corner: the mask for corner_replies() at the root of a search.
inline constexpr uint8_t kAllCorners = (1 << kNumCorners) - 1;

/// Writes `dictionary` as a model file (see the top of this file). Errors: those of
/// write_model_file.
absl::Status save_joseki(const JosekiDictionary& dictionary, const std::string& path);

/// The dictionary in a model file read by read_model_file. Errors (InvalidArgument, naming
/// `path`): another kind; another corner key version ("retrain"); a board size, region or
/// limit out of range; a corrupt payload (truncated, bytes left over, keys out of order, a
/// reply outside the box, counts above the occurrences), with the byte offset.
absl::StatusOr<JosekiDictionary> joseki_from_file(const ModelFile& file, const std::string& path);

/// read_model_file then joseki_from_file.
absl::StatusOr<std::shared_ptr<const JosekiDictionary>> load_joseki(const std::string& path);

/// One line for `hane model info`: "joseki dictionary: 12,345 corner positions on 19x19, ...".
std::string describe_joseki(const JosekiDictionary& dictionary);

}  // namespace hane
