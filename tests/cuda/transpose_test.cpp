// The transpose built on the device against the host's Csr::transpose, the
// reference: the same arrays, entry for entry, on every shape (empty rows,
// one huge row, power-law, banded; square and rectangular; pattern and
// valued), on an empty matrix and on a shipped graph; and the rows of the
// transpose's entries it hands over (the COO row index) against its own
// row pointers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "graphrun/engine/device_csr.hpp"
#include "graphrun/io/load.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

void expect_same(const Csr<double>& got, const Csr<double>& want, const std::string& where) {
  EXPECT_EQ(got.n_rows(), want.n_rows()) << where;
  EXPECT_EQ(got.n_cols(), want.n_cols()) << where;
  EXPECT_EQ(got.row_ptr(), want.row_ptr()) << where;
  EXPECT_EQ(got.col_idx(), want.col_idx()) << where;
  EXPECT_EQ(got.values(), want.values()) << where;
}

// The row of every entry of `a`, in entry order.
std::vector<vertex_t> row_of_each_entry(const Csr<double>& a) {
  std::vector<vertex_t> rows;
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    rows.insert(rows.end(), static_cast<std::size_t>(a.row_length(i)), i);
  return rows;
}

// The transpose, checked against the host's, and the row of each of its
// entries that it hands over checked against its own row pointers.
void check_transpose(const Csr<double>& a, const std::string& where) {
  DeviceArray<vertex_t> rows;
  const Csr<double> at = device_transpose(DeviceCsr<double>(a), nullptr, &rows).download();
  expect_same(at, a.transpose(), where);
  EXPECT_EQ(rows.download(), row_of_each_entry(at)) << where << ": rows handed over";
}

class DeviceTranspose : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_F(DeviceTranspose, EqualsTheHostTransposeOnEveryShape) {
  std::uint64_t seed = 1;
  for (auto shape :
       {test::MatrixShape::uniform, test::MatrixShape::empty_rows, test::MatrixShape::heavy_row,
        test::MatrixShape::power_law, test::MatrixShape::banded})
    for (const auto& [rows, cols] :
         {std::pair{1000, 1000}, std::pair{3000, 70}, std::pair{50, 5000}, std::pair{1, 20000},
          std::pair{70000, 65537}})
      for (bool pattern : {false, true}) {
        const Csr<double> a =
            Csr<double>::from_coo(test::random_coo(rows, cols, shape, 6.0, pattern, seed++));
        const std::string where = test::to_string(shape) + " " + std::to_string(rows) + "x" +
                                  std::to_string(cols) + (pattern ? " pattern" : "");
        check_transpose(a, where);
      }
}

// Every entry in one column, with long runs of empty columns on both sides:
// the row pointers of the empty columns (found by a search, not walked by
// the entry before them), and a hub's run of 5,000 entries.
TEST_F(DeviceTranspose, OneFullColumnBetweenLongRunsOfEmptyOnes) {
  for (bool pattern : {false, true}) {
    Coo<double> coo;
    coo.n_rows = 5000;
    coo.n_cols = 300000;
    auto add = [&](vertex_t i, vertex_t j, double v) {
      coo.row.push_back(i);
      coo.col.push_back(j);
      if (!pattern) coo.val.push_back(v);
    };
    for (vertex_t i = 0; i < coo.n_rows; ++i) {
      add(i, 170000, 1.0 + i);
      if (i % 7 == 0) add(i, 3, 0.5);
    }
    const Csr<double> a = Csr<double>::from_coo(coo);
    check_transpose(a, pattern ? "one full column, pattern" : "one full column");
  }
}

// Runs of empty columns of every length from 0 to 130 between occupied
// ones, and after the last one: the entry that begins a column's run fills
// the pointers of the empty columns just before it up to a limit (64), a
// search the rest; the lengths on either side of the limit meet both.
TEST_F(DeviceTranspose, EmptyColumnRunsOnEitherSideOfTheFillLimit) {
  for (const vertex_t tail : {0, 1, 63, 64, 65, 130}) {
    Coo<double> coo;
    coo.n_rows = 40;
    vertex_t col = 0;
    for (vertex_t gap = 0; gap <= 130; ++gap) {
      col += gap;
      for (vertex_t i = 0; i < 1 + gap % 3; ++i) {
        coo.row.push_back((gap + 7 * i) % coo.n_rows);
        coo.col.push_back(col);
      }
      ++col;
    }
    coo.n_cols = col + tail;
    const Csr<double> a = Csr<double>::from_coo(coo);
    check_transpose(a, "empty runs 0..130, then " + std::to_string(tail) + " empty columns");
  }
}

TEST_F(DeviceTranspose, EmptyMatricesAndARealGraph) {
  for (const auto& [rows, cols] :
       {std::pair{0, 0}, std::pair{5, 0}, std::pair{0, 3}, std::pair{4, 4}}) {
    const Csr<double> empty(rows, cols,
                            std::vector<offset_t>(static_cast<std::size_t>(rows) + 1, 0), {}, {});
    check_transpose(empty, "empty " + std::to_string(rows) + "x" + std::to_string(cols));
  }
  const Graph g =
      io::load_graph(GRAPHRUN_SOURCE_DIR "/datasets/celegansneural/celegansneural.txt.gz");
  check_transpose(g.adj(), "celegansneural");
}

#else

TEST(DeviceTranspose, NeedsTheCudaBackend) { GTEST_SKIP() << "built without the CUDA backend"; }

#endif

}  // namespace
}  // namespace graphrun
