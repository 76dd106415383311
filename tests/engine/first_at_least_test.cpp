// first_at_least (engine/first_at_least.hpp), the binary search the GPU
// SpGEMM's column windows, the GPU triangles and the device assembly run on
// the device, against std::lower_bound on the host: sorted arrays with
// duplicates, keys below, between, on and above every element, every
// sub-range [lo, hi) including empty ones, and both index widths.
#include "graphrun/engine/first_at_least.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "graphrun/engine/types.hpp"

namespace graphrun {
namespace {

TEST(FirstAtLeast, EqualsLowerBoundOnEveryRangeAndKey) {
  std::mt19937 rng(17);
  for (int size : {0, 1, 2, 7, 64, 300}) {
    std::vector<vertex_t> sorted(static_cast<std::size_t>(size));
    std::uniform_int_distribution<vertex_t> value(0, size / 2 + 1);  // duplicates
    for (vertex_t& x : sorted) x = value(rng);
    std::sort(sorted.begin(), sorted.end());
    for (int lo = 0; lo <= size; lo += std::max(1, size / 9))
      for (int hi = lo; hi <= size; hi += std::max(1, size / 7))
        for (vertex_t key = -1; key <= size / 2 + 2; ++key) {
          const auto want = static_cast<offset_t>(
              std::lower_bound(sorted.begin() + lo, sorted.begin() + hi, key) - sorted.begin());
          EXPECT_EQ(first_at_least(sorted.data(), offset_t{lo}, offset_t{hi}, key), want)
              << "size " << size << " [" << lo << ", " << hi << ") key " << key;
          EXPECT_EQ(first_at_least(sorted.data(), vertex_t{lo}, vertex_t{hi}, key),
                    static_cast<vertex_t>(want));
        }
  }
}

TEST(FirstAtLeast, UnsignedKeysAndLargeIds) {
  const std::vector<std::uint64_t> ids = {3, 9, 9, std::uint64_t{1} << 40, ~std::uint64_t{0}};
  const auto n = static_cast<vertex_t>(ids.size());
  EXPECT_EQ(first_at_least(ids.data(), vertex_t{0}, n, std::uint64_t{0}), 0);
  EXPECT_EQ(first_at_least(ids.data(), vertex_t{0}, n, std::uint64_t{9}), 1);
  EXPECT_EQ(first_at_least(ids.data(), vertex_t{0}, n, std::uint64_t{10}), 3);
  EXPECT_EQ(first_at_least(ids.data(), vertex_t{0}, n, ~std::uint64_t{0}), 4);
  EXPECT_EQ(first_at_least(ids.data(), vertex_t{2}, vertex_t{2}, std::uint64_t{0}), 2);
}

}  // namespace
}  // namespace graphrun
