// lib/cluster without a launcher: one rank, every collective returns its input.
#include "cluster/cluster.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace hane::cluster {
namespace {

TEST(Cluster, OneRankWithoutALauncher) {
  EXPECT_EQ(rank(), 0);
  EXPECT_EQ(size(), 1);
  EXPECT_TRUE(is_root());
  std::vector<double> d = {1.5, -2.25};
  allreduce_sum(d);
  EXPECT_EQ(d, (std::vector<double>{1.5, -2.25}));
  std::vector<int64_t> n = {3, 1ll << 40};
  allreduce_sum(n);
  EXPECT_EQ(n, (std::vector<int64_t>{3, 1ll << 40}));
  allreduce_max(n);
  EXPECT_EQ(n[1], 1ll << 40);
  EXPECT_EQ(gather("abc"), (std::vector<std::string>{"abc"}));
  EXPECT_EQ(allgather(std::string("x\0y", 3)), (std::vector<std::string>{std::string("x\0y", 3)}));
  std::string b = "kept";
  broadcast(b);
  EXPECT_EQ(b, "kept");
  EXPECT_TRUE(any(true));
  EXPECT_FALSE(any(false));
  barrier();
}

}  // namespace
}  // namespace hane::cluster
