#include "corpus/filter.h"

#include "util/hash.h"

#include <cctype>
#include <fstream>


namespace hane {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Rank on one scale: kyu negative, amateur dan 1..9, professionals above.
int rank_value(const Rank& r) {
  if (r.pro > 0) return 9 + r.pro;
  return r.amateur;
}

}  // namespace

bool is_handicap_game(const GameRecord& record) {
  return record.handicap >= 2 || (!record.setup.black.empty() && record.setup.white.empty());
}

std::string_view filter_out_reason(const GameRecord& record, const FilterOptions& filter) {
  if (filter.board_size != 0 && record.board_size != filter.board_size) return "board size";
  if (filter.min_rank) {
    const int min = rank_value(*filter.min_rank);
    if (!record.black_rank.known() || !record.white_rank.known() || rank_value(record.black_rank) < min ||
        rank_value(record.white_rank) < min) {
      return "rank";
    }
  }
  const bool handicap = is_handicap_game(record);
  if ((filter.handicap == HandicapGames::kNone && handicap) || (filter.handicap == HandicapGames::kOnly && !handicap)) {
    return "handicap";
  }
  if (static_cast<int>(record.num_moves()) < filter.min_moves) return "too few moves";
  if (!filter.bots.empty() && (filter.bots.contains(lower(record.black_name)) ||
                               filter.bots.contains(lower(record.white_name)))) {
    return "bot";
  }
  return {};
}

absl::StatusOr<absl::flat_hash_set<std::string>> read_name_list(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError("cannot read name list " + path);
  absl::flat_hash_set<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    std::string_view name = line;
    if (const size_t hash = name.find('#'); hash != std::string_view::npos) name = name.substr(0, hash);
    name = trim(name);
    if (!name.empty()) names.insert(lower(name));
  }
  return names;
}

std::string_view split_name(Split s) {
  switch (s) {
    case Split::kTrain: return "train";
    case Split::kValidation: return "validation";
    case Split::kTest: return "test";
    case Split::kAll: return "all";
  }
  return "?";
}

std::optional<Split> parse_split(std::string_view name) {
  for (Split s : {Split::kTrain, Split::kValidation, Split::kTest, Split::kAll}) {
    if (name == split_name(s)) return s;
  }
  return std::nullopt;
}

uint64_t game_hash(const GameRecord& record) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      h ^= (value >> (8 * i)) & 0xff;
      h *= 0x100000001b3ull;
    }
  };
  // Vertex indices depend only on the board size, so they are stable across runs.
  mix(static_cast<uint64_t>(record.board_size));
  for (Vertex v : record.setup.black) mix(0x100000u | v.index());
  for (Vertex v : record.setup.white) mix(0x200000u | v.index());
  for (const GameEvent& e : record.events) {
    mix((static_cast<uint64_t>(e.type) << 24) | (static_cast<uint64_t>(e.color) << 20) |
        static_cast<uint16_t>(e.vertex.index()));
  }
  return h;
}

Split split_of(uint64_t game_hash) {
  // Mix once more so that the low digits do not follow the last event alone.
  const uint64_t z = splitmix64(game_hash);
  const uint64_t bucket = z % 1000;
  if (bucket < 900) return Split::kTrain;
  if (bucket < 950) return Split::kValidation;
  return Split::kTest;
}

}  // namespace hane
