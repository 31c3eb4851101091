// Progress-line text: thousands separators and rates that stay readable for slow work.
#include "util/progress.h"

#include <gtest/gtest.h>

namespace hane {
namespace {

TEST(ProgressText, ThousandsSeparators) {
  EXPECT_EQ(with_thousands(0), "0");
  EXPECT_EQ(with_thousands(999), "999");
  EXPECT_EQ(with_thousands(1000), "1,000");
  EXPECT_EQ(with_thousands(1234567), "1,234,567");
  EXPECT_EQ(with_thousands(-4321), "-4,321");
}

TEST(ProgressText, RatesAreAlwaysPerSecondWithTheirDigits) {
  EXPECT_EQ(rate_text(2436.6, "games"), "2,437 games/s");
  EXPECT_EQ(rate_text(1.0, "games"), "1 games/s");
  EXPECT_EQ(rate_text(123.4, "games"), "123 games/s");
  EXPECT_EQ(rate_text(24.36, "games"), "24.4 games/s");
  EXPECT_EQ(rate_text(0.0, "games"), "0 games/s");  // nothing done yet
  EXPECT_EQ(rate_text(0.5, "games"), "0.5 games/s");
  EXPECT_EQ(rate_text(1.0 / 24, "games"), "0.0417 games/s");  // a 9x9 match on two cores
}

}  // namespace
}  // namespace hane
