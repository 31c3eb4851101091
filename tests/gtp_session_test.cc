// Scripted GTP sessions, the way KataGo and gogui-regress test engines: every tests/data/gtp/*.gtp
// is fed line by line to an engine, and the responses must equal the .gtp's .expected file
// beside it. An expected line starting with '~' is a regular expression for that line (for
// version numbers and CPU times). In other lines "{vertex}" stands for any move the
// protocol allows there, a vertex ("C3"), "pass" or "resign": the moves a move generator
// chooses are not fixed by the protocol, so they are matched by shape, and checked by the
// harness instead: every genmove answer (genmove, reg_genmove, kgs-genmove_cleanup) must be
// legal for that colour in the game as it was, and every place_free_handicap answer must be
// the number of stones asked for, on distinct points that were empty, then on the board as
// Black's, with White to move. "$DATA" in a command stands for tests/data.
//
// The engine plays with the random player (seed 1) unless the script's first line reads
// "# player: search POLICY PLAYOUTS" (the MCTS, one thread, seed 1). Scripts end with quit.
// To rewrite the expected files after a deliberate change: HANE_REGENERATE_GTP=1 hane_tests
// --gtest_filter='GtpSession*' (then read the diff).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "go/vertex.h"
#include "gtp/engine.h"
#include "gtp/protocol.h"
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

// The words of a successful response ("= C3 D4\n\n" -> C3, D4); nullopt for an error.
std::optional<std::vector<std::string>> answer_words(const std::string& response) {
  if (response.empty() || response[0] != '=') return std::nullopt;
  std::istringstream in(response.substr(response.find_first_of(" \n")));
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The checks of a move generator's answers (see the top of the file), as failures naming the
// script line; `before` is the game before the command.
void check_generated(const std::string& where, const CommandLine& command, const Game& before, const Engine& engine,
                     const std::string& response) {
  const auto words = answer_words(response);
  if (!words) return;  // errors are matched exactly
  const int size = before.size();
  if (command.name == "genmove" || command.name == "reg_genmove" || command.name == "kgs-genmove_cleanup") {
    ASSERT_EQ(words->size(), 1u) << where << ": " << response;
    const Color color = command.args.empty() ? Color::kEmpty : parse_color(command.args[0]);
    if ((*words)[0] == "resign" || (*words)[0] == "pass") return;
    const auto v = from_gtp((*words)[0], size);
    ASSERT_TRUE(v.has_value()) << where << ": not a vertex: " << response;
    EXPECT_EQ(before.legal(*v, color), Legality::kLegal) << where << ": " << (*words)[0] << " is not legal";
  } else if (command.name == "place_free_handicap") {
    ASSERT_EQ(words->size(), static_cast<size_t>(std::stoi(command.args.at(0)))) << where << ": " << response;
    std::vector<Vertex> stones;
    for (const std::string& w : *words) {
      const auto v = from_gtp(w, size);
      ASSERT_TRUE(v.has_value() && v->is_point()) << where << ": not a point: " << w;
      EXPECT_TRUE(before.board().is_empty(*v)) << where << ": " << w << " was not empty";
      EXPECT_EQ(std::count(stones.begin(), stones.end(), *v), 0) << where << ": " << w << " twice";
      EXPECT_EQ(engine.game().board().color(*v), Color::kBlack) << where << ": no black stone at " << w;
      stones.push_back(*v);
    }
    EXPECT_EQ(engine.game().to_move(), Color::kWhite) << where << ": White moves after the handicap";
  }
}

std::string run_script(const std::string& script, const std::string& name) {
  EngineConfig config;
  config.version = "test";
  Engine engine(player_for(script), config);
  std::ostringstream out;
  int number = 0;
  for (std::string line : split_lines(script)) {
    ++number;
    for (size_t at; (at = line.find("$DATA")) != std::string::npos;) line.replace(at, 5, HANE_TEST_DATA_DIR);
    const Game before = engine.game();
    std::ostringstream response;
    const bool go_on = engine.execute(line + "\n", response);
    out << response.str();
    if (const std::string text = preprocess(line); !text.empty()) {
      check_generated(name + " line " + std::to_string(number), parse_request(text), before, engine, response.str());
    }
    if (!go_on) break;
  }
  return out.str();
}

// An expected line with "{vertex}" as a regular expression: the rest literal.
std::regex shape_of(const std::string& expected) {
  static const std::string kVertex = "([A-HJ-Z]([1-9]|1[0-9]|2[0-5])|pass|resign)";
  std::string pattern;
  for (size_t i = 0; i < expected.size();) {
    if (expected.compare(i, 8, "{vertex}") == 0) {
      pattern += kVertex;
      i += 8;
      continue;
    }
    const char c = expected[i++];
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) pattern += '\\';
    pattern += c;
  }
  return std::regex(pattern);
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
  const std::string actual = run_script(read_text(script), script.filename().string());
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
    } else if (want[i].find("{vertex}") != std::string::npos) {
      EXPECT_TRUE(std::regex_match(got[i], shape_of(want[i])))
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
