// The CSR SpMV against its serial reference: every semiring the library
// instantiates × {no mask, mask, complemented mask} × matrix value type,
// on random matrices of the shapes that break kernels, at 1 and 2 threads.
// Results must equal the reference (within rounding for floating-point
// sums, see reorders_rounding), and rows outside the mask stay untouched.
#include "graphrun/kernels/cpu/spmv_csr.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/kernels/cpu/spmv_reference.hpp"
#include "graphrun/kernels/spmv.hpp"
#include "support/random_graphs.hpp"

namespace graphrun {
namespace {

using test::MatrixShape;
using test::Rng;

// Input vector values suited to each semiring (including its zero).
template <class S>
typename S::value_type random_x(Rng& rng) {
  using V = typename S::value_type;
  if constexpr (std::is_same_v<S, OrAnd>) {
    const auto k = rng.below(4);
    return k == 0 ? V(7) : V(k == 1);  // any non-zero is true
  } else if constexpr (std::is_same_v<S, MinPlus<V>>) {
    return rng.coin(0.2) ? S::zero() : V(rng.uniform(0.0, 10.0));
  } else if constexpr (std::is_same_v<S, MaxTimes<V>>) {
    return rng.coin(0.2) ? V(0) : V(rng.uniform(0.0, 1.0));
  } else {
    return rng.coin(0.1) ? V(0) : V(rng.uniform(-1.0, 1.0));
  }
}

struct Case {
  std::string name;
  vertex_t rows, cols;
  MatrixShape shape;
  double per_row;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"0x0", 0, 0, MatrixShape::uniform, 3},
      {"7x0", 7, 0, MatrixShape::uniform, 3},
      {"0x7", 0, 7, MatrixShape::uniform, 3},
      {"1x1", 1, 1, MatrixShape::uniform, 2},
      {"uniform_97x61", 97, 61, MatrixShape::uniform, 4},
      {"uniform_5003", 5003, 5003, MatrixShape::uniform, 6},  // large enough to go parallel
      {"empty_rows_1001", 1001, 1001, MatrixShape::empty_rows, 5},
      {"empty_rows_9001x77", 9001, 77, MatrixShape::empty_rows, 3},
      {"heavy_row_3001", 3001, 3001, MatrixShape::heavy_row, 8},
      {"heavy_row_13", 13, 13, MatrixShape::heavy_row, 2},
      {"power_law_4099", 4099, 4099, MatrixShape::power_law, 8},
      {"power_law_33x1000", 33, 1000, MatrixShape::power_law, 30},
      {"banded_2047", 2047, 2047, MatrixShape::banded, 11},
      {"banded_300x20", 300, 20, MatrixShape::banded, 5},
  };
  return all;
}

// Floating-point + is not associative: the kernel may sum a row in another
// order than the serial reference (several accumulators), so PlusTimes
// results are compared within the rounding bound of a length-L sum,
// 2 L eps sum_k |a_ik x_k|, and must be bit-identical across thread counts.
// min, max and or are exact in any order: those must equal the reference
// byte for byte.
template <class S>
constexpr bool reorders_rounding =
    std::is_same_v<S, PlusTimes<double>> || std::is_same_v<S, PlusTimes<float>>;

template <class S, class T>
std::vector<double> rounding_bound(const Csr<T>& a, const std::vector<typename S::value_type>& x) {
  using V = typename S::value_type;
  std::vector<double> bound(a.n_rows());
  const auto v = a.view();
  for (vertex_t i = 0; i < a.n_rows(); ++i) {
    double abs_sum = 0;
    for (offset_t k = v.row_ptr[i]; k < v.row_ptr[i + 1]; ++k)
      abs_sum += std::abs(static_cast<double>(v.value(k)) * static_cast<double>(x[v.col_idx[k]]));
    const double len = static_cast<double>(v.row_ptr[i + 1] - v.row_ptr[i]);
    bound[i] = 2 * len * std::numeric_limits<V>::epsilon() * abs_sum;
  }
  return bound;
}

template <class S, class T>
void check_against_reference(const Csr<T>& a, const std::string& what, std::uint64_t seed) {
  using V = typename S::value_type;
  Rng rng(seed);
  std::vector<V> x(a.n_cols());
  for (auto& v : x) v = random_x<S>(rng);
  std::vector<std::uint8_t> bits(a.n_rows());
  for (auto& b : bits) b = static_cast<std::uint8_t>(rng.coin(0.5) ? 1 + rng.below(3) : 0);
  const V sentinel = V(42);

  std::vector<double> bound;
  if constexpr (reorders_rounding<S>) bound = rounding_bound<S>(a, x);
  for (int m = 0; m < 3; ++m) {
    const Mask mask = m == 0 ? Mask{} : Mask{bits.data(), m == 2};
    std::vector<V> expect(a.n_rows(), sentinel);
    cpu::spmv_reference<S>(a.view(), x.data(), expect.data(), mask);
    std::vector<V> one_thread;
    for (int threads : {1, 2}) {
      Context ctx(Device::cpu, threads);
      std::vector<V> y(a.n_rows(), sentinel);
      spmv<S>(ctx, a.view(), x.data(), y.data(), mask);
      const std::string where =
          what + " mask=" + std::to_string(m) + " threads=" + std::to_string(threads);
      ASSERT_EQ(y.size(), expect.size()) << where;
      if constexpr (reorders_rounding<S>) {
        for (vertex_t i = 0; i < a.n_rows(); ++i) {
          ASSERT_LE(std::abs(static_cast<double>(y[i]) - static_cast<double>(expect[i])), bound[i])
              << where << " row " << i;
        }
        if (threads == 1) {
          one_thread = y;
        } else if (!y.empty()) {
          EXPECT_EQ(std::memcmp(y.data(), one_thread.data(), y.size() * sizeof(V)), 0)
              << where << ": differs from the one-thread result";
        }
      } else if (!y.empty()) {
        EXPECT_EQ(std::memcmp(y.data(), expect.data(), y.size() * sizeof(V)), 0) << where;
      }
      for (vertex_t i = 0; i < a.n_rows(); ++i) {
        if (!mask.allows(i)) {
          ASSERT_EQ(y[i], sentinel) << where << " row " << i;
        }
      }
    }
  }
}

template <class S, class T>
void check_all_shapes() {
  std::uint64_t seed = 1;
  for (const Case& c : cases()) {
    for (bool pattern : {false, true}) {
      const Csr<T> a = test::random_csr<T>(c.rows, c.cols, c.shape, c.per_row, pattern, ++seed);
      check_against_reference<S, T>(a, c.name + (pattern ? " pattern" : " valued"), seed * 7);
    }
  }
}

TEST(SpmvCsr, PlusTimesDouble) {
  check_all_shapes<PlusTimes<double>, double>();
  check_all_shapes<PlusTimes<double>, float>();
}
// The prefetching row kernel (PageRank's pass past the caches) adds the
// same terms in the same order as the plain one: the same bits, for a
// valued and a pattern matrix and for min-plus. And the rule that takes
// it: scattered columns past 4 MiB of x, not a band (whose gathers the
// hardware follows), not a smaller x.
TEST(SpmvCsr, PrefetchingRowsAreThePlainRows) {
  constexpr vertex_t n = 600'000;  // x of doubles: 4.8 MB
  Rng rng(96);
  std::vector<double> x(n);
  for (auto& v : x) v = random_x<PlusTimes<double>>(rng);
  for (bool pattern : {false, true}) {
    const Csr<double> a = test::random_csr<double>(n, n, MatrixShape::uniform, 3, pattern, 91);
    const CsrView<double> v = a.view();
    EXPECT_TRUE(cpu::prefetch_gathers(v, n * sizeof(double)));
    EXPECT_FALSE(cpu::prefetch_gathers(v, n * sizeof(float) / 2));
    for (vertex_t i = 0; i < n; ++i) {
      const double plain = pattern
                               ? cpu::detail::spmv_row<PlusTimes<double>, true>(v, i, x.data())
                               : cpu::detail::spmv_row<PlusTimes<double>, false>(v, i, x.data());
      const double ahead =
          pattern ? cpu::detail::spmv_row<PlusTimes<double>, true, double, true>(v, i, x.data())
                  : cpu::detail::spmv_row<PlusTimes<double>, false, double, true>(v, i, x.data());
      ASSERT_EQ(std::memcmp(&plain, &ahead, sizeof(double)), 0) << "row " << i;
      if (!pattern) {
        ASSERT_EQ((cpu::detail::spmv_row<MinPlus<double>, false>(v, i, x.data())),
                  (cpu::detail::spmv_row<MinPlus<double>, false, double, true>(v, i, x.data())))
            << "row " << i;
      }
    }
  }
  const Csr<double> band = test::random_csr<double>(n, n, MatrixShape::banded, 5, true, 94);
  EXPECT_FALSE(cpu::prefetch_gathers(band.view(), n * sizeof(double)));
}

// A row gathering from a float x (PageRank's float gathers) adds the same
// terms as from a double x holding the same values widened: the same bits,
// prefetching or not, valued and pattern.
TEST(SpmvCsr, FloatXIsWidenedAsItIsRead) {
  constexpr vertex_t n = 50'000;
  Rng rng(97);
  std::vector<float> xf(n);
  for (auto& v : xf) v = static_cast<float>(random_x<PlusTimes<double>>(rng));
  const std::vector<double> xd(xf.begin(), xf.end());
  for (bool pattern : {false, true}) {
    const Csr<double> a = test::random_csr<double>(n, n, MatrixShape::power_law, 6, pattern, 98);
    const CsrView<double> v = a.view();
    for (vertex_t i = 0; i < n; ++i) {
      const double wide = pattern
                              ? cpu::detail::spmv_row<PlusTimes<double>, true>(v, i, xd.data())
                              : cpu::detail::spmv_row<PlusTimes<double>, false>(v, i, xd.data());
      const double narrow =
          pattern ? cpu::detail::spmv_row<PlusTimes<double>, true, double, false, float>(v, i,
                                                                                         xf.data())
                  : cpu::detail::spmv_row<PlusTimes<double>, false, double, true, float>(v, i,
                                                                                         xf.data());
      ASSERT_EQ(std::memcmp(&wide, &narrow, sizeof(double)), 0) << "row " << i;
    }
  }
}

TEST(SpmvCsr, PlusTimesFloat) {
  check_all_shapes<PlusTimes<float>, float>();
  check_all_shapes<PlusTimes<float>, double>();
}
TEST(SpmvCsr, MinPlus) {
  check_all_shapes<MinPlus<double>, double>();
  check_all_shapes<MinPlus<double>, float>();
}
TEST(SpmvCsr, MaxTimes) {
  check_all_shapes<MaxTimes<double>, double>();
  check_all_shapes<MaxTimes<double>, float>();
}
TEST(SpmvCsr, OrAnd) {
  check_all_shapes<OrAnd, double>();
  check_all_shapes<OrAnd, float>();
}
// A combination not compiled into the library instantiates from the header.
TEST(SpmvCsr, UninstantiatedCombination) { check_all_shapes<MinPlus<float>, float>(); }

// Hand-checked values: a small matrix with a stored zero.
//   A = [ 2 0 1 ]    x = [1 2 3]
//       [ 0 0 0 ]
//       [ 0 5 0 ]  (A(2,2) stored as 0)
TEST(SpmvCsr, SmallByHand) {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 3;
  coo.row = {0, 0, 2, 2};
  coo.col = {0, 2, 1, 2};
  coo.val = {2, 1, 5, 0};
  const Csr<double> a = Csr<double>::from_coo(coo);
  Context ctx(Device::cpu, 2);
  {
    const double x[3] = {1, 2, 3};
    double y[3] = {-1, -1, -1};
    spmv<PlusTimes<double>>(ctx, a.view(), x, y);
    EXPECT_EQ(y[0], 5.0);
    EXPECT_EQ(y[1], 0.0);
    EXPECT_EQ(y[2], 10.0);
    spmv<MinPlus<double>>(ctx, a.view(), x, y);
    EXPECT_EQ(y[0], 3.0);
    EXPECT_EQ(y[1], std::numeric_limits<double>::infinity());
    EXPECT_EQ(y[2], 3.0);
  }
  {
    // OrAnd: the stored zero at (2,2) is false; x(1) = 0 so row 2 is false.
    const std::uint8_t x[3] = {0, 0, 1};
    std::uint8_t y[3] = {9, 9, 9};
    spmv<OrAnd>(ctx, a.view(), x, y);
    EXPECT_EQ(y[0], 1);
    EXPECT_EQ(y[1], 0);
    EXPECT_EQ(y[2], 0);
    const std::uint8_t bits[3] = {1, 0, 1};
    std::uint8_t z[3] = {9, 9, 9};
    spmv<OrAnd>(ctx, a.view(), x, z, Mask{bits, true});
    EXPECT_EQ(z[0], 9);
    EXPECT_EQ(z[1], 0);
    EXPECT_EQ(z[2], 9);
  }
}

TEST(SpmvCsr, CudaDeviceWithoutKernelThrows) {
  const Csr<double> a = test::random_csr<double>(10, 10, MatrixShape::uniform, 2, false, 3);
  Context ctx(Device::cuda);
  std::vector<double> x(10, 1.0), y(10);
  EXPECT_THROW(spmv<PlusTimes<double>>(ctx, a.view(), x.data(), y.data()), DeviceError);
}

// The row partition covers [0, n] monotonically and balances rows + nnz.
TEST(SpmvCsr, PartitionBalancesWork) {
  for (MatrixShape shape : {MatrixShape::uniform, MatrixShape::heavy_row, MatrixShape::power_law,
                            MatrixShape::empty_rows}) {
    const Csr<double> a = test::random_csr<double>(5000, 5000, shape, 6, true, 11);
    const auto& rp = a.row_ptr();
    for (int parts : {1, 2, 3, 7, 64}) {
      vertex_t prev = 0;
      EXPECT_EQ(cpu::partition_begin(rp.data(), a.n_rows(), parts, 0), 0);
      EXPECT_EQ(cpu::partition_begin(rp.data(), a.n_rows(), parts, parts), a.n_rows());
      const offset_t total = a.nnz() + a.n_rows();
      for (int p = 1; p <= parts; ++p) {
        const vertex_t b = cpu::partition_begin(rp.data(), a.n_rows(), parts, p);
        ASSERT_GE(b, prev) << test::to_string(shape);
        // A part holds at most its share plus one row (the row that crosses the boundary).
        offset_t longest = 0;
        for (vertex_t i = prev; i < b; ++i) longest = std::max(longest, a.row_length(i) + 1);
        const offset_t work = (rp[b] + b) - (rp[prev] + prev);
        EXPECT_LE(work, total / parts + 1 + longest) << test::to_string(shape) << " part " << p;
        prev = b;
      }
    }
  }
}

}  // namespace
}  // namespace graphrun

namespace graphrun {
namespace {
// OrAnd reads any non-zero entry as true (a plain cast would make 0.5 false).
static_assert(semiring_entry<OrAnd>(0.5) == 1);
static_assert(semiring_entry<OrAnd>(0.0f) == 0);
static_assert(semiring_entry<PlusTimes<float>>(0.5) == 0.5f);
}  // namespace
}  // namespace graphrun
