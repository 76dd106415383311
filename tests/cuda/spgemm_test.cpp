// GPU SpGEMM against a plain Gustavson reference on the host: exact structure
// (row pointers and sorted columns), values within the rounding of the sums
// (the GPU adds in no fixed order). Random matrices of the shapes that break
// kernels, rectangular and B != A, every row group including the one with
// tables in global memory, products forced into row chunks by a small
// workspace limit, several semirings, and A·A on the shared real graphs.
// Skips where there is no CUDA backend or no GPU; cases named *Large* are
// left out of the compute-sanitizer runs.
#include "graphrun/kernels/cuda/spgemm.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/kernels/cpu/spgemm_reference.hpp"
#include "support/random_graphs.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>  // cuda/spgemm.hpp includes no CUDA header
#endif

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)
namespace fs = std::filesystem;

class CudaSpgemm : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

// The reference product (cpu::spgemm_reference, Gustavson) and Σ|products|
// per entry — |A|·|B| by the same reference, the scale of the rounding error
// an unordered sum can make.
template <class S, class T>
struct Reference {
  using V = typename S::value_type;
  Csr<V> c;
  std::vector<double> magnitude;  // per entry of c
};

template <class T>
Csr<double> absolute(const Csr<T>& a) {
  std::vector<double> v(a.values().size());
  std::transform(a.values().begin(), a.values().end(), v.begin(),
                 [](T x) { return std::fabs(static_cast<double>(x)); });
  return Csr<double>(a.n_rows(), a.n_cols(), a.row_ptr(), a.col_idx(), std::move(v));
}

template <class S, class T>
Reference<S, T> reference(const Csr<T>& a, const Csr<T>& b) {
  const Csr<double> mag =
      cpu::spgemm_reference<PlusTimes<double>>(absolute(a).view(), absolute(b).view());
  return {cpu::spgemm_reference<S>(a.view(), b.view()), mag.values()};
}

// Relative tolerance of a sum in V (exact semirings compare exactly).
template <class S>
constexpr double tolerance() {
  using V = typename S::value_type;
  if constexpr (std::is_same_v<S, PlusTimes<V>>) return std::is_same_v<V, float> ? 1e-5 : 1e-12;
  return 0.0;
}

// `slack`: an absolute error allowed besides the relative one (fixed-point
// sums round each product to a multiple of their unit).
template <class S, class V>
void expect_equal(const Csr<V>& c, const cuda::SpgemmStats& stats, const Reference<S, V>& ref,
                  const std::string& what, double slack = 0) {
  EXPECT_EQ(c.n_rows(), ref.c.n_rows()) << what;
  EXPECT_EQ(c.n_cols(), ref.c.n_cols()) << what;
  EXPECT_EQ(stats.nnz_c, ref.c.nnz()) << what;
  EXPECT_EQ(c.row_ptr(), ref.c.row_ptr()) << what << ": row pointers";
  EXPECT_EQ(c.col_idx(), ref.c.col_idx()) << what << ": columns";
  if (c.values().size() != ref.c.values().size()) {
    ADD_FAILURE() << what << ": " << c.values().size() << " values, expected "
                  << ref.c.values().size();
    return;
  }
  const double tol = tolerance<S>();
  std::int64_t bad = 0;
  for (std::size_t e = 0; e < c.values().size(); ++e) {
    const double got = c.values()[e], want = ref.c.values()[e];
    const bool ok = tol == 0 ? (got == want || (std::isnan(got) && std::isnan(want)))
                             : std::fabs(got - want) <= tol * ref.magnitude[e] + slack + 1e-300;
    if (!ok && ++bad <= 5)
      ADD_FAILURE() << what << ": entry " << e << " is " << got << ", expected " << want;
  }
  EXPECT_EQ(bad, 0) << what;
}

// SpgemmOptions::unit_sums rounds each product to a multiple of 2^-63: a sum
// of a few products of ~10^-9 (the heavy row of with_global_row squared) is
// then further from the double sum than 1e-12 of it, but never by more than
// 2^-63 a product. This allows 10^5 products an entry.
constexpr double kFixedSumSlack = 0x1p-63 * 1e5;

// C = A·B on the device against the reference, with the options given and,
// where those allow bitmap rows, again with every row in hash tables, so
// that both accumulators meet every shape; and once more with every hash row
// in both phases (no row sorted or direct), so that the symbolic phase's
// shared-memory tables meet them too. Returns the first call's stats.
template <class S, class T>
cuda::SpgemmStats check_product(const Csr<T>& a, const Csr<T>& b, const std::string& what,
                                const cuda::SpgemmOptions& options = {}) {
  using V = typename S::value_type;
  const Reference<S, T> ref = reference<S, T>(a, b);
  const DeviceCsr<T> da(a), db(b);
  std::int64_t ip = 0;
  for (offset_t p = 0; p < a.nnz(); ++p) ip += b.row_length(a.col_idx()[p]);
  cuda::SpgemmStats first;
  bool have_first = false;
  struct Variant {
    bool dense, staged;
    const char* label;
  };
  for (const Variant v : {Variant{true, true, ""}, Variant{false, true, " (hash tables only)"},
                          Variant{false, false, " (hash tables, both phases)"}}) {
    if (v.dense && !options.dense_rows) continue;
    if (!v.staged && !options.sort_rows && !options.direct_rows) continue;
    cuda::SpgemmOptions o = options;
    o.dense_rows = v.dense;
    if (!v.staged) o.sort_rows = o.direct_rows = false;
    cuda::SpgemmStats stats;
    const Csr<V> c = cuda::spgemm<S>(da, db, o, &stats).download();
    const std::string label = what + v.label;
    expect_equal(c, stats, ref, label, o.unit_sums ? kFixedSumSlack : 0);
    EXPECT_EQ(stats.intermediate_products, ip) << label;
    if (!v.dense) {
      EXPECT_EQ(stats.dense_rows, 0) << label;
    }
    if (!v.staged) {
      EXPECT_EQ(stats.sorted_rows + stats.direct_rows, 0) << label;
    }
    if (!have_first) first = stats;  // the call with the options given
    have_first = true;
  }
  return first;
}

template <class T>
Csr<T> random(vertex_t rows, vertex_t cols, test::MatrixShape shape, double per_row,
              std::uint64_t seed, bool pattern = false) {
  return test::random_csr<T>(rows, cols, shape, per_row, pattern, seed);
}

using test::MatrixShape;
const MatrixShape kShapes[] = {MatrixShape::uniform, MatrixShape::empty_rows,
                               MatrixShape::heavy_row, MatrixShape::power_law, MatrixShape::banded};

TEST_F(CudaSpgemm, SquareShapesMatchReference) {
  for (MatrixShape shape : kShapes)
    for (double per_row : {1.0, 4.0, 12.0}) {
      const auto a = random<double>(700, 700, shape, per_row, 11);
      check_product<PlusTimes<double>>(
          a, a, test::to_string(shape) + " A*A per_row=" + std::to_string(per_row));
    }
}

TEST_F(CudaSpgemm, RectangularAndDifferentFactors) {
  const auto a = random<double>(300, 517, MatrixShape::power_law, 6, 3);
  const auto b = random<double>(517, 90, MatrixShape::uniform, 5, 4);
  check_product<PlusTimes<double>>(a, b, "300x517 * 517x90");
  const auto c = random<double>(40, 2000, MatrixShape::uniform, 30, 5);
  const auto d = random<double>(2000, 3000, MatrixShape::empty_rows, 8, 6);
  check_product<PlusTimes<double>>(c, d, "40x2000 * 2000x3000");
  const auto e = random<double>(1, 1, MatrixShape::uniform, 1, 7);
  check_product<PlusTimes<double>>(e, e, "1x1");
}

TEST_F(CudaSpgemm, DenseRowsFillEverySharedGroup) {
  // Rows of many products over few columns: tables of the larger groups,
  // heavily repeated keys, sums of many terms. Sizes: bound on distinct
  // columns about 60, 600 and 6,000, numeric rows up to about 3,500.
  struct Case {
    vertex_t rows, inner, cols;
    double a_per_row, b_per_row;
  };
  for (const Case& k :
       {Case{60, 60, 60, 20, 20}, Case{30, 600, 600, 200, 200}, Case{20, 5000, 5000, 100, 60}}) {
    const auto a = random<double>(k.rows, k.inner, MatrixShape::uniform, k.a_per_row, 8);
    const auto b = random<double>(k.inner, k.cols, MatrixShape::uniform, k.b_per_row, 9);
    const auto stats = check_product<PlusTimes<double>>(a, b, "dense to " + std::to_string(k.cols));
    EXPECT_EQ(stats.global_rows, 0);
  }
}

TEST_F(CudaSpgemm, DenseRowsLarge) {
  const auto a = random<double>(5000, 5000, MatrixShape::uniform, 150, 8);
  check_product<PlusTimes<double>>(a, a, "dense 5000 A*A");
  check_product<MinPlus<double>>(a, a, "dense 5000 min-plus");
}

TEST_F(CudaSpgemm, EmptyMatricesAndEmptyProducts) {
  const Csr<double> z0(0, 0, {0}, {}, {});
  check_product<PlusTimes<double>>(z0, z0, "0x0");
  const Csr<double> a05(0, 5, {0}, {}, {});
  const auto b53 = random<double>(5, 3, MatrixShape::uniform, 2, 9);
  check_product<PlusTimes<double>>(a05, b53, "0x5 * 5x3");
  const Csr<double> a50(5, 0, {0, 0, 0, 0, 0, 0}, {}, {});
  const Csr<double> b04(0, 4, {0}, {}, {});
  check_product<PlusTimes<double>>(a50, b04, "5x0 * 0x4");
  const Csr<double> none(50, 50, std::vector<offset_t>(51, 0), {}, {});
  const auto full = random<double>(50, 50, MatrixShape::uniform, 5, 10);
  check_product<PlusTimes<double>>(none, full, "empty * full");
  check_product<PlusTimes<double>>(full, none, "full * empty");
  // No k links A's columns to B's non-empty rows: every IP is 0.
  const Csr<double> left(3, 4, {0, 1, 2, 2}, {0, 1}, {1.0, 2.0});
  const Csr<double> right(4, 4, {0, 0, 0, 1, 2}, {3, 0}, {1.0, 1.0});
  check_product<PlusTimes<double>>(left, right, "disjoint");
}

TEST_F(CudaSpgemm, PatternInputsCountOnes) {
  const auto a = random<double>(400, 400, MatrixShape::power_law, 5, 12, true);
  ASSERT_TRUE(a.is_pattern());
  check_product<PlusTimes<double>>(a, a, "pattern A*A");
}

TEST_F(CudaSpgemm, FloatAndOtherSemirings) {
  const auto a = random<double>(600, 600, MatrixShape::power_law, 6, 13);
  const auto b = random<double>(600, 600, MatrixShape::uniform, 4, 14);
  const auto af = random<float>(600, 600, MatrixShape::power_law, 6, 13);
  const auto bf = random<float>(600, 600, MatrixShape::uniform, 4, 14);
  check_product<PlusTimes<float>>(af, bf, "float plus-times");
  check_product<MinPlus<double>>(a, b, "min-plus double");
  check_product<MinPlus<float>>(af, bf, "min-plus float");
}

// Rows of 17 to 2,048 products over a B too wide for bitmap rows (and of
// at least 64 columns a product) go to expand-sort-compress: every bin (a
// row's products from 12 entries of A times B rows of 6 to 150 entries),
// A's shapes, A's entries on B's empty rows (a row with more entries than
// products), pattern inputs and the other semirings; and the same products
// with sorting off, in the hash phases. Both against the reference. A
// narrow B sorts nothing.
TEST_F(CudaSpgemm, ShortRowsBySortMatchReference) {
  cuda::SpgemmOptions off;
  off.sort_rows = false;
  std::uint64_t seed = 30;
  for (MatrixShape shape : kShapes)
    for (double b_per_row : {6.0, 20.0, 60.0, 150.0}) {
      const auto a = random<double>(1200, 20000, shape, 12, ++seed);
      const auto b = random<double>(20000, 200000, MatrixShape::uniform, b_per_row, ++seed);
      const std::string what =
          test::to_string(shape) + " A, B rows of " + std::to_string(static_cast<int>(b_per_row));
      const auto sorted = check_product<PlusTimes<double>>(a, b, what);
      const auto unsorted = check_product<PlusTimes<double>>(a, b, what + " (not sorted)", off);
      EXPECT_EQ(unsorted.sorted_rows, 0) << what;
      if (shape == MatrixShape::uniform && b_per_row > 6) {
        EXPECT_GT(sorted.sorted_rows, 0) << what;
      }
    }
  // 500 entries of A a row over a B whose rows are mostly empty.
  const auto a = random<double>(400, 20000, MatrixShape::uniform, 500, 71);
  const auto b = random<double>(20000, 80000, MatrixShape::empty_rows, 1.5, 72);
  EXPECT_GT(check_product<PlusTimes<double>>(a, b, "A on B's empty rows").sorted_rows, 0);
  const auto pa = random<double>(1000, 20000, MatrixShape::power_law, 16, 73, true);
  const auto pb = random<double>(20000, 80000, MatrixShape::uniform, 30, 74, true);
  EXPECT_GT(check_product<PlusTimes<double>>(pa, pb, "pattern, sorted").sorted_rows, 0);
  const auto fa = random<float>(1000, 20000, MatrixShape::uniform, 16, 75);
  const auto fb = random<float>(20000, 80000, MatrixShape::uniform, 30, 76);
  EXPECT_GT(check_product<PlusTimes<float>>(fa, fb, "float, sorted").sorted_rows, 0);
  EXPECT_GT(check_product<MinPlus<float>>(fa, fb, "min-plus float, sorted").sorted_rows, 0);
  const auto da = random<double>(1000, 20000, MatrixShape::banded, 16, 77);
  const auto db = random<double>(20000, 80000, MatrixShape::power_law, 30, 78);
  EXPECT_GT(check_product<MinPlus<double>>(da, db, "min-plus double, sorted").sorted_rows, 0);
  const auto narrow = random<double>(20000, 6000, MatrixShape::uniform, 30, 79);
  EXPECT_EQ(check_product<PlusTimes<double>>(da, narrow, "narrow B").sorted_rows, 0);
}

// A matrix whose row i holds per_row(i) entries of distinct columns (base,
// base + step, ... mod cols, from a random base) and random values.
template <class PerRow>
Csr<double> rows_of_lengths(test::Rng& rng, vertex_t rows, vertex_t cols, PerRow per_row,
                            vertex_t step) {
  Coo<double> coo;
  coo.n_rows = rows;
  coo.n_cols = cols;
  for (vertex_t i = 0; i < rows; ++i) {
    const auto base = static_cast<vertex_t>(rng.below(cols));
    for (int t = 0; t < per_row(i); ++t) {
      coo.row.push_back(i);
      coo.col.push_back(static_cast<vertex_t>((base + std::int64_t{t} * step) % cols));
      coo.val.push_back(rng.uniform(-1, 1));
    }
  }
  return Csr<double>::from_coo(coo);
}

// A of 600 rows alternating `even` and `odd` entries (20,000 columns) and
// B of rows of 300 entries over 600,000 columns: rows of exactly 300 even
// and 300 odd products, a B wide enough for every row to be sorted or direct.
std::pair<Csr<double>, Csr<double>> rows_of_two_lengths(test::Rng& rng, int even, int odd) {
  auto a = rows_of_lengths(
      rng, 600, 20000, [=](vertex_t i) { return i % 2 == 0 ? even : odd; }, 769);
  auto b = rows_of_lengths(
      rng, 20000, 600000, [](vertex_t) { return 300; }, 1999);
  return {std::move(a), std::move(b)};
}

// C = A·B with every row sorted (the case must make it so), each sum equal
// as a number to the sequential Gustavson loop's.
void expect_sorted_in_gustavson_order(const Csr<double>& a, const Csr<double>& b,
                                      const cuda::SpgemmOptions& options) {
  const Csr<double> ref = cpu::spgemm_reference<PlusTimes<double>>(a.view(), b.view());
  const DeviceCsr<double> da(a), db(b);
  cuda::SpgemmStats stats;
  const Csr<double> c = cuda::spgemm<PlusTimes<double>>(da, db, options, &stats).download();
  ASSERT_EQ(stats.sorted_rows, a.n_rows()) << "the case needs every row sorted";
  ASSERT_EQ(c.row_ptr(), ref.row_ptr());
  ASSERT_EQ(c.col_idx(), ref.col_idx());
  std::int64_t bad = 0;
  for (std::size_t e = 0; e < c.values().size(); ++e)
    if (!(c.values()[e] == ref.values()[e]) && ++bad <= 3)
      ADD_FAILURE() << "entry " << e << " is " << c.values()[e] << ", the sequential loop's "
                    << ref.values()[e];
  EXPECT_EQ(bad, 0);
}

// A sorted row adds each C(i,j)'s products in ascending k, left to right:
// the sequential loop's sums, equal as numbers, without the deterministic
// option. A staging that passes the caller's limit sends the rows back to
// the hash phases.
TEST_F(CudaSpgemm, SortedRowsSumInGustavsonOrder) {
  // Every row of A holds 12 entries and every row of B 20 (distinct columns,
  // random values): 240 products a row, so every row is sorted.
  test::Rng rng(81);
  const auto a = rows_of_lengths(
      rng, 1000, 20000, [](vertex_t) { return 12; }, 1601);
  const auto b = rows_of_lengths(
      rng, 20000, 80000, [](vertex_t) { return 20; }, 3989);
  expect_sorted_in_gustavson_order(a, b, {});

  cuda::SpgemmOptions tight;
  tight.workspace_limit_bytes = 64 << 10;
  const auto limited = check_product<PlusTimes<double>>(a, b, "staging past the limit", tight);
  EXPECT_EQ(limited.sorted_rows, 0);
  EXPECT_EQ(limited.direct_rows, 0);
}

// The short sorted bins share a block among rows (four rows of up to 128
// products, two of up to 256): groups of 1 to 9 rows leave every number of
// a block's slots idle, and a row beside an idle slot still sums as the
// sequential loop does.
TEST_F(CudaSpgemm, SortedRowsSharingABlock) {
  test::Rng rng(82);
  const auto b = rows_of_lengths(
      rng, 20000, 80000, [](vertex_t) { return 20; }, 3989);
  for (vertex_t m = 1; m <= 9; ++m) {
    // 4 entries of A a row: 80 products (the 128 bin); 10: 200 (the 256 bin).
    const auto short_rows = rows_of_lengths(
        rng, m, 20000, [](vertex_t) { return 4; }, 1601);
    expect_sorted_in_gustavson_order(short_rows, b, {});
    const auto mixed = rows_of_lengths(
        rng, m, 20000, [](vertex_t i) { return i % 3 == 0 ? 10 : 4; }, 1601);
    expect_sorted_in_gustavson_order(mixed, b, {});
  }
}

// A sorted row's padding slots take the largest key of the last column's
// bits and are told apart by position: where B's width is a power of two
// they tie with its last column. Every row of B holds that column (and of
// 2^16 + 1 columns, the last one), so every row of C ends in a run of it
// right before the padding: summed in order, with nothing of the padding.
TEST_F(CudaSpgemm, SortedRowsEndingInTheLastColumn) {
  test::Rng rng(83);
  for (const vertex_t b_cols : {vertex_t{1} << 16, (vertex_t{1} << 16) + 1, vertex_t{1} << 20}) {
    Coo<double> coo;
    coo.n_rows = 20000;
    coo.n_cols = b_cols;
    for (vertex_t k = 0; k < coo.n_rows; ++k) {
      const auto base = static_cast<vertex_t>(rng.below(b_cols - 40));
      for (vertex_t t = 0; t < 19; ++t) {  // 19 distinct columns below the last
        coo.row.push_back(k);
        coo.col.push_back(base + 2 * t);
        coo.val.push_back(rng.uniform(-1, 1));
      }
      coo.row.push_back(k);
      coo.col.push_back(b_cols - 1);
      coo.val.push_back(rng.uniform(-1, 1));
    }
    const auto b = Csr<double>::from_coo(coo);
    // 6 entries of A a row: 120 products, 6 of them in the last column.
    const auto a = rows_of_lengths(
        rng, 500, 20000, [](vertex_t) { return 6; }, 1601);
    expect_sorted_in_gustavson_order(a, b, {});
  }
}

// The staged rows go into C a tile of staging slots at a time where the
// longest has a bound of 4,096 or more (else a row to a warp): rows crossing
// tiles, and rows of no staging (hash, bitmap, empty) among them. Rows of A
// of 0-40 entries, every 50th of 100-250 and every 97th of 2,000, in no
// order of length, over B rows of 1-60 entries and every 1,000th a hub of
// 3,000 (600,000 columns, wide enough for rows of up to 8,192 products to
// be sorted): empty, direct, sorted and hash rows side by side in one C,
// copied both ways (SpgemmOptions::copy_by_slots). check_product compares
// IP's total too: the analysis a warp a row meets rows on either side of
// 32 entries (the lane analysis, for B of one entry a row, meets every
// shape of A in OneEntryRowsOfBMatchReference).
TEST_F(CudaSpgemm, RowsOfEveryLengthAnalysedAndCopied) {
  test::Rng rng(211);
  const auto spread = [](vertex_t i) { return static_cast<int>((i * 2654435761u) >> 20); };
  const auto a = rows_of_lengths(
      rng, 3000, 20000,
      [&](vertex_t i) {
        if (i % 97 == 0) return 2000;
        if (i % 50 == 0) return 100 + spread(i) % 151;
        return spread(i) % 41;
      },
      769);
  const auto b = rows_of_lengths(
      rng, 20000, 600000, [&](vertex_t k) { return k % 1000 == 0 ? 3000 : 1 + spread(k) % 60; },
      1999);
  for (const bool slots : {true, false}) {
    cuda::SpgemmOptions o;
    o.copy_by_slots = slots;
    const std::string what =
        std::string("rows of every length, copied by ") + (slots ? "slots" : "rows");
    const auto stats = check_product<PlusTimes<double>>(a, b, what, o);
    EXPECT_GE(stats.sorted_rows, 100) << what;
    EXPECT_GE(stats.direct_rows, 1) << what;
    EXPECT_LT(stats.sorted_rows + stats.direct_rows, a.n_rows() - 30)
        << what << ": hash rows among them";
  }
}

// A staging past the caller's limit drops the direct rows first (each
// stages its bound) and keeps the sorted ones (each stages its products)
// where they alone fit: rows of 600 products (sorted, about 2 MB staged in
// all) beside rows of 7,800 (direct, rows being sorted only up to 2,048
// products; about 28 MB), under a 16 MB limit (of which the staging may take
// a quarter).
TEST_F(CudaSpgemm, StagingPastTheLimitDropsDirectRowsFirst) {
  test::Rng rng(133);
  const auto [a, b] = rows_of_two_lengths(rng, 2, 26);
  cuda::SpgemmOptions o;
  o.sort_max_ip = 2048;
  const auto free_run = check_product<PlusTimes<double>>(a, b, "sorted and direct rows", o);
  ASSERT_EQ(free_run.sorted_rows, 300) << "the case needs the short rows sorted";
  ASSERT_EQ(free_run.direct_rows, 300) << "the case needs the long rows direct";
  o.workspace_limit_bytes = std::size_t{16} << 20;
  const auto limited = check_product<PlusTimes<double>>(a, b, "direct rows past the limit", o);
  EXPECT_EQ(limited.sorted_rows, 300);
  EXPECT_EQ(limited.direct_rows, 0);
}

// The largest sorted bins (4,096 and 8,192 products, their arrays in
// dynamic shared memory): rows of exactly 3,600 and 7,800 products, every
// one sorted, every sum the sequential loop's; and min-plus over the same
// rows. With sort_max_ip at 2,048 they go direct.
TEST_F(CudaSpgemm, LongRowsBySort) {
  test::Rng rng(120);
  const auto [a, b] = rows_of_two_lengths(rng, 12, 26);
  expect_sorted_in_gustavson_order(a, b, {});
  EXPECT_EQ(check_product<MinPlus<double>>(a, b, "min-plus, long sorted rows").sorted_rows,
            a.n_rows());
  cuda::SpgemmOptions o;
  o.sort_max_ip = 2048;
  const auto shorter = check_product<PlusTimes<double>>(a, b, "long rows, sorted to 2,048", o);
  EXPECT_EQ(shorter.sorted_rows, 0);
  EXPECT_EQ(shorter.direct_rows, a.n_rows());
}

// Rows of the shared hash bins skip the symbolic phase (direct rows): bounds
// from a few columns to past the largest numeric bin (8,192) over a B too
// wide for bitmaps, so that every direct bin and the two-phase rows past it
// meet (rows sorted only up to 2,048 products, so that longer ones go
// direct); with sorting off too (the rows of 17-2,048 products then go
// direct), A's shapes, pattern inputs and other semirings; and with direct
// rows off.
TEST_F(CudaSpgemm, DirectRowsMatchReference) {
  cuda::SpgemmOptions base;
  base.sort_max_ip = 2048;
  cuda::SpgemmOptions unsorted = base, off = base;
  unsorted.sort_rows = false;
  off.direct_rows = false;
  std::uint64_t seed = 90;
  for (MatrixShape shape : kShapes)
    for (double b_per_row : {2.0, 150.0}) {
      const auto a = random<double>(1500, 20000, shape, 24, ++seed);
      const auto b = random<double>(20000, 600000, MatrixShape::uniform, b_per_row, ++seed);
      const std::string what =
          test::to_string(shape) + " A, B rows of " + std::to_string(static_cast<int>(b_per_row));
      // B rows of 2: ~48 products a row, sorted (direct with sorting off);
      // of 150: ~3,600, past the sorted rows, direct.
      const auto sorted = check_product<PlusTimes<double>>(a, b, what, base);
      if (b_per_row > 100) {
        EXPECT_GT(sorted.direct_rows, 0) << what;
      }
      EXPECT_GT(
          check_product<PlusTimes<double>>(a, b, what + " (not sorted)", unsorted).direct_rows, 0)
          << what;
      EXPECT_EQ(check_product<PlusTimes<double>>(a, b, what + " (not direct)", off).direct_rows, 0)
          << what;
    }
  const auto pa = random<double>(1000, 20000, MatrixShape::power_law, 16, 97, true);
  const auto pb = random<double>(20000, 600000, MatrixShape::uniform, 30, 98, true);
  EXPECT_GT(check_product<PlusTimes<double>>(pa, pb, "pattern, direct", unsorted).direct_rows, 0);
  const auto fa = random<float>(1000, 20000, MatrixShape::power_law, 16, 99);
  const auto fb = random<float>(20000, 600000, MatrixShape::uniform, 30, 100);
  EXPECT_GT(check_product<PlusTimes<float>>(fa, fb, "float, direct", unsorted).direct_rows, 0);
  EXPECT_GT(check_product<MinPlus<float>>(fa, fb, "min-plus float, direct", unsorted).direct_rows,
            0);
  // Direct rows only where B has 300 columns per entry of the bound: the
  // rows past the sorted ones (bounds over 2,048) of a B of 600,000 columns
  // take both phases, so fewer rows go direct; with more columns per entry
  // than B has, none do.
  const auto wa = random<double>(1500, 20000, MatrixShape::uniform, 24, 105);
  const auto wb = random<double>(20000, 600000, MatrixShape::uniform, 150, 106);
  const auto any_width = check_product<PlusTimes<double>>(wa, wb, "direct rows, any B", base);
  cuda::SpgemmOptions wide_only = base;
  wide_only.direct_cols_per_bound = 300;
  EXPECT_LT(
      check_product<PlusTimes<double>>(wa, wb, "direct rows by B's width", wide_only).direct_rows,
      any_width.direct_rows);
  wide_only.direct_cols_per_bound = std::int64_t{1} << 20;
  EXPECT_EQ(check_product<PlusTimes<double>>(wa, wb, "no B wide enough", wide_only).direct_rows, 0);
  // A narrow B: rows whose bound is a large share of its columns take
  // bitmaps; the short ones still go direct.
  const auto narrow = random<double>(20000, 3000, MatrixShape::uniform, 4, 101);
  EXPECT_GT(check_product<PlusTimes<double>>(pa, narrow, "narrow B, direct").direct_rows, 0);
}

// B of exactly one entry a row (Sᵀ of a contraction: the analysis counts A's
// row lengths instead of walking them), and a B of as many entries as rows
// where one row has two and another none (the walk again): products and
// intermediate products against the reference, A of every shape.
TEST_F(CudaSpgemm, OneEntryRowsOfBMatchReference) {
  test::Rng rng(110);
  auto selection = [&](vertex_t rows, vertex_t cols, bool uneven) {
    Coo<double> coo;
    coo.n_rows = rows;
    coo.n_cols = cols;
    for (vertex_t i = 0; i < rows; ++i) {
      if (uneven && i == 1) continue;  // row 0 takes two entries, row 1 none
      coo.row.push_back(uneven && i == 0 ? 0 : i);
      coo.col.push_back(static_cast<vertex_t>(rng.below(cols)));
      coo.val.push_back(rng.uniform(-1, 1));
      if (uneven && i == 0) {
        coo.row.push_back(0);
        coo.col.push_back((coo.col.back() + 1) % cols);
        coo.val.push_back(rng.uniform(-1, 1));
      }
    }
    return Csr<double>::from_coo(coo);
  };
  // B of 300 columns: the rows hash; of 600,000 (a contraction's Sᵀ is as
  // wide as its clusters are many): rows of 17 or more products are sorted,
  // and the sorted rows read B's row k as entry k only where every row holds
  // one.
  std::uint64_t seed = 111;
  for (MatrixShape shape : kShapes)
    for (const vertex_t b_cols : {300, 600000})
      for (const bool uneven : {false, true}) {
        const auto a = random<double>(900, 5000, shape, 20, ++seed);
        const auto b = selection(5000, b_cols, uneven);
        ASSERT_EQ(b.nnz(), b.n_rows());
        const std::string what = test::to_string(shape) +
                                 (uneven ? " A, uneven B" : " A, one entry a row of B") + " of " +
                                 std::to_string(b_cols) + " columns";
        const auto stats = check_product<PlusTimes<double>>(a, b, what);
        if (b_cols > 300 && shape == MatrixShape::uniform) {
          EXPECT_GT(stats.sorted_rows, 0) << what;
        }
      }
}

// One row of ~32,000 entries over 40,000 columns: its bound on distinct
// columns passes every shared-memory group, so its tables live in global
// memory, in the symbolic and the numeric phase.
Csr<double> with_global_row() {
  return random<double>(40000, 40000, MatrixShape::heavy_row, 1.0, 15);
}

cuda::SpgemmOptions hash_only() {
  cuda::SpgemmOptions o;
  o.dense_rows = false;
  return o;
}

TEST_F(CudaSpgemm, RowInTheGlobalMemoryGroup) {
  const auto a = with_global_row();
  const auto stats = check_product<PlusTimes<double>>(a, a, "heavy row A*A", hash_only());
  EXPECT_GE(stats.global_rows, 1);
  const auto b = random<double>(40000, 300, MatrixShape::uniform, 3, 16);
  check_product<PlusTimes<double>>(a, b, "heavy row * rectangular", hash_only());
  check_product<MinPlus<double>>(a, a, "heavy row min-plus", hash_only());
}

// The same heavy row with bitmaps allowed: it becomes a bitmap row in both
// phases, and its row of C (about 29,500 entries over 40,000 columns) is
// longer than the values a block can hold in shared memory beside the
// bitmap (at most (227 KB - 10 KB) / 8 bytes, about 27,500), so it
// accumulates in C.
TEST_F(CudaSpgemm, HeavyRowInABitmapAccumulatesInC) {
  const auto a = with_global_row();
  const Csr<double> c = reference<PlusTimes<double>, double>(a, a).c;
  offset_t longest = 0;
  for (vertex_t i = 0; i < c.n_rows(); ++i) longest = std::max(longest, c.row_length(i));
  ASSERT_GT(longest, 28000) << "the case needs a row past the shared-memory values";
  auto stats = check_product<PlusTimes<double>>(a, a, "heavy row A*A, bitmap");
  EXPECT_EQ(stats.global_rows, 0);
  EXPECT_GE(stats.dense_rows, 1);
  check_product<MinPlus<double>>(a, a, "heavy row min-plus, bitmap");
  const auto af = random<float>(40000, 40000, MatrixShape::heavy_row, 1.0, 15);
  stats = check_product<PlusTimes<float>>(af, af, "heavy row float, bitmap");
  EXPECT_GE(stats.dense_rows, 1);
}

// A row-stochastic copy of m: each value |v| + 0.5 over its row's sum, so
// that every product of m times another such matrix, and every sum, lies in
// [0, 1] (SpgemmOptions::unit_sums).
Csr<double> stochastic(const Csr<double>& m) {
  std::vector<double> v(m.values().size());
  for (vertex_t i = 0; i < m.n_rows(); ++i) {
    double sum = 0;
    for (offset_t p = m.row_ptr()[i]; p < m.row_ptr()[i + 1]; ++p)
      sum += v[p] = std::fabs(m.values()[p]) + 0.5;
    for (offset_t p = m.row_ptr()[i]; p < m.row_ptr()[i + 1]; ++p) v[p] /= sum;
  }
  return Csr<double>(m.n_rows(), m.n_cols(), m.row_ptr(), m.col_idx(), std::move(v));
}

// Stochastic products of one bitmap window, as MCL's expansion makes them:
// ~20 products an entry (100 entries a row times rows of 100 over 500
// columns), a power law, and a row of 29,554 entries, past the shared values
// (~27,300 beside the bitmap on an H100 or H200), summed in chunks.
struct StochasticCase {
  Csr<double> a, b;
  std::string what;
};
std::vector<StochasticCase> stochastic_cases() {
  std::vector<StochasticCase> cases;
  cases.push_back({stochastic(random<double>(2000, 500, MatrixShape::uniform, 100, 140)),
                   stochastic(random<double>(500, 500, MatrixShape::uniform, 100, 141)),
                   "20 products an entry"});
  cases.push_back({stochastic(random<double>(3000, 3000, MatrixShape::power_law, 60, 142)),
                   stochastic(random<double>(3000, 3000, MatrixShape::power_law, 60, 143)),
                   "power law"});
  cases.push_back(
      {stochastic(with_global_row()), stochastic(with_global_row()), "a row in chunks"});
  return cases;
}

// Entries of two products of the same pattern whose bits differ.
std::int64_t differing_bits(const Csr<double>& x, const Csr<double>& y) {
  std::int64_t differ = 0;
  for (std::size_t e = 0; e < x.values().size(); ++e)
    differ += std::memcmp(&x.values()[e], &y.values()[e], sizeof(double)) != 0;
  return differ;
}

// C = A·B twice, with options `x` and then `y`, and the two products the
// same bit for bit: the same structure, then the same values. `stats` gets
// the second call's figures, `second` (where given) its product. Call it
// under ASSERT_NO_FATAL_FAILURE, so that a structure that differs ends the
// test.
void expect_same_bits(const DeviceCsr<double>& da, const DeviceCsr<double>& db,
                      const cuda::SpgemmOptions& x, const cuda::SpgemmOptions& y,
                      const std::string& what, cuda::SpgemmStats& stats,
                      Csr<double>* second = nullptr) {
  const Csr<double> cx = cuda::spgemm<PlusTimes<double>>(da, db, x).download();
  Csr<double> cy = cuda::spgemm<PlusTimes<double>>(da, db, y, &stats).download();
  ASSERT_EQ(cx.row_ptr(), cy.row_ptr()) << what;
  ASSERT_EQ(cx.col_idx(), cy.col_idx()) << what;
  EXPECT_EQ(differing_bits(cx, cy), 0) << what;
  if (second) *second = std::move(cy);
}

// SpgemmOptions::unit_sums: bitmap rows sum in fixed point in shared memory,
// rows of many products an entry too (which otherwise accumulate in C), over
// one bitmap and over windows of a wide B, a row of more entries than the
// shared values hold in chunks of them, as in MCL's expansion: every
// entry within the tolerance of the reference, and each sum exact, so that
// two calls give the same bits (the windows of a wide B that pass the
// shared values too, in chunks of them).
TEST_F(CudaSpgemm, UnitSumsInFixedPointMatchReference) {
  cuda::SpgemmOptions o;
  o.unit_sums = true;
  const vertex_t wide = (vertex_t{1} << 19) + 1;
  std::vector<StochasticCase> cases = stochastic_cases();
  cases.push_back({stochastic(random<double>(2000, 2000, MatrixShape::heavy_row, 2.0, 25)),
                   stochastic(random<double>(2000, wide, MatrixShape::uniform, 40, 26)),
                   "windows of 2^19+1"});
  for (const StochasticCase& k : cases) {
    const auto stats = check_product<PlusTimes<double>>(k.a, k.b, k.what + ", fixed point", o);
    EXPECT_GE(stats.dense_rows, 1) << k.what;
    const DeviceCsr<double> da(k.a), db(k.b);
    const Csr<double> first = cuda::spgemm<PlusTimes<double>>(da, db, o).download();
    const Csr<double> again = cuda::spgemm<PlusTimes<double>>(da, db, o).download();
    ASSERT_EQ(first.col_idx(), again.col_idx()) << k.what;
    EXPECT_EQ(differing_bits(first, again), 0)
        << k.what << ": fixed-point sums differ between two calls";
  }
}

// SpgemmOptions::stage_bitmap_rows: bitmap rows of one window skip the
// symbolic phase, computed into their staging and copied into C. The
// reference's entries with double and fixed-point sums and in min-plus, a
// row past the shared values included (summed in its staging, or in chunks);
// with ordered walks, the same bits as the rows of two phases; a B too wide
// for one bitmap keeps its windows in two phases; and a staging past the
// limit gives the rows back to the two phases.
TEST_F(CudaSpgemm, StagedBitmapRowsMatchReference) {
  cuda::SpgemmOptions o;
  o.stage_bitmap_rows = true;
  const std::vector<StochasticCase> cases = stochastic_cases();
  for (const StochasticCase& k : cases) {
    for (const bool fixed : {false, true}) {
      cuda::SpgemmOptions f = o;
      f.unit_sums = fixed;
      const std::string what = k.what + (fixed ? ", fixed point" : ", double");
      const auto stats = check_product<PlusTimes<double>>(k.a, k.b, what + ", staged", f);
      // Rows of the global or hash groups by their bound may be bitmap rows by
      // their nnz, in the numeric phase: dense_rows counts those too.
      EXPECT_GE(stats.staged_bitmap_rows, 1) << what;
      EXPECT_LE(stats.staged_bitmap_rows, stats.dense_rows) << what;
    }
    EXPECT_GE(check_product<MinPlus<double>>(k.a, k.b, k.what + ", min-plus, staged", o)
                  .staged_bitmap_rows,
              1)
        << k.what;
    cuda::SpgemmOptions ordered = o;
    ordered.deterministic = true;
    cuda::SpgemmOptions two_phases = ordered;
    two_phases.stage_bitmap_rows = false;
    const DeviceCsr<double> da(k.a), db(k.b);
    const Csr<double> staged = cuda::spgemm<PlusTimes<double>>(da, db, ordered).download();
    const Csr<double> phases = cuda::spgemm<PlusTimes<double>>(da, db, two_phases).download();
    ASSERT_EQ(staged.row_ptr(), phases.row_ptr()) << k.what;
    ASSERT_EQ(staged.col_idx(), phases.col_idx()) << k.what;
    EXPECT_EQ(differing_bits(staged, phases), 0)
        << k.what << ": ordered sums differ between staged and two-phase rows";
  }
  const vertex_t wide = (vertex_t{1} << 19) + 1;
  const auto windows =
      check_product<PlusTimes<double>>(random<double>(2000, 2000, MatrixShape::heavy_row, 2.0, 25),
                                       random<double>(2000, wide, MatrixShape::uniform, 40, 26),
                                       "windows of 2^19+1, staging asked", o);
  EXPECT_GE(windows.dense_rows, 1);
  EXPECT_EQ(windows.staged_bitmap_rows, 0);
  cuda::SpgemmOptions limited = o;
  limited.workspace_limit_bytes = std::size_t{1} << 20;
  const auto past = check_product<PlusTimes<double>>(cases[1].a, cases[1].b,
                                                     "power law, staging past the limit", limited);
  EXPECT_GE(past.dense_rows, 1);
  EXPECT_EQ(past.staged_bitmap_rows, 0);
}

// B with 2^19 + 1 columns is past one bitmap's reach: rows past the shared
// bins take a bitmap per window of 2^18 columns (three windows, the last
// of one column), with bitmaps allowed; without, global-memory tables. Past
// 64 windows (B of 2^24 + 2^18 + 1 columns) they keep global tables.
TEST_F(CudaSpgemm, WideBUsesWindowedBitmapsThenGlobalTables) {
  const auto a = random<double>(2000, 2000, MatrixShape::heavy_row, 2.0, 25);
  const vertex_t wide = (vertex_t{1} << 19) + 1;
  const auto b = random<double>(2000, wide, MatrixShape::uniform, 40, 26);
  auto stats = check_product<PlusTimes<double>>(a, b, "2000 x 2^19+1");
  EXPECT_EQ(stats.global_rows, 0);
  EXPECT_GE(stats.dense_rows, 1);
  stats = check_product<PlusTimes<double>>(a, b, "2000 x 2^19+1, hash tables", hash_only());
  EXPECT_GE(stats.global_rows, 1);
  check_product<MinPlus<double>>(a, b, "2000 x 2^19+1, min-plus");

  const vertex_t widest = (vertex_t{1} << 24) + (vertex_t{1} << 18) + 1;
  const auto c = random<double>(2000, widest, MatrixShape::uniform, 40, 27);
  stats = check_product<PlusTimes<double>>(a, c, "2000 x 2^24+2^18+1");
  EXPECT_GE(stats.global_rows, 1);
  EXPECT_EQ(stats.dense_rows, 0);
}

// Two rows of 20,000 entries over 40,000 columns among rows of two: both
// rows of C are wide enough for global-memory tables in both phases.
Csr<double> with_two_global_rows() {
  test::Rng rng(24);
  Coo<double> c;
  c.n_rows = c.n_cols = 40000;
  auto add = [&](vertex_t i, std::int64_t j) {
    c.row.push_back(i);
    c.col.push_back(static_cast<vertex_t>(j));
    c.val.push_back(rng.uniform(-1.0, 2.0));
  };
  for (vertex_t i = 0; i < 40000; ++i)
    for (int t = 0; t < (i % 20000 == 0 ? 20000 : 2); ++t) add(i, rng.below(40000));
  return Csr<double>::from_coo(c);
}

// Coo built entry by entry, values drawn from [lo, hi).
struct CooBuilder {
  test::Rng& rng;
  double lo, hi;
  Coo<double> coo;
  CooBuilder(test::Rng& r, vertex_t rows, vertex_t cols, double l, double h)
      : rng(r), lo(l), hi(h) {
    coo.n_rows = rows;
    coo.n_cols = cols;
  }
  void add(vertex_t i, vertex_t j) {
    coo.row.push_back(i);
    coo.col.push_back(j);
    coo.val.push_back(rng.uniform(lo, hi));
  }
  Csr<double> csr() const { return Csr<double>::from_coo(coo); }
};

// Rows of A whose products are mostly one long row of B (an R-MAT hub in a
// row of S·A): the block-wide teams defer such B rows and walk them with
// every thread. A has 16 entries per row (a label map's transpose shape),
// B rows of 0-3 entries and a few hubs of 300, 3,000 and 30,000, so rows
// of A land in the block bins, the bitmap groups and the global group.
// Then one row of A with 40 B rows of 20 among 960 empty ones: a team of
// single-lane sub-teams defers all 40, more than the shared list holds.
Csr<double> with_hubs(vertex_t n_cols, std::uint64_t seed) {
  test::Rng rng(seed);
  const vertex_t k = 4000;
  CooBuilder b(rng, k, n_cols, -1.0, 2.0);
  for (vertex_t r = 0; r < k; ++r) {
    const std::int64_t len = r == 7         ? 30000
                             : r % 997 == 5 ? 3000
                             : r % 101 == 3 ? 300
                                            : rng.below(4);
    for (std::int64_t t = 0; t < len; ++t) b.add(r, static_cast<vertex_t>(rng.below(n_cols)));
  }
  return b.csr();
}

TEST_F(CudaSpgemm, LongBRowsAreSharedByTheWholeBlock) {
  test::Rng rng(41);
  CooBuilder a(rng, 3000, 4000, 0.5, 1.5);
  for (vertex_t i = 0; i < 2999; ++i)
    for (int t = 0; t < 16; ++t) a.add(i, static_cast<vertex_t>(rng.below(4000)));
  // Row 2999: B rows 3100..3139 (of 20 entries in the last B) and 2040..2999 (empty there).
  for (vertex_t j = 0; j < 1000; ++j) a.add(2999, j < 40 ? 3100 + j : 2000 + j);
  const auto sa = a.csr();

  const vertex_t wide = vertex_t{1} << 20;
  const auto hubs_wide = with_hubs(wide, 42);
  auto stats = check_product<PlusTimes<double>>(sa, hubs_wide, "16 per row * hubs, 2^20 columns");
  EXPECT_GE(stats.dense_rows, 1);  // windows of the columns
  stats = check_product<PlusTimes<double>>(sa, hubs_wide, "16 per row * hubs, 2^20, hash tables",
                                           hash_only());
  EXPECT_GE(stats.global_rows, 1);
  const auto hubs = with_hubs(40000, 43);
  stats = check_product<PlusTimes<double>>(sa, hubs, "16 per row * hubs, 40000 columns");
  EXPECT_GE(stats.dense_rows, 1);
  check_product<MinPlus<double>>(sa, hubs, "16 per row * hubs, min-plus");

  // The overflow row against B rows 3100..3139 of length 20 and the rest empty.
  CooBuilder b(rng, 4000, 5000, -1.0, 2.0);
  for (vertex_t r = 3100; r < 3140; ++r)
    for (int t = 0; t < 20; ++t) b.add(r, static_cast<vertex_t>(rng.below(5000)));
  check_product<PlusTimes<double>>(sa, b.csr(), "40 deferred B rows in one row", hash_only());
}

// SpgemmOptions::balance_entries: a block's sub-teams take A's entries as
// they finish (the default, which every other test runs) or every n-th in
// turn. The balanced walk against the reference on rows of skewed B rows
// (power law, hubs, a row in chunks, windows of a wide B), in the hash
// tables, the bitmaps and the staged bitmaps; with fixed-point sums, which
// are exact whatever the order, the two walks give the same bits, except in
// windows of a wide B whose entries pass the shared values: those add into
// C with double atomics, whose sums depend on the order (from run to run as
// well), and are held to the reference's tolerance.
TEST_F(CudaSpgemm, EntriesTakenInTurnOrAsSubTeamsFinishGiveTheSameProduct) {
  std::vector<StochasticCase> cases = stochastic_cases();
  cases.push_back(
      {stochastic(random<double>(2000, 2000, MatrixShape::heavy_row, 2.0, 25)),
       stochastic(random<double>(2000, (vertex_t{1} << 19) + 1, MatrixShape::uniform, 40, 26)),
       "windows of 2^19+1"});
  cases.push_back({stochastic(random<double>(3000, 4000, MatrixShape::power_law, 24, 44)),
                   stochastic(with_hubs(40000, 45)), "power law * hubs"});
  for (const StochasticCase& k : cases) {
    for (const bool staged : {false, true}) {
      cuda::SpgemmOptions in_turn, balanced;
      in_turn.balance_entries = false;
      balanced.balance_entries = true;
      in_turn.stage_bitmap_rows = balanced.stage_bitmap_rows = staged;
      const std::string what = k.what + (staged ? ", staged" : "");
      check_product<PlusTimes<double>>(k.a, k.b, what + ", entries as sub-teams finish", balanced);
      cuda::SpgemmOptions fixed_in_turn = in_turn, fixed_balanced = in_turn;
      fixed_in_turn.unit_sums = fixed_balanced.unit_sums = true;
      fixed_balanced.balance_entries = true;
      if (k.b.n_cols() > (vertex_t{1} << 19)) {  // windows: see above
        check_product<PlusTimes<double>>(k.a, k.b, what + ", fixed, in turn", fixed_in_turn);
        check_product<PlusTimes<double>>(k.a, k.b, what + ", fixed, first come", fixed_balanced);
        continue;
      }
      const DeviceCsr<double> da(k.a), db(k.b);
      cuda::SpgemmStats stats;
      ASSERT_NO_FATAL_FAILURE(expect_same_bits(da, db, fixed_in_turn, fixed_balanced,
                                               what + ": fixed-point sums and the order", stats));
      EXPECT_GE(stats.dense_rows, 1) << what;
    }
  }
}

// SpgemmOptions::batch_b_loads (the default): bitmap rows summed in fixed
// point load four of B's entries ahead of their use. The walk's order
// changes, not its products, and fixed-point sums in shared memory are exact
// in any order, so where every row sums there the product must equal the
// unbatched one bit for bit: the stochastic cases (a row in chunks among
// them) and power-law rows of short B rows (lengths not a multiple of four:
// the batch's remainder), two phases and staged, in turn and first come.
// Windows of a wide B whose entries pass the shared values add into C with
// double atomics, whose sums depend on the order (from run to run as well),
// so those, and every case, are held to the reference's tolerance.
TEST_F(CudaSpgemm, BLoadsBatchedOrOneByOneGiveTheSameBits) {
  std::vector<StochasticCase> cases = stochastic_cases();
  cases.push_back({stochastic(random<double>(3000, 4000, MatrixShape::power_law, 23, 46)),
                   stochastic(random<double>(4000, 3000, MatrixShape::power_law, 7, 47)),
                   "power law, short B rows"});
  for (const StochasticCase& k : cases) {
    const DeviceCsr<double> da(k.a), db(k.b);
    for (const bool staged : {false, true})
      for (const bool balanced : {false, true}) {
        cuda::SpgemmOptions one, batched;
        one.unit_sums = batched.unit_sums = true;
        one.stage_bitmap_rows = batched.stage_bitmap_rows = staged;
        one.balance_entries = batched.balance_entries = balanced;
        one.batch_b_loads = false;
        batched.batch_b_loads = true;
        one.spa_windows = batched.spa_windows = false;  // the bitmap kernels' walks
        const std::string what =
            k.what + (staged ? ", staged" : "") + (balanced ? ", first come" : ", in turn");
        cuda::SpgemmStats stats;
        ASSERT_NO_FATAL_FAILURE(
            expect_same_bits(da, db, one, batched, what + ": B's loads batched", stats));
        EXPECT_GE(stats.dense_rows, 1) << what;
      }
  }
  cases.push_back(
      {stochastic(random<double>(2000, 2000, MatrixShape::heavy_row, 2.0, 27)),
       stochastic(random<double>(2000, (vertex_t{1} << 19) + 1, MatrixShape::uniform, 41, 28)),
       "windows of 2^19+1"});
  for (const StochasticCase& k : cases)
    for (const bool staged : {false, true}) {
      cuda::SpgemmOptions batched;
      batched.unit_sums = true;
      batched.stage_bitmap_rows = staged;
      batched.batch_b_loads = true;
      batched.spa_windows = false;
      check_product<PlusTimes<double>>(
          k.a, k.b, k.what + (staged ? ", staged" : "") + ", B's loads batched", batched);
    }
}

// SpgemmOptions::spa_windows: the longest staged bitmap rows summed in fixed
// point walk their products once, into a dense accumulator per window of
// B's columns. Fixed-point sums are exact in any order, so the product must
// be the bitmap rows' bit for bit: rows of 24,000 products over 60,000
// columns (several windows on any GPU), columns of B only next to the
// windows' edges (B's rows cut right at each), power-law rows among hubs,
// the stochastic cases (one window); and against the reference; products
// that round to 0. Where B has more windows than the SPA takes
// (spa_max_windows), its rows stay bitmaps.
TEST_F(CudaSpgemm, SpaWindowsGiveTheBitmapRowsBits) {
  std::vector<StochasticCase> cases = stochastic_cases();
  cases.push_back({stochastic(random<double>(2000, 3000, MatrixShape::uniform, 40, 62)),
                   stochastic(random<double>(3000, 60000, MatrixShape::uniform, 600, 63)),
                   "24,000 products a row over 60,000 columns"});
  {
    test::Rng rng(64);
    CooBuilder b(rng, 3000, 60001, 0.1, 1.0);
    for (vertex_t r = 0; r < 3000; ++r)
      for (int t = 0; t < 500; ++t) {
        // Within 8 columns of a multiple of 128 (the SPA's windows are
        // multiples of 128 wide, so every window edge is one), or the last
        // column.
        const auto u = static_cast<vertex_t>(rng.below(17));
        const vertex_t edge = static_cast<vertex_t>(rng.below(469)) * 128;
        b.add(r, u == 16 ? 60000 : std::clamp<vertex_t>(edge + u - 8, 0, 60000));
      }
    cases.push_back({stochastic(random<double>(2000, 3000, MatrixShape::uniform, 40, 65)),
                     stochastic(b.csr()), "B near the windows' edges"});
  }
  cases.push_back({stochastic(random<double>(3000, 4000, MatrixShape::power_law, 60, 66)),
                   stochastic(with_hubs(40000, 67)), "power law * hubs"});
  for (const StochasticCase& k : cases) {
    const DeviceCsr<double> da(k.a), db(k.b);
    for (const bool balanced : {false, true}) {
      cuda::SpgemmOptions bitmap, spa;
      bitmap.unit_sums = spa.unit_sums = true;
      bitmap.stage_bitmap_rows = spa.stage_bitmap_rows = true;
      bitmap.balance_entries = spa.balance_entries = balanced;
      spa.spa_windows = true;
      const std::string what = k.what + (balanced ? ", first come" : ", in turn");
      cuda::SpgemmStats stats;
      ASSERT_NO_FATAL_FAILURE(
          expect_same_bits(da, db, bitmap, spa, what + ": the SPA against bitmap rows", stats));
      if (k.b.n_cols() >= 40000) {
        EXPECT_GE(stats.spa_rows, 1) << what;
      }
      EXPECT_LE(stats.spa_rows, stats.staged_bitmap_rows) << what;
    }
    cuda::SpgemmOptions spa;
    spa.unit_sums = spa.stage_bitmap_rows = spa.spa_windows = true;
    check_product<PlusTimes<double>>(k.a, k.b, k.what + ", SPA", spa);
  }
  // Products below 2^-64 add 0 in fixed point: columns 0..999 get only such
  // products (B's rows r % 5 == 0, of values ~1e-21), and stay entries of
  // value 0, as in the bitmap rows.
  {
    test::Rng rng(70);
    CooBuilder tiny(rng, 3000, 60000, 1e-21, 2e-21), rest(rng, 3000, 60000, 0.1, 1.0);
    for (vertex_t r = 0; r < 3000; ++r) {
      if (r % 5 == 0)
        for (int t = 0; t < 50; ++t) tiny.add(r, static_cast<vertex_t>(rng.below(1000)));
      else
        for (int t = 0; t < 500; ++t) rest.add(r, 1000 + static_cast<vertex_t>(rng.below(59000)));
    }
    Coo<double> coo = tiny.coo;
    coo.row.insert(coo.row.end(), rest.coo.row.begin(), rest.coo.row.end());
    coo.col.insert(coo.col.end(), rest.coo.col.begin(), rest.coo.col.end());
    coo.val.insert(coo.val.end(), rest.coo.val.begin(), rest.coo.val.end());
    const auto a = stochastic(random<double>(2000, 3000, MatrixShape::uniform, 40, 71));
    const DeviceCsr<double> da(a), db(Csr<double>::from_coo(coo));
    cuda::SpgemmOptions bitmap, spa;
    bitmap.unit_sums = spa.unit_sums = bitmap.stage_bitmap_rows = spa.stage_bitmap_rows = true;
    bitmap.spa_windows = false;
    cuda::SpgemmStats stats;
    Csr<double> y;
    ASSERT_NO_FATAL_FAILURE(
        expect_same_bits(da, db, bitmap, spa, "products that round to 0", stats, &y));
    EXPECT_GE(stats.spa_rows, 1);
    EXPECT_GT(std::count(y.values().begin(), y.values().end(), 0.0), 0)
        << "no product rounded to 0: the case does not test the bits";
  }
  // 2^19 columns: more windows than the SPA takes by default (16 of ~28,000
  // columns in 228 KB of shared memory); and 60,000 columns with one window
  // allowed (8 bytes a column: more than one window on any GPU).
  cuda::SpgemmOptions spa;
  spa.unit_sums = spa.stage_bitmap_rows = spa.spa_windows = true;
  for (const vertex_t n_cols : {vertex_t{1} << 19, vertex_t{60000}}) {
    const auto a = stochastic(random<double>(500, 2000, MatrixShape::uniform, 40, 68));
    const auto b = stochastic(random<double>(2000, n_cols, MatrixShape::uniform, 600, 69));
    spa.spa_max_windows = n_cols == 60000 ? 1 : cuda::SpgemmOptions{}.spa_max_windows;
    const auto stats = check_product<PlusTimes<double>>(
        a, b, std::to_string(n_cols) + " columns, SPA asked past its windows", spa);
    EXPECT_EQ(stats.spa_rows, 0) << n_cols;
    EXPECT_GE(stats.staged_bitmap_rows, 1) << n_cols;
  }
}

// Windowed rows whose products fall in a few of the windows: B's entries
// only in the first window, the last (a single column) and one in the
// middle, so that most windows of a row are empty and pass a count of 0
// down the chain; a row whose only products are in the last column; and
// the same with sums in a fixed order, bit for bit run to run.
TEST_F(CudaSpgemm, WindowedRowsWithEmptyWindows) {
  test::Rng rng(61);
  const vertex_t wide = (vertex_t{1} << 21) + 1;  // 9 windows
  CooBuilder b(rng, 3000, wide, -1.0, 2.0);
  for (vertex_t r = 0; r < 3000; ++r) {
    const int len = r % 3 == 0 ? 40 : 8;
    for (int t = 0; t < len; ++t) {
      const auto u = rng.below(10);
      const vertex_t col = u < 6   ? static_cast<vertex_t>(rng.below(1 << 18))
                           : u < 9 ? wide - 1
                                   : static_cast<vertex_t>((5 << 18) + rng.below(1000));
      b.add(r, col);
    }
  }
  CooBuilder a(rng, 50, 3000, 0.5, 1.5);
  for (vertex_t i = 0; i < 40; ++i)
    for (int t = 0; t < (i < 10 ? 2000 : 3); ++t) a.add(i, static_cast<vertex_t>(rng.below(3000)));
  a.add(45, 1);  // B row 1: 8 entries
  const auto sa = a.csr(), sb = b.csr();
  auto stats = check_product<PlusTimes<double>>(sa, sb, "windows mostly empty");
  EXPECT_GE(stats.dense_rows, 10);
  EXPECT_EQ(stats.global_rows, 0);
  check_product<MinPlus<double>>(sa, sb, "windows mostly empty, min-plus");

  cuda::SpgemmOptions o;
  o.deterministic = true;
  const DeviceCsr<double> da(sa), db(sb);
  const Csr<double> first = cuda::spgemm<PlusTimes<double>>(da, db, o).download();
  for (int run = 0; run < 3; ++run) {
    const Csr<double> again = cuda::spgemm<PlusTimes<double>>(da, db, o).download();
    EXPECT_EQ(again.col_idx(), first.col_idx());
    EXPECT_EQ(again.values(), first.values()) << "run " << run;
  }
  cuda::SpgemmStats counted;
  counted.nnz_c = first.nnz();
  expect_equal(first, counted, reference<PlusTimes<double>, double>(sa, sb),
               "windows, deterministic");
}

// A row of C with ~146,000 entries over 2^20 columns beside rows of ~18,000
// entries and short rows in shared memory: in hash tables, a long segment
// of the segmented sort among global rows; with bitmaps, four windows of
// ~36,000 entries accumulating in C beside windows of ~4,500 in shared memory.
TEST_F(CudaSpgemm, ALongGlobalRowAmongShortOnes) {
  test::Rng rng(51);
  CooBuilder a(rng, 40, 5000, 0.5, 1.5);
  for (vertex_t j = 0; j < 5000; ++j) a.add(0, j);
  for (vertex_t j = 0; j < 600; ++j) a.add(3, static_cast<vertex_t>(rng.below(5000)));
  for (vertex_t j = 0; j < 640; ++j) a.add(17, static_cast<vertex_t>(rng.below(5000)));
  for (vertex_t i = 20; i < 40; ++i)
    for (int t = 0; t < 10; ++t) a.add(i, static_cast<vertex_t>(rng.below(5000)));
  const auto sa = a.csr();
  const auto b = random<double>(5000, vertex_t{1} << 20, MatrixShape::uniform, 30, 52);
  auto stats = check_product<PlusTimes<double>>(sa, b, "a row of ~146,000 entries");
  EXPECT_GE(stats.dense_rows, 3);
  EXPECT_EQ(stats.global_rows, 0);
  stats = check_product<PlusTimes<double>>(sa, b, "a row of ~146,000 entries, hash tables",
                                           hash_only());
  EXPECT_GE(stats.global_rows, 3);
  const auto af =
      Csr<float>::from_coo(Coo<float>{a.coo.n_rows, a.coo.n_cols, a.coo.row, a.coo.col,
                                      std::vector<float>(a.coo.val.begin(), a.coo.val.end())});
  const auto bf = random<float>(5000, vertex_t{1} << 20, MatrixShape::uniform, 30, 53);
  check_product<PlusTimes<float>>(af, bf, "a row of ~146,000 entries, float");
}

TEST_F(CudaSpgemm, SmallWorkspaceLimitForcesChunks) {
  const auto a = with_two_global_rows();
  // A limit that holds the widest row's numeric table and staging (as the
  // chunk planner bounds them: twice the row for staging, plus its table)
  // with room for the segmented sort's temporary storage, but not every
  // row's at once (about 11 MB).
  const Csr<double> c = reference<PlusTimes<double>, double>(a, a).c;
  std::size_t widest_need = 0;
  for (vertex_t i = 0; i < c.n_rows(); ++i) {
    const auto nnz = static_cast<std::uint64_t>(c.row_length(i));
    std::uint64_t slots = 1;
    while (slots < 2 * nnz) slots <<= 1;
    widest_need = std::max<std::size_t>(widest_need, (2 * nnz + (nnz > 8192 ? slots : 0)) * 12);
  }
  cuda::SpgemmOptions o;
  o.workspace_limit_bytes = widest_need + (std::size_t{2} << 20);
  o.dense_rows = false;
  const auto stats = check_product<PlusTimes<double>>(a, a, "chunked wide rows", o);
  EXPECT_GE(stats.global_rows, 2);
  EXPECT_GT(stats.chunks, 1);
  const auto p = random<double>(3000, 3000, MatrixShape::power_law, 8, 17);
  o.workspace_limit_bytes = 64 << 10;
  check_product<PlusTimes<double>>(p, p, "power law under a small limit", o);
}

// Four rows of 20,000 entries over 40,000 columns times a B whose entries all
// fall in columns < 100: many products but few distinct columns, so the
// symbolic tables (sized by the products) are large and the numeric ones small.
TEST_F(CudaSpgemm, SymbolicTablesInChunks) {
  test::Rng rng(23);
  Coo<double> ca, cb;
  ca.n_rows = ca.n_cols = cb.n_rows = cb.n_cols = 40000;
  auto add = [&](Coo<double>& c, vertex_t i, std::int64_t j) {
    c.row.push_back(i);
    c.col.push_back(static_cast<vertex_t>(j));
    c.val.push_back(rng.uniform(-1.0, 2.0));
  };
  for (vertex_t i = 0; i < 4; ++i)
    for (int t = 0; t < 20000; ++t) add(ca, i * 1000, rng.below(40000));
  for (vertex_t i = 0; i < 40000; i += 7) add(ca, i, rng.below(40000));
  for (vertex_t i = 0; i < 40000; ++i)
    for (int t = 0; t < 2; ++t) add(cb, i, rng.below(100));
  const auto a = Csr<double>::from_coo(ca), b = Csr<double>::from_coo(cb);
  cuda::SpgemmOptions o = hash_only();
  o.workspace_limit_bytes = 700 << 10;
  const auto stats = check_product<PlusTimes<double>>(a, b, "symbolic chunks", o);
  EXPECT_GE(stats.global_rows, 4);
  EXPECT_GT(stats.symbolic_chunks, 1);
}

TEST_F(CudaSpgemm, ARowLargerThanTheLimitIsADeviceErrorNamingTheBytes) {
  const auto a = with_global_row();
  const DeviceCsr<double> da(a);
  cuda::SpgemmOptions o = hash_only();
  o.workspace_limit_bytes = 4096;
  try {
    cuda::spgemm<PlusTimes<double>>(da, da, o);
    FAIL() << "a row whose table exceeds the limit must not be computed";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
}

TEST_F(CudaSpgemm, MismatchedShapesAreAnArgumentError) {
  const DeviceCsr<double> a(random<double>(10, 20, MatrixShape::uniform, 2, 18));
  const DeviceCsr<double> b(random<double>(10, 20, MatrixShape::uniform, 2, 19));
  EXPECT_THROW(cuda::spgemm<PlusTimes<double>>(a, b), ArgumentError);
}

TEST_F(CudaSpgemm, RepeatedCallsOnAStreamGiveTheSameC) {
  const auto a = random<double>(2000, 2000, MatrixShape::power_law, 6, 20);
  const DeviceCsr<double> da(a);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  const Csr<double> first = cuda::spgemm<MinPlus<double>>(da, da, nullptr, s).download();
  for (int r = 0; r < 3; ++r) {
    const Csr<double> again = cuda::spgemm<MinPlus<double>>(da, da, nullptr, s).download();
    EXPECT_EQ(again.row_ptr(), first.row_ptr());
    EXPECT_EQ(again.col_idx(), first.col_idx());
    EXPECT_EQ(again.values(), first.values());
  }
  cudaStreamDestroy(s);
}

TEST_F(CudaSpgemm, LargePowerLawMatchesReference) {
  const auto a = random<double>(200000, 200000, MatrixShape::power_law, 10, 21);
  check_product<PlusTimes<double>>(a, a, "power law 200k");
  const auto af = random<float>(100000, 100000, MatrixShape::uniform, 16, 22);
  check_product<PlusTimes<float>>(af, af, "uniform float 100k");
}

// A·A on every shared real graph (as loaded: directed or not, weighted or a
// pattern), skipping only products too large for the host reference.
TEST_F(CudaSpgemm, SharedGraphsLarge) {
  const fs::path root(GRAPHRUN_DATASETS);
  if (!fs::is_directory(root)) GTEST_SKIP() << "no shared datasets";
  int checked = 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    const bool graph = name.ends_with(".txt") || name.ends_with(".txt.gz") ||
                       name.ends_with(".mtx") || name.ends_with(".mtx.gz");
    const bool side = name.find("groundtruth") != std::string::npos ||
                      name.find("communit") != std::string::npos ||
                      name.find("cmty") != std::string::npos ||
                      name.find("nodes") != std::string::npos;
    if (graph && !side) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    Graph g;
    try {
      g = io::load_graph(file.string());
    } catch (const InputError&) {
      continue;  // not a graph with numeric ids
    }
    const Csr<double>& a = g.adj();
    std::int64_t ip = 0;
    for (offset_t p = 0; p < a.nnz(); ++p) ip += a.row_length(a.col_idx()[p]);
    if (ip > 300'000'000) continue;
    SCOPED_TRACE(file.filename().string());
    check_product<PlusTimes<double>>(a, a, file.filename().string());
    ++checked;
  }
  EXPECT_GT(checked, 0);
  RecordProperty("graphs_checked", checked);
}
#endif

TEST(CudaSpgemmAvailability, DeviceCountNeverThrows) { EXPECT_GE(cuda_device_count(), 0); }

}  // namespace
}  // namespace graphrun
