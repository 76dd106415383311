// Device memory and the first kernel, end to end. Skips where there is no
// CUDA backend or no GPU; scripts/gpu-check.sh runs it on a GPU machine.
#include "graphrun/engine/device_array.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/pinned_scratch.hpp"
#include "graphrun/kernels/cuda/fill.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)
class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_F(CudaTest, UploadDownloadRoundTrip) {
  std::vector<std::int64_t> host(100'003);
  std::iota(host.begin(), host.end(), std::int64_t{-7});
  DeviceArray<std::int64_t> d{std::span<const std::int64_t>(host)};
  EXPECT_EQ(d.size(), host.size());
  EXPECT_EQ(d.download(), host);
}

TEST_F(CudaTest, FillCoversEveryElementForAwkwardSizes) {
  // Sizes around block and grid-stride boundaries, and past 65535 blocks.
  for (std::size_t n :
       {std::size_t{1}, std::size_t{255}, std::size_t{257}, std::size_t{65535 * 256 + 3}}) {
    DeviceArray<double> d(n);
    cuda::fill(d, 2.5);
    auto h = d.download();
    ASSERT_EQ(h.size(), n);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], 2.5) << "n=" << n << " i=" << i;
  }
}

TEST_F(CudaTest, AllocationTooLargeIsADeviceErrorNamingTheBytes) {
  try {
    DeviceArray<double> d(std::size_t{1} << 50);  // 8 PiB
    FAIL() << "allocation should have failed";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
}

// Stream-ordered arrays on a non-blocking stream: written there by a memset,
// read back on the host (which must wait for that stream), moved, and freed
// in stream order.
TEST_F(CudaTest, StreamOrderedArraysOnANonBlockingStream) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  {
    DeviceArray<std::uint8_t> d(1 << 20, s);
    ASSERT_EQ(cudaMemsetAsync(d.data(), 0xab, d.size(), s), cudaSuccess);
    DeviceArray<std::uint8_t> moved = std::move(d);
    const auto h = moved.download();
    ASSERT_EQ(h.size(), std::size_t{1} << 20);
    EXPECT_EQ(std::count(h.begin(), h.end(), std::uint8_t{0xab}), 1 << 20);
    std::vector<std::int32_t> up(1000);
    std::iota(up.begin(), up.end(), 5);
    DeviceArray<std::int32_t> u(up.size(), s);
    u.upload(up);
    EXPECT_EQ(u.download(), up);
  }
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  cudaStreamDestroy(s);
}

// A too-large stream-ordered array is a DeviceError naming the bytes, like a
// plain one (a failing allocation by design: left out of compute-sanitizer).
TEST_F(CudaTest, StreamOrderedAllocationTooLargeIsADeviceError) {
  try {
    DeviceArray<double> d(std::size_t{1} << 50, nullptr);
    FAIL() << "allocation should have failed";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
}

TEST_F(CudaTest, SizeOverflowIsCaughtBeforeAllocating) {
  EXPECT_THROW(DeviceArray<double>(~std::size_t{0} / 4), SizeError);
}

// The pinned scratch block: buffers 64-byte aligned and disjoint, the
// device's copies land in them, slots given back are handed out again,
// and requests past the block (one larger than it, or the block full) get
// buffers of their own.
TEST_F(CudaTest, PinnedScratchBuffersAreDisjointReusedAndCopiedInto) {
  std::vector<std::pair<std::byte*, std::size_t>> held;
  const std::size_t sizes[] = {1, 8, 64, 65, 200, 4096, 3, 1000, 70000, 128};
  for (int round = 0; round < 40; ++round)
    for (std::size_t bytes : sizes)
      held.emplace_back(static_cast<std::byte*>(detail::acquire_pinned_scratch(bytes)), bytes);
  std::sort(held.begin(), held.end());
  for (std::size_t i = 0; i < held.size(); ++i) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(held[i].first) % 64, 0u);
    if (i + 1 < held.size()) {
      EXPECT_LE(held[i].first + held[i].second, held[i + 1].first);
    }
  }
  // A copy from the device into one of them.
  std::vector<std::int64_t> host(500);
  std::iota(host.begin(), host.end(), std::int64_t{11});
  const DeviceArray<std::int64_t> d{std::span<const std::int64_t>(host)};
  detail::PinnedScratch<std::int64_t> into(host.size());
  ASSERT_EQ(cudaMemcpyAsync(into.data(), d.data(), host.size() * sizeof(std::int64_t),
                            cudaMemcpyDeviceToHost),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  EXPECT_TRUE(std::equal(host.begin(), host.end(), into.data()));
  for (const auto& [p, bytes] : held) detail::release_pinned_scratch(p, bytes);
  // Given back: the same slot serves the next small request.
  void* a = detail::acquire_pinned_scratch(16);
  detail::release_pinned_scratch(a, 16);
  void* b = detail::acquire_pinned_scratch(16);
  EXPECT_EQ(a, b);
  detail::release_pinned_scratch(b, 16);
}

// The pinned buffers graphrun keeps for the process's life, freed and pinned
// again (release_pinned_host_buffers, which every GPU test binary calls at
// its end for the leak check): copies of 48 MiB each way, through both
// staging buffers, give the same data before and after a release; a release
// while a scratch buffer is held keeps the block, and the buffer serves; a
// second release does nothing more.
TEST_F(CudaTest, PinnedHostBuffersReleasedAndPinnedAgain) {
  std::vector<std::int32_t> host(std::size_t{12} << 20);
  std::iota(host.begin(), host.end(), std::int32_t{-5});
  const auto round_trip = [&] {
    const DeviceArray<std::int32_t> d{std::span<const std::int32_t>(host)};
    EXPECT_EQ(d.download(), host);
  };
  round_trip();
  release_pinned_host_buffers();
  round_trip();
  void* held = detail::acquire_pinned_scratch(64);
  release_pinned_host_buffers();
  const DeviceArray<std::int32_t> d{std::span<const std::int32_t>(host.data(), 16)};
  ASSERT_EQ(cudaMemcpy(held, d.data(), 64, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(std::equal(host.begin(), host.begin() + 16, static_cast<std::int32_t*>(held)));
  detail::release_pinned_scratch(held, 64);
  release_pinned_host_buffers();
  release_pinned_host_buffers();
  round_trip();
}
#endif

// Runs in every build: without a GPU or backend the count is 0, never a throw.
TEST(CudaAvailability, DeviceCountNeverThrows) { EXPECT_GE(cuda_device_count(), 0); }

}  // namespace
}  // namespace graphrun
