// The statistics of a --trials summary (apps/cli/common.cpp), also the
// benchmarks' median: odd and even counts, unsorted input, one run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/common.hpp"

namespace graphrun::cli {
namespace {

TEST(Median, OddEvenAndEmpty) {
  EXPECT_EQ(median({}), 0.0);
  EXPECT_EQ(median({4.0}), 4.0);
  EXPECT_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);  // the mean of the middle two
  EXPECT_EQ(median({5.0, 5.0, 1.0, 9.0, 5.0, 0.0}), 5.0);
}

TEST(TrialsNote, MeanCountMedianAndFastest) {
  EXPECT_EQ(trials_note({0.5}), "");
  EXPECT_EQ(trials_note({0.004, 0.001, 0.003, 0.002}),
            " (mean of 4; median 0.002500 s, fastest 0.001000 s)");
}

}  // namespace
}  // namespace graphrun::cli
