// The GTP client of lib/engine_process: command-line splitting, replies, timeouts, exits and
// stderr, driven by the fake engine in fake_gtp_engine.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine_process/gtp_client.h"

namespace hane {
namespace {

const std::string kFake = HANE_FAKE_GTP_ENGINE;

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

TEST(GtpClient, SplitCommandLine) {
  auto w = split_command_line("gnugo --mode gtp  'a b' \"c \\\" d\" e\\ f");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, (std::vector<std::string>{"gnugo", "--mode", "gtp", "a b", "c \" d", "e f"}));
  EXPECT_FALSE(split_command_line("a 'b").ok());
  EXPECT_FALSE(split_command_line("   ").ok());
}

TEST(GtpClient, TalksTimesOutAndSeesExits) {
  GtpClient c;
  ASSERT_TRUE(c.start({kFake, "name=alpha", "hang=1"}).ok());
  auto name = c.command("name", 5);
  ASSERT_TRUE(name.ok());
  EXPECT_TRUE(name->ok);
  EXPECT_EQ(name->text, "alpha");
  auto unknown = c.command("frobnicate", 5);
  ASSERT_TRUE(unknown.ok());
  EXPECT_FALSE(unknown->ok);
  auto hang = c.command("genmove b", 0.3);
  EXPECT_EQ(hang.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_FALSE(c.running());
  c.stop();
  EXPECT_NE(c.stderr_tail().size(), 0u);

  ASSERT_TRUE(c.start({kFake, "crash=1"}).ok());
  auto crash = c.command("genmove b", 5);
  EXPECT_EQ(crash.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(std::string(crash.status().message()).find("exited with code 3"), std::string::npos) << crash.status();
  EXPECT_NE(joined(c.stderr_tail()).find("crashing at move 1"), std::string::npos);
  c.stop();

  EXPECT_EQ(c.start({"/nonexistent/engine"}).code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace hane
