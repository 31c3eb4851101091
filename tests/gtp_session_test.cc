// Scripted GTP sessions, the way KataGo and gogui-regress test engines: every tests/data/gtp/*.gtp
// is fed line by line to an engine, and the responses must equal the .gtp's .expected file
// beside it. An expected line starting with '~' is a regular expression for that line (for
// version numbers and CPU times). "$DATA" in a command stands for tests/data.
//
// The engine plays with the random player (seed 1) unless the script's first line reads
// "# player: search POLICY PLAYOUTS" (the MCTS, one thread, seed 1). Scripts end with quit.
// To rewrite the expected files after a deliberate change: HANE_REGENERATE_GTP=1 hane_tests
// --gtest_filter='GtpSession*' (then read the diff).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gtp/engine.h"
#include "gtp/random_player.h"
#include "gtp/search_player.h"

namespace hane::gtp {
namespace {

namespace fs = std::filesystem;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream s(text);
  std::string line;
  while (std::getline(s, line)) lines.push_back(line);
  return lines;
}

std::unique_ptr<MoveGenerator> player_for(const std::string& script) {
  std::istringstream first(script);
  std::string line;
  std::getline(first, line);
  std::istringstream words(line);
  std::string hash, key, kind, policy;
  int64_t playouts = 0;
  words >> hash >> key >> kind >> policy >> playouts;
  if (hash == "#" && key == "player:" && kind == "search") {
    EngineOptions o;
    o.search.policy = policy;
    o.search.prior = "none";
    o.search.threads = 1;
    o.search.seed = 1;
    o.playouts = playouts;
    o.end_playouts = 200;
    auto p = SearchPlayer::create(o);
    EXPECT_TRUE(p.ok()) << p.status();
    return std::move(*p);
  }
  return std::make_unique<RandomPlayer>(1);
}

std::string run_script(const std::string& script) {
  EngineConfig config;
  config.version = "test";
  Engine engine(player_for(script), config);
  std::ostringstream out;
  for (std::string line : split_lines(script)) {
    for (size_t at; (at = line.find("$DATA")) != std::string::npos;) line.replace(at, 5, HANE_TEST_DATA_DIR);
    if (!engine.execute(line + "\n", out)) break;
  }
  return out.str();
}

std::vector<fs::path> scripts() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(fs::path(HANE_TEST_DATA_DIR) / "gtp")) {
    if (e.path().extension() == ".gtp") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class GtpSession : public ::testing::TestWithParam<fs::path> {};

TEST_P(GtpSession, AnswersAsExpected) {
  const fs::path script = GetParam();
  fs::path expected_path = script;
  expected_path.replace_extension(".expected");
  const std::string actual = run_script(read_text(script));
  if (std::getenv("HANE_REGENERATE_GTP")) {
    std::ofstream(expected_path, std::ios::binary) << actual;
    GTEST_SKIP() << "wrote " << expected_path;
  }
  ASSERT_TRUE(fs::exists(expected_path)) << expected_path << " is missing";
  const std::vector<std::string> want = split_lines(read_text(expected_path));
  const std::vector<std::string> got = split_lines(actual);
  for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    ASSERT_LT(i, got.size()) << script.filename() << ": the engine stopped early; expected line " << i + 1 << ": " << want[i];
    ASSERT_LT(i, want.size()) << script.filename() << ": extra output at line " << i + 1 << ": " << got[i];
    if (!want[i].empty() && want[i][0] == '~') {
      EXPECT_TRUE(std::regex_match(got[i], std::regex(want[i].substr(1))))
          << script.filename() << " line " << i + 1 << ": '" << got[i] << "' does not match " << want[i];
    } else {
      ASSERT_EQ(got[i], want[i]) << script.filename() << " line " << i + 1;
    }
  }
  // Framing: every response ends with exactly one empty line, and none is empty inside.
  EXPECT_TRUE(actual.empty() || actual.ends_with("\n\n"));
  EXPECT_EQ(actual.find("\n\n\n"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Scripts, GtpSession, ::testing::ValuesIn(scripts()),
                         [](const ::testing::TestParamInfo<fs::path>& param) {
                           std::string name = param.param.stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace hane::gtp
