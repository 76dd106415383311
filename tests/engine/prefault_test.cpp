// prefaulted_vector: the same vector as std::vector<T>(n, value), below and
// above the size where its pages are faulted in on every core, with odd
// sizes that end mid-page, from inside a parallel region (a team of one),
// and for a capacity reserved beforehand (prefault_capacity leaves the
// contents alone).
#include "graphrun/engine/prefault.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
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

// Pages faulted in by prefault_range, where some were mapped before (the
// runs between them are what it populates) and where all were (it must
// leave them, and their contents, alone).
TEST(Prefault, MapsEveryPageThatWasNot) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t pages = 1000, bytes = pages * page;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  auto* bytes_at = static_cast<unsigned char*>(p);
  // Mapped before: every third page, and a run of 50 in the middle.
  for (std::size_t i = 0; i < pages; i += 3) bytes_at[i * page] = 7;
  std::memset(bytes_at + 400 * page, 9, 50 * page);
  std::vector<unsigned char> resident(pages);
  ASSERT_EQ(::mincore(p, bytes, resident.data()), 0);
  std::size_t mapped_before = 0;
  for (const unsigned char r : resident) mapped_before += r & 1;
  ASSERT_LT(mapped_before, pages);  // else there is nothing to test
  const int threads = omp_get_max_threads();
  omp_set_num_threads(3);  // shares that start and end inside runs
  prefault_range(p, bytes);
  omp_set_num_threads(threads);
  ASSERT_EQ(::mincore(p, bytes, resident.data()), 0);
#if defined(MADV_POPULATE_WRITE)
  for (std::size_t i = 0; i < pages; ++i) EXPECT_EQ(resident[i] & 1, 1) << "page " << i;
#endif
  for (std::size_t i = 0; i < pages; i += 3) {
    if (i < 400 || i >= 450) {
      EXPECT_EQ(bytes_at[i * page], 7) << i;
    }
  }
  for (std::size_t i = 400 * page; i < 450 * page; ++i) ASSERT_EQ(bytes_at[i], 9) << i;
  prefault_range(p, bytes);  // all mapped now: nothing changes
  for (std::size_t i = 400 * page; i < 450 * page; ++i) ASSERT_EQ(bytes_at[i], 9) << i;
  ::munmap(p, bytes);
}

}  // namespace
}  // namespace graphrun
