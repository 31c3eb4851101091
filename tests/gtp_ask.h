// One GTP command to an in-process engine, for tests.
#pragma once

#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "gtp/engine.h"

namespace hane::gtp::testing {

/// The response text of `command` ("= text\n\n" without its frame); fails the test on a GTP
/// error or a malformed frame.
inline std::string ask(Engine& engine, const std::string& command) {
  std::ostringstream out;
  engine.execute(command, out);
  const std::string r = out.str();
  EXPECT_TRUE(r.starts_with("=")) << command << " -> " << r;
  EXPECT_TRUE(r.ends_with("\n\n")) << command << " -> " << r;
  if (r.size() < 3) return "";
  std::string text = r.substr(1, r.size() - 3);
  if (!text.empty() && text[0] == ' ') text.erase(0, 1);
  return text;
}

}  // namespace hane::gtp::testing
