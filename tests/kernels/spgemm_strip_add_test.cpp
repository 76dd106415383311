// The strip path's inner loop (acc[col[k]] += a * val[k] over one run of a
// strip of B) in each of its instruction-set variants against the plain
// scalar loop: the same sums to the bit, for runs of every length around
// the vector widths, at every alignment of the run, with the columns in any
// order (a strip's run is sorted, but the loop must not depend on it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "cpu/spgemm_row_strip.hpp"
#include "graphrun/engine/semiring.hpp"

namespace graphrun {
namespace {

using Strip = cpu::spgemm_detail::StripRows<PlusTimes<double>, float>;
using AddProducts = void (*)(double*, double, const std::uint16_t*, const float*, offset_t,
                             offset_t);

void scalar_add(double* acc, double a, const std::uint16_t* col, const float* val, offset_t begin,
                offset_t end) {
  for (offset_t k = begin; k < end; ++k) acc[col[k]] += a * static_cast<double>(val[k]);
}

void expect_same_sums(AddProducts add, const char* name) {
  std::mt19937_64 rng(7);
  constexpr int width = 4096;
  std::uniform_real_distribution<float> value(1e-7f, 1.0f);
  std::uniform_real_distribution<double> weight(1e-6, 1.0);
  std::vector<std::uint16_t> all(width);
  std::iota(all.begin(), all.end(), std::uint16_t{0});
  for (offset_t len : {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4096})
    for (offset_t begin : {0, 1, 2, 3}) {
      std::shuffle(all.begin(), all.end(), rng);
      std::vector<std::uint16_t> col(static_cast<std::size_t>(begin), 0);
      col.insert(col.end(), all.begin(), all.begin() + len);
      if (len % 3 == 0) std::sort(col.begin() + begin, col.end());
      std::vector<float> val(col.size());
      for (float& v : val) v = value(rng);
      std::vector<double> want(width), got(width);
      for (int j = 0; j < width; j += 3) want[j] = got[j] = weight(rng);  // earlier sums
      for (int pass = 0; pass < 2; ++pass) {                              // twice: sums on sums
        const double a = weight(rng);
        scalar_add(want.data(), a, col.data(), val.data(), begin, begin + len);
        add(got.data(), a, col.data(), val.data(), begin, begin + len);
      }
      EXPECT_EQ(std::memcmp(want.data(), got.data(), width * sizeof(double)), 0)
          << name << ": run of " << len << " from " << begin;
    }
}

TEST(SpgemmStripAdd, Sse2PairsEqualTheScalarLoop) {
  expect_same_sums(&Strip::add_products, "pairs");
}

TEST(SpgemmStripAdd, Avx2QuadsEqualTheScalarLoop) {
#if GRAPHRUN_STRIP_AVX2
  if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "this CPU has no AVX2";
  expect_same_sums(&Strip::add_products_avx2, "quads");
#else
  GTEST_SKIP() << "built without the AVX2 variant (not x86-64 with GCC or Clang)";
#endif
}

}  // namespace
}  // namespace graphrun
