// GTP framing, typed arguments, handicap points and the protocol loop with its reader thread.
#include <gtest/gtest.h>

#include <unistd.h>

#include <ext/stdio_filebuf.h>

#include <atomic>
#include <sstream>
#include <thread>

#include "go/vertex.h"
#include "gtp/args.h"
#include "gtp/board_text.h"
#include "gtp/engine.h"
#include "gtp/protocol.h"
#include "gtp/random_player.h"

namespace hane::gtp {
namespace {

TEST(GtpProtocol, PreprocessFollowsTheSpec) {
  EXPECT_EQ(preprocess("  genmove\tb  "), "genmove b");
  EXPECT_EQ(preprocess("play b d4 # a comment"), "play b d4");
  EXPECT_EQ(preprocess("# only a comment"), "");
  EXPECT_EQ(preprocess("\r\n"), "");
  EXPECT_EQ(preprocess("na\x01me\x7f\r"), "name");
  EXPECT_EQ(preprocess(std::string("a\0b", 3)), "ab");
}

TEST(GtpProtocol, ParsesIdNameAndArguments) {
  CommandLine c = parse_request("12 play  b d4");
  EXPECT_EQ(c.id, "12");
  EXPECT_EQ(c.name, "play");
  EXPECT_EQ(c.args, (std::vector<std::string>{"b", "d4"}));
  c = parse_request("name");
  EXPECT_EQ(c.id, "");
  EXPECT_EQ(c.name, "name");
  EXPECT_TRUE(c.args.empty());
  c = parse_request("-1 name");  // not an id: ids are unsigned
  EXPECT_EQ(c.id, "");
  EXPECT_EQ(c.name, "-1");
  c = parse_request("7");
  EXPECT_EQ(c.id, "7");
  EXPECT_EQ(c.name, "");
}

TEST(GtpProtocol, FramesResponsesExactly) {
  EXPECT_EQ(format_response(true, "", ""), "=\n\n");
  EXPECT_EQ(format_response(true, "3", "D4"), "=3 D4\n\n");
  EXPECT_EQ(format_response(false, "", "illegal move"), "? illegal move\n\n");
  EXPECT_EQ(format_response(true, "", "a\n\nb\n   \nc\n\n"), "= a\nb\nc\n\n");
  EXPECT_EQ(format_response(true, "5", "\nrow 1\nrow 2"), "=5\nrow 1\nrow 2\n\n");
}

TEST(GtpArgs, ReadsTypedValuesAndFailsCleanly) {
  const std::vector<std::string> words = {"B", "white", "d4", "PASS", "19", "6.5", "true", "x"};
  Args args(words, 19);
  EXPECT_EQ(args.color(), Color::kBlack);
  EXPECT_EQ(args.color(), Color::kWhite);
  EXPECT_EQ(args.vertex(), *from_gtp("D4", 19));
  EXPECT_TRUE(args.vertex().is_pass());
  EXPECT_EQ(args.integer(2, 25), 19);
  EXPECT_DOUBLE_EQ(args.number(), 6.5);
  EXPECT_TRUE(args.boolean());
  EXPECT_THROW(args.done(), GtpError);
  EXPECT_EQ(args.word(), "x");
  args.done();
  EXPECT_THROW(args.word(), GtpError);

  const std::vector<std::string> bad = {"9x", "30", "t20", "nan", "blue"};
  Args b(bad, 19);
  try {
    b.integer(0, 100);
    FAIL();
  } catch (const GtpError& e) {
    EXPECT_STREQ(e.what(), "syntax error");
  }
  try {
    b.integer(2, 25, "unacceptable size");
    FAIL();
  } catch (const GtpError& e) {
    EXPECT_STREQ(e.what(), "unacceptable size");
  }
  try {
    b.vertex();
    FAIL();
  } catch (const GtpError& e) {
    EXPECT_STREQ(e.what(), "invalid coordinate");
  }
  EXPECT_THROW(b.number(), GtpError);
  try {
    b.color();
    FAIL();
  } catch (const GtpError& e) {
    EXPECT_STREQ(e.what(), "invalid color");
  }
}

std::string gtp_list(const std::vector<Vertex>& vs, int size) {
  std::string out;
  for (const Vertex v : vs) out += (out.empty() ? "" : " ") + to_gtp(v, size);
  return out;
}

TEST(GtpHandicap, FixedPointsAreTheSpecs) {
  EXPECT_EQ(gtp_list(fixed_handicap(19, 2), 19), "D4 Q16");
  EXPECT_EQ(gtp_list(fixed_handicap(19, 5), 19), "D4 Q16 D16 Q4 K10");
  EXPECT_EQ(gtp_list(fixed_handicap(19, 6), 19), "D4 Q16 D16 Q4 D10 Q10");
  EXPECT_EQ(gtp_list(fixed_handicap(19, 9), 19), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
  EXPECT_EQ(gtp_list(fixed_handicap(9, 4), 9), "C3 G7 C7 G3");
  EXPECT_EQ(gtp_list(fixed_handicap(13, 3), 13), "D4 K10 D10");
  EXPECT_TRUE(fixed_handicap(19, 10).empty());
  EXPECT_TRUE(fixed_handicap(19, 1).empty());
  EXPECT_TRUE(fixed_handicap(8, 5).empty());
  EXPECT_EQ(fixed_handicap(8, 4).size(), 4u);
  EXPECT_TRUE(fixed_handicap(7, 5).empty());
  EXPECT_TRUE(fixed_handicap(6, 2).empty());
  EXPECT_EQ(star_points(Board(19)).size(), 9u);
  EXPECT_EQ(star_points(Board(13)).size(), 5u);
  EXPECT_EQ(star_points(Board(9)).size(), 5u);
  EXPECT_EQ(star_points(Board(5)).size(), 0u);
}

TEST(GtpEngine, ResultTextAndRules) {
  EXPECT_EQ(result_text(3.5), "B+3.5");
  EXPECT_EQ(result_text(-0.5), "W+0.5");
  EXPECT_EQ(result_text(0), "0");
  EXPECT_EQ(result_text(-12), "W+12");
  ASSERT_NE(find_rule_set("Japanese"), nullptr);
  EXPECT_EQ(find_rule_set("japanese")->scoring, Scoring::kTerritory);
  EXPECT_EQ(find_rule_set("new_zealand")->superko, Superko::kSituational);
  EXPECT_TRUE(find_rule_set("new_zealand")->allow_suicide);
  EXPECT_EQ(find_rule_set("ing"), nullptr);
}

// The protocol loop on a stream: the reader thread queues the next line, which stops live
// analysis; the response is framed and the next command answered.
TEST(GtpEngine, LiveAnalysisStopsAtTheNextLine) {
  Engine engine(std::make_unique<RandomPlayer>(1));
  std::istringstream in("boardsize 5\n1 lz-analyze 1\n2 name\n3 quit\nname\n");
  std::ostringstream out;
  EXPECT_EQ(engine.run(in, out), 0);
  const std::string text = out.str();
  ASSERT_TRUE(text.starts_with("=\n\n=1\ninfo move ")) << text;
  const size_t end = text.find("\n\n", 4);
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(text.substr(end), "\n\n=2 hane\n\n=3\n\n");
}

// A generator that thinks until it is stopped, then passes.
class Stubborn final : public MoveGenerator {
 public:
  explicit Stubborn(std::atomic<bool>* started, std::atomic<bool>* stopped = nullptr)
      : started_(started), stopped_(stopped) {}
  std::string name() const override { return "stubborn"; }
  SearchResult genmove(const Game&, const Request& request) override {
    *started_ = true;
    while (!request.stop || !*request.stop) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (stopped_) *stopped_ = true;
    return {};
  }
  EndEstimate estimate_end(const Game&) override { return {}; }

 private:
  std::atomic<bool>* started_;
  std::atomic<bool>* stopped_;
};

// GoGui's "# interrupt" (sent while a command runs) stops genmove, which answers at once.
TEST(GtpEngine, InterruptStopsGenmove) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::atomic<bool> started{false};
  Engine engine(std::make_unique<Stubborn>(&started));
  std::thread writer([&] {
    const auto put = [&](const std::string& s) { ASSERT_EQ(write(fds[1], s.data(), s.size()), static_cast<ssize_t>(s.size())); };
    put("1 genmove b\n");
    while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    put("# interrupt\n2 name\n");
    close(fds[1]);
  });
  __gnu_cxx::stdio_filebuf<char> buf(fds[0], std::ios::in);
  std::istream in(&buf);
  std::ostringstream out;
  engine.run(in, out);
  writer.join();
  EXPECT_EQ(out.str(), "=1 pass\n\n=2 hane\n\n");
}

// An empty line ends a running lz-analyze (as Leela Zero and KataGo do, and GUIs send it);
// the next command is then answered as usual.
TEST(GtpEngine, EmptyLineEndsLiveAnalysis) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::atomic<bool> started{false}, stopped{false};
  Engine engine(std::make_unique<Stubborn>(&started, &stopped));
  std::ostringstream out;
  std::thread writer([&] {
    const auto put = [&](const std::string& s) { ASSERT_EQ(write(fds[1], s.data(), s.size()), static_cast<ssize_t>(s.size())); };
    put("1 lz-analyze 100\n");
    while (!started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    put("\n");
    // The analysis stops before any other command is sent.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!stopped && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    EXPECT_TRUE(stopped) << "the empty line did not stop the analysis";
    put("2 name\n");
    close(fds[1]);
  });
  __gnu_cxx::stdio_filebuf<char> buf(fds[0], std::ios::in);
  std::istream in(&buf);
  engine.run(in, out);
  writer.join();
  EXPECT_TRUE(out.str().starts_with("=1\n")) << out.str();
  EXPECT_TRUE(out.str().ends_with("\n\n=2 hane\n\n")) << out.str();
}

TEST(GtpEngine, EndOfInputWithoutQuitEnds) {
  Engine engine(std::make_unique<RandomPlayer>(1));
  std::istringstream in("boardsize 7\n\n# a comment\nclear_board");
  std::ostringstream out;
  EXPECT_EQ(engine.run(in, out), 0);
  EXPECT_EQ(out.str(), "=\n\n=\n\n");
}

}  // namespace
}  // namespace hane::gtp
