// `hane play` used the way a person uses it: the real executable in a pseudo-terminal, moves
// typed, the screen read. Skipped when the hane executable is not built.
#include <gtest/gtest.h>

#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <regex>
#include <string>

#include "test_files.h"

namespace {

class Terminal {
 public:
  explicit Terminal(const std::vector<std::string>& argv) {
    struct winsize size = {40, 100, 0, 0};
    pid_ = forkpty(&fd_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  ~Terminal() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  bool started() const { return pid_ > 0; }

  void type(const std::string& text) {
    const std::string line = text + "\n";
    ASSERT_EQ(write(fd_, line.data(), line.size()), static_cast<ssize_t>(line.size()));
  }

  /// Reads the screen until `text` appears after what was read before (or 60 s pass, or the
  /// program ends); returns everything new up to and including it.
  std::string wait_for(const std::string& text) { return wait_for_any({text}).second; }

  /// The same for the first of several texts to appear: its index (-1 if none) and the screen.
  std::pair<int, std::string> wait_for_any(const std::vector<std::string>& texts) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (true) {
      size_t best = std::string::npos;
      int which = -1;
      for (size_t i = 0; i < texts.size(); ++i) {
        const size_t at = screen_.find(texts[i], seen_);
        if (at != std::string::npos && (best == std::string::npos || at < best)) {
          best = at;
          which = static_cast<int>(i);
        }
      }
      if (which >= 0) {
        const size_t end = best + texts[static_cast<size_t>(which)].size();
        std::string out = screen_.substr(seen_, end - seen_);
        seen_ = end;
        return {which, out};
      }
      if (std::chrono::steady_clock::now() > deadline) break;
      pollfd p = {fd_, POLLIN, 0};
      if (poll(&p, 1, 200) <= 0) continue;
      char buf[4096];
      const ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      screen_.append(buf, static_cast<size_t>(n));
    }
    ADD_FAILURE() << "never saw '" << texts[0] << "'; the screen after the last match:\n" << screen_.substr(seen_);
    return {-1, ""};
  }

  int exit_code() {
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string screen_;
  size_t seen_ = 0;
};

// The last line of `screen` that draws board row `r` (" 3 . . X . . 3"), "" if none.
std::string row(const std::string& screen, int r) {
  const std::string start = (r < 10 ? " " : "") + std::to_string(r) + " ";
  std::string found;
  std::istringstream lines(screen);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.starts_with(start)) found = line;
  }
  return found;
}

TEST(PlayTerminal, AGameTypedMoveByMove) {
  if (!std::filesystem::exists(HANE_BINARY)) GTEST_SKIP() << HANE_BINARY << " is not built";
  const std::string sgf = hane::testing::temp_path("play", "game.sgf");
  std::filesystem::remove(sgf);
  Terminal t({HANE_BINARY, "play", "--size", "5", "--playouts", "200", "--policy", "uniform", "--prior", "none",
              "--seed", "3", "--sgf", sgf});
  ASSERT_TRUE(t.started());
  // The empty 5x5 board with its coordinates (no I), then the prompt.
  std::string screen = t.wait_for("Black to play> ");
  EXPECT_NE(screen.find("   A B C D E"), std::string::npos) << screen;
  EXPECT_NE(screen.find(" 5 . . . . . 5"), std::string::npos) << screen;
  EXPECT_NE(screen.find(" 1 . . . . . 1"), std::string::npos) << screen;

  t.type("c3");
  screen = t.wait_for("hane plays ");
  EXPECT_EQ(row(screen, 3).substr(7, 1), "X") << screen;  // our stone on C3
  int whites = 0;
  for (int r = 1; r <= 5; ++r) {
    const std::string line = row(screen, r);
    whites += static_cast<int>(std::count(line.begin(), line.end(), 'O'));
  }
  EXPECT_EQ(whites, 1) << screen;  // and the reply, drawn before the line of why
  screen = t.wait_for("Black to play> ");
  EXPECT_NE(screen.find(" visits, "), std::string::npos) << screen;  // the line of why
  EXPECT_NE(screen.find("% win"), std::string::npos) << screen;
  EXPECT_TRUE(std::regex_search(screen, std::regex("Score estimate: (B\\+|W\\+|0)"))) << screen;

  t.type("c3");  // occupied now
  EXPECT_NE(t.wait_for("Black to play> ").find("C3 is illegal (occupied)"), std::string::npos);
  t.type("i3");
  EXPECT_NE(t.wait_for("Black to play> ").find("is not a move here"), std::string::npos);
  t.type("hint");
  EXPECT_NE(t.wait_for("Black to play> ").find("hint: "), std::string::npos);

  // undo takes back the whole turn: our C3 and the reply; the board is empty again.
  t.type("undo");
  screen = t.wait_for("Black to play> ");
  EXPECT_NE(screen.find("Taken back."), std::string::npos) << screen;
  EXPECT_EQ(row(screen, 3), " 3 . . . . . 3") << screen;
  for (int r = 1; r <= 5; ++r) EXPECT_EQ(row(screen, r).find_first_of("XO"), std::string::npos) << screen;

  t.type("b2");
  t.wait_for("hane plays ");
  t.wait_for("Black to play> ");
  t.type("resign");
  screen = t.wait_for("Saved the game to ");
  EXPECT_NE(screen.find("Result: W+R"), std::string::npos) << screen;
  t.wait_for(".sgf");
  EXPECT_EQ(t.exit_code(), 0);

  std::ifstream in(sgf);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("SZ[5]"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find(";B[bd]"), std::string::npos) << text.str();  // B2
  EXPECT_NE(text.str().find("RE[W+R]"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find(";B[cc]"), std::string::npos) << text.str();  // the C3 taken back
  std::filesystem::remove(sgf);
}

TEST(PlayTerminal, BothPassScoresAndShowsDeadStones) {
  if (!std::filesystem::exists(HANE_BINARY)) GTEST_SKIP() << HANE_BINARY << " is not built";
  const std::string sgf = hane::testing::temp_path("play", "passes.sgf");
  Terminal t({HANE_BINARY, "play", "--size", "5", "--color", "white", "--playouts", "100", "--policy", "uniform",
              "--prior", "none", "--seed", "1", "--sgf", sgf});
  ASSERT_TRUE(t.started());
  // The engine (Black) moves first; we pass until it passes too (it passes once passing wins).
  std::string screen;
  int passes = 0;
  for (; passes < 30; ++passes) {
    const auto [which, text] = t.wait_for_any({"White to play> ", "Saved the game to "});
    screen = text;
    if (which != 0) break;
    t.type("pass");
  }
  ASSERT_LT(passes, 30) << "the engine never passed";
  EXPECT_NE(screen.find("Both passed. Dead stones (lower case):"), std::string::npos) << screen;
  EXPECT_NE(screen.find("Result (area counting, komi 7.5): B+"), std::string::npos) << screen;
  t.wait_for(".sgf");
  EXPECT_EQ(t.exit_code(), 0);
  // The record keeps the area its result counts (TB / TW in the last node).
  std::ifstream in(sgf);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("TB["), std::string::npos) << text.str();
  std::filesystem::remove(sgf);
}

// --sgf naming a file that exists is refused before the game (exit 2) and the file is kept; a
// file made under that name during the game is kept too, and the game saved to a new name.
TEST(PlayTerminal, NeverWritesOverAnSgfFile) {
  if (!std::filesystem::exists(HANE_BINARY)) GTEST_SKIP() << HANE_BINARY << " is not built";
  const std::string sgf = hane::testing::temp_path("play", "kept.sgf");
  std::ofstream(sgf) << "(;GM[1]C[my game])";
  {
    Terminal t({HANE_BINARY, "play", "--size", "5", "--playouts", "50", "--policy", "uniform", "--prior", "none", "--sgf", sgf});
    ASSERT_TRUE(t.started());
    EXPECT_NE(t.wait_for("exists").find("--sgf"), std::string::npos);
    EXPECT_EQ(t.exit_code(), 2);
  }
  std::stringstream kept;
  kept << std::ifstream(sgf).rdbuf();
  EXPECT_EQ(kept.str(), "(;GM[1]C[my game])");
  std::filesystem::remove(sgf);

  const std::string second = hane::testing::temp_path("play", "second-2.sgf");
  const std::string later = hane::testing::temp_path("play", "second.sgf");
  std::filesystem::remove(second);
  Terminal t({HANE_BINARY, "play", "--size", "5", "--playouts", "50", "--policy", "uniform", "--prior", "none", "--sgf", later});
  ASSERT_TRUE(t.started());
  t.wait_for("Black to play> ");
  std::ofstream(later) << "(;GM[1]C[made meanwhile])";
  t.type("c3");
  t.wait_for("Black to play> ");
  t.type("quit");
  const std::string screen = t.wait_for("Saved the game to ");
  EXPECT_NE(screen.find("was made during the game and is left as it is"), std::string::npos) << screen;
  t.wait_for("second-2.sgf");
  EXPECT_EQ(t.exit_code(), 0);
  std::stringstream meanwhile, game;
  meanwhile << std::ifstream(later).rdbuf();
  game << std::ifstream(second).rdbuf();
  EXPECT_EQ(meanwhile.str(), "(;GM[1]C[made meanwhile])");
  EXPECT_NE(game.str().find(";B[cc]"), std::string::npos) << game.str();
  std::filesystem::remove(later);
  std::filesystem::remove(second);
}

}  // namespace
