// The CPU SpGEMM against the serial Gustavson reference: the same structure
// exactly, the same values within 1e-12 relative (double; float within a few
// of its own epsilons), on random matrices of the shapes that break SpGEMM
// kernels (empty, empty rows and columns, rectangular, one row with a huge
// intermediate-product count, power-law, B != A, pattern inputs), for
// PlusTimes and MinPlus, at 1, 2 and 3 threads, bit-identical across thread
// counts and runs; then A·A on some of the shared real graphs.
#include "graphrun/kernels/spgemm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/kernels/cpu/spgemm_reference.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

using test::MatrixShape;
using test::random_csr;

template <class V>
constexpr double tolerance() {
  return std::is_same_v<V, double> ? 1e-12 : 1e-5;
}

// Same shape, row pointers and columns exactly; values within `tol` relative
// (to the largest of |x|, |y| and 1e-300, so exact zeros compare exactly).
template <class V>
void expect_same(const Csr<V>& got, const Csr<V>& want, const std::string& what) {
  ASSERT_EQ(got.n_rows(), want.n_rows()) << what;
  ASSERT_EQ(got.n_cols(), want.n_cols()) << what;
  ASSERT_EQ(got.row_ptr(), want.row_ptr()) << what;
  ASSERT_EQ(got.col_idx(), want.col_idx()) << what;
  ASSERT_EQ(got.values().size(), want.values().size()) << what;
  for (std::size_t k = 0; k < got.values().size(); ++k) {
    const double x = got.values()[k], y = want.values()[k];
    if (x == y) continue;  // also equal infinities (MinPlus)
    const double scale = std::max({std::fabs(x), std::fabs(y), 1e-300});
    ASSERT_LE(std::fabs(x - y) / scale, tolerance<V>())
        << what << ": entry " << k << " is " << x << ", expected " << y;
  }
}

// Bit for bit: the result must not depend on the thread count or the run.
template <class V>
void expect_identical(const Csr<V>& x, const Csr<V>& y, const std::string& what) {
  ASSERT_EQ(x.row_ptr(), y.row_ptr()) << what;
  ASSERT_EQ(x.col_idx(), y.col_idx()) << what;
  ASSERT_EQ(x.values().size(), y.values().size()) << what;
  if (x.values().empty()) return;  // memcmp must not see the null data() of empty vectors
  ASSERT_EQ(0, std::memcmp(x.values().data(), y.values().data(), x.values().size() * sizeof(V)))
      << what;
}

// Runs ours at 1, 2 and 3 threads (twice at 2) and compares with the reference.
template <class S, class T>
void check_product(const Csr<T>& a, const Csr<T>& b, const std::string& what) {
  using V = typename S::value_type;
  const Csr<V> want = cpu::spgemm_reference<S>(a.view(), b.view());
  Csr<V> first;
  for (const int threads : {1, 2, 3, 2}) {
    Context ctx(Device::cpu, threads);
    SpgemmStats stats;
    const Csr<V> got = spgemm<S>(ctx, a.view(), b.view(), &stats);
    const std::string label = what + " threads=" + std::to_string(threads);
    expect_same(got, want, label);
    EXPECT_EQ(stats.nnz_c, want.nnz()) << label;
    std::int64_t rows = 0;
    for (const auto r : stats.rows_per_group) rows += r;
    EXPECT_EQ(rows, a.n_rows()) << label;
    if (threads == 1)
      first = got;
    else
      expect_identical(got, first, label);
  }
}

struct Case {
  std::string name;
  vertex_t m, k, n;  // A is m x k, B is k x n
  MatrixShape shape_a, shape_b;
  double per_row_a, per_row_b;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"0x0x0", 0, 0, 0, MatrixShape::uniform, MatrixShape::uniform, 3, 3},
      {"5x0x7", 5, 0, 7, MatrixShape::uniform, MatrixShape::uniform, 3, 3},
      {"0x6x4", 0, 6, 4, MatrixShape::uniform, MatrixShape::uniform, 3, 3},
      {"4x6x0", 4, 6, 0, MatrixShape::uniform, MatrixShape::uniform, 3, 3},
      {"1x1x1", 1, 1, 1, MatrixShape::uniform, MatrixShape::uniform, 2, 2},
      {"uniform_97x61x43", 97, 61, 43, MatrixShape::uniform, MatrixShape::uniform, 4, 5},
      {"uniform_3001", 3001, 3001, 3001, MatrixShape::uniform, MatrixShape::uniform, 6, 6},
      {"uniform_20011", 20011, 20011, 20011, MatrixShape::uniform, MatrixShape::uniform, 8, 8},
      {"power_law_20011", 20011, 20011, 20011, MatrixShape::power_law, MatrixShape::power_law, 10,
       10},
      {"empty_rows_4001", 4001, 4001, 4001, MatrixShape::empty_rows, MatrixShape::empty_rows, 5, 5},
      {"empty_rows_30011x9000x40000", 30011, 9000, 40000, MatrixShape::empty_rows,
       MatrixShape::uniform, 3, 6},
      {"heavy_row_3001", 3001, 3001, 3001, MatrixShape::heavy_row, MatrixShape::uniform, 8, 8},
      // A row of A with most entries times a wide B: one row with a huge IP.
      {"heavy_row_20011", 20011, 20011, 20011, MatrixShape::heavy_row, MatrixShape::power_law, 3,
       6},
      {"banded_2047", 2047, 2047, 2047, MatrixShape::banded, MatrixShape::banded, 11, 11},
      {"banded_x_uniform_15000", 15000, 15000, 15000, MatrixShape::banded, MatrixShape::uniform, 7,
       9},
      {"rect_33x1000x50000", 33, 1000, 50000, MatrixShape::power_law, MatrixShape::uniform, 30, 40},
      // Wider than dense_always_cols (2^18): short rows go to hash tables,
      // rows past hash_max_slots to the dense bitmap.
      {"wide_3000x3000x300000", 3000, 3000, 300000, MatrixShape::uniform, MatrixShape::uniform, 6,
       10},
      {"wide_power_law_2000x5000x270000", 2000, 5000, 270000, MatrixShape::power_law,
       MatrixShape::power_law, 20, 30},
      {"wide_heavy_row_4000x4000x400000", 4000, 4000, 400000, MatrixShape::heavy_row,
       MatrixShape::uniform, 2, 8},
      // Narrow B with long rows: the symbolic phase ORs B's rows as bitmaps.
      {"narrow_dense_3000x200x150", 3000, 200, 150, MatrixShape::uniform, MatrixShape::uniform, 30,
       40},
      {"rect_40000x300x20", 40000, 300, 20, MatrixShape::uniform, MatrixShape::banded, 4, 5},
  };
  return all;
}

template <class S, class T>
void check_all_cases(bool pattern) {
  std::uint64_t seed = 11;
  for (const Case& c : cases()) {
    const Csr<T> a = random_csr<T>(c.m, c.k, c.shape_a, c.per_row_a, pattern, ++seed);
    const Csr<T> b = random_csr<T>(c.k, c.n, c.shape_b, c.per_row_b, pattern, ++seed);
    check_product<S>(a, b, c.name + (pattern ? " pattern" : ""));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(SpgemmCpu, PlusTimesDouble) { check_all_cases<PlusTimes<double>, double>(false); }
TEST(SpgemmCpu, PlusTimesDoublePattern) { check_all_cases<PlusTimes<double>, double>(true); }
TEST(SpgemmCpu, PlusTimesFloat) { check_all_cases<PlusTimes<float>, float>(false); }
TEST(SpgemmCpu, PlusTimesDoubleOnFloatEntries) { check_all_cases<PlusTimes<double>, float>(false); }
TEST(SpgemmCpu, MinPlusDouble) { check_all_cases<MinPlus<double>, double>(false); }
TEST(SpgemmCpu, MinPlusFloat) { check_all_cases<MinPlus<float>, float>(false); }

// A·A where B is A itself (aliasing inputs), and A·Aᵀ.
TEST(SpgemmCpu, SquareAndTranspose) {
  const Csr<double> a = random_csr<double>(5000, 12000, MatrixShape::power_law, 7, false, 5);
  check_product<PlusTimes<double>>(a, a.transpose(), "A*At");
  const Csr<double> s = random_csr<double>(9000, 9000, MatrixShape::power_law, 9, false, 6);
  check_product<PlusTimes<double>>(s, s, "A*A");
}

// A hand-computed product, so the reference itself is checked too.
TEST(SpgemmCpu, SmallKnownProduct) {
  // A = [1 2 0; 0 0 3], B = [4 0; 0 5; 6 7]  ->  C = [4 10; 18 21]
  const Csr<double> a(2, 3, {0, 2, 3}, {0, 1, 2}, {1, 2, 3});
  const Csr<double> b(3, 2, {0, 1, 2, 4}, {0, 1, 0, 1}, {4, 5, 6, 7});
  Context ctx(Device::cpu, 2);
  for (const Csr<double>& c : {spgemm<PlusTimes<double>>(ctx, a.view(), b.view()),
                               cpu::spgemm_reference<PlusTimes<double>>(a.view(), b.view())}) {
    EXPECT_EQ(c.row_ptr(), (std::vector<offset_t>{0, 2, 4}));
    EXPECT_EQ(c.col_idx(), (std::vector<vertex_t>{0, 1, 0, 1}));
    EXPECT_EQ(c.values(), (std::vector<double>{4, 10, 18, 21}));
  }
  // MinPlus: C(i,j) = min_k A(i,k) + B(k,j)  ->  [5 7; 9 10]
  const Csr<double> m = spgemm<MinPlus<double>>(ctx, a.view(), b.view());
  EXPECT_EQ(m.values(), (std::vector<double>{5, 7, 9, 10}));
}

// Products that cancel to zero keep their entry (structure of the product).
TEST(SpgemmCpu, CancellationKeepsStructure) {
  // A = [1 -1], B = [1; 1]: C = [0], stored.
  const Csr<double> a(1, 2, {0, 2}, {0, 1}, {1, -1});
  const Csr<double> b(2, 1, {0, 1, 2}, {0, 0}, {1, 1});
  Context ctx(Device::cpu, 1);
  const Csr<double> c = spgemm<PlusTimes<double>>(ctx, a.view(), b.view());
  ASSERT_EQ(c.nnz(), 1);
  EXPECT_EQ(c.values()[0], 0.0);
}

TEST(SpgemmCpu, StatsCountProducts) {
  const Csr<double> a = random_csr<double>(2000, 2000, MatrixShape::uniform, 5, false, 9);
  std::int64_t ip = 0;
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    for (const vertex_t k : a.row_cols(i)) ip += a.row_length(k);
  Context ctx(Device::cpu, 2);
  SpgemmStats stats;
  const Csr<double> c = spgemm<PlusTimes<double>>(ctx, a.view(), a.view(), &stats);
  EXPECT_EQ(stats.intermediate_products, ip);
  EXPECT_EQ(stats.nnz_c, c.nnz());
  EXPECT_GT(stats.tasks, 0);
  EXPECT_GE(stats.total_ms, 0.0);
}

// The row kinds the wide cases above rely on are really taken: a product
// wider than dense_always_cols has hash rows, and its heavy row goes dense.
TEST(SpgemmCpu, WideProductUsesHashAndDenseRows) {
  const Csr<double> a = random_csr<double>(4000, 4000, MatrixShape::heavy_row, 2, false, 3);
  const Csr<double> b = random_csr<double>(4000, 400000, MatrixShape::uniform, 8, false, 4);
  Context ctx(Device::cpu, 2);
  SpgemmStats stats;
  spgemm<PlusTimes<double>>(ctx, a.view(), b.view(), &stats);
  EXPECT_GT(stats.rows_per_group[static_cast<int>(cpu::SpgemmRowKind::hash)], 0);
  EXPECT_GT(stats.rows_per_group[static_cast<int>(cpu::SpgemmRowKind::dense)], 0);
  EXPECT_GT(stats.rows_per_group[static_cast<int>(cpu::SpgemmRowKind::copy)], 0);
}

TEST(SpgemmCpu, ShapeMismatchIsAnError) {
  const Csr<double> a = random_csr<double>(4, 5, MatrixShape::uniform, 2, false, 1);
  const Csr<double> b = random_csr<double>(6, 3, MatrixShape::uniform, 2, false, 2);
  Context ctx(Device::cpu, 1);
  try {
    spgemm<PlusTimes<double>>(ctx, a.view(), b.view());
    FAIL() << "expected ArgumentError";
  } catch (const ArgumentError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("4x5"), std::string::npos) << msg;
    EXPECT_NE(msg.find("6x3"), std::string::npos) << msg;
  }
  EXPECT_THROW(cpu::spgemm_reference<PlusTimes<double>>(a.view(), b.view()), ArgumentError);
}

#if !defined(GRAPHRUN_HAVE_CUDA)
TEST(SpgemmCpu, CudaWithoutBackendIsAnError) {
  const Csr<double> a = random_csr<double>(4, 4, MatrixShape::uniform, 2, false, 1);
  Context ctx(Device::cuda, 1);
  EXPECT_THROW(spgemm<PlusTimes<double>>(ctx, a.view(), a.view()), DeviceError);
}
#endif

// A·A on real graphs (adjacency as loaded, weights or ones): the graphs
// shipped in datasets/ always, and these of the shared collection where it
// is present.
TEST(SpgemmCpu, RealGraphs) {
  const std::filesystem::path root(GRAPHRUN_DATASETS);
  std::vector<std::filesystem::path> paths = test::shipped_graph_files();
  ASSERT_FALSE(paths.empty()) << "datasets/ ships small graphs";
  for (const char* f :
       {"karate/karate.txt.gz", "bcsstk13/bcsstk13.mtx.gz", "west0067/west0067.mtx.gz",
        "cryg2500/cryg2500.mtx.gz", "ca-GrQc/ca-GrQc.txt.gz",
        "p2p-Gnutella04/p2p-Gnutella04.txt.gz", "facebook_combined/facebook_combined.txt.gz",
        "ca-HepTh/ca-HepTh.txt.gz", "mcl-proteins/mcl-proteins.mtx.gz", "jazz/jazz.mtx.gz"})
    if (std::filesystem::exists(root / f)) paths.push_back(root / f);
  for (const auto& path : paths) {
    const Graph g = io::load_graph(path.string());
    const Csr<double>& a = g.adj();
    check_product<PlusTimes<double>>(a, a, path.string());
    if (HasFatalFailure()) return;
  }
  RecordProperty("graphs_checked", static_cast<int>(paths.size()));
}

}  // namespace
}  // namespace graphrun
