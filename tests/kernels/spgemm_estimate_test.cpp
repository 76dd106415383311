// estimate_spgemm against what the products really are: the intermediate
// products (total and largest row) equal the CPU SpGEMM's statistics and a
// plain count, the bound on nnz(C) is never below the real nnz(C) and equal
// to it where it must be (B diagonal, A with one entry per row, rows wider
// than B), the CPU's row kinds and tasks match the kernel's, and the byte
// counts add up: on random matrices of the shapes that break SpGEMM (empty
// rows, one huge row, power-law, banded, rectangular, pattern).
#include "graphrun/kernels/spgemm_estimate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::MatrixShape;
using test::random_csr;

// Σ_i Σ_{k ∈ A(i,:)} nnz(B(k,:)), the definition written out.
std::int64_t reference_ip(const Csr<double>& a, const Csr<double>& b) {
  std::int64_t ip = 0;
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    for (const vertex_t k : a.row_cols(i)) ip += b.row_ptr()[k + 1] - b.row_ptr()[k];
  return ip;
}

// The estimate and the real product on the CPU, compared; returns the estimate.
SpgemmEstimate expect_matches_product(const Csr<double>& a, const Csr<double>& b, int threads,
                                      const std::string& what) {
  SCOPED_TRACE(what + ", " + std::to_string(threads) + " threads");
  const SpgemmEstimate e = estimate_spgemm<PlusTimes<double>>(
      a.view(), b.view(), {.device = Device::cpu, .threads = threads});
  SpgemmStats stats;
  const Csr<double> c = cpu::spgemm<PlusTimes<double>>(a.view(), b.view(), threads, &stats);
  EXPECT_EQ(e.intermediate_products, stats.intermediate_products);
  EXPECT_EQ(e.intermediate_products, reference_ip(a, b));
  EXPECT_EQ(e.max_row_products, stats.max_row_products);
  EXPECT_GE(e.nnz_c_bound, c.nnz());
  EXPECT_LE(e.nnz_c_bound, e.intermediate_products);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(e.cpu_rows_per_kind[k], stats.rows_per_group[k]) << k;
  EXPECT_EQ(e.cpu_tasks, stats.tasks);
  std::int64_t product_rows = 0;
  for (vertex_t i = 0; i < c.n_rows(); ++i) {
    std::int64_t row_ip = 0;
    for (const vertex_t k : a.row_cols(i)) row_ip += b.row_ptr()[k + 1] - b.row_ptr()[k];
    product_rows += row_ip > 0;
    // Row by row too: nnz(C(i,:)) <= min(IP(i), n_cols).
    EXPECT_LE(c.row_ptr()[i + 1] - c.row_ptr()[i], std::min<std::int64_t>(row_ip, b.n_cols()));
  }
  EXPECT_EQ(e.product_rows, product_rows);

  // C at the bound is at least C as computed; the peak holds everything.
  const SpgemmMemoryEstimate& m = e.memory;
  EXPECT_GE(m.output, c.bytes());
  EXPECT_EQ(m.peak, m.inputs + m.analysis + m.symbolic + m.numeric + m.output);
  EXPECT_EQ(m.least, m.peak);
  return e;
}

struct Case {
  MatrixShape shape;
  vertex_t rows, inner, cols;
  double per_row;
  bool pattern;
};

class SpgemmEstimateShapes : public ::testing::TestWithParam<Case> {};

TEST_P(SpgemmEstimateShapes, IpExactAndBoundHolds) {
  const Case& p = GetParam();
  const std::string what = test::to_string(p.shape) + " " + std::to_string(p.rows) + "x" +
                           std::to_string(p.inner) + " * " + std::to_string(p.inner) + "x" +
                           std::to_string(p.cols) + (p.pattern ? " pattern" : "");
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const auto a = random_csr<double>(p.rows, p.inner, p.shape, p.per_row, p.pattern, seed);
    const auto b = random_csr<double>(p.inner, p.cols, p.shape, p.per_row, p.pattern, seed + 100);
    for (int threads : {1, 3}) {
      const SpgemmEstimate e = expect_matches_product(a, b, threads, what);
      // Past the CPU's dense threshold the hash tables are reached, and sized.
      if (p.cols > cpu::SpgemmTuning::dense_always_cols) {
        EXPECT_GT(e.cpu_rows_per_kind[static_cast<int>(cpu::SpgemmRowKind::hash)], 0) << what;
        EXPECT_GT(e.memory.symbolic, 0u) << what;
      }
    }
    expect_matches_product(a, a.transpose(), 2, what + ", A*Aᵀ");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SpgemmEstimateShapes,
    ::testing::Values(Case{MatrixShape::uniform, 300, 300, 300, 6, false},
                      Case{MatrixShape::empty_rows, 400, 250, 500, 5, false},
                      Case{MatrixShape::heavy_row, 300, 300, 300, 4, false},
                      Case{MatrixShape::power_law, 500, 500, 500, 8, true},
                      Case{MatrixShape::banded, 400, 400, 400, 9, false},
                      Case{MatrixShape::uniform, 50, 2000, 7, 30, false},
                      // Wider than the CPU's dense threshold (2^18 columns):
                      // rows go to hash tables, sized by the estimate too.
                      Case{MatrixShape::power_law, 300, 300, 300000, 12, false},
                      Case{MatrixShape::heavy_row, 200, 200, 400000, 20, true}),
    [](const ::testing::TestParamInfo<Case>& param_info) {
      return test::to_string(param_info.param.shape) + "_" + std::to_string(param_info.index);
    });

// B diagonal: every product of a row lands in its own column, so nnz(C) is
// exactly Σ IP and the bound is reached.
TEST(SpgemmEstimate, BoundIsExactForDiagonalB) {
  for (MatrixShape shape : {MatrixShape::uniform, MatrixShape::heavy_row, MatrixShape::power_law,
                            MatrixShape::empty_rows}) {
    const auto a = random_csr<double>(300, 300, shape, 7, false, 11);
    Coo<double> d;
    d.n_rows = d.n_cols = 300;
    for (vertex_t i = 0; i < 300; ++i) {
      d.row.push_back(i);
      d.col.push_back(i);
      d.val.push_back(2.0);
    }
    const Csr<double> diag = Csr<double>::from_coo(d);
    const SpgemmEstimate e = estimate_spgemm<PlusTimes<double>>(a.view(), diag.view());
    const Csr<double> c = cpu::spgemm<PlusTimes<double>>(a.view(), diag.view(), 2);
    EXPECT_EQ(e.nnz_c_bound, c.nnz()) << test::to_string(shape);
    EXPECT_EQ(e.intermediate_products, a.nnz()) << test::to_string(shape);
    expect_matches_product(a, diag, 2, "diagonal B, " + test::to_string(shape));
  }
}

// A with one entry per row: C(i,:) is a copy of a row of B, nnz(C) = Σ IP.
TEST(SpgemmEstimate, BoundIsExactForOneEntryPerRowOfA) {
  const auto b = random_csr<double>(200, 500, MatrixShape::power_law, 9, false, 5);
  Coo<double> s;
  s.n_rows = 150;
  s.n_cols = 200;
  test::Rng rng(9);
  for (vertex_t i = 0; i < 150; ++i) {
    s.row.push_back(i);
    s.col.push_back(static_cast<vertex_t>(rng.below(200)));
    s.val.push_back(1.0);
  }
  const Csr<double> a = Csr<double>::from_coo(s);
  const SpgemmEstimate e = estimate_spgemm<PlusTimes<double>>(a.view(), b.view());
  const Csr<double> c = cpu::spgemm<PlusTimes<double>>(a.view(), b.view(), 1);
  EXPECT_EQ(e.nnz_c_bound, c.nnz());
  EXPECT_EQ(e.intermediate_products, c.nnz());
}

// Rows with more products than B has columns: the bound is capped at
// n_cols(B) per row, and a dense product reaches it.
TEST(SpgemmEstimate, BoundIsCappedByTheColumnsOfB) {
  const vertex_t k = 50;
  Coo<double> ones_a, ones_b;
  ones_a.n_rows = 3;
  ones_a.n_cols = k;
  ones_b.n_rows = k;
  ones_b.n_cols = 4;
  for (vertex_t i = 0; i < 3; ++i)
    for (vertex_t j = 0; j < k; ++j) {
      ones_a.row.push_back(i);
      ones_a.col.push_back(j);
      ones_a.val.push_back(1.0);
    }
  for (vertex_t i = 0; i < k; ++i)
    for (vertex_t j = 0; j < 4; ++j) {
      ones_b.row.push_back(i);
      ones_b.col.push_back(j);
      ones_b.val.push_back(1.0);
    }
  const Csr<double> a = Csr<double>::from_coo(ones_a), b = Csr<double>::from_coo(ones_b);
  const SpgemmEstimate e = estimate_spgemm<PlusTimes<double>>(a.view(), b.view());
  EXPECT_EQ(e.intermediate_products, 3 * k * 4);
  EXPECT_EQ(e.max_row_products, k * 4);
  EXPECT_EQ(e.nnz_c_bound, 3 * 4);
  EXPECT_EQ(e.nnz_c_bound, cpu::spgemm<PlusTimes<double>>(a.view(), b.view(), 1).nnz());
}

TEST(SpgemmEstimate, EmptyProducts) {
  const Csr<double> none(0, 5, std::vector<offset_t>{0}, {}, {});
  const auto b = random_csr<double>(5, 8, MatrixShape::uniform, 3, false, 1);
  for (Device device : {Device::cpu, Device::cuda}) {
    const SpgemmEstimate e =
        estimate_spgemm<PlusTimes<double>>(none.view(), b.view(), {.device = device});
    EXPECT_EQ(e.intermediate_products, 0);
    EXPECT_EQ(e.nnz_c_bound, 0);
    EXPECT_EQ(e.memory.output, sizeof(offset_t));  // C's one row pointer
  }
  // A with rows but no entries: every row of C is empty.
  const Csr<double> empty_rows(4, 5, std::vector<offset_t>(5, 0), {}, {});
  const SpgemmEstimate e = estimate_spgemm<PlusTimes<double>>(empty_rows.view(), b.view());
  EXPECT_EQ(e.product_rows, 0);
  EXPECT_EQ(e.cpu_rows_per_kind[0], 4);
  expect_matches_product(empty_rows, b, 2, "A without entries");
}

TEST(SpgemmEstimate, ShapeMismatchIsAnArgumentError) {
  const auto a = random_csr<double>(4, 5, MatrixShape::uniform, 2, false, 1);
  EXPECT_THROW(estimate_spgemm<PlusTimes<double>>(a.view(), a.view()), ArgumentError);
}

// The inputs: the CPU reads B = A once; the GPU uploads both. A pattern
// matrix has no values to count.
TEST(SpgemmEstimate, InputBytes) {
  const auto a = random_csr<double>(100, 100, MatrixShape::uniform, 5, false, 3);
  const std::size_t a_bytes = a.bytes();
  const SpgemmEstimate cpu_same = estimate_spgemm<PlusTimes<double>>(a.view(), a.view());
  EXPECT_EQ(cpu_same.memory.inputs, a_bytes);
  const Csr<double> copy = a;
  const SpgemmEstimate cpu_two = estimate_spgemm<PlusTimes<double>>(a.view(), copy.view());
  EXPECT_EQ(cpu_two.memory.inputs, 2 * a_bytes);
  const SpgemmEstimate gpu =
      estimate_spgemm<PlusTimes<double>>(a.view(), a.view(), {.device = Device::cuda});
  EXPECT_EQ(gpu.memory.inputs, 2 * a_bytes);
  const auto p = random_csr<double>(100, 100, MatrixShape::uniform, 5, true, 3);
  const SpgemmEstimate pattern = estimate_spgemm<PlusTimes<double>>(p.view(), p.view());
  EXPECT_EQ(pattern.memory.inputs, 101 * sizeof(offset_t) + p.nnz() * sizeof(vertex_t));
}

// More threads, more per-thread tables; the counts do not change.
TEST(SpgemmEstimate, CpuTablesArePerThread) {
  const auto a = random_csr<double>(300, 300, MatrixShape::power_law, 8, false, 4);
  const SpgemmEstimate one =
      estimate_spgemm<PlusTimes<double>>(a.view(), a.view(), {.device = Device::cpu, .threads = 1});
  const SpgemmEstimate four =
      estimate_spgemm<PlusTimes<double>>(a.view(), a.view(), {.device = Device::cpu, .threads = 4});
  EXPECT_EQ(one.intermediate_products, four.intermediate_products);
  EXPECT_GT(one.memory.numeric, 0u);
  EXPECT_EQ(four.memory.symbolic, 4 * one.memory.symbolic);
  EXPECT_EQ(four.memory.numeric, 4 * one.memory.numeric);
}

// On the GPU, rows of a product wider than 64 windowed bitmaps (2^24 + 2^18
// columns) whose bound passes the shared-memory bins (16384 symbolic, 8192
// numeric) keep their tables in global memory: 4 bytes a slot in the
// symbolic phase (exact), keys, values and two staging copies in the
// numeric phase. Narrower, the same row takes windowed bitmaps and no
// workspace beyond the row arrays.
TEST(SpgemmEstimate, GpuGlobalTables) {
  const vertex_t inner = 20000, wide = (vertex_t{1} << 24) + (vertex_t{1} << 18) + 1;
  Coo<double> row, spread;
  row.n_rows = 1;
  row.n_cols = inner;
  for (vertex_t k = 0; k < inner; ++k) {
    row.row.push_back(0);
    row.col.push_back(k);
    row.val.push_back(1.0);
  }
  spread.n_rows = inner;
  spread.n_cols = wide;
  for (vertex_t k = 0; k < inner; ++k) {  // distinct columns: nnz(C) = IP = 20000
    spread.row.push_back(k);
    spread.col.push_back(k * 29);
    spread.val.push_back(1.0);
  }
  const Csr<double> a = Csr<double>::from_coo(row), b = Csr<double>::from_coo(spread);
  const SpgemmEstimate e =
      estimate_spgemm<PlusTimes<double>>(a.view(), b.view(), {.device = Device::cuda});
  EXPECT_EQ(e.intermediate_products, inner);
  EXPECT_EQ(e.nnz_c_bound, inner);
  EXPECT_EQ(e.gpu_symbolic_global_rows, 1);
  EXPECT_EQ(e.gpu_numeric_global_rows, 1);
  const std::size_t slots = 65536;  // the power of two at or above 2 * 20000
  const std::size_t entry = sizeof(vertex_t) + sizeof(double);
  EXPECT_EQ(e.memory.symbolic, slots * 4);
  EXPECT_GE(e.memory.numeric, (2 * inner + slots) * entry);
  EXPECT_EQ(e.memory.output, 2 * sizeof(offset_t) + inner * entry);
  EXPECT_GE(e.memory.peak, e.memory.inputs + e.memory.output + e.memory.analysis);
  EXPECT_LE(e.memory.least, e.memory.peak);

  // B of 600,000 columns: three windows of 2^18, no global tables.
  spread.n_cols = 600000;
  const Csr<double> windowed = Csr<double>::from_coo(spread);
  const SpgemmEstimate w =
      estimate_spgemm<PlusTimes<double>>(a.view(), windowed.view(), {.device = Device::cuda});
  EXPECT_EQ(w.nnz_c_bound, inner);
  EXPECT_EQ(w.gpu_symbolic_global_rows, 0);
  EXPECT_EQ(w.gpu_numeric_global_rows, 0);
  EXPECT_EQ(w.memory.symbolic, 0u);

  // A narrow B: the same row accumulates in a bitmap in shared memory, and
  // there are no global tables.
  const auto narrow = random_csr<double>(inner, 1000, MatrixShape::uniform, 2, false, 8);
  const SpgemmEstimate n =
      estimate_spgemm<PlusTimes<double>>(a.view(), narrow.view(), {.device = Device::cuda});
  EXPECT_EQ(n.gpu_symbolic_global_rows, 0);
  EXPECT_EQ(n.gpu_numeric_global_rows, 0);
  EXPECT_EQ(n.memory.symbolic, 0u);
  EXPECT_EQ(n.memory.least, n.memory.peak);
}

}  // namespace
}  // namespace graphrun
