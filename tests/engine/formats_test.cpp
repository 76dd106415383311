// The derived SpMV formats are built as their headers lay them out: COO,
// ELL (and its refusal past the padding limit), HYB (and its width rule),
// JDS (the permutation and the diagonals), and the merge-path partition
// (equal shares covering the whole path, each start on the path). Checked
// against direct readings of the CSR they come from, on random matrices of
// the shapes that break kernels and on small matrices by hand.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/formats/coo_format.hpp"
#include "graphrun/engine/formats/csr_bins.hpp"
#include "graphrun/engine/formats/ell.hpp"
#include "graphrun/engine/formats/hyb.hpp"
#include "graphrun/engine/formats/jds.hpp"
#include "graphrun/engine/formats/merge_path.hpp"
#include "graphrun/engine/formats/sell.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::MatrixShape;

struct Shape {
  std::string name;
  vertex_t rows, cols;
  MatrixShape shape;
  double per_row;
};

const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all = {
      {"0x0", 0, 0, MatrixShape::uniform, 3},
      {"5x0", 5, 0, MatrixShape::uniform, 3},
      {"1x1", 1, 1, MatrixShape::uniform, 2},
      {"uniform_97x61", 97, 61, MatrixShape::uniform, 4},
      {"uniform_9001", 9001, 9001, MatrixShape::uniform, 6},
      {"empty_rows_2001", 2001, 2001, MatrixShape::empty_rows, 5},
      {"heavy_row_1500", 1500, 1500, MatrixShape::heavy_row, 6},
      {"power_law_15001", 15001, 15001, MatrixShape::power_law, 8},
      {"banded_13000x900", 13000, 900, MatrixShape::banded, 9},
  };
  return all;
}

// Every shape, weighted and pattern.
template <class Fn>
void for_each_matrix(Fn fn) {
  std::uint64_t seed = 100;
  for (const Shape& s : shapes())
    for (bool pattern : {false, true}) {
      const Csr<double> a =
          test::random_csr<double>(s.rows, s.cols, s.shape, s.per_row, pattern, ++seed);
      SCOPED_TRACE(s.name + (pattern ? " pattern" : " valued"));
      fn(a);
    }
}

TEST(CooFormat, IsCsrRowByRow) {
  for_each_matrix([](const Csr<double>& a) {
    const CooMatrix<double> c = CooMatrix<double>::from_csr(a);
    ASSERT_EQ(c.nnz(), a.nnz());
    EXPECT_EQ(c.n_rows(), a.n_rows());
    EXPECT_EQ(c.n_cols(), a.n_cols());
    EXPECT_EQ(c.is_pattern(), a.is_pattern());
    EXPECT_EQ(c.col_idx(), a.col_idx());
    EXPECT_EQ(c.values(), a.values());
    for (vertex_t i = 0; i < a.n_rows(); ++i)
      for (offset_t k = a.row_ptr()[i]; k < a.row_ptr()[i + 1]; ++k) ASSERT_EQ(c.row_idx()[k], i);
    const CooView<double> v = c.view();
    EXPECT_EQ(v.nnz, a.nnz());
    EXPECT_EQ(v.values == nullptr, a.is_pattern());
  });
}

// csr-bins: each row's bin gives it at least its length in lanes below a
// warp, never more than twice it (one lane for rows of 0 or 1), a warp from
// 17 entries to csr_bins_long_row, a block past it; the bins go up with the
// length.
TEST(CsrBins, BinsGiveRowsTheirLengthInLanes) {
  int last = 0;
  for (offset_t len = 0; len <= 3 * csr_bins_long_row; ++len) {
    const int b = csr_bin(len);
    ASSERT_GE(b, last) << len;
    last = b;
    ASSERT_LT(b, csr_bin_count) << len;
    if (len > csr_bins_long_row) {
      EXPECT_EQ(b, 6) << len;
    } else if (len > 16) {
      EXPECT_EQ(b, 5) << len;
    } else {
      EXPECT_GE(csr_bin_width(b), len) << len;
      EXPECT_TRUE(len <= 1 ? b == 0 : csr_bin_width(b) < 2 * len) << len;
    }
  }
  EXPECT_EQ(csr_bin(2), 1);
  EXPECT_EQ(csr_bin(16), 4);
  EXPECT_EQ(csr_bin(17), 5);
}

TEST(EllFormat, ColumnMajorPaddedToTheLongestRow) {
  int built = 0;
  for_each_matrix([&](const Csr<double>& a) {
    const RowStats s = analyze(a.view());
    const bool fits = static_cast<double>(s.max_length) * a.n_rows() <=
                      ell_max_fill * std::max<offset_t>(a.nnz(), 1);
    if (!fits) {
      EXPECT_THROW(Ell<double>::from_csr(a), FormatError);
      return;
    }
    const Ell<double> e = Ell<double>::from_csr(a);
    ++built;
    ASSERT_EQ(e.width(), s.max_length);
    ASSERT_EQ(static_cast<offset_t>(e.col_idx().size()), e.width() * a.n_rows());
    EXPECT_EQ(e.values().size(), a.is_pattern() ? 0u : e.col_idx().size());
    const offset_t n = a.n_rows();
    for (vertex_t i = 0; i < a.n_rows(); ++i) {
      const offset_t len = a.row_length(i);
      for (offset_t j = 0; j < e.width(); ++j) {
        const offset_t slot = j * n + i;
        if (j < len) {
          ASSERT_EQ(e.col_idx()[slot], a.col_idx()[a.row_ptr()[i] + j]) << i << "," << j;
          if (!a.is_pattern()) {
            ASSERT_EQ(e.values()[slot], a.values()[a.row_ptr()[i] + j]);
          }
        } else {
          ASSERT_EQ(e.col_idx()[slot], -1) << i << "," << j;
          if (!a.is_pattern()) {
            ASSERT_EQ(e.values()[slot], 0.0);
          }
        }
      }
    }
  });
  EXPECT_GE(built, 8);  // most shapes fit; heavy_row and power_law must not
}

// The limit is ell_max_fill slots per nonzero, inclusive.
TEST(EllFormat, RefusesPastThePaddingLimit) {
  // n rows, one of length w, the others of length 1: slots w*n, nnz w+n-1.
  auto matrix = [](vertex_t n, vertex_t w) {
    Coo<double> coo;
    coo.n_rows = n;
    coo.n_cols = w;
    for (vertex_t j = 0; j < w; ++j) {
      coo.row.push_back(0);
      coo.col.push_back(j);
    }
    for (vertex_t i = 1; i < n; ++i) {
      coo.row.push_back(i);
      coo.col.push_back(0);
    }
    return Csr<double>::from_coo(coo);
  };
  // n = 4, w = 3: slots 12, nnz 6: fill 2 -> built.
  EXPECT_NO_THROW(Ell<double>::from_csr(matrix(4, 3)));
  // n = 5, w = 5: slots 25, nnz 9: fill 2.78 -> built.
  EXPECT_NO_THROW(Ell<double>::from_csr(matrix(5, 5)));
  // n = 6, w = 6: slots 36, nnz 11: fill 3.27 -> refused.
  EXPECT_THROW(Ell<double>::from_csr(matrix(6, 6)), FormatError);
  // Exactly 3: n = 3, w = 3: slots 9, nnz 5 -> 1.8; build one at 3.0 by hand:
  // 3 rows of lengths 3, 0, 0: slots 9, nnz 3.
  Coo<double> coo{3, 3, {0, 0, 0}, {0, 1, 2}, {1, 2, 3}};
  EXPECT_NO_THROW(Ell<double>::from_csr(Csr<double>::from_coo(coo)));
  coo.n_rows = 4;  // slots 12 > 9
  EXPECT_THROW(Ell<double>::from_csr(Csr<double>::from_coo(coo)), FormatError);
  // Overflow of width * n_rows is a refusal, not a wrap-around.
  EXPECT_FALSE(ell_fits(max_vertices, std::numeric_limits<offset_t>::max() / 2, 1));
  EXPECT_TRUE(ell_fits(0, 0, 0));
  EXPECT_TRUE(ell_fits(10, 0, 0));
}

TEST(EllFormat, EmptyShapes) {
  const Ell<double> e = Ell<double>::from_csr(Csr<double>());
  EXPECT_EQ(e.width(), 0);
  EXPECT_TRUE(e.col_idx().empty());
  Coo<float> coo{7, 3, {}, {}, {}};
  const Ell<float> f = Ell<float>::from_csr(Csr<float>::from_coo(coo));
  EXPECT_EQ(f.n_rows(), 7);
  EXPECT_EQ(f.width(), 0);
  EXPECT_THROW(Ell<double>::from_csr_truncated(Csr<double>().view(), -1), ArgumentError);
}

// The rule on hand-made histograms.
TEST(HybFormat, EllWidthRuleOnHistograms) {
  RowStats s;
  s.n_rows = 30000;        // threshold max(4096, 10000) = 10000
  s.histogram[1] = 5000;   // length 1
  s.histogram[3] = 5000;   // lengths 4..7
  s.histogram[5] = 5000;   // 16..31
  s.histogram[6] = 15000;  // 32..63
  // Rows of length >= 32: 15000 >= 10000 -> K = 32.
  EXPECT_EQ(hyb_ell_width(s), 32);
  s.histogram[6] = 9999;
  s.histogram[1] = 5000 + 6001;
  // >= 32: 9999; >= 16: 14999 -> K = 16.
  EXPECT_EQ(hyb_ell_width(s), 16);
  // Fewer than 4096 rows in all: ELL never pays, K = 0.
  RowStats small;
  small.n_rows = 4000;
  small.histogram[4] = 4000;
  EXPECT_EQ(hyb_ell_width(small), 0);
  // 4096 rows of length >= 1 but only 4095 of length >= 2: K = 1.
  RowStats edge;
  edge.n_rows = 12000;  // threshold 4096 (12000 / 3 = 4000 < 4096)
  edge.histogram[0] = 7904;
  edge.histogram[1] = 1;
  edge.histogram[2] = 4095;
  EXPECT_EQ(hyb_ell_width(edge), 1);
  EXPECT_EQ(hyb_ell_width(RowStats{}), 0);
}

// K on real matrices agrees with a direct count over the rows, and the two
// parts hold exactly the first K and the remaining entries of each row.
TEST(HybFormat, SplitsEveryRowAtK) {
  int both_parts = 0;  // matrices whose ELL and COO parts are both non-empty
  for_each_matrix([&](const Csr<double>& a) {
    const Hyb<double> h = Hyb<double>::from_csr(a);
    both_parts += h.ell_width() > 0 && h.coo().nnz() > 0;
    const std::int64_t threshold = std::max<std::int64_t>(4096, a.n_rows() / 3);
    offset_t expect_k = 0;
    for (offset_t k = 1; k <= std::max<offset_t>(1, analyze(a.view()).max_length); k *= 2) {
      std::int64_t rows = 0;
      for (vertex_t i = 0; i < a.n_rows(); ++i) rows += a.row_length(i) >= k;
      if (rows >= threshold) expect_k = k;
    }
    ASSERT_EQ(h.ell_width(), expect_k);
    const offset_t n = a.n_rows(), K = h.ell_width();
    const auto& coo = h.coo();
    EXPECT_EQ(coo.is_pattern(), a.is_pattern());
    offset_t c = 0;  // position in the COO part
    for (vertex_t i = 0; i < a.n_rows(); ++i) {
      const offset_t begin = a.row_ptr()[i], len = a.row_length(i);
      for (offset_t j = 0; j < K; ++j) {
        const vertex_t col = h.ell().col_idx()[j * n + i];
        ASSERT_EQ(col, j < len ? a.col_idx()[begin + j] : -1);
      }
      for (offset_t j = K; j < len; ++j, ++c) {
        ASSERT_LT(c, coo.nnz());
        ASSERT_EQ(coo.row_idx()[c], i);
        ASSERT_EQ(coo.col_idx()[c], a.col_idx()[begin + j]);
        if (!a.is_pattern()) {
          ASSERT_EQ(coo.values()[c], a.values()[begin + j]);
        }
      }
    }
    EXPECT_EQ(c, coo.nnz());
  });
  EXPECT_GE(both_parts, 4);
  // An explicit width splits there.
  const Csr<double> a = test::random_csr<double>(300, 300, MatrixShape::power_law, 5, false, 9);
  const Hyb<double> h = Hyb<double>::from_csr(a.view(), 3);
  EXPECT_EQ(h.ell_width(), 3);
  offset_t tail = 0;
  for (vertex_t i = 0; i < a.n_rows(); ++i) tail += std::max<offset_t>(0, a.row_length(i) - 3);
  EXPECT_EQ(h.coo().nnz(), tail);
  EXPECT_THROW(Hyb<double>::from_csr(a.view(), -2), ArgumentError);
}

TEST(JdsFormat, RowsSortedByLengthThenJaggedDiagonals) {
  for_each_matrix([](const Csr<double>& a) {
    const Jds<double> j = Jds<double>::from_csr(a);
    const auto& perm = j.perm();
    ASSERT_EQ(static_cast<vertex_t>(perm.size()), a.n_rows());
    // A permutation...
    std::vector<char> seen(a.n_rows(), 0);
    for (vertex_t r : perm) {
      ASSERT_GE(r, 0);
      ASSERT_LT(r, a.n_rows());
      ASSERT_FALSE(seen[r]);
      seen[r] = 1;
    }
    // ...by decreasing length, ties in row order (so empty rows come last).
    for (vertex_t r = 1; r < a.n_rows(); ++r) {
      const offset_t l0 = a.row_length(perm[r - 1]), l1 = a.row_length(perm[r]);
      ASSERT_GE(l0, l1);
      if (l0 == l1) {
        ASSERT_LT(perm[r - 1], perm[r]);
      }
    }
    const offset_t longest = a.n_rows() ? a.row_length(perm[0]) : 0;
    ASSERT_EQ(j.n_diag(), longest);
    ASSERT_EQ(j.jd_ptr().front(), 0);
    ASSERT_EQ(j.jd_ptr().back(), a.nnz());
    EXPECT_EQ(j.nnz(), a.nnz());
    EXPECT_EQ(j.is_pattern(), a.is_pattern());
    for (offset_t d = 0; d < j.n_diag(); ++d) {
      offset_t longer = 0;
      for (vertex_t i = 0; i < a.n_rows(); ++i) longer += a.row_length(i) > d;
      ASSERT_EQ(j.jd_ptr()[d + 1] - j.jd_ptr()[d], longer) << "diagonal " << d;
      for (offset_t r = 0; r < longer; ++r) {
        const offset_t src = a.row_ptr()[perm[r]] + d;
        ASSERT_EQ(j.col_idx()[j.jd_ptr()[d] + r], a.col_idx()[src]);
        if (!a.is_pattern()) {
          ASSERT_EQ(j.values()[j.jd_ptr()[d] + r], a.values()[src]);
        }
      }
    }
  });
}

TEST(JdsFormat, SmallByHand) {
  // Row lengths 1, 3, 0, 3, 2 -> perm 1, 3, 4, 0, 2; diagonals of 4, 3, 2 entries.
  Coo<double> coo{5, 4, {0, 1, 1, 1, 3, 3, 3, 4, 4}, {2, 0, 1, 3, 1, 2, 3, 0, 3}, {}};
  const Jds<double> j = Jds<double>::from_csr(Csr<double>::from_coo(coo));
  EXPECT_EQ(j.perm(), (std::vector<vertex_t>{1, 3, 4, 0, 2}));
  EXPECT_EQ(j.jd_ptr(), (std::vector<offset_t>{0, 4, 7, 9}));
  EXPECT_EQ(j.col_idx(), (std::vector<vertex_t>{0, 1, 0, 2, 1, 2, 3, 3, 3}));
}

// One SELL layout of `a` with window σ against its definition.
void check_sell(const Csr<double>& a, vertex_t window) {
  SCOPED_TRACE("window " + std::to_string(window));
  Sell<double> m;
  try {
    m = Sell<double>::from_csr(a.view(), window);
  } catch (const FormatError&) {
    // Refused only past the fill limit: recount the slots it would need.
    std::vector<vertex_t> perm(a.n_rows());
    std::iota(perm.begin(), perm.end(), vertex_t{0});
    for (vertex_t w = 0; w < a.n_rows(); w += window) {
      const vertex_t end = std::min(a.n_rows(), w + window);
      std::stable_sort(perm.begin() + w, perm.begin() + end,
                       [&](vertex_t p, vertex_t q) { return a.row_length(p) > a.row_length(q); });
    }
    offset_t slots = 0;  // those of existing rows: each row padded to its slice's first
    for (vertex_t r = 0; r < a.n_rows(); ++r) slots += a.row_length(perm[r - r % sell_chunk]);
    EXPECT_GT(double(slots), ell_max_fill * double(std::max<offset_t>(a.nnz(), 1)));
    return;
  }
  const auto& perm = m.perm();
  ASSERT_EQ(static_cast<vertex_t>(perm.size()), a.n_rows());
  // Each window is a permutation of its own rows, by decreasing length,
  // ties in row order.
  for (vertex_t r = 0; r < a.n_rows(); ++r) {
    ASSERT_EQ(perm[r] / window, r / window) << "position " << r;
    if (r % window == 0) continue;
    const offset_t l0 = a.row_length(perm[r - 1]), l1 = a.row_length(perm[r]);
    ASSERT_GE(l0, l1);
    if (l0 == l1) {
      ASSERT_LT(perm[r - 1], perm[r]);
    }
  }
  std::vector<char> seen(a.n_rows(), 0);
  for (vertex_t i : perm) {
    ASSERT_FALSE(seen[i]);
    seen[i] = 1;
  }
  // Each slice is 32 x its first row's length; entry j of position r at
  // slice_ptr[s] + 32 j + r % 32, then -1 to the slice's width.
  ASSERT_EQ(m.n_slices(), (a.n_rows() + sell_chunk - 1) / sell_chunk);
  ASSERT_EQ(m.slice_ptr().front(), 0);
  EXPECT_EQ(m.nnz(), a.nnz());
  EXPECT_EQ(m.is_pattern(), a.is_pattern());
  for (vertex_t s = 0; s < m.n_slices(); ++s) {
    const offset_t width = a.row_length(perm[s * sell_chunk]);
    ASSERT_EQ(m.slice_ptr()[s + 1] - m.slice_ptr()[s], sell_chunk * width) << "slice " << s;
    for (vertex_t l = 0; l < sell_chunk; ++l) {
      const vertex_t r = s * sell_chunk + l;
      const offset_t len = r < a.n_rows() ? a.row_length(perm[r]) : 0;
      for (offset_t j = 0; j < width; ++j) {
        const offset_t slot = m.slice_ptr()[s] + j * sell_chunk + l;
        if (j < len) {
          const offset_t src = a.row_ptr()[perm[r]] + j;
          ASSERT_EQ(m.col_idx()[slot], a.col_idx()[src]);
          if (!a.is_pattern()) {
            ASSERT_EQ(m.values()[slot], a.values()[src]);
          }
        } else {
          ASSERT_EQ(m.col_idx()[slot], -1) << "slot " << slot;
        }
      }
    }
  }
  ASSERT_EQ(static_cast<std::size_t>(m.slice_ptr().back()), m.col_idx().size());
}

TEST(SellFormat, WindowsSortedByLengthThenSlicesColumnMajor) {
  for_each_matrix([](const Csr<double>& a) {
    for (vertex_t window : {32, 96, 1024, 4096}) check_sell(a, window);
    // The default window is the rule's.
    const vertex_t w = sell_window(analyze(a.view()));
    try {
      EXPECT_EQ(Sell<double>::from_csr(a).perm(), Sell<double>::from_csr(a.view(), w).perm());
    } catch (const FormatError&) {
      EXPECT_THROW(Sell<double>::from_csr(a.view(), w), FormatError);
    }
  });
}

// With column parts: part p's slice s is slice p n_slices + s, as wide as
// its rows' longest run of entries in columns [p n / P, (p + 1) n / P),
// each row's run in CSR order down its lane, -1 past it; the one perm.
void check_sell_parts(const Csr<double>& a, vertex_t parts) {
  SCOPED_TRACE(std::to_string(parts) + " column parts");
  std::optional<Sell<double>> made;
  try {
    made = Sell<double>::from_csr(a.view(), sell_chunk, parts);
  } catch (const FormatError&) {
    return;  // past the fill limit: the slots are recounted in WindowsSorted...
  }
  const Sell<double>& m = *made;
  const Sell<double> one = Sell<double>::from_csr(a.view(), sell_chunk);
  ASSERT_EQ(m.n_parts(), parts);
  ASSERT_EQ(m.perm(), one.perm());
  ASSERT_EQ(m.n_slices(), one.n_slices());
  ASSERT_EQ(m.slice_ptr().size(), std::size_t(m.n_slices()) * parts + 1);
  const auto& perm = m.perm();
  const auto part_of = [&](vertex_t c) {  // the part holding column c
    vertex_t p = 0;
    while (c >= vertex_t(offset_t{a.n_cols()} * (p + 1) / parts)) ++p;
    return p;
  };
  offset_t stored = 0;
  for (vertex_t p = 0; p < parts; ++p)
    for (vertex_t s = 0; s < m.n_slices(); ++s) {
      const std::size_t at = std::size_t(p) * m.n_slices() + s;
      std::vector<std::vector<offset_t>> runs(sell_chunk);  // each lane's entries in part p
      offset_t width = 0;
      for (vertex_t l = 0; l < sell_chunk; ++l) {
        const vertex_t r = s * sell_chunk + l;
        if (r >= a.n_rows()) continue;
        for (offset_t k = a.row_ptr()[perm[r]]; k < a.row_ptr()[perm[r] + 1]; ++k)
          if (part_of(a.col_idx()[k]) == p) runs[l].push_back(k);
        width = std::max<offset_t>(width, runs[l].size());
      }
      ASSERT_EQ(m.slice_ptr()[at + 1] - m.slice_ptr()[at], sell_chunk * width)
          << "part " << p << " slice " << s;
      for (vertex_t l = 0; l < sell_chunk; ++l)
        for (offset_t j = 0; j < width; ++j) {
          const offset_t slot = m.slice_ptr()[at] + j * sell_chunk + l;
          if (j < offset_t(runs[l].size())) {
            ASSERT_EQ(m.col_idx()[slot], a.col_idx()[runs[l][j]]) << "slot " << slot;
            if (!a.is_pattern()) {
              ASSERT_EQ(m.values()[slot], a.values()[runs[l][j]]);
            }
            ++stored;
          } else {
            ASSERT_EQ(m.col_idx()[slot], -1) << "slot " << slot;
          }
        }
    }
  EXPECT_EQ(stored, a.nnz());  // every entry in exactly one part
  ASSERT_EQ(static_cast<std::size_t>(m.slice_ptr().back()), m.col_idx().size());
}

TEST(SellFormat, ColumnPartsHoldEachRowsEntriesOfTheirColumns) {
  int built = 0;
  for_each_matrix([&](const Csr<double>& a) {
    for (vertex_t parts : {1, 2, 3, 7}) check_sell_parts(a, parts);
    try {
      (void)Sell<double>::from_csr(a.view(), sell_chunk, 3);
      ++built;
    } catch (const FormatError&) {
    }
  });
  EXPECT_GT(built, 3);  // the checks above ran on real layouts
  const Csr<double> a = test::random_csr<double>(100, 100, MatrixShape::uniform, 3, false, 1);
  for (vertex_t bad : {0, -1}) {
    EXPECT_THROW(Sell<double>::from_csr(a.view(), sell_chunk, bad), ArgumentError) << bad;
  }
}

// The parts rule: each part's slice of x at most a third of the L2, at
// most one part per 4 entries of the mean row; figures of an H100 (50 MiB).
TEST(SellFormat, ColumnPartRule) {
  const std::int64_t l2 = 50 << 20;
  const vertex_t m4 = 1 << 22, m16 = 1 << 24;
  EXPECT_EQ(sell_column_parts(m4, 32 * offset_t{m4}, m4, 8, l2), 2);     // 32 MiB of x
  EXPECT_EQ(sell_column_parts(m4, 32 * offset_t{m4}, m4, 4, l2), 1);     // 16 MiB
  EXPECT_EQ(sell_column_parts(m16, 32 * offset_t{m16}, m16, 4, l2), 4);  // 64 MiB
  EXPECT_EQ(sell_column_parts(m16, 32 * offset_t{m16}, m16, 8, l2), 8);  // 128 MiB
  EXPECT_EQ(sell_column_parts(m16, 6 * offset_t{m16}, m16, 8, l2), 1);   // rows of 6
  EXPECT_EQ(sell_column_parts(m16, 12 * offset_t{m16}, m16, 8, l2), 3);  // rows of 12
  EXPECT_EQ(sell_column_parts(m16, 32 * offset_t{m16}, m16, 8, 0), 1);   // no L2 known
  EXPECT_EQ(sell_column_parts(0, 0, 0, 8, l2), 1);
}

TEST(SellFormat, WindowRule) {
  RowStats s;
  s.cv = 0.18;  // a uniform random graph
  EXPECT_EQ(sell_window(s), sell_chunk);
  s.cv = 0.49;  // an LFR graph
  EXPECT_EQ(sell_window(s), 1024);
  const Csr<double> a = test::random_csr<double>(100, 100, MatrixShape::uniform, 3, false, 1);
  for (vertex_t bad : {0, -32, 33, 100})
    EXPECT_THROW(Sell<double>::from_csr(a.view(), bad), ArgumentError) << bad;
}

TEST(SellFormat, SmallByHand) {
  // Row lengths 1, 3, 0, 3, 2 -> perm 1, 3, 4, 0, 2 (one window); one slice
  // of width 3, positions 5..31 all padding.
  Coo<double> coo{5, 4, {0, 1, 1, 1, 3, 3, 3, 4, 4}, {2, 0, 1, 3, 1, 2, 3, 0, 3}, {}};
  const Sell<double> m = Sell<double>::from_csr(Csr<double>::from_coo(coo).view(), 32);
  EXPECT_EQ(m.perm(), (std::vector<vertex_t>{1, 3, 4, 0, 2}));
  EXPECT_EQ(m.slice_ptr(), (std::vector<offset_t>{0, 96}));
  std::vector<vertex_t> want(96, -1);
  const vertex_t rows[5][3] = {{0, 1, 3}, {1, 2, 3}, {0, 3, -1}, {2, -1, -1}, {-1, -1, -1}};
  for (int l = 0; l < 5; ++l)
    for (int j = 0; j < 3; ++j) want[j * 32 + l] = rows[l][j];
  EXPECT_EQ(m.col_idx(), want);
}

TEST(SellFormat, RefusesPastTheFillLimit) {
  // One row of 1,000 entries beside 31 of one entry: a slice of 32,000 slots
  // for 1,031 entries.
  std::vector<vertex_t> r, c;
  for (vertex_t j = 0; j < 1000; ++j) {
    r.push_back(0);
    c.push_back(j);
  }
  for (vertex_t i = 1; i < 32; ++i) {
    r.push_back(i);
    c.push_back(i);
  }
  const Csr<double> a = Csr<double>::from_coo(Coo<double>{32, 1000, r, c, {}});
  EXPECT_THROW(Sell<double>::from_csr(a), FormatError);
  EXPECT_THROW(Sell<double>::from_csr(a.view(), 1024), FormatError);
}

// Walks the merge of row ends and entry indices step by step, recording the
// coordinate on every diagonal: what merge_path_search must find.
std::vector<MergeCoord> walk_merge_path(const Csr<double>& a) {
  std::vector<MergeCoord> at;
  vertex_t i = 0;
  offset_t k = 0;
  at.push_back({i, k});
  while (i < a.n_rows() || k < a.nnz()) {
    if (i < a.n_rows() && a.row_ptr()[i + 1] <= k)
      ++i;
    else
      ++k;
    at.push_back({i, k});
  }
  return at;
}

TEST(MergePath, SearchFindsThePathOnEveryDiagonal) {
  for_each_matrix([](const Csr<double>& a) {
    if (a.n_rows() + a.nnz() > 50000) return;  // quadratic-free but keep it quick
    const std::vector<MergeCoord> path = walk_merge_path(a);
    for (offset_t d = 0; d < static_cast<offset_t>(path.size()); ++d) {
      const MergeCoord c = merge_path_search(d, a.row_ptr().data() + 1, a.n_rows(), a.nnz());
      ASSERT_EQ(c, path[d]) << "diagonal " << d << ": (" << c.row << ", " << c.entry
                            << ") instead of (" << path[d].row << ", " << path[d].entry << ")";
    }
  });
}

TEST(MergePath, SharesAreEqualAndCoverThePath) {
  for_each_matrix([](const Csr<double>& a) {
    const offset_t total = a.n_rows() + a.nnz();
    for (int shares : {1, 2, 3, 7, 64, 1000}) {
      const MergePathPartition mp(a.view(), shares);
      ASSERT_EQ(mp.shares(), shares);
      ASSERT_EQ(static_cast<int>(mp.starts().size()), shares + 1);
      const offset_t len = (total + shares - 1) / shares;
      EXPECT_EQ(mp.share_length(), len);
      EXPECT_EQ(mp.starts().front(), (MergeCoord{0, 0}));
      EXPECT_EQ(mp.starts().back(), (MergeCoord{a.n_rows(), a.nnz()}));
      for (int p = 0; p < shares; ++p) {
        const MergeCoord b = mp.starts()[p], e = mp.starts()[p + 1];
        ASSERT_LE(b.row, e.row);
        ASSERT_LE(b.entry, e.entry);
        // Every share but the tail has exactly the share length.
        const offset_t steps = (e.row + e.entry) - (b.row + b.entry);
        ASSERT_EQ(steps, std::min(len, std::max<offset_t>(0, total - offset_t{p} * len)))
            << "share " << p << " of " << shares;
        // On the path: rows before `row` end by `entry`, row `row` ends after it.
        if (e.row > 0) {
          ASSERT_LE(a.row_ptr()[e.row], e.entry);
        }
        if (e.row < a.n_rows() && e.entry > 0) {
          ASSERT_GE(a.row_ptr()[e.row + 1], e.entry);
        }
      }
    }
  });
  EXPECT_THROW(MergePathPartition(Csr<double>().view(), 0), ArgumentError);
}

// A row longer than a share is split across several: the heavy row case.
TEST(MergePath, SplitsALongRow) {
  Coo<double> coo{3, 100, {}, {}, {}};
  for (vertex_t j = 0; j < 100; ++j) {
    coo.row.push_back(1);
    coo.col.push_back(j);
  }
  const Csr<double> a = Csr<double>::from_coo(coo);  // lengths 0, 100, 0: path of 103 steps
  const MergePathPartition mp(a.view(), 4);          // shares of 26 steps
  EXPECT_EQ(mp.share_length(), 26);
  EXPECT_EQ(mp.starts()[1], (MergeCoord{1, 25}));  // row 0 closed, 25 entries of row 1
  EXPECT_EQ(mp.starts()[2], (MergeCoord{1, 51}));
  EXPECT_EQ(mp.starts()[3], (MergeCoord{1, 77}));
  EXPECT_EQ(mp.starts()[4], (MergeCoord{3, 100}));
}

// The CPU rule: merge-path exactly when the longest row holds more than a
// thread's share of the work (rows + nnz) / T, T = OpenMP's default thread
// count; CSR for small matrices and for one thread.
TEST(SpmvFormatChoice, MergePathPaysWhenOneRowExceedsAThreadsShare) {
  RowStats s;
  s.n_rows = 100000;
  s.nnz = 900000;  // work 1,000,000
  s.max_length = 250000;
  EXPECT_FALSE(merge_path_pays_on_cpu(s, 1));
  EXPECT_FALSE(merge_path_pays_on_cpu(s, 4));  // exactly a share
  EXPECT_TRUE(merge_path_pays_on_cpu(s, 5));
  EXPECT_TRUE(merge_path_pays_on_cpu(s, 64));
  s.max_length = 100;
  EXPECT_FALSE(merge_path_pays_on_cpu(s, 64));
  EXPECT_TRUE(merge_path_pays_on_cpu(s, 10001));
  RowStats small;  // below the parallel threshold: both kernels run serially
  small.n_rows = 10;
  small.nnz = 1000;
  small.max_length = 990;
  EXPECT_FALSE(merge_path_pays_on_cpu(small, 64));
}

TEST(SpmvFormatChoice, CpuMergePathWhenOneRowExceedsAThreadsShare) {
  const int saved = omp_get_max_threads();
  RowStats s;
  s.n_rows = 100000;
  s.nnz = 900000;  // work 1,000,000
  s.mean = 9;
  omp_set_num_threads(2);
  s.max_length = 500000;  // exactly a share: CSR
  EXPECT_EQ(choose_spmv_format(s, Device::cpu), SpmvFormat::csr_warp);
  s.max_length = 500001;
  EXPECT_EQ(choose_spmv_format(s, Device::cpu), SpmvFormat::merge_path);
  omp_set_num_threads(16);
  s.max_length = 62501;  // > 1,000,000 / 16
  EXPECT_EQ(choose_spmv_format(s, Device::cpu), SpmvFormat::merge_path);
  s.max_length = 60000;
  EXPECT_EQ(choose_spmv_format(s, Device::cpu), SpmvFormat::csr_warp);
  omp_set_num_threads(1);  // nothing to balance
  s.max_length = 900000;
  EXPECT_EQ(choose_spmv_format(s, Device::cpu), SpmvFormat::csr_warp);
  omp_set_num_threads(4);
  RowStats small;  // below the parallel threshold: both kernels run serially
  small.n_rows = 10;
  small.nnz = 1000;
  small.max_length = 990;
  EXPECT_EQ(choose_spmv_format(small, Device::cpu), SpmvFormat::csr_warp);
  EXPECT_EQ(choose_spmv_format(RowStats{}, Device::cpu), SpmvFormat::csr_warp);
  // On real shapes: a hub row of most entries goes to merge-path, a banded
  // matrix to CSR; the CPU never picks a reference-only format.
  const Csr<double> hub =
      test::random_csr<double>(20000, 200000, MatrixShape::heavy_row, 20, true, 4);
  EXPECT_EQ(choose_spmv_format(analyze(hub.view()), Device::cpu), SpmvFormat::merge_path);
  const Csr<double> band = test::random_csr<double>(20000, 20000, MatrixShape::banded, 9, true, 4);
  EXPECT_EQ(choose_spmv_format(analyze(band.view()), Device::cpu), SpmvFormat::csr_warp);
  omp_set_num_threads(saved);
}

// The format table: every row parses back to itself, prints its name and
// help, and has a distinct name; the concrete formats are the rows after
// `auto`, in order; anything else is refused with the list of names.
TEST(SpmvFormatTable, EveryRowParsesAndPrintsItsHelp) {
  const auto table = spmv_format_table();
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(table.front().format, SpmvFormat::automatic);
  EXPECT_EQ(table.front().name, "auto");
  ASSERT_EQ(all_spmv_formats().size() + 1, table.size());
  const std::string names = spmv_format_names();
  const std::string help = spmv_format_help();
  for (std::size_t i = 0; i < table.size(); ++i) {
    const SpmvFormatRow& r = table[i];
    SCOPED_TRACE(std::string(r.name));
    EXPECT_EQ(static_cast<std::size_t>(r.format), i);
    EXPECT_EQ(parse_spmv_format(r.name), r.format);
    EXPECT_EQ(to_string(r.format), r.name);
    EXPECT_EQ(&spmv_format_row(r.format), &r);
    if (i > 0) {
      EXPECT_EQ(all_spmv_formats()[i - 1], r.format);
    }
    EXPECT_FALSE(r.help.empty());
    EXPECT_EQ(r.help.find('\n'), std::string_view::npos) << "one line";
    EXPECT_NE(names.find(r.name), std::string::npos);
    std::string line = "  ";
    line += r.name;
    EXPECT_NE(help.find(line), std::string::npos);
    EXPECT_NE(help.find(r.help), std::string::npos);
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(table[j].name, r.name);
  }
  for (const char* bad : {"", "Coo", "csr", "merge_path", "diagonal"}) {
    try {
      parse_spmv_format(bad);
      ADD_FAILURE() << "'" << bad << "' parsed";
    } catch (const ArgumentError& e) {
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
    }
  }
}

// visit_spmv_format reaches every concrete format as its own constant, and
// refuses `auto`.
TEST(SpmvFormatTable, VisitReachesEveryFormat) {
  for (SpmvFormat f : all_spmv_formats())
    EXPECT_EQ(visit_spmv_format(f, [](auto c) { return decltype(c)::value; }), f);
  EXPECT_THROW(visit_spmv_format(SpmvFormat::automatic, [](auto) { return 0; }), ArgumentError);
}

// The chooser returns, on each device, only formats whose row lets `auto`
// pick them there, and `auto`'s help names exactly those.
TEST(SpmvFormatTable, ChooserPicksOnlyWhatTheTableAllows) {
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 16}) {
    omp_set_num_threads(threads);
    for (vertex_t rows : {0, 100, 20000, 1 << 17, 1 << 22})
      for (double mean : {0.0, 1.0, 4.0, 12.0, 40.0})
        for (double cv : {0.0, 0.4, 1.0, 3.0})
          for (offset_t longest : {offset_t{0}, offset_t{8}, offset_t{5000}, offset_t{1} << 22}) {
            RowStats s;
            s.n_rows = rows;
            s.nnz = static_cast<offset_t>(mean * rows);
            s.mean = mean;
            s.cv = cv;
            s.max_length = longest;
            for (Device d : {Device::cpu, Device::cuda}) {
              const SpmvFormat f = choose_spmv_format(s, d);
              EXPECT_TRUE(spmv_format_picked(f, d))
                  << to_string(f) << " on " << to_string(d) << ", rows " << rows;
            }
          }
  }
  omp_set_num_threads(saved);
  const std::string help = spmv_format_help();
  for (Device d : {Device::cpu, Device::cuda}) {
    std::string picks = d == Device::cpu ? "CPU:" : "GPU:";
    const char* sep = " ";
    for (SpmvFormat f : all_spmv_formats()) {
      if (!spmv_format_picked(f, d)) continue;
      picks += sep;
      picks += to_string(f);
      sep = ", ";
    }
    EXPECT_NE(help.find(picks), std::string::npos) << picks;
  }
}

}  // namespace
}  // namespace graphrun
