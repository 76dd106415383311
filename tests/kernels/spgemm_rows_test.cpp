// cpu::spgemm_rows against cpu::spgemm: every row handed to the sink must be
// the row spgemm stores, bit for bit, at 1, 2 and 3 threads. The shapes put
// rows on every path of spgemm_rows, in particular the strip path that
// PlusTimes<double> takes over positive float entries (long dense rows
// expanded against B cut into vertical strips, read out by their non-zero
// sums): B narrower than one strip, several strips with a narrower last one,
// B large enough to be cut by its bytes (the long rows then in batches),
// empty rows, one huge row beside short ones, power-law rows, rectangular
// products; and the inputs that must keep it off (a zero, a negative entry).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "graphrun/kernels/cpu/spgemm.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::MatrixShape;
using test::random_csr;

// C as spgemm_rows hands it out, assembled row by row.
Csr<double> rows_of(const Csr<float>& a, const Csr<float>& b, int threads, SpgemmStats* stats) {
  std::vector<std::vector<vertex_t>> cols(static_cast<std::size_t>(a.n_rows()));
  std::vector<std::vector<double>> vals(cols.size());
  std::vector<int> seen(cols.size(), 0);
  const cpu::SpgemmRowSink<double> sink = [&](int thread, vertex_t i, const vertex_t* col,
                                              double* val, offset_t len) {
    EXPECT_GE(thread, 0);
    EXPECT_LT(thread, threads);
    ++seen[static_cast<std::size_t>(i)];
    cols[static_cast<std::size_t>(i)].assign(col, col + len);
    vals[static_cast<std::size_t>(i)].assign(val, val + len);
  };
  cpu::spgemm_rows<PlusTimes<double>>(a.view(), b.view(), threads, sink, stats);
  std::vector<offset_t> row_ptr(cols.size() + 1, 0);
  std::vector<vertex_t> col_idx;
  std::vector<double> values;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    EXPECT_EQ(seen[i], 1) << "row " << i;
    col_idx.insert(col_idx.end(), cols[i].begin(), cols[i].end());
    values.insert(values.end(), vals[i].begin(), vals[i].end());
    row_ptr[i + 1] = static_cast<offset_t>(col_idx.size());
  }
  return Csr<double>(a.n_rows(), b.n_cols(), std::move(row_ptr), std::move(col_idx),
                     std::move(values));
}

void expect_identical(const Csr<double>& got, const Csr<double>& want, const std::string& what) {
  ASSERT_EQ(got.row_ptr(), want.row_ptr()) << what;
  ASSERT_EQ(got.col_idx(), want.col_idx()) << what;
  ASSERT_EQ(got.values().size(), want.values().size()) << what;
  if (got.values().empty()) return;
  ASSERT_EQ(0, std::memcmp(got.values().data(), want.values().data(),
                           got.values().size() * sizeof(double)))
      << what;
}

// The entries made positive, spanning many magnitudes, some of them float
// subnormals (their products are still positive doubles).
Csr<float> positive(Csr<float> m, std::uint64_t seed) {
  test::Rng rng(seed);
  std::vector<float> v = m.values();
  for (float& x : v) {
    const auto k = rng.below(20);
    x = k == 0 ? 1e-40f : k == 1 ? 1.0f : static_cast<float>(std::fabs(x) * 3 + 1e-6);
  }
  return Csr<float>(m.n_rows(), m.n_cols(), m.row_ptr(), m.col_idx(), std::move(v));
}

// Compares spgemm_rows with spgemm at 1, 2 and 3 threads; returns the
// strip rows of the last run, and its number of strips in *strips.
std::int64_t check(const Csr<float>& a, const Csr<float>& b, const std::string& what,
                   int* strips = nullptr) {
  const Csr<double> want = cpu::spgemm<PlusTimes<double>>(a.view(), b.view(), 1);
  std::int64_t strip_rows = -1;
  for (const int threads : {1, 2, 3}) {
    SpgemmStats stats;
    const Csr<double> got = rows_of(a, b, threads, &stats);
    expect_identical(got, want, what + " threads=" + std::to_string(threads));
    if (strip_rows >= 0) {
      EXPECT_EQ(stats.strip_rows, strip_rows) << what;
    }
    strip_rows = stats.strip_rows;
    if (strips) *strips = stats.strips;
  }
  return strip_rows;
}

struct Case {
  std::string name;
  vertex_t m, k, n;  // A is m x k, B is k x n
  MatrixShape shape_a, shape_b;
  double per_row_a, per_row_b;
  bool strips;         // whether some row must take the strip path
  int min_strips = 0;  // at least this many strips of B (0: not checked)
};

TEST(SpgemmRowsCpu, SameRowsAsSpgemm) {
  const std::vector<Case> cases = {
      {"0x0x0", 0, 0, 0, MatrixShape::uniform, MatrixShape::uniform, 3, 3, false},
      {"5x0x7", 5, 0, 7, MatrixShape::uniform, MatrixShape::uniform, 3, 3, false},
      {"sparse_3001", 3001, 3001, 3001, MatrixShape::uniform, MatrixShape::uniform, 6, 6, false},
      // One strip (B narrower than strip_cols).
      {"dense_3000", 3000, 3000, 3000, MatrixShape::uniform, MatrixShape::uniform, 60, 60, true},
      // B of about 15 MB, more than SpgemmTuning::strip_bytes: cut into
      // strips by its bytes, not into the one strip its columns would need,
      // and the long rows swept through them in batches of about a hundred.
      {"wide_b_1500x3000x3000", 1500, 3000, 3000, MatrixShape::uniform, MatrixShape::uniform, 40,
       1000, true, 2},
      // B's rows of 100 entries: one strip of all 5000 columns (runs of 256
      // or more per strip), about half the rows long enough for it.
      {"dense_5000", 5000, 5000, 5000, MatrixShape::uniform, MatrixShape::uniform, 100, 100, true},
      // Rows of 600: two strips of 2500 columns.
      {"dense_1000x5000x5000", 1000, 5000, 5000, MatrixShape::uniform, MatrixShape::uniform, 100,
       600, true, 2},
      // Rows of ~900: three strips, the last narrower (3001, 3001, 2999
      // columns).
      {"dense_1200x9001x9001", 1200, 9001, 9001, MatrixShape::uniform, MatrixShape::uniform, 150,
       900, true, 3},
      {"empty_rows_4000x6000x9000", 4000, 6000, 9000, MatrixShape::empty_rows, MatrixShape::uniform,
       100, 100, true},
      // One huge row beside short ones: a single row never pays for the
      // copy of B, so it stays on the bitmap path.
      {"heavy_row_3000x3000x12000", 3000, 3000, 12000, MatrixShape::heavy_row, MatrixShape::uniform,
       3, 100, false},
      // Power-law rows: the hundred or so longest take the strips, the rest
      // the other paths, in one call.
      {"power_law_6000", 6000, 6000, 6000, MatrixShape::power_law, MatrixShape::uniform, 60, 90,
       true},
      {"rect_700x2000x6000", 700, 2000, 6000, MatrixShape::uniform, MatrixShape::power_law, 150,
       120, true},
  };

  std::uint64_t seed = 101;
  for (const Case& c : cases) {
    seed += 4;
    const Csr<float> a =
        positive(random_csr<float>(c.m, c.k, c.shape_a, c.per_row_a, false, seed), seed + 1);
    const Csr<float> b =
        positive(random_csr<float>(c.k, c.n, c.shape_b, c.per_row_b, false, seed + 2), seed + 3);
    int strips = 0;
    const std::int64_t strip_rows = check(a, b, c.name, &strips);
    if (::testing::Test::HasFatalFailure()) return;
    if (c.min_strips > 0) {
      EXPECT_GE(strips, c.min_strips) << c.name;
    }
    if (c.strips)
      EXPECT_GT(strip_rows, 0) << c.name;
    else
      EXPECT_EQ(strip_rows, 0) << c.name;
  }
}

// A·A on one matrix (B aliases A), as MCL's expansion calls it.
TEST(SpgemmRowsCpu, SquareOfItself) {
  const Csr<float> a =
      positive(random_csr<float>(5000, 5000, MatrixShape::uniform, 80, false, 7), 8);
  EXPECT_GT(check(a, a, "A*A"), 0);
}

// A stored zero or a negative entry could make a sum zero where products
// exist: the strip path, which reads rows out by their non-zero sums, must
// not be taken, and the rows must still be spgemm's.
TEST(SpgemmRowsCpu, ZeroOrNegativeEntryKeepsTheBitmapPath) {
  const Csr<float> a =
      positive(random_csr<float>(3000, 3000, MatrixShape::uniform, 60, false, 21), 22);
  for (const float bad : {0.0f, -0.5f}) {
    std::vector<float> v = a.values();
    v[v.size() / 2] = bad;
    const Csr<float> b(a.n_rows(), a.n_cols(), a.row_ptr(), a.col_idx(), std::move(v));
    EXPECT_EQ(check(a, b, "B with " + std::to_string(bad)), 0);
    EXPECT_EQ(check(b, a, "A with " + std::to_string(bad)), 0);
  }
}

}  // namespace
}  // namespace graphrun
