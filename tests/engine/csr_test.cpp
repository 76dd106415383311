// Csr assembly from COO, validation and transpose, against a dense model.
#include "graphrun/engine/csr.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>

#include "graphrun/engine/error.hpp"

namespace graphrun {
namespace {

using Dense = std::map<std::pair<vertex_t, vertex_t>, double>;

Dense to_dense(const Csr<double>& a) {
  Dense d;
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    for (offset_t k = a.row_ptr()[i]; k < a.row_ptr()[i + 1]; ++k)
      d[{i, a.col_idx()[k]}] = a.is_pattern() ? 1.0 : a.values()[k];
  return d;
}

void expect_well_formed(const Csr<double>& a) {
  ASSERT_EQ(a.row_ptr().size(), static_cast<std::size_t>(a.n_rows()) + 1);
  EXPECT_EQ(a.row_ptr().front(), 0);
  EXPECT_EQ(a.row_ptr().back(), a.nnz());
  for (vertex_t i = 0; i < a.n_rows(); ++i) {
    auto cols = a.row_cols(i);
    for (std::size_t k = 1; k < cols.size(); ++k) EXPECT_LT(cols[k - 1], cols[k]) << "row " << i;
  }
}

TEST(CsrFromCoo, SumsDuplicatesAndSortsRows) {
  Coo<double> coo{3, 4, {2, 0, 0, 2, 0}, {1, 3, 1, 1, 3}, {1.0, 2.0, 3.0, 4.0, 5.0}};
  auto a = Csr<double>::from_coo(coo, Duplicates::sum);
  expect_well_formed(a);
  EXPECT_EQ(a.nnz(), 3);
  Dense want{{{0, 1}, 3.0}, {{0, 3}, 7.0}, {{2, 1}, 5.0}};
  EXPECT_EQ(to_dense(a), want);
  EXPECT_EQ(a.row_length(1), 0);
}

TEST(CsrFromCoo, MaxAndLastPolicies) {
  Coo<double> coo{1, 2, {0, 0, 0}, {1, 1, 1}, {5.0, 9.0, 2.0}};
  EXPECT_EQ(Csr<double>::from_coo(coo, Duplicates::max).values()[0], 9.0);
  EXPECT_EQ(Csr<double>::from_coo(coo, Duplicates::last).values()[0], 2.0);
}

TEST(CsrFromCoo, PatternStaysPatternWithOneEntryPerDuplicate) {
  Coo<double> coo{2, 2, {1, 1, 0, 1}, {0, 0, 1, 1}, {}};
  auto a = Csr<double>::from_coo(coo);
  EXPECT_TRUE(a.is_pattern());
  EXPECT_EQ(a.nnz(), 3);
  EXPECT_EQ(a.view().values, nullptr);
  EXPECT_EQ(a.view().value(0), 1.0);
}

TEST(CsrFromCoo, RejectsEntriesOutsideTheShape) {
  Coo<double> coo{2, 2, {0, 2}, {0, 0}, {}};
  EXPECT_THROW(Csr<double>::from_coo(coo), ArgumentError);
  Coo<double> neg{2, 2, {0}, {-1}, {}};
  EXPECT_THROW(Csr<double>::from_coo(neg), ArgumentError);
}

TEST(CsrFromCoo, EmptyShapes) {
  auto a = Csr<double>::from_coo(Coo<double>{});
  EXPECT_EQ(a.n_rows(), 0);
  EXPECT_EQ(a.nnz(), 0);
  auto b = Csr<double>::from_coo(Coo<double>{5, 0, {}, {}, {}});
  EXPECT_EQ(b.n_rows(), 5);
  EXPECT_EQ(b.row_ptr().back(), 0);
}

// The reference: every entry in input order into a map, merged by policy.
Dense reference_merge(const Coo<double>& coo, Duplicates dup) {
  Dense d;
  for (std::size_t k = 0; k < coo.row.size(); ++k) {
    const double v = coo.val.empty() ? 1.0 : coo.val[k];
    const auto [it, fresh] = d.try_emplace({coo.row[k], coo.col[k]}, v);
    if (fresh || coo.val.empty()) continue;
    it->second = dup == Duplicates::sum   ? it->second + v
                 : dup == Duplicates::max ? std::max(it->second, v)
                                          : v;
  }
  return d;
}

// Shapes that exercise the bucketed passes: many buckets of rows (n > 2048),
// empty rows, one row holding a third of the entries, power-law rows, a
// band; duplicates everywhere, values that make sum order-sensitive in
// floating point; at several thread counts (the result must not change).
TEST(CsrFromCoo, MatchesMapReferenceOnRandomShapesAtAnyThreadCount) {
  std::mt19937_64 rng(7);
  const vertex_t n = 70'000;
  // wide: columns spread over 2^30 (three radix digits in the bucketed sort).
  enum Shape { uniform, huge_row, power_law, banded, wide };
  for (Shape shape : {uniform, huge_row, power_law, banded, wide})
    for (bool pattern : {false, true}) {
      Coo<double> coo;
      coo.n_rows = n;
      coo.n_cols = shape == wide ? vertex_t{1} << 30 : n + 5;
      std::uniform_int_distribution<vertex_t> any(0, n - 1);
      std::uniform_real_distribution<double> val(-1.0, 1.0);
      for (int k = 0; k < 100'000; ++k) {
        vertex_t r = any(rng), c = any(rng) % 997;  // few columns: many duplicates
        if (shape == huge_row && k % 3 == 0) r = 12'345;
        if (shape == power_law) r = static_cast<vertex_t>(std::pow(any(rng) / double(n), 3.0) * n);
        if (shape == banded) c = std::min<vertex_t>(n + 4, r + static_cast<vertex_t>(c % 7));
        if (shape == wide) {
          r = static_cast<vertex_t>(std::pow(any(rng) / double(n), 2.0) * n);
          c = c * 1'000'003;
        }
        if (r % 5 == 1) continue;  // empty rows
        coo.row.push_back(r);
        coo.col.push_back(c);
        if (!pattern) coo.val.push_back(val(rng) * 1e-3 + (k % 11 == 0 ? 1e6 : 0.0));
      }
      for (Duplicates dup : {Duplicates::sum, Duplicates::max, Duplicates::last}) {
        if (pattern && dup != Duplicates::sum) continue;  // a pattern has no values to merge
        const Dense want = reference_merge(coo, dup);
        Csr<double> first;
        for (int threads : {1, 3}) {
          omp_set_num_threads(threads);
          const Csr<double> a = Csr<double>::from_coo(coo, dup);
          expect_well_formed(a);
          EXPECT_EQ(a.is_pattern(), pattern);
          const Dense got = to_dense(a);
          ASSERT_EQ(got.size(), want.size()) << shape << " threads " << threads;
          // Sums in input order: exactly the reference's.
          EXPECT_TRUE(got == want) << "shape " << shape << " threads " << threads;
          if (threads == 1)
            first = a;
          else
            EXPECT_TRUE(a.col_idx() == first.col_idx() && a.values() == first.values());
        }
      }
    }
  omp_set_num_threads(2);
}

TEST(CsrConstructor, ValidatesLayout) {
  EXPECT_NO_THROW(Csr<double>(2, 3, {0, 2, 3}, {0, 2, 1}, {}));
  EXPECT_THROW(Csr<double>(2, 3, {0, 2, 3}, {2, 0, 1}, {}), ArgumentError);  // unsorted row
  EXPECT_THROW(Csr<double>(2, 3, {0, 2, 3}, {0, 0, 1}, {}), ArgumentError);  // repeated column
  EXPECT_THROW(Csr<double>(2, 3, {0, 2, 3}, {0, 3, 1}, {}), ArgumentError);  // column out of range
  EXPECT_THROW(Csr<double>(2, 3, {0, 3, 2}, {0, 1, 2}, {}), ArgumentError);  // decreasing row_ptr
  EXPECT_THROW(Csr<double>(2, 3, {0, 2}, {0, 1}, {}), ArgumentError);        // short row_ptr
  EXPECT_THROW(Csr<double>(2, 3, {0, 2, 3}, {0, 2, 1}, {1.0}), ArgumentError);  // values length
  // A damaged row pointer far past nnz in the middle (a corrupt cache):
  // an error, never a read past col_idx.
  EXPECT_THROW(Csr<double>(3, 3, {0, 1000000000, 1, 3}, {0, 1, 2}, {}), ArgumentError);
  EXPECT_THROW(Csr<double>(3, 3, {0, -5, 1, 3}, {0, 1, 2}, {}), ArgumentError);
}

// Random COO of several shapes: transpose twice is the identity, transpose
// matches the dense model, and assembly agrees with the dense model.
TEST(CsrTranspose, MatchesDenseModelOnRandomMatrices) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    const vertex_t rows = 1 + static_cast<vertex_t>(rng() % 60);
    const vertex_t cols = 1 + static_cast<vertex_t>(rng() % 60);
    const int nnz = static_cast<int>(rng() % 400);
    Coo<double> coo{rows, cols, {}, {}, {}};
    Dense want;
    for (int k = 0; k < nnz; ++k) {
      // trial % 3 == 0: one row holds most entries
      const vertex_t r = (trial % 3 == 0 && k % 4 != 0) ? 0 : static_cast<vertex_t>(rng() % rows);
      const vertex_t c = static_cast<vertex_t>(rng() % cols);
      const double v = static_cast<double>(rng() % 7) + 0.5;
      coo.row.push_back(r);
      coo.col.push_back(c);
      coo.val.push_back(v);
      want[{r, c}] += v;
    }
    auto a = Csr<double>::from_coo(coo);
    expect_well_formed(a);
    EXPECT_EQ(to_dense(a), want);
    auto t = a.transpose();
    expect_well_formed(t);
    EXPECT_EQ(t.n_rows(), cols);
    Dense want_t;
    for (auto& [rc, v] : want) want_t[{rc.second, rc.first}] = v;
    EXPECT_EQ(to_dense(t), want_t);
    EXPECT_EQ(to_dense(t.transpose()), want);
  }
}

}  // namespace
}  // namespace graphrun

namespace graphrun {
namespace {

// The parallel transpose (row blocks per thread, staged in column buckets)
// must give exactly the one-thread result — sorted rows, values in place —
// for any thread count, including rows and columns left empty.
TEST(CsrTranspose, SameResultAtAnyThreadCount) {
  std::mt19937_64 rng(7);
  for (bool pattern : {true, false}) {
    Coo<double> coo{5000, 3000, {}, {}, {}};
    for (int k = 0; k < 60000; ++k) {
      // Skewed rows (low ids heavy), a band of empty columns [1000, 1100).
      const auto r = static_cast<vertex_t>((rng() % 5000) * (rng() % 5000) / 5000);
      auto c = static_cast<vertex_t>(rng() % 3000);
      if (c >= 1000 && c < 1100) c = 0;
      coo.row.push_back(r);
      coo.col.push_back(c);
      if (!pattern) coo.val.push_back(static_cast<double>(k));
    }
    const auto a = Csr<double>::from_coo(coo);
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
    const auto serial = a.transpose();
    for (int threads : {2, 3, 7, 16}) {
      omp_set_num_threads(threads);
      const auto t = a.transpose();
      EXPECT_EQ(t.row_ptr(), serial.row_ptr()) << threads;
      EXPECT_EQ(t.col_idx(), serial.col_idx()) << threads;
      EXPECT_EQ(t.values(), serial.values()) << threads;
    }
    // From inside a parallel region the transpose's own regions get a team
    // of one: it must still take every block of rows.
    omp_set_num_threads(4);
    Csr<double> nested;
#pragma omp parallel num_threads(2)
    {
#pragma omp single
      nested = a.transpose();
    }
    EXPECT_EQ(nested.row_ptr(), serial.row_ptr());
    EXPECT_EQ(nested.col_idx(), serial.col_idx());
    EXPECT_EQ(nested.values(), serial.values());
    omp_set_num_threads(saved);
    expect_well_formed(serial);
    EXPECT_EQ(to_dense(serial.transpose()), to_dense(a));
  }
}

// Wide matrices take many column buckets (up to 4,096 of up to 2^16
// columns each): the transpose equals the one assembled from the swapped
// entries (Csr::from_coo, an independent path) at every thread count, with
// a column holding a third of the entries, bands of empty columns, empty
// rows, and the last bucket only partly used.
TEST(CsrTranspose, WideMatricesMatchTheSwappedAssembly) {
  std::mt19937_64 rng(11);
  for (const vertex_t cols : {1, 4097, 300'000, (1 << 20) + 3}) {
    for (bool pattern : {true, false}) {
      const vertex_t rows = 20'000;
      Coo<double> coo{rows, cols, {}, {}, {}};
      Coo<double> swapped{cols, rows, {}, {}, {}};
      std::set<std::pair<vertex_t, vertex_t>> seen;
      for (int k = 0; k < 120'000; ++k) {
        const auto r = static_cast<vertex_t>(rng() % (rows / 2) * 2);  // odd rows empty
        auto c = static_cast<vertex_t>(rng() % static_cast<std::uint64_t>(cols));
        if (k % 3 == 0) c = cols / 2;                                    // a heavy column
        if (c % 1000 < 300 && cols > 4097) c = (c / 1000) * 1000 + 300;  // empty bands
        if (c >= cols || !seen.insert({r, c}).second) continue;
        const double v = pattern ? 1.0 : static_cast<double>(k) + 0.25;
        coo.row.push_back(r);
        coo.col.push_back(c);
        swapped.row.push_back(c);
        swapped.col.push_back(r);
        if (!pattern) {
          coo.val.push_back(v);
          swapped.val.push_back(v);
        }
      }
      const auto a = Csr<double>::from_coo(coo);
      const auto want = Csr<double>::from_coo(swapped);
      const int saved = omp_get_max_threads();
      for (int threads : {1, 2, 5}) {
        omp_set_num_threads(threads);
        const auto t = a.transpose();
        const std::string where = "cols=" + std::to_string(cols) +
                                  (pattern ? " pattern" : " valued") +
                                  " threads=" + std::to_string(threads);
        EXPECT_EQ(t.n_rows(), cols) << where;
        EXPECT_EQ(t.row_ptr(), want.row_ptr()) << where;
        EXPECT_EQ(t.col_idx(), want.col_idx()) << where;
        EXPECT_EQ(t.values(), want.values()) << where;
      }
      omp_set_num_threads(saved);
    }
  }
}

}  // namespace
}  // namespace graphrun
