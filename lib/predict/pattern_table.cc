#include "predict/pattern_table.h"


#include "corpus/replay.h"
#include "util/parallel.h"
#include "util/progress.h"

namespace hane {
namespace {

struct Counts {
  uint64_t seen = 0;
  uint64_t played = 0;
};
using CountMap = absl::flat_hash_map<uint64_t, Counts>;

struct ThreadCounts {
  CountMap c3, cd;
  int64_t positions = 0;
};

void count_game(const CorpusGame& game, PatternShape shape, ThreadCounts& t, std::vector<Vertex>& moves) {
  const bool diamond = shape == PatternShape::kDiamond12;
  (void)replay(game.record, [&](const Position& p, Vertex played) {
    if (played.is_pass()) return;
    const Board& b = *p.board;
    moves.resize(b.empty_points().size());
    const int n = legal_moves(b, p.to_move, moves);
    ++t.positions;
    for (int i = 0; i < n; ++i) {
      const uint64_t raw = pattern_code(b, moves[i], p.to_move, PatternShape::kDiamond12);
      const bool is_played = moves[i] == played;
      Counts& c3 = t.c3[canonical(shrink(raw, PatternShape::k3x3), PatternShape::k3x3)];
      ++c3.seen;
      c3.played += is_played;
      if (diamond) {
        Counts& cd = t.cd[canonical(raw, PatternShape::kDiamond12)];
        ++cd.seen;
        cd.played += is_played;
      }
    }
  });
}

void merge(CountMap& into, const CountMap& from) {
  for (const auto& [code, c] : from) {
    Counts& d = into[code];
    d.seen += c.seen;
    d.played += c.played;
  }
}

}  // namespace

float PatternTable::score(uint64_t raw) const {
  if (shape == PatternShape::kDiamond12) {
    if (auto it = ratio_diamond.find(canonical(raw, PatternShape::kDiamond12)); it != ratio_diamond.end()) {
      return it->second;
    }
  }
  const auto it = ratio3x3.find(canonical(shrink(raw, PatternShape::k3x3), PatternShape::k3x3));
  return it != ratio3x3.end() ? it->second : static_cast<float>(overall_ratio);
}

PatternTable train_pattern_table(const std::vector<CorpusGame>& games, const PatternTableOptions& options) {
  const int threads = thread_count(options.threads);
  std::vector<ThreadCounts> counts(threads);
  std::vector<std::vector<Vertex>> moves(threads);
  Progress progress("counting patterns", "games", static_cast<int64_t>(games.size()));
  parallel_for(
      games.size(), threads, [&](int w, size_t i) { count_game(games[i], options.shape, counts[w], moves[w]); },
      options.progress ? std::function<void(int64_t)>([&](int64_t done) { progress.update(done); }) : nullptr);
  if (options.progress) progress.finish();
  ThreadCounts& total = counts[0];
  for (int t = 1; t < threads; ++t) {
    merge(total.c3, counts[t].c3);
    merge(total.cd, counts[t].cd);
    total.positions += counts[t].positions;
    counts[t] = {};
  }

  PatternTable table;
  table.shape = options.shape;
  table.prior_strength = options.prior_strength;
  uint64_t seen = 0, played = 0;
  for (const auto& [code, c] : total.c3) {
    seen += c.seen;
    played += c.played;
  }
  const double k = options.prior_strength;
  table.overall_ratio = seen > 0 ? static_cast<double>(played) / static_cast<double>(seen) : 0;
  for (const auto& [code, c] : total.c3) {
    table.ratio3x3[code] = static_cast<float>((c.played + k * table.overall_ratio) / (c.seen + k));
  }
  int64_t kept = 0;
  for (const auto& [code, c] : total.cd) {
    if (static_cast<int64_t>(c.seen) < options.min_seen) continue;
    const double prior = table.score(code);  // its 3x3 back-off (code is canonical: same 3x3 class)
    table.ratio_diamond[code] = static_cast<float>((c.played + k * prior) / (c.seen + k));
    ++kept;
  }
  table.training = {
      {"games", games.size()},
      {"positions", total.positions},
      {"candidates_seen", seen},
      {"patterns_3x3", total.c3.size()},
      {"patterns_diamond12", total.cd.size()},
      {"patterns_diamond12_kept", kept},
      {"min_seen", options.min_seen},
  };
  return table;
}

absl::Status save_pattern_table(const PatternTable& table, const std::string& path) {
  PayloadWriter w;
  w.f64(table.overall_ratio);
  w.u64(table.ratio3x3.size());
  for (const auto& [code, r] : table.ratio3x3) {
    w.u64(code);
    w.f32(r);
  }
  w.u64(table.ratio_diamond.size());
  for (const auto& [code, r] : table.ratio_diamond) {
    w.u64(code);
    w.f32(r);
  }
  nlohmann::json header = {
      {"kind", "pattern-table"},
      {"feature_version", kPatternVersion},
      {"board_size", 19},
      {"pattern_shape", std::string(pattern_shape_name(table.shape))},
      {"prior_strength", table.prior_strength},
      {"training", table.training},
  };
  return write_model_file(path, header, w.bytes());
}

absl::StatusOr<PatternTable> pattern_table_from_file(const ModelFile& file, const std::string& path) {
  const nlohmann::json& h = file.header;
  auto fail = [&](const std::string& why) { return absl::InvalidArgumentError(path + ": " + why); };
  if (h.value("kind", "") != "pattern-table") return fail("not a pattern-table model");
  if (h.value("feature_version", -1) != kPatternVersion) {
    return fail("pattern version " + h.value("feature_version", nlohmann::json()).dump() +
                " does not match this hane's version " + std::to_string(kPatternVersion) + ": retrain the model");
  }
  PatternTable t;
  const std::string shape = h.value("pattern_shape", "");
  if (shape == "3x3") {
    t.shape = PatternShape::k3x3;
  } else if (shape == "diamond12") {
    t.shape = PatternShape::kDiamond12;
  } else {
    return fail("unknown pattern shape '" + shape + "'");
  }
  t.prior_strength = h.value("prior_strength", 0.0);
  t.training = h.value("training", nlohmann::json::object());
  PayloadReader r(file.payload);
  t.overall_ratio = r.f64();
  for (auto* map : {&t.ratio3x3, &t.ratio_diamond}) {
    const uint64_t n = r.u64();
    if (!r.ok() || n > r.remaining() / 12) return fail("corrupt payload: bad table size at byte " + std::to_string(r.offset()));
    map->reserve(n);
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t code = r.u64();
      (*map)[code] = r.f32();
    }
  }
  if (!r.ok() || r.remaining() != 0) return fail("corrupt payload at byte " + std::to_string(r.offset()));
  return t;
}

std::string PatternTableGuesser::name() const {
  return std::string(pattern_shape_name(table_->shape)) + " table";
}

void PatternTableGuesser::score(const Position& position, std::span<const Vertex> candidates, std::span<float> out) {
  const Board& b = *position.board;
  float sum = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const uint64_t raw = pattern_code(b, candidates[i], position.to_move,
                                      table_->shape == PatternShape::k3x3 ? PatternShape::k3x3 : PatternShape::kDiamond12);
    out[i] = table_->score(raw);
    sum += out[i];
  }
  if (sum > 0) {
    for (float& s : out) s /= sum;
  }
}

nlohmann::json PatternTableGuesser::info() const {
  return {{"kind", "pattern-table"},
          {"pattern_shape", std::string(pattern_shape_name(table_->shape))},
          {"feature_version", kPatternVersion},
          {"patterns_3x3", table_->ratio3x3.size()},
          {"patterns_diamond12", table_->ratio_diamond.size()},
          {"training", table_->training}};
}

}  // namespace hane
