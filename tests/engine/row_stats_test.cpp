#include "graphrun/engine/row_stats.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace graphrun {
namespace {

TEST(RowStats, LengthsMomentsAndHistogram) {
  // row lengths 0, 1, 3, 4
  Coo<double> coo{4, 5, {1, 2, 2, 2, 3, 3, 3, 3}, {0, 0, 1, 2, 0, 1, 2, 3}, {}};
  auto a = Csr<double>::from_coo(coo);
  RowStats s = analyze(a.view());
  EXPECT_EQ(s.nnz, 8);
  EXPECT_EQ(s.min_length, 0);
  EXPECT_EQ(s.max_length, 4);
  EXPECT_DOUBLE_EQ(s.mean, 2.0);
  EXPECT_NEAR(s.stddev, std::sqrt((4.0 + 1.0 + 1.0 + 4.0) / 4.0), 1e-12);
  EXPECT_NEAR(s.cv, s.stddev / 2.0, 1e-12);
  EXPECT_DOUBLE_EQ(s.empty_fraction, 0.25);
  EXPECT_EQ(s.histogram[0], 1);  // empty
  EXPECT_EQ(s.histogram[1], 1);  // [1, 2)
  EXPECT_EQ(s.histogram[2], 1);  // [2, 4): 3
  EXPECT_EQ(s.histogram[3], 1);  // [4, 8): 4
}

TEST(RowStats, EmptyMatrix) {
  RowStats s = analyze(Csr<double>().view());
  EXPECT_EQ(s.n_rows, 0);
  EXPECT_EQ(s.cv, 0.0);
}

}  // namespace
}  // namespace graphrun
