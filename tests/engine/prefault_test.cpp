// prefaulted_vector: the same vector as std::vector<T>(n, value), below and
// above the size where its pages are faulted in on every core, with odd
// sizes that end mid-page, from inside a parallel region (a team of one),
// and for a capacity reserved beforehand (prefault_capacity leaves the
// contents alone).
#include "graphrun/engine/prefault.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <vector>

namespace graphrun {
namespace {

TEST(Prefault, SameAsAFilledVector) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000},
                              (std::size_t{1} << 18) + 7, (std::size_t{3} << 20) + 1}) {
    const std::vector<std::int32_t> got = prefaulted_vector<std::int32_t>(n, -1);
    EXPECT_EQ(got, std::vector<std::int32_t>(n, -1)) << n;
    const std::vector<double> zeros = prefaulted_vector<double>(n);
    EXPECT_EQ(zeros, std::vector<double>(n, 0.0)) << n;
  }
}

TEST(Prefault, InsideAParallelRegion) {
  const std::size_t n = (std::size_t{5} << 20) + 3;
  std::vector<std::uint64_t> got;
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    got = prefaulted_vector<std::uint64_t>(n, 7);
  }
  EXPECT_EQ(got, std::vector<std::uint64_t>(n, 7));
}

TEST(Prefault, CapacityKeepsTheContents) {
  std::vector<std::int64_t> v(1000, 5);
  v.reserve(std::size_t{4} << 20);
  prefault_capacity(v);
  EXPECT_EQ(v, std::vector<std::int64_t>(1000, 5));
  v.resize(std::size_t{4} << 20, 9);
  EXPECT_EQ(v.front(), 5);
  EXPECT_EQ(v.back(), 9);
}

}  // namespace
}  // namespace graphrun
