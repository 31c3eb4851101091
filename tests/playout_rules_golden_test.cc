// The tactical rules of `rules` and `rules-gamma` (lib/playout/rules.h: ladder, nakade,
// two_liberty) decide the same moves as the code they were first measured with: for fixed seeds
// and starting positions, a hash of every playout's moves and of the rule that chose each one
// equals the golden value recorded before their speed-ups. A speed-up must not change a single
// decision nor a single draw of the Rng; a deliberate change of behaviour updates the golden
// values (the failure message prints the new ones) and says why in its commit.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "go/board.h"
#include "go/random.h"
#include "go/score.h"
#include "playout/registry.h"
#include "playout/rules.h"
#include "playout/uniform.h"

namespace hane {
namespace {

std::string hex(uint64_t x) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// FNV-1a over the bytes of x.
void mix(uint64_t& h, uint64_t x) {
  for (int i = 0; i < 8; ++i) {
    h ^= (x >> (8 * i)) & 0xff;
    h *= 0x100000001b3ull;
  }
}

struct Run {
  uint64_t hash = 0xcbf29ce484222325ull;
  std::map<RulesRule, int> rules;  // moves chosen by each rule
  int moves = 0;
};

// Starting positions of `size`: the empty board, and `mid` boards after uniformly random moves
// (a third of the points), Black to move after an even count.
std::vector<std::pair<Board, Color>> starts(int size, int mid, uint64_t seed) {
  std::vector<std::pair<Board, Color>> out;
  out.emplace_back(Board(size), Color::kBlack);
  Rng rng(seed);
  for (int k = 0; k < mid; ++k) {
    Board b(size);
    Color c = Color::kBlack;
    for (int i = 0; i < size * size / 3; ++i) {
      b.play(random_move(b, c, rng), c);
      c = opponent(c);
    }
    out.emplace_back(b, c);
  }
  return out;
}

// `playouts` playouts from each start (one Rng for all, `seed`), hashing each move, its rule
// and the final score.
Run record(PlayoutPolicy& policy, int size, int playouts, uint64_t seed) {
  Run run;
  auto* rules = dynamic_cast<RulesPolicy*>(&policy);
  Rng rng(seed);
  for (const auto& [board, to_move] : starts(size, 3, seed + 1)) {
    for (int p = 0; p < playouts; ++p) {
      policy.reset(board, to_move);
      const int cap = 3 * size * size;
      int passes = 0, moves = 0;
      while (passes < 2 && moves < cap) {
        const Vertex v = policy.sample(rng);
        const RulesRule rule = rules->last_rule();
        mix(run.hash, static_cast<uint64_t>(v.index()) | static_cast<uint64_t>(rule) << 16);
        ++run.rules[rule];
        passes = v.is_pass() ? passes + 1 : 0;
        policy.play(v);
        ++moves;
      }
      run.moves += moves;
      const Score score = area_score(policy.board());
      mix(run.hash, static_cast<uint64_t>(score.black) << 32 | static_cast<uint64_t>(score.white));
    }
  }
  return run;
}

struct Config {
  std::string name;
  std::map<std::string, std::string> settings;  // without the policy's prefix
};

const std::vector<Config>& configs() {
  static const std::vector<Config> c = {
      {"plain", {}},
      {"ladder", {{"ladder", "1"}}},
      {"nakade", {{"nakade", "1"}}},
      {"two_liberty", {{"two_liberty", "1"}, {"two_liberty_reads", "0"}}},
      {"two_liberty_reads", {{"two_liberty", "1"}}},
      {"all", {{"ladder", "1"}, {"nakade", "1"}, {"two_liberty", "1"}, {"two_liberty_reads", "0"}}},
      {"all_reads", {{"ladder", "1"}, {"nakade", "1"}, {"two_liberty", "1"}}},
      // Rates below 1 draw from the Rng: the draws must stay where they were.
      {"rates",
       {{"ladder", "0.5"},
        {"nakade", "0.7"},
        {"two_liberty", "0.6"},
        {"two_liberty_reads", "0"},
        {"ko", "1"},
        {"pattern_second", "0.5"},
        {"self_atari_stones", "2"}}},
  };
  return c;
}

std::unique_ptr<PlayoutPolicy> make(const std::string& spec, const std::string& prefix, const Config& config) {
  PolicyOptions o;
  for (const auto& [k, v] : config.settings) o.settings[prefix + "." + k] = v;
  auto p = make_policy(spec, o);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? std::move(*p) : nullptr;
}

// Golden hashes, [config][0: 9x9, 1: 19x19], recorded with the code before the tactics'
// speed-ups (commit 851d921).
const std::map<std::string, std::array<uint64_t, 2>> kRulesGolden = {
    {"all", {0xb2fad1f670181a00ull, 0x05eb4ee44a2dd17cull}},
    {"all_reads", {0x93e4d177d198fe2aull, 0x2ed151abdb889650ull}},
    {"ladder", {0x76fbfb3ad9ee5e6full, 0xa1b32d7a4269e038ull}},
    {"nakade", {0x49182c99c02c5b1cull, 0x816d54987451bea6ull}},
    {"plain", {0x38257fb90d058953ull, 0xe835a04b5bf7b50aull}},
    {"rates", {0xda17a11e867cd40cull, 0x96886216b7fb24f1ull}},
    {"two_liberty", {0x51fdabcd09189d0full, 0xaff13aec944eb625ull}},
    {"two_liberty_reads", {0x89eae5a3228a690eull, 0xb634f28639d3a98dull}},
};
// rules-gamma with patterns/kgs-gamma.model.
const std::map<std::string, std::array<uint64_t, 2>> kRulesGammaGolden = {
    {"all", {0x60a2f2037ba79788ull, 0x5f0ad0e64f010910ull}},
    {"plain", {0x837be739784c47f3ull, 0x1f067e3cb6f08734ull}},
    {"rates", {0x9b625da11389a796ull, 0xeec6ed427a10a5d5ull}},
};

void check(const std::string& spec, const std::string& prefix,
           const std::map<std::string, std::array<uint64_t, 2>>& golden) {
  std::map<std::string, std::array<Run, 2>> runs;
  for (const Config& config : configs()) {
    if (!golden.contains(config.name)) continue;
    const std::unique_ptr<PlayoutPolicy> policy = make(spec, prefix, config);
    ASSERT_NE(policy, nullptr);
    runs[config.name] = {record(*policy, 9, 100, 11), record(*policy, 19, 10, 12)};
  }
  std::string actual;
  for (const auto& [name, r] : runs) {
    actual += "    {\"" + name + "\", {0x" + hex(r[0].hash) + "ull, 0x" + hex(r[1].hash) + "ull}},\n";
  }
  for (const auto& [name, r] : runs) {
    for (int s = 0; s < 2; ++s) {
      EXPECT_EQ(r[s].hash, golden.at(name)[s]) << spec << " " << name << " on " << (s ? 19 : 9) << "x" << (s ? 19 : 9)
                                               << " decides other moves than before; now:\n"
                                               << actual;
    }
  }
  // The tactics are exercised: each fires, and the ladder check changes the save rule's moves.
  for (int s = 0; s < 2; ++s) {
    EXPECT_GT(runs["all"][s].rules[RulesRule::kNakade], 0) << spec << " size index " << s;
    EXPECT_GT(runs["all"][s].rules[RulesRule::kTwoLiberty], 0) << spec << " size index " << s;
    if (runs.contains("ladder")) {
      EXPECT_NE(runs["ladder"][s].hash, runs["plain"][s].hash) << spec;
    }
  }
}

TEST(RulesGolden, RulesTacticsDecideAsBefore) { check("rules", "rules", kRulesGolden); }

TEST(RulesGolden, RulesGammaTacticsDecideAsBefore) {
  const std::string model = std::string(HANE_TEST_DATA_DIR) + "/../../patterns/kgs-gamma.model";
  if (!std::filesystem::exists(model)) GTEST_SKIP() << "no " << model;
  check("rules-gamma:" + model, "rules-gamma", kRulesGammaGolden);
}

}  // namespace
}  // namespace hane
