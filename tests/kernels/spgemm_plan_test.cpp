// The memory estimate against the dispatches' own plans: every byte figure of
// estimate_spgemm is what the plan the dispatch allocates by gives for the
// same row statistics.
//
// GPU: the dispatch sizes its buffers by plan/spgemm_gpu_plan.hpp from the
// row totals its grouping kernels count (symbolic from IP, numeric from
// nnz(C(i,:))). Here the same totals are counted on the host, numeric ones
// from the real C (what the dispatch would allocate) and at the bound on
// nnz(C) (what the estimate assumes): the estimate equals the plan at the
// bound, field by field, and is never below the plan at the real C, which
// it equals where the bound is exact. Runs without a GPU.
//
// CPU: the estimate equals the sizes of the plan the CPU dispatch builds
// (cpu/spgemm_plan.hpp), and those sizes are what the per-thread tables
// really hold once allocated.
#include "cpu/spgemm_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu/spgemm_row_common.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"
#include "graphrun/kernels/spgemm_estimate.hpp"
#include "plan/spgemm_gpu_plan.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

namespace gpu = cuda::spgemm_detail;
using test::MatrixShape;
using test::random_csr;

constexpr std::size_t kValue = sizeof(double);
// Columns past the GPU's 64 windowed bitmaps of 2^18 columns: rows past the
// shared-memory bins keep hash tables in global memory.
constexpr vertex_t kPastWindows = (vertex_t{1} << 24) + (vertex_t{1} << 18) + 1;

std::vector<std::int64_t> row_products(const Csr<double>& a, const Csr<double>& b) {
  std::vector<std::int64_t> ip(static_cast<std::size_t>(a.n_rows()), 0);
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    for (const vertex_t k : a.row_cols(i)) ip[i] += b.row_ptr()[k + 1] - b.row_ptr()[k];
  return ip;
}

// The GPU plan's buffers for rows of `row_nnz` entries in C, as the dispatch
// sizes them (with the scratch bounds the estimate takes for CUB's).
struct GpuPlan {
  gpu::RowTotals totals;
  gpu::Buffers buffers;
  std::int64_t symbolic_global_rows = 0;
};

GpuPlan gpu_plan(const Csr<double>& a, const Csr<double>& b,
                 const std::vector<std::int64_t>& row_nnz) {
  const vertex_t m = a.n_rows(), n = b.n_cols();
  const gpu::Tuning tuning = gpu::tuning_for(cuda::SpgemmOptions{}, n);
  const std::vector<std::int64_t> ip = row_products(a, b);
  GpuPlan p;
  for (vertex_t i = 0; i < m; ++i) {
    const gpu::RowGroup sym = gpu::symbolic_row_group(ip[i], n, tuning);
    if (sym.group == gpu::kGlobalGroup) {
      ++p.symbolic_global_rows;
      p.totals.symbolic_global_slots += static_cast<std::int64_t>(sym.global_slots);
    }
    const gpu::RowGroup num = gpu::numeric_row_group(row_nnz[i], ip[i], n, tuning);
    if (num.group == gpu::kGlobalGroup) {
      ++p.totals.numeric_global_rows;
      p.totals.numeric_global_slots += static_cast<std::int64_t>(num.global_slots);
      p.totals.numeric_global_nnz += static_cast<std::int64_t>(num.global_nnz);
    }
    p.totals.nnz_c += row_nnz[i];
  }
  const auto rows = static_cast<std::size_t>(p.totals.numeric_global_rows);
  p.buffers = gpu::plan_buffers(m, kValue, p.totals,
                                gpu::cub_scan_bytes_bound(static_cast<std::size_t>(m) + 1),
                                rows ? gpu::cub_segmented_sort_bytes_bound(rows) : 0);
  return p;
}

void expect_gpu_estimate_is_the_plan(const Csr<double>& a, const Csr<double>& b,
                                     const std::string& what) {
  SCOPED_TRACE(what);
  const SpgemmEstimate e =
      estimate_spgemm<PlusTimes<double>>(a.view(), b.view(), {.device = Device::cuda});
  const SpgemmMemoryEstimate& mem = e.memory;
  const Csr<double> c = cpu::spgemm<PlusTimes<double>>(a.view(), b.view(), 2);
  std::vector<std::int64_t> real(static_cast<std::size_t>(c.n_rows())), bound(real.size());
  const std::vector<std::int64_t> ip = row_products(a, b);
  for (vertex_t i = 0; i < c.n_rows(); ++i) {
    real[i] = c.row_ptr()[i + 1] - c.row_ptr()[i];
    bound[i] = std::min<std::int64_t>(ip[i], b.n_cols());
  }
  const GpuPlan at_bound = gpu_plan(a, b, bound), at_real = gpu_plan(a, b, real);
  const gpu::Buffers& pb = at_bound.buffers;

  // The estimate is the plan at the bound, buffer by buffer.
  EXPECT_EQ(mem.analysis, pb.fixed);
  EXPECT_EQ(mem.symbolic, pb.symbolic);
  EXPECT_EQ(mem.numeric, pb.numeric);
  EXPECT_EQ(mem.output, pb.c_row_ptr + pb.c_entries);
  EXPECT_EQ(mem.peak, mem.inputs + pb.c_row_ptr + pb.fixed +
                          std::max(pb.symbolic, pb.c_entries + pb.numeric));
  EXPECT_EQ(e.gpu_symbolic_global_rows, at_bound.symbolic_global_rows);
  EXPECT_EQ(e.gpu_numeric_global_rows, at_bound.totals.numeric_global_rows);

  // What the dispatch sizes for the real C: the symbolic side depends on IP
  // alone and is the same; the numeric side is at most the estimate's, and
  // equal where nnz(C) reaches its bound.
  const gpu::Buffers& pr = at_real.buffers;
  EXPECT_EQ(pr.fixed, pb.fixed);
  EXPECT_EQ(pr.symbolic, pb.symbolic);
  EXPECT_LE(pr.c_entries, pb.c_entries);
  EXPECT_LE(pr.numeric, pb.numeric);
  if (c.nnz() == e.nnz_c_bound) {
    EXPECT_EQ(pr.c_entries, pb.c_entries);
    EXPECT_EQ(pr.numeric, pb.numeric);
  }
}

TEST(SpgemmPlan, GpuEstimateIsThePlan) {
  for (MatrixShape shape : {MatrixShape::uniform, MatrixShape::empty_rows, MatrixShape::heavy_row,
                            MatrixShape::power_law, MatrixShape::banded}) {
    for (std::uint64_t seed : {1u, 2u}) {
      const auto a = random_csr<double>(400, 400, shape, 8, false, seed);
      expect_gpu_estimate_is_the_plan(a, a, test::to_string(shape));
      // B wider than one bitmap (2^19 columns): rows past the shared bins
      // take windowed bitmaps; past 64 windows, global tables.
      const auto wide = random_csr<double>(400, 600000, MatrixShape::uniform, 30, false, seed + 7);
      expect_gpu_estimate_is_the_plan(a, wide, "wide B, " + test::to_string(shape));
      const auto widest =
          random_csr<double>(400, kPastWindows, MatrixShape::uniform, 30, false, seed + 9);
      expect_gpu_estimate_is_the_plan(a, widest, "B past the windows, " + test::to_string(shape));
    }
  }
}

// B diagonal: nnz(C) is the bound, so the estimate is exactly what the
// dispatch would take, global tables included.
TEST(SpgemmPlan, GpuEstimateIsExactWhereTheBoundIs) {
  const vertex_t n = 600000;
  // A row of 20000 entries (past the shared-memory bins in both phases)
  // above random rows.
  const auto rest = random_csr<double>(300, n, MatrixShape::heavy_row, 40, false, 3);
  Coo<double> coo;
  coo.n_rows = 301;
  coo.n_cols = n;
  for (vertex_t k = 0; k < 20000; ++k) {
    coo.row.push_back(0);
    coo.col.push_back(k * 29);
    coo.val.push_back(1.0);
  }
  for (vertex_t i = 0; i < rest.n_rows(); ++i)
    for (const vertex_t k : rest.row_cols(i)) {
      coo.row.push_back(i + 1);
      coo.col.push_back(k);
      coo.val.push_back(1.0);
    }
  const Csr<double> a = Csr<double>::from_coo(coo);
  Coo<double> d;  // a diagonal, as wide as to keep global tables
  d.n_rows = n;
  d.n_cols = kPastWindows;
  for (vertex_t i = 0; i < n; ++i) {
    d.row.push_back(i);
    d.col.push_back(i);
    d.val.push_back(1.0);
  }
  const Csr<double> diag = Csr<double>::from_coo(d);
  expect_gpu_estimate_is_the_plan(a, diag, "diagonal B");
  const SpgemmEstimate e =
      estimate_spgemm<PlusTimes<double>>(a.view(), diag.view(), {.device = Device::cuda});
  EXPECT_GE(e.gpu_symbolic_global_rows, 1);
  EXPECT_GE(e.gpu_numeric_global_rows, 1);
}

// A chunk's five arrays, each 256-aligned, fit the padding the plan adds.
TEST(SpgemmPlan, ChunkLayoutFitsItsPadding) {
  for (std::int64_t staged : {0, 1, 7, 255, 1000, 123457})
    for (std::int64_t slots : {0, 1, 64, 4096, 262144})
      for (std::size_t value : {sizeof(float), sizeof(double)}) {
        const gpu::ChunkLayout l = gpu::chunk_layout(staged, slots, value);
        EXPECT_LE(l.bytes, gpu::numeric_tables_bytes(staged, slots, value) + gpu::kChunkPad);
        EXPECT_EQ(l.stage_col[0] % gpu::kArrayAlign, 0u);
        EXPECT_EQ(l.table_vals % gpu::kArrayAlign, 0u);
      }
}

void expect_cpu_estimate_is_the_plan(const Csr<double>& a, const Csr<double>& b, int threads,
                                     const std::string& what) {
  SCOPED_TRACE(what + ", " + std::to_string(threads) + " threads");
  namespace plan = cpu::spgemm_detail;
  const SpgemmEstimate e = estimate_spgemm<PlusTimes<double>>(
      a.view(), b.view(), {.device = Device::cpu, .threads = threads});
  // The plan the dispatch builds, B's row bitmaps included.
  const plan::Plan p = plan::analyse(spgemm_operand(a.view()), spgemm_operand(b.view()), threads);
  EXPECT_EQ(e.memory.analysis, plan::plan_bytes(p, p.b_row_bits.size()));
  EXPECT_EQ(e.cpu_tasks, static_cast<std::int64_t>(p.tasks.size()));
  for (int k = 0; k < 4; ++k) EXPECT_EQ(e.cpu_rows_per_kind[k], p.rows_per_kind[k]);
  const plan::WorkspaceShape shape = plan::workspace_shape(p, b.n_cols());
  const auto t = static_cast<std::size_t>(threads);
  EXPECT_EQ(e.memory.symbolic, t * shape.symbolic_bytes());
  EXPECT_EQ(e.memory.numeric, t * shape.numeric_bytes(kValue));
  // And the tables as allocated hold those bytes.
  std::size_t symbolic = 0, numeric = 0;
  for (const plan::Workspace<double>& w : plan::make_workspaces(shape, threads, 0.0)) {
    symbolic += w.keys.size() * sizeof(vertex_t) + w.bits.size() * sizeof(std::uint64_t);
    numeric += (w.vals.size() + w.acc.size()) * sizeof(double);
  }
  EXPECT_EQ(e.memory.symbolic, symbolic);
  EXPECT_EQ(e.memory.numeric, numeric);
}

TEST(SpgemmPlan, CpuEstimateIsThePlan) {
  for (MatrixShape shape : {MatrixShape::uniform, MatrixShape::heavy_row, MatrixShape::power_law,
                            MatrixShape::banded}) {
    const auto a = random_csr<double>(500, 500, shape, 9, false, 5);
    for (int threads : {1, 3}) {
      expect_cpu_estimate_is_the_plan(a, a, threads, test::to_string(shape));
      // Wider than the CPU's dense threshold: hash rows and their tables.
      const auto wide = random_csr<double>(500, 300000, MatrixShape::uniform, 20, false, 6);
      expect_cpu_estimate_is_the_plan(a, wide, threads, "wide B, " + test::to_string(shape));
    }
  }
}

}  // namespace
}  // namespace graphrun
