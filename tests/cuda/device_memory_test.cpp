// The device memory count and its cap (engine/device_memory.hpp,
// Context::set_max_device_memory, --max-device-memory): allocations are
// counted and given back; one past the cap is a DeviceMemoryError naming the
// bytes needed, in use and capped, and leaves the count as it was; an SpGEMM
// whose workspace does not fit under the cap completes in row chunks, with
// the same C, never holding more than the cap; work that cannot fit at all
// (its inputs, or C) ends in a DeviceMemoryError, on the library and on the
// command line (exit status 2). Skips where there is no CUDA backend or GPU.
#include "graphrun/engine/device_memory.hpp"

#include <gtest/gtest.h>

#include <string>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/cpu/spgemm_reference.hpp"
#include "support/random_graphs.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
#include "graphrun/kernels/cuda/spgemm.hpp"
#endif

namespace graphrun {
namespace {

#if defined(GRAPHRUN_HAVE_CUDA)

class CudaDeviceMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
    set_device_memory_cap(0);
  }
  void TearDown() override { set_device_memory_cap(0); }
};

TEST_F(CudaDeviceMemory, AllocationsAreCountedAndGivenBack) {
  const std::size_t before = device_memory_in_use();
  {
    DeviceArray<double> a(1000);
    DeviceArray<int> b(10, nullptr);  // stream-ordered
    EXPECT_EQ(device_memory_in_use(), before + 8000 + 40);
    DeviceArray<double> moved = std::move(a);
    EXPECT_EQ(device_memory_in_use(), before + 8000 + 40);
  }
  EXPECT_EQ(device_memory_in_use(), before);
}

TEST_F(CudaDeviceMemory, PastTheCapIsAClearErrorAndCountsNothing) {
  Context ctx(Device::cuda);
  ctx.set_max_device_memory(device_memory_in_use() + (1 << 20));
  EXPECT_EQ(device_memory_cap(), ctx.max_device_memory());
  DeviceArray<char> fits(1 << 19);
  const std::size_t held = device_memory_in_use();
  try {
    DeviceArray<char> too_big(1 << 20);
    ADD_FAILURE() << "an allocation past the cap succeeded";
  } catch (const DeviceMemoryError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("needs 1048576 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("--max-device-memory"), std::string::npos) << m;
    EXPECT_NE(m.find("available"), std::string::npos) << m;
  }
  EXPECT_EQ(device_memory_in_use(), held);
}

TEST_F(CudaDeviceMemory, SpgemmLargerThanTheCapCompletesInChunks) {
  // 400 rows of ~12000 distinct columns each (18000 products): all in
  // global-memory hash tables (past the shared tables' 8192 entries), ~0.7 MB
  // of workspace a row, so that chunks of rows can fit under a cap.
  const auto a = test::random_csr<double>(400, 20000, test::MatrixShape::uniform, 300, false, 21);
  const auto b = test::random_csr<double>(20000, 20000, test::MatrixShape::uniform, 60, false, 22);
  const Csr<double> ref = cpu::spgemm_reference<PlusTimes<double>>(a.view(), b.view());
  const DeviceCsr<double> da(a), db(b);
  cuda::SpgemmOptions o;
  o.dense_rows = false;
  o.deterministic = true;  // so that capped and uncapped C compare bit for bit

  reset_device_memory_peak();
  cuda::SpgemmStats free_stats;
  const Csr<double> c_free = cuda::spgemm<PlusTimes<double>>(da, db, o, &free_stats).download();
  const std::size_t peak_free = device_memory_peak();
  ASSERT_EQ(free_stats.chunks, 1);
  ASSERT_GT(free_stats.workspace_bytes, std::size_t{1} << 20);

  // Caps that leave part of the largest workspace: the product must split
  // into row chunks (or, were one row's table alone past what is left, end
  // in a DeviceMemoryError naming the bytes; not with rows this small).
  int completed = 0;
  for (const double keep : {0.9, 0.75, 0.5}) {
    const auto cut = static_cast<std::size_t>((1.0 - keep) * free_stats.workspace_bytes);
    const std::size_t cap = peak_free - cut;
    set_device_memory_cap(cap);
    reset_device_memory_peak();
    const std::string what = "keeping " + std::to_string(keep) + " of the workspace";
    try {
      cuda::SpgemmStats capped;
      const Csr<double> c = cuda::spgemm<PlusTimes<double>>(da, db, o, &capped).download();
      ++completed;
      EXPECT_LE(device_memory_peak(), cap) << what;
      EXPECT_GT(capped.chunks + capped.symbolic_chunks, 2) << what << ": no row chunks";
      EXPECT_EQ(c.row_ptr(), ref.row_ptr()) << what;
      EXPECT_EQ(c.col_idx(), ref.col_idx()) << what;
      EXPECT_EQ(c.values(), c_free.values()) << what;
    } catch (const DeviceMemoryError& e) {
      EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
      ADD_FAILURE() << what << ": " << e.what();
    }
    set_device_memory_cap(0);
  }
  EXPECT_EQ(completed, 3);
}

TEST_F(CudaDeviceMemory, WorkThatCannotFitEndsInADeviceMemoryError) {
  const auto a = test::random_csr<double>(2000, 2000, test::MatrixShape::uniform, 40, false, 3);
  const DeviceCsr<double> da(a);
  // Below what C alone needs: no chunking can help.
  set_device_memory_cap(device_memory_in_use() + 4096);
  try {
    cuda::spgemm<PlusTimes<double>>(da, da);
    ADD_FAILURE() << "a product past the cap succeeded";
  } catch (const DeviceMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
  // Nor an upload.
  EXPECT_THROW(DeviceCsr<double>{a}, DeviceMemoryError);
  set_device_memory_cap(0);
  EXPECT_NO_THROW(cuda::spgemm<PlusTimes<double>>(da, da));  // and all is well after
}

#else
TEST(CudaDeviceMemory, NeedsCudaBackend) { GTEST_SKIP() << "built without the CUDA backend"; }
#endif

}  // namespace
}  // namespace graphrun
