// Row statistics of a device CSR on the device: what the SpMV format chooser
// reads, without copying row_ptr back (n + 1 offsets: 37 MB and ~45 ms of a
// GPU PageRank's set-up on an R-MAT graph of 4.6M rows, with the host pass).
//
// One pass over the rows: each block reduces its rows' minimum, maximum,
// sum of squared lengths, empty rows and length histogram (CUB block
// reductions, shared-memory histogram), and adds them to one device record
// with atomics. The squared lengths are summed as exact integers, so the
// figures are exactly the host's (analyze()) whenever that sum is below
// 2^53, where the host's double sum is exact too; where the sum could pass
// 2^64 the host computes them instead.
#include <algorithm>
#include <cmath>
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include "format_util.cuh"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/row_stats.hpp"

namespace graphrun {

namespace {

constexpr int kBlock = 256;
constexpr int kBins = static_cast<int>(std::tuple_size_v<decltype(RowStats::histogram)>);

struct DeviceRowStats {
  unsigned long long min_length;
  unsigned long long max_length;
  unsigned long long sum_squares;
  unsigned long long histogram[kBins];
};

__global__ void __launch_bounds__(kBlock)
    row_stats_kernel(vertex_t n, const offset_t* __restrict__ row_ptr, DeviceRowStats* out) {
  using Reduce = cub::BlockReduce<unsigned long long, kBlock>;
  __shared__ typename Reduce::TempStorage tmp;
  __shared__ unsigned long long bins[kBins];
  for (int b = threadIdx.x; b < kBins; b += kBlock) bins[b] = 0;
  __syncthreads();
  unsigned long long mn = ~0ull, mx = 0, sq = 0;
  for (offset_t i = offset_t{blockIdx.x} * kBlock + threadIdx.x; i < n;
       i += offset_t{gridDim.x} * kBlock) {
    const auto len = static_cast<unsigned long long>(row_ptr[i + 1] - row_ptr[i]);
    mn = min(mn, len);
    mx = max(mx, len);
    sq += len * len;
    const int bin = min(len == 0 ? 0 : 64 - __clzll(static_cast<long long>(len)),  // bit width
                        kBins - 1);
    // One atomic per bin a warp's rows fall in: most rows of a skewed graph
    // share a bin or two (half of R-MAT 23's 4.6M rows are empty), and 32
    // atomics on one shared word serialize (146 us on the H200, now ~20).
    const unsigned peers = __match_any_sync(__activemask(), bin);
    if (static_cast<int>(threadIdx.x % 32) == __ffs(peers) - 1)
      atomicAdd(&bins[bin], static_cast<unsigned long long>(__popc(peers)));
  }
  const unsigned long long block_min = Reduce(tmp).Reduce(mn, ::cuda::minimum<>{});
  __syncthreads();
  const unsigned long long block_max = Reduce(tmp).Reduce(mx, ::cuda::maximum<>{});
  __syncthreads();
  const unsigned long long block_sq = Reduce(tmp).Sum(sq);
  __syncthreads();  // bins complete
  if (threadIdx.x == 0) {
    atomicMin(&out->min_length, block_min);
    atomicMax(&out->max_length, block_max);
    atomicAdd(&out->sum_squares, block_sq);
  }
  for (int b = threadIdx.x; b < kBins; b += kBlock)
    if (bins[b] != 0) atomicAdd(&out->histogram[b], bins[b]);
}

}  // namespace

template <class T>
RowStats analyze(const DeviceCsr<T>& a) {
  RowStats s;
  s.n_rows = a.n_rows();
  s.nnz = a.nnz();
  if (a.n_rows() == 0) return s;
  DeviceRowStats init{};
  init.min_length = ~0ull;
  DeviceArray<DeviceRowStats> d(1);
  d.upload(std::span<const DeviceRowStats>(&init, 1));
  // Grid-stride over the rows with at most 1024 blocks: few atomics on the
  // record's 43 words.
  const unsigned blocks = std::min(cuda::detail::blocks_for(a.n_rows(), kBlock), 1024u);
  row_stats_kernel<<<blocks, kBlock>>>(a.n_rows(), a.row_ptr().data(), d.data());
  cuda::detail::check_launch();
  const DeviceRowStats r = d.download()[0];
  // Σ len² <= max_length * nnz: where that passes 2^64 the integer sum may
  // have wrapped; the host's double sum does not.
  if (r.max_length != 0 && static_cast<unsigned long long>(a.nnz()) > ~0ull / r.max_length) {
    const std::vector<offset_t> row_ptr = a.row_ptr().download();
    return analyze(CsrView<T>{a.n_rows(), a.n_cols(), a.nnz(), row_ptr.data(), nullptr, nullptr});
  }
  s.min_length = static_cast<offset_t>(r.min_length);
  s.max_length = static_cast<offset_t>(r.max_length);
  s.mean = static_cast<double>(a.nnz()) / a.n_rows();
  const double sumsq = static_cast<double>(r.sum_squares);
  s.stddev = std::sqrt(std::max(0.0, sumsq / a.n_rows() - s.mean * s.mean));
  s.cv = s.mean > 0 ? s.stddev / s.mean : 0.0;
  for (int b = 0; b < kBins; ++b) s.histogram[b] = static_cast<std::int64_t>(r.histogram[b]);
  s.empty_fraction = static_cast<double>(s.histogram[0]) / a.n_rows();
  return s;
}

template RowStats analyze(const DeviceCsr<float>&);
template RowStats analyze(const DeviceCsr<double>&);

}  // namespace graphrun
