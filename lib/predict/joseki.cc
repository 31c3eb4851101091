#include "predict/joseki.h"

#include <algorithm>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "util/progress.h"

namespace hane {
namespace {

constexpr std::string_view kKind = "joseki";
// Occurrences and counts are u32; the sizes of the payload's parts.
constexpr size_t kEntryBytes = 8 + 4 + 4 + 2;
constexpr size_t kReplyBytes = 2 + 4;

}  // namespace

absl::StatusOr<JosekiDictionary> JosekiDictionary::create(int board_size, int region, int max_moves, int max_stones) {
  if (board_size < Geometry::kMinSize || board_size > Geometry::kMaxSize) {
    return absl::InvalidArgumentError(absl::StrCat("joseki dictionary: board size ", board_size, " is not 2..25"));
  }
  if (region < kMinCornerRegion || region > kMaxCornerRegion || region > board_size) {
    return absl::InvalidArgumentError(absl::StrCat("joseki dictionary: a corner box of ", region, " points a side on ",
                                                   board_size, "x", board_size, " (", kMinCornerRegion, "..",
                                                   kMaxCornerRegion, ", at most the board size)"));
  }
  if (max_moves < 1 || max_stones < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("joseki dictionary: max moves ", max_moves, " and max stones ", max_stones, " must be >= 1"));
  }
  return JosekiDictionary(board_size, region, max_moves, max_stones);
}

absl::Status JosekiDictionary::add(uint64_t key, uint32_t occurrences, uint32_t games,
                                   std::span<const JosekiReply> replies) {
  if (!entries_.empty() && key <= entries_.back().key) return absl::InvalidArgumentError("keys out of order");
  if (games == 0 || games > occurrences) return absl::InvalidArgumentError("games not in 1..occurrences");
  if (replies.size() > static_cast<size_t>(region_ * region_)) return absl::InvalidArgumentError("more replies than points");
  uint64_t sum = 0;
  for (size_t i = 0; i < replies.size(); ++i) {
    if (replies[i].index >= region_ * region_) return absl::InvalidArgumentError("a reply outside the corner's box");
    if (replies[i].count == 0 || (i > 0 && replies[i].count > replies[i - 1].count)) {
      return absl::InvalidArgumentError("reply counts not positive and falling");
    }
    sum += replies[i].count;
  }
  if (sum > occurrences) return absl::InvalidArgumentError("reply counts above the occurrences");
  index_[key] = static_cast<uint32_t>(entries_.size());
  entries_.push_back({key, occurrences, games, static_cast<uint32_t>(replies_.size()), static_cast<uint16_t>(replies.size())});
  replies_.insert(replies_.end(), replies.begin(), replies.end());
  return absl::OkStatus();
}

const JosekiEntry* JosekiDictionary::find(uint64_t key) const {
  const auto it = index_.find(key);
  return it == index_.end() ? nullptr : &entries_[it->second];
}

uint8_t JosekiDictionary::corner_replies(const Board& board, Color to_move, int move_number, uint8_t corners,
                                         std::vector<JosekiMove>& out) const {
  out.clear();
  if (board.size() != board_size_ || move_number > max_moves_ || entries_.empty()) return 0;
  const int side = side_index(to_move);
  uint8_t live = 0;
  std::array<Vertex, 2> points;
  for (int k = 0; k < kNumCorners; ++k) {
    if (!(corners & (1 << k))) continue;
    const CornerPosition p = read_corner(board, k, region_);
    if (p.stones > max_stones_) continue;
    const JosekiEntry* e = find(p.key[side]);
    if (e != nullptr || find(p.key[1 - side]) != nullptr) live |= static_cast<uint8_t>(1 << k);
    if (e == nullptr) continue;
    const float per_occurrence = 1.0f / static_cast<float>(e->occurrences);
    for (const JosekiReply& r : replies(*e)) {
      const int n = corner_points(board.geometry(), k, region_, p.reading[side], r.index, points);
      for (int i = 0; i < n; ++i) out.push_back({points[i], static_cast<float>(r.count) * per_occurrence});
    }
  }
  return live;
}

absl::Status save_joseki(const JosekiDictionary& d, const std::string& path) {
  PayloadWriter w;
  w.u32(static_cast<uint32_t>(d.board_size()));
  w.u32(static_cast<uint32_t>(d.region()));
  w.u32(static_cast<uint32_t>(d.max_moves()));
  w.u32(static_cast<uint32_t>(d.max_stones()));
  w.u32(static_cast<uint32_t>(d.size()));
  for (const JosekiEntry& e : d.entries()) {
    w.u64(e.key);
    w.u32(e.occurrences);
    w.u32(e.games);
    w.u16(e.num_replies);
    for (const JosekiReply& r : d.replies(e)) {
      w.u16(r.index);
      w.u32(r.count);
    }
  }
  const nlohmann::json header = {
      {"kind", kKind},
      {"feature_version", kCornerKeyVersion},
      {"board_size", d.board_size()},
      {"region", d.region()},
      {"max_moves", d.max_moves()},
      {"max_stones", d.max_stones()},
      {"entries", d.size()},
      {"replies", d.replies().size()},
      {"training", d.training},
  };
  return write_model_file(path, header, w.bytes());
}

absl::StatusOr<JosekiDictionary> joseki_from_file(const ModelFile& file, const std::string& path) {
  const nlohmann::json& h = file.header;
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  if (h.value("kind", "") != kKind) return fail("not a joseki dictionary (kind " + h.value("kind", nlohmann::json()).dump() + ")");
  const nlohmann::json version = h.value("feature_version", nlohmann::json());
  if (version != nlohmann::json(kCornerKeyVersion)) {
    return fail("corner key version " + version.dump() + " does not match this hane's " +
                std::to_string(kCornerKeyVersion) + ": retrain the dictionary");
  }
  PayloadReader r(file.payload);
  const uint32_t size = r.u32(), region = r.u32(), max_moves = r.u32(), max_stones = r.u32(), n = r.u32();
  if (!r.ok()) return fail("corrupt payload: truncated in its first 20 bytes");
  constexpr uint32_t kLimit = 1u << 30;
  absl::StatusOr<JosekiDictionary> d =
      JosekiDictionary::create(static_cast<int>(std::min(size, kLimit)), static_cast<int>(std::min(region, kLimit)),
                               static_cast<int>(std::min(max_moves, kLimit)), static_cast<int>(std::min(max_stones, kLimit)));
  if (!d.ok()) return fail("corrupt payload: " + std::string(d.status().message()));
  if (n > r.remaining() / kEntryBytes) {
    return fail("corrupt payload: " + std::to_string(n) + " entries cannot fit in " + std::to_string(r.remaining()) + " bytes");
  }
  d->training = h.value("training", nlohmann::json::object());
  std::vector<JosekiReply> replies;
  for (uint32_t i = 0; i < n; ++i) {
    const size_t at = r.offset();
    const uint64_t key = r.u64();
    const uint32_t occurrences = r.u32(), games = r.u32();
    const uint16_t count = r.u16();
    if (!r.ok() || count > r.remaining() / kReplyBytes) return fail("corrupt payload: entry truncated at byte " + std::to_string(at));
    replies.resize(count);
    for (JosekiReply& reply : replies) {
      reply.index = r.u16();
      reply.count = r.u32();
    }
    if (absl::Status s = d->add(key, occurrences, games, replies); !s.ok()) {
      return fail("corrupt payload: entry at byte " + std::to_string(at) + ": " + std::string(s.message()));
    }
  }
  if (r.remaining() != 0) return fail("corrupt payload: " + std::to_string(r.remaining()) + " bytes after the last entry");
  return d;
}

absl::StatusOr<std::shared_ptr<const JosekiDictionary>> load_joseki(const std::string& path) {
  absl::StatusOr<ModelFile> file = read_model_file(path);
  if (!file.ok()) return file.status();
  absl::StatusOr<JosekiDictionary> d = joseki_from_file(*file, path);
  if (!d.ok()) return d.status();
  return std::make_shared<const JosekiDictionary>(std::move(*d));
}

std::string describe_joseki(const JosekiDictionary& d) {
  const std::string size = std::to_string(d.board_size());
  const std::string box = std::to_string(d.region());
  return "joseki dictionary: " + with_thousands(static_cast<int64_t>(d.size())) + " corner positions with " + with_thousands(static_cast<int64_t>(d.replies().size())) +
         " replies on " + size + "x" + size + " (corner boxes of " + box + "x" + box + " points, the first " +
         std::to_string(d.max_moves()) + " moves, at most " + std::to_string(d.max_stones()) + " stones a box)";
}

}  // namespace hane
