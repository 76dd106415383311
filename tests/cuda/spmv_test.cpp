// The CUDA SpMV kernel family against the CPU reference: every format
// (and `auto`) x semiring x mask (none, plain, complemented) on random
// matrices of the shapes that break kernels, pattern and weighted, float and
// double, and on shared real graphs. PlusTimes agrees within a rounding
// bound (the GPU adds in another order); MinPlus, MaxTimes and OrAnd agree
// exactly. Rows outside the mask must keep their old value. Skips where
// there is no CUDA backend or no GPU; the *Large* cases are skipped by the
// compute-sanitizer runs of scripts/gpu-check.sh.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/formats/coo_format.hpp"
#include "graphrun/engine/formats/ell.hpp"
#include "graphrun/engine/formats/hyb.hpp"
#include "graphrun/engine/formats/jds.hpp"
#include "graphrun/engine/formats/sell.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/kernels/cpu/spmv_reference.hpp"
#include "graphrun/kernels/cuda/bandwidth.hpp"
#include "support/random_graphs.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)  // the device headers: CUDA builds only
#include "graphrun/engine/cuda/coo.hpp"
#include "graphrun/engine/cuda/ell.hpp"
#include "graphrun/engine/cuda/hyb.hpp"
#include "graphrun/engine/cuda/jds.hpp"
#include "graphrun/engine/cuda/merge_path.hpp"
#include "graphrun/engine/cuda/sell.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"
#endif

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)
class CudaSpmv : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

enum class MaskKind { none, plain, complemented };

std::string to_string(MaskKind m) {
  return m == MaskKind::none ? "no mask" : m == MaskKind::plain ? "mask" : "complemented mask";
}

// Input vectors per semiring: signed values for the arithmetic semirings,
// 0/1 bytes (about half set) for OrAnd.
template <class V>
std::vector<V> random_vector(std::size_t n, test::Rng& rng) {
  std::vector<V> v(n);
  for (auto& e : v) {
    if constexpr (std::is_same_v<V, std::uint8_t>)
      e = rng.coin(0.5) ? 1 : 0;
    else
      e = static_cast<V>(rng.uniform(-2.0, 3.0));
  }
  return v;
}

// A value no kernel computes from these inputs, to see untouched rows.
template <class V>
V sentinel() {
  if constexpr (std::is_same_v<V, std::uint8_t>)
    return 0x5a;
  else
    return V(-12345.5);
}

// |A| |x| row sums: the scale of a row's rounding error.
template <class T, class V>
std::vector<double> abs_row_sums(const Csr<T>& a, const std::vector<V>& x) {
  std::vector<double> s(a.n_rows(), 0.0);
  const auto v = a.view();
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    for (offset_t k = a.row_ptr()[i]; k < a.row_ptr()[i + 1]; ++k)
      s[i] += std::abs(double(v.value(k)) * double(x[a.col_idx()[k]]));
  return s;
}

// y = A x on the device through `op` equals the reference, for one semiring
// and mask kind.
template <class S, class T>
void check_apply(const Csr<T>& a, const cuda::SpmvOperator<T>& op, MaskKind mk, std::uint64_t seed,
                 const std::string& what) {
  using V = typename S::value_type;
  test::Rng rng(seed);
  const auto x = random_vector<V>(a.n_cols(), rng);
  std::vector<std::uint8_t> bits(a.n_rows());
  for (auto& b : bits) b = rng.coin(0.5) ? 1 : 0;
  std::vector<V> want(a.n_rows(), sentinel<V>());
  DeviceArray<V> dx{std::span<const V>(x)};
  DeviceArray<V> dy{std::span<const V>(want)};
  DeviceArray<std::uint8_t> dbits{std::span<const std::uint8_t>(bits)};
  Mask host_mask, dev_mask;
  if (mk != MaskKind::none) {
    host_mask = Mask{bits.data(), mk == MaskKind::complemented};
    dev_mask = Mask{dbits.data(), mk == MaskKind::complemented};
  }
  cpu::spmv_reference<S>(a.view(), x.data(), want.data(), host_mask);
  op.template apply<S>(dx.data(), dy.data(), dev_mask);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << what;
  const std::vector<V> got = dy.download();
  const std::string where =
      what + ", " + std::string(to_string(op.format())) + ", " + to_string(mk);
  if constexpr (std::is_same_v<S, PlusTimes<T>>) {
    const auto scale = abs_row_sums(a, x);
    const double eps = std::is_same_v<T, float> ? 1e-5 : 1e-13;
    for (vertex_t i = 0; i < a.n_rows(); ++i) {
      const double bound = eps * (scale[i] + 1.0) * (1.0 + std::log2(1.0 + a.row_length(i)));
      ASSERT_NEAR(double(got[i]), double(want[i]), bound) << where << ", row " << i;
    }
  } else {
    for (vertex_t i = 0; i < a.n_rows(); ++i) ASSERT_EQ(got[i], want[i]) << where << ", row " << i;
  }
}

// Every format of the operator family on one matrix.
template <class T>
void check_matrix(const Csr<T>& a, const std::string& what, std::uint64_t seed) {
  SCOPED_TRACE(what);
  const DeviceCsr<T> d(a);
  std::vector<SpmvFormat> formats(all_spmv_formats().begin(), all_spmv_formats().end());
  formats.push_back(SpmvFormat::automatic);
  for (SpmvFormat f : formats) {
    std::unique_ptr<cuda::SpmvOperator<T>> op;
    try {
      op = std::make_unique<cuda::SpmvOperator<T>>(d, f);
    } catch (const FormatError& e) {
      // Only ELL and SELL refuse, and only past their padding limits (SELL
      // as the host builder does: formats_test counts its slots).
      ASSERT_TRUE(f == SpmvFormat::ell || f == SpmvFormat::sell) << e.what();
      if (f == SpmvFormat::sell) {
        EXPECT_THROW((void)Sell<T>::from_csr(a), FormatError)
            << what << ": SELL refused on the device, not on the host";
        continue;
      }
      const RowStats s = analyze(a.view());
      EXPECT_GT(double(s.max_length) * a.n_rows(),
                ell_max_fill * double(std::max<offset_t>(a.nnz(), 1)))
          << what << ": ELL refused a matrix within its limit";
      continue;
    }
    if (f != SpmvFormat::automatic) {
      ASSERT_EQ(op->format(), f);
    }
    for (MaskKind mk : {MaskKind::none, MaskKind::plain, MaskKind::complemented}) {
      check_apply<PlusTimes<T>>(a, *op, mk, seed += 7, what);
      check_apply<MinPlus<T>>(a, *op, mk, seed += 7, what);
      check_apply<MaxTimes<T>>(a, *op, mk, seed += 7, what);
      check_apply<OrAnd>(a, *op, mk, seed += 7, what);
    }
  }
  // SELL in column parts (a launch per part, the later ones adding into y),
  // asked for: the rule splits only where x passes a third of the L2.
  for (int parts : {2, 5}) {
    SCOPED_TRACE("SELL in " + std::to_string(parts) + " column parts");
    std::optional<cuda::SpmvOperator<T>> op;
    try {
      op.emplace(d, SpmvFormat::sell, 0, DeviceArray<vertex_t>{}, RowOrder::as_loaded,
                 cuda::SpmvLayoutHints{0, parts});
    } catch (const FormatError&) {
      EXPECT_THROW((void)Sell<T>::from_csr(a.view(), sell_window(analyze(a.view())), parts),
                   FormatError)
          << what << ": SELL's parts refused on the device, not on the host";
      continue;
    }
    ASSERT_EQ(op->column_parts(), parts);
    for (MaskKind mk : {MaskKind::none, MaskKind::plain, MaskKind::complemented}) {
      check_apply<PlusTimes<T>>(a, *op, mk, seed += 7, what);
      check_apply<MinPlus<T>>(a, *op, mk, seed += 7, what);
      check_apply<OrAnd>(a, *op, mk, seed += 7, what);
    }
  }
}

struct Case {
  vertex_t rows, cols;
  test::MatrixShape shape;
  double per_row;
};

// Sizes off every block size (256 threads, 1024-item tiles), rows longer
// than a tile, a row past csr-bins' 2048 (a block per row), an empty
// matrix, and rectangular shapes both ways.
const Case small_cases[] = {
    {0, 0, test::MatrixShape::uniform, 3},         {1, 1, test::MatrixShape::uniform, 1},
    {50, 40, test::MatrixShape::uniform, 0},       {1000, 1000, test::MatrixShape::uniform, 8},
    {777, 900, test::MatrixShape::empty_rows, 5},  {1500, 1500, test::MatrixShape::heavy_row, 4},
    {3001, 3001, test::MatrixShape::power_law, 6}, {2049, 2049, test::MatrixShape::banded, 9},
    {513, 2000, test::MatrixShape::uniform, 3},    {2000, 300, test::MatrixShape::uniform, 20},
    {300, 5000, test::MatrixShape::uniform, 700},  {1200, 6000, test::MatrixShape::heavy_row, 4},
};

template <class T>
void check_cases(const Case* begin, const Case* end, std::uint64_t seed) {
  for (const Case* c = begin; c != end; ++c) {
    for (bool pattern : {true, false}) {
      const auto a = test::random_csr<T>(c->rows, c->cols, c->shape, c->per_row, pattern, seed);
      check_matrix<T>(a,
                      test::to_string(c->shape) + " " + std::to_string(c->rows) + "x" +
                          std::to_string(c->cols) + (pattern ? " pattern" : " weighted"),
                      seed += 101);
    }
  }
}

TEST_F(CudaSpmv, RandomMatricesDouble) {
  check_cases<double>(std::begin(small_cases), std::end(small_cases), 11);
}
TEST_F(CudaSpmv, RandomMatricesFloat) {
  check_cases<float>(std::begin(small_cases), std::end(small_cases), 23);
}

// PlusTimes<double> with x in float (GRAPHRUN_CUDA_SPMV_GATHER_COMBOS):
// every format, masked or not, equals the reference run on x widened to
// double, up to the order of the additions; the double sums keep more than
// a float's bits (a float sum would be off by ~1e-7 of the row's scale).
TEST_F(CudaSpmv, FloatGathersSumInDouble) {
  std::uint64_t seed = 61;
  for (const Case& c : small_cases)
    for (bool pattern : {true, false}) {
      const auto a = test::random_csr<double>(c.rows, c.cols, c.shape, c.per_row, pattern, ++seed);
      const std::string what = test::to_string(c.shape) + " " + std::to_string(c.rows) + "x" +
                               std::to_string(c.cols) + (pattern ? " pattern" : " weighted");
      test::Rng rng(seed);
      std::vector<float> xf(static_cast<std::size_t>(a.n_cols()));
      for (float& e : xf) e = static_cast<float>(rng.uniform(-2.0, 3.0)) / 3.0f;
      const std::vector<double> xd(xf.begin(), xf.end());
      const DeviceCsr<double> d(a);
      DeviceArray<float> dx{std::span<const float>(xf)};
      const auto scale = abs_row_sums(a, xd);
      for (SpmvFormat f : all_spmv_formats()) {
        std::unique_ptr<cuda::SpmvOperator<double>> op;
        try {
          op = std::make_unique<cuda::SpmvOperator<double>>(d, f);
        } catch (const FormatError&) {
          ASSERT_TRUE(f == SpmvFormat::ell || f == SpmvFormat::sell) << what;
          continue;
        }
        for (MaskKind mk : {MaskKind::none, MaskKind::complemented}) {
          std::vector<std::uint8_t> bits(static_cast<std::size_t>(a.n_rows()));
          for (auto& b : bits) b = rng.coin(0.5) ? 1 : 0;
          DeviceArray<std::uint8_t> dbits{std::span<const std::uint8_t>(bits)};
          std::vector<double> want(static_cast<std::size_t>(a.n_rows()), sentinel<double>());
          DeviceArray<double> dy{std::span<const double>(want)};
          const Mask host_mask = mk == MaskKind::none ? Mask{} : Mask{bits.data(), true};
          const Mask dev_mask = mk == MaskKind::none ? Mask{} : Mask{dbits.data(), true};
          cpu::spmv_reference<PlusTimes<double>>(a.view(), xd.data(), want.data(), host_mask);
          op->apply<PlusTimes<double>>(dx.data(), dy.data(), dev_mask);
          ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << what;
          const std::vector<double> got = dy.download();
          const std::string where =
              what + ", " + std::string(to_string(op->format())) + ", " + to_string(mk);
          for (vertex_t i = 0; i < a.n_rows(); ++i) {
            const double bound =
                1e-13 * (scale[i] + 1.0) * (1.0 + std::log2(1.0 + a.row_length(i)));
            ASSERT_NEAR(got[i], want[i], bound) << where << ", row " << i;
          }
        }
      }
    }
}

// Hundreds of tiles, a row spanning many of them, and a power law with a
// long tail: the carry fix-up across blocks.
TEST_F(CudaSpmv, RandomMatricesLarge) {
  const Case large[] = {{200'003, 200'003, test::MatrixShape::power_law, 12},
                        {100'000, 100'000, test::MatrixShape::heavy_row, 2},
                        {300'000, 250'000, test::MatrixShape::empty_rows, 4}};
  check_cases<double>(std::begin(large), std::end(large), 37);
  check_cases<float>(std::begin(large), std::begin(large) + 1, 41);
}

// Real graphs of several kinds: a road network, skewed social and technical
// networks, weighted matrices (and their patterns).
TEST_F(CudaSpmv, SharedGraphsLarge) {
  namespace fs = std::filesystem;
  const fs::path root(GRAPHRUN_DATASETS);
  const char* files[] = {"luxembourg_osm/luxembourg_osm.mtx.gz",
                         "email-Enron/email-Enron.txt.gz",
                         "ca-HepPh/ca-HepPh.txt.gz",
                         "p2p-Gnutella30/p2p-Gnutella30.txt.gz",
                         "cond-mat-2003/cond-mat-2003.txt.gz",
                         "pgp-strong-2009/pgp-strong-2009.txt.gz",
                         "bcsstk13/bcsstk13.mtx.gz",
                         "cryg2500/cryg2500.mtx.gz"};
  int checked = 0;
  std::uint64_t seed = 1000;
  for (const char* name : files) {
    const fs::path file = root / name;
    if (!fs::exists(file)) continue;
    const Graph g = io::load_graph(file.string());
    const Csr<double>& a = g.adj();
    check_matrix<double>(a, name, seed += 10);
    if (!a.is_pattern()) {
      const Csr<double> p(a.n_rows(), a.n_cols(), a.row_ptr(), a.col_idx(), {});
      check_matrix<double>(p, std::string(name) + " pattern", seed += 10);
    }
    ++checked;
  }
  RecordProperty("graphs_checked", checked);
  if (checked == 0) GTEST_SKIP() << "no shared graphs under " << root;
}

// One long row pads ELL past its limit: an explicit request is refused with
// a FormatError, `auto` never fails.
// Long runs of empty rows at the start, in the middle and at the end (a web
// crawl's leaf pages; a degree ordering's isolated vertices, all last):
// every format must write the semiring's zero to each of them, and COO
// zeroes them with the whole grid rather than one thread per run.
TEST_F(CudaSpmv, LongRunsOfEmptyRows) {
  Coo<double> coo;
  coo.n_rows = 60000;
  coo.n_cols = 5000;
  test::Rng rng(17);
  for (auto [from, to] : {std::pair{1000, 2000}, std::pair{9000, 9100}, std::pair{30000, 30001}})
    for (vertex_t r = from; r < to; ++r)
      for (int k = 0; k < 6; ++k) {
        coo.row.push_back(r);
        coo.col.push_back(static_cast<vertex_t>(rng.below(coo.n_cols)));
        coo.val.push_back(test::random_value(rng));
      }
  check_matrix(Csr<double>::from_coo(coo), "long runs of empty rows", 5);
}

// COO given the rows of the entries by the caller (the transpose's by-
// product, as PageRank passes it) keeps them as its row index: the same
// products as the reference on every shape, pattern and weighted; rows of
// the wrong number refused.
TEST_F(CudaSpmv, CooTakesTheRowsOfATransposeItWasGiven) {
  std::uint64_t seed = 5;
  for (const Case* c = std::begin(small_cases); c != std::end(small_cases); ++c)
    for (bool pattern : {true, false}) {
      const auto a =
          test::random_csr<double>(c->cols, c->rows, c->shape, c->per_row, pattern, seed += 3);
      DeviceArray<vertex_t> rows;
      const DeviceCsr<double> at = device_transpose(DeviceCsr<double>(a), nullptr, &rows);
      const std::string what = "transpose of " + test::to_string(c->shape) + " " +
                               std::to_string(c->cols) + "x" + std::to_string(c->rows) +
                               (pattern ? " pattern" : " weighted");
      const cuda::SpmvOperator<double> op(at, SpmvFormat::coo, 0, std::move(rows));
      const Csr<double> host_at = a.transpose();
      for (MaskKind mk : {MaskKind::none, MaskKind::plain}) {
        check_apply<PlusTimes<double>>(host_at, op, mk, seed += 7, what);
        check_apply<MinPlus<double>>(host_at, op, mk, seed += 7, what);
      }
    }
  const DeviceCsr<double> d(
      test::random_csr<double>(100, 100, test::MatrixShape::uniform, 4, false, 9));
  EXPECT_THROW(cuda::SpmvOperator<double>(d, SpmvFormat::coo, 0, DeviceArray<vertex_t>(3)),
               ArgumentError);
}

TEST_F(CudaSpmv, EllRefusesPastItsPaddingLimit) {
  const auto a = test::random_csr<double>(2000, 2000, test::MatrixShape::heavy_row, 2, true, 5);
  const DeviceCsr<double> d(a);
  EXPECT_THROW(cuda::SpmvOperator<double>(d, SpmvFormat::ell), FormatError);
  EXPECT_NO_THROW(cuda::SpmvOperator<double>(d, SpmvFormat::automatic));
}

// The same inputs give bit-identical results on every run (no atomics).
TEST_F(CudaSpmv, ResultsAreDeterministic) {
  const auto a =
      test::random_csr<float>(20'000, 20'000, test::MatrixShape::power_law, 10, false, 9);
  const DeviceCsr<float> d(a);
  test::Rng rng(3);
  const auto x = random_vector<float>(a.n_cols(), rng);
  DeviceArray<float> dx{std::span<const float>(x)}, dy(a.n_rows());
  for (SpmvFormat f :
       {SpmvFormat::coo, SpmvFormat::hyb, SpmvFormat::merge_path, SpmvFormat::csr_warp}) {
    const cuda::SpmvOperator<float> op(d, f);
    op.apply<PlusTimes<float>>(dx.data(), dy.data());
    const auto first = dy.download();
    for (int r = 0; r < 3; ++r) {
      op.apply<PlusTimes<float>>(dx.data(), dy.data());
      ASSERT_EQ(dy.download(), first) << to_string(f);
    }
  }
}

// The formats built on the device hold exactly the arrays of the host
// formats (engine/formats), and the merge-path partition lies on the path.
template <class T>
void check_device_formats(const Csr<T>& a, const std::string& what) {
  SCOPED_TRACE(what);
  const DeviceCsr<T> d(a);
  const RowStats stats = analyze(a.view());
  const auto coo = cuda::build_coo(d);
  const auto hcoo = CooMatrix<T>::from_csr(a);
  EXPECT_EQ(coo.row_idx.download(), hcoo.row_idx());
  EXPECT_EQ(coo.col_idx.download(), hcoo.col_idx());
  EXPECT_EQ(coo.values.download(), hcoo.values());
  if (ell_fits(a.n_rows(), stats.max_length, a.nnz())) {
    const auto ell = cuda::build_ell(d, stats);
    const auto hell = Ell<T>::from_csr(a);
    EXPECT_EQ(ell.width, hell.width());
    EXPECT_EQ(ell.col_idx.download(), hell.col_idx());
    EXPECT_EQ(ell.values.download(), hell.values());
  } else {
    EXPECT_THROW(cuda::build_ell(d, stats), FormatError);
  }
  const auto hyb = cuda::build_hyb(d, stats);
  const auto hhyb = Hyb<T>::from_csr(a);
  EXPECT_EQ(hyb.ell.width, hhyb.ell_width());
  EXPECT_EQ(hyb.ell.col_idx.download(), hhyb.ell().col_idx());
  EXPECT_EQ(hyb.ell.values.download(), hhyb.ell().values());
  EXPECT_EQ(hyb.coo.row_idx.download(), hhyb.coo().row_idx());
  EXPECT_EQ(hyb.coo.col_idx.download(), hhyb.coo().col_idx());
  EXPECT_EQ(hyb.coo.values.download(), hhyb.coo().values());
  const auto jds = cuda::build_jds(d);
  const auto hjds = Jds<T>::from_csr(a);
  EXPECT_EQ(jds.n_diag, hjds.n_diag());
  EXPECT_EQ(jds.perm.download(), hjds.perm());
  EXPECT_EQ(jds.jd_ptr.download(), hjds.jd_ptr());
  EXPECT_EQ(jds.col_idx.download(), hjds.col_idx());
  EXPECT_EQ(jds.values.download(), hjds.values());
  for (vertex_t window : {32, 1024, 4096}) {
    SCOPED_TRACE("SELL window " + std::to_string(window));
    std::optional<Sell<T>> hsell;
    try {
      hsell = Sell<T>::from_csr(a.view(), window);
    } catch (const FormatError&) {
      EXPECT_THROW(cuda::build_sell(d, window), FormatError);
    }
    if (hsell) {
      const auto sell = cuda::build_sell(d, window);
      EXPECT_EQ(sell.n_slices(), hsell->n_slices());
      EXPECT_EQ(sell.perm.download(), hsell->perm());
      EXPECT_EQ(sell.slice_ptr.download(), hsell->slice_ptr());
      EXPECT_EQ(sell.col_idx.download(), hsell->col_idx());
      EXPECT_EQ(sell.values.download(), hsell->values());
    }
    for (vertex_t parts : {2, 3}) {
      SCOPED_TRACE("SELL column parts " + std::to_string(parts));
      std::optional<Sell<T>> hparts;
      try {
        hparts = Sell<T>::from_csr(a.view(), window, parts);
      } catch (const FormatError&) {
        EXPECT_THROW(cuda::build_sell(d, window, parts), FormatError);
        continue;
      }
      const auto sell = cuda::build_sell(d, window, parts);
      EXPECT_EQ(sell.n_parts, hparts->n_parts());
      EXPECT_EQ(sell.n_slices(), hparts->n_slices());
      EXPECT_EQ(sell.perm.download(), hparts->perm());
      EXPECT_EQ(sell.slice_ptr.download(), hparts->slice_ptr());
      EXPECT_EQ(sell.col_idx.download(), hparts->col_idx());
      EXPECT_EQ(sell.values.download(), hparts->values());
    }
  }
  for (offset_t share : {offset_t{1}, offset_t{7}, offset_t{1024}}) {
    const auto m = cuda::build_merge_path(d, share);
    const auto rows = m.start_row.download();
    const auto ks = m.start_entry.download();
    const offset_t total = offset_t(a.n_rows()) + a.nnz();
    ASSERT_EQ(offset_t(m.shares), (total + share - 1) / share);
    for (vertex_t p = 0; p <= m.shares; ++p) {
      // On the diagonal, and on the path: the row ends consumed come before
      // entry k, the entries consumed before the next row end.
      ASSERT_EQ(rows[p] + ks[p], std::min(p * share, total)) << "share " << p;
      ASSERT_LE(a.row_ptr()[rows[p]], ks[p]) << "share " << p;
      if (rows[p] < a.n_rows()) {
        ASSERT_GE(a.row_ptr()[rows[p] + 1], ks[p]) << "share " << p;
      }
    }
  }
}

TEST_F(CudaSpmv, DeviceFormatsEqualHostFormats) {
  std::uint64_t seed = 71;
  for (const Case& c : small_cases)
    for (bool pattern : {true, false})
      check_device_formats(
          test::random_csr<double>(c.rows, c.cols, c.shape, c.per_row, pattern, seed++),
          test::to_string(c.shape) + " " + std::to_string(c.rows) + "x" + std::to_string(c.cols) +
              (pattern ? " pattern" : " weighted"));
  check_device_formats(
      test::random_csr<float>(5000, 5000, test::MatrixShape::power_law, 8, false, 3), "float");
  // SELL's windows of 4096 rows: three, the last one partial and its last
  // slice short of 32 rows.
  check_device_formats(
      test::random_csr<double>(10'001, 9'000, test::MatrixShape::uniform, 12, false, 5),
      "uniform 10001x9000, three SELL windows");
}

// `auto` falls back to csr-warp, which builds nothing, when the format it
// chose does not fit beside the matrix (here under a device memory cap that
// leaves room for the row statistics but not for SELL's slots); an explicit
// request for that format fails with DeviceMemoryError.
TEST_F(CudaSpmv, AutomaticFallsBackToCsrWhenTheFormatDoesNotFit) {
  // Rows of 30 to 34 entries (cv under 0.1): the chooser's SELL.
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 200'000;
  test::Rng rng(8);
  for (vertex_t i = 0; i < coo.n_rows; ++i)
    for (int k = 0; k < 30 + i % 5; ++k) {
      coo.row.push_back(i);
      coo.col.push_back(static_cast<vertex_t>(rng.below(coo.n_cols)));
      coo.val.push_back(rng.uniform(-2.0, 3.0));
    }
  const Csr<double> a = Csr<double>::from_coo(coo);
  const DeviceCsr<double> d(a);
  const RowStats stats = analyze(a.view());
  ASSERT_EQ(choose_spmv_format(stats, Device::cuda), SpmvFormat::sell);
  const auto x = random_vector<double>(a.n_cols(), rng);
  DeviceArray<double> dx{std::span<const double>(x)}, dy(a.n_rows());
  const std::size_t cap_before = device_memory_cap();
  // SELL's columns alone take 4 bytes a stored slot, at least nnz: leave
  // half of that.
  set_device_memory_cap(device_memory_in_use() + static_cast<std::size_t>(a.nnz()) * 2);
  std::unique_ptr<cuda::SpmvOperator<double>> op;
  EXPECT_THROW(cuda::SpmvOperator<double>(d, SpmvFormat::sell), DeviceMemoryError);
  try {
    op = std::make_unique<cuda::SpmvOperator<double>>(d, SpmvFormat::automatic);
  } catch (const std::exception& e) {
    set_device_memory_cap(cap_before);
    FAIL() << "automatic did not fall back: " << e.what();
  }
  set_device_memory_cap(cap_before);
  EXPECT_EQ(op->format(), SpmvFormat::csr_warp);
  op->apply<PlusTimes<double>>(dx.data(), dy.data());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<double> want(a.n_rows());
  cpu::spmv_reference<PlusTimes<double>>(a.view(), x.data(), want.data());
  const auto got = dy.download();
  const auto scale = abs_row_sums(a, x);
  for (vertex_t i = 0; i < a.n_rows(); ++i)
    ASSERT_NEAR(got[i], want[i], 1e-13 * (scale[i] + 1.0) * 20) << "row " << i;
}

// SELL-32-σ on rows of varied length over several windows, every semiring,
// masks included (check_matrix), beside the CPU reference.
TEST_F(CudaSpmv, SellOverSeveralWindows) {
  check_matrix(test::random_csr<double>(10'001, 9'000, test::MatrixShape::uniform, 12, false, 6),
               "uniform 10001x9000", 600);
  check_matrix(test::random_csr<double>(9'000, 9'000, test::MatrixShape::empty_rows, 9, true, 7),
               "empty rows 9000 pattern", 700);
}

TEST_F(CudaSpmv, MeasuredCopyBandwidthIsPlausible) {
  const double gbs = cuda::measured_copy_bandwidth();
  RecordProperty("copy_GBps", std::to_string(gbs));
  EXPECT_GT(gbs, 10.0);      // any GPU copies faster than this
  EXPECT_LT(gbs, 100000.0);  // and no GPU this fast
}
#endif

TEST(CudaSpmvAvailability, DeviceCountNeverThrows) { EXPECT_GE(cuda_device_count(), 0); }

// The GPU rule of choose_spmv_format (engine/src/spmv_format_choice.cpp):
// skewed rows -> coo; large regular matrices -> csr-thread (short rows) or
// hyb; everything else (latency-bound sizes) -> csr-warp.
TEST(GpuFormatChoice, FollowsTheMeasuredRule) {
  RowStats s;
  s.n_rows = 4'000'000;
  s.nnz = 16'000'000;
  s.mean = 4;
  s.cv = 0.01;
  s.max_length = 5;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::csr_thread);  // grid
  s.mean = 16;
  s.max_length = 30;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::sell);  // uniform degree 16
  EXPECT_EQ(choose_spmv_format(s, Device::cuda, RowOrder::by_degree), SpmvFormat::sell);
  s.cv = 9;
  s.max_length = 100'000;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::merge_path);  // R-MAT 22
  // The same rows renumbered by degree: csr-bins.
  EXPECT_EQ(choose_spmv_format(s, Device::cuda, RowOrder::by_degree), SpmvFormat::csr_bins);
  s.n_rows = (1 << 20) - 1;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::coo);  // skewed, under 2^20 rows
  EXPECT_EQ(choose_spmv_format(s, Device::cuda, RowOrder::by_degree), SpmvFormat::coo);
  s.n_rows = 325'729;
  s.mean = 4.6;
  s.cv = 4.7;
  s.max_length = 3'445;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::coo);  // web-NotreDame
  s.n_rows = 20'000;
  s.nnz = 100'000;
  s.cv = 1.2;
  s.mean = 5;
  s.max_length = 200;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::csr_warp);  // small social graph
  s.max_length = 64 * 6 + 1;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::coo);  // one long row
  s.n_rows = 18'660;
  s.nnz = 1'581'554;
  s.mean = 84.8;
  s.cv = 1.01;
  s.max_length = 4'000;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::coo);  // Cornell5: varied, 1.6M
  s.cv = 0.4;
  s.max_length = 200;
  EXPECT_EQ(choose_spmv_format(s, Device::cuda), SpmvFormat::csr_warp);  // as regular, few rows
}

}  // namespace
}  // namespace graphrun
