// Row statistics computed on the device against analyze() on the host, the
// reference: every figure equal (the squared lengths are summed exactly on
// both sides at these sizes), on every shape (empty rows, one huge row,
// power-law, banded), on empty matrices and a shipped graph; and the SpMV
// operator built from them picks what the host's figures pick.
#include "graphrun/engine/row_stats.hpp"

#include <gtest/gtest.h>

#include <string>

#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/io/load.hpp"
#include "support/random_graphs.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)  // CUDA builds only
#include "graphrun/kernels/cuda/spmv.hpp"
#endif

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

void expect_same(const RowStats& got, const RowStats& want, const std::string& where) {
  EXPECT_EQ(got.n_rows, want.n_rows) << where;
  EXPECT_EQ(got.nnz, want.nnz) << where;
  EXPECT_EQ(got.min_length, want.min_length) << where;
  EXPECT_EQ(got.max_length, want.max_length) << where;
  EXPECT_EQ(got.mean, want.mean) << where;
  EXPECT_EQ(got.stddev, want.stddev) << where;
  EXPECT_EQ(got.cv, want.cv) << where;
  EXPECT_EQ(got.empty_fraction, want.empty_fraction) << where;
  EXPECT_EQ(got.histogram, want.histogram) << where;
}

class DeviceRowStats : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_F(DeviceRowStats, EqualTheHostFiguresOnEveryShape) {
  std::uint64_t seed = 11;
  for (auto shape :
       {test::MatrixShape::uniform, test::MatrixShape::empty_rows, test::MatrixShape::heavy_row,
        test::MatrixShape::power_law, test::MatrixShape::banded})
    for (const auto& [rows, cols] : {std::pair{1000, 1000}, std::pair{3000, 70},
                                     std::pair{1, 20000}, std::pair{300000, 300000}}) {
      const Csr<double> a =
          Csr<double>::from_coo(test::random_coo(rows, cols, shape, 6.0, true, seed++));
      const std::string where =
          test::to_string(shape) + " " + std::to_string(rows) + "x" + std::to_string(cols);
      const DeviceCsr<double> d(a);
      expect_same(analyze(d), analyze(a.view()), where);
      EXPECT_EQ(cuda::SpmvOperator<double>(d, SpmvFormat::automatic).format(),
                choose_spmv_format(analyze(a.view()), Device::cuda))
          << where;
    }
}

TEST_F(DeviceRowStats, EmptyMatricesAndARealGraph) {
  for (const auto& [rows, cols] : {std::pair{0, 0}, std::pair{5, 0}, std::pair{4, 4}}) {
    const Csr<double> empty(rows, cols,
                            std::vector<offset_t>(static_cast<std::size_t>(rows) + 1, 0), {}, {});
    expect_same(analyze(DeviceCsr<double>(empty)), analyze(empty.view()),
                "empty " + std::to_string(rows) + "x" + std::to_string(cols));
  }
  const Graph g =
      io::load_graph(GRAPHRUN_SOURCE_DIR "/datasets/celegansneural/celegansneural.txt.gz");
  expect_same(analyze(DeviceCsr<double>(g.adj())), analyze(g.adj().view()), "celegansneural");
}

#endif  // GRAPHRUN_HAVE_CUDA

}  // namespace
}  // namespace graphrun
