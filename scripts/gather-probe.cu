// What bounds an R-MAT SpMV's gathers on the GPU, apart from the SpMV's own
// bookkeeping: gather-only kernels (each thread sums x over a strided run of
// entries; no rows) and a warp/sub-warp-per-row SpMV, on the matrix in
// input order and renumbered by degree, beside cuSPARSE's CSR SpMV, with
//   mode 0  columns and x through the read-only cache (__ldg)
//   mode 1  columns streamed (__ldcs, evict first) so the L1 keeps x
//   mode 2  as 1, and x[0, hot) staged in shared memory by persistent blocks
// The R-MAT graph (Graph500 a=.57, b=c=.19, edge factor 16, symmetrized, no
// loops or repeats) and its degree order are built on the device (Thrust).
// docs/performance.md has the run behind the backed-out staged slice.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 scripts/gather-probe.cu -o gather-probe -lcusparse
//   ./gather-probe [SCALE=22] [UNIFORM=0] [SKIP_INPUT_ORDER=0]
#include <thrust/adjacent_difference.h>
#include <thrust/sequence.h>

#include <cmath>

#include "probe_util.cuh"

__global__ void rmat(int scale, uint64_t m, uint64_t* keys, int uniform) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= m) return;
  uint64_t u = 0, v = 0;
  for (int l = 0; l < scale; ++l) {
    double r = (mix(i * 64 + l) >> 11) * (1.0 / 9007199254740992.0);
    int bu, bv;
    if (uniform) {
      bu = r < 0.5;
      bv = ((mix(i * 64 + l + 32) >> 11) & 1);
    } else if (r < 0.57) {
      bu = 0;
      bv = 0;
    } else if (r < 0.76) {
      bu = 0;
      bv = 1;
    } else if (r < 0.95) {
      bu = 1;
      bv = 0;
    } else {
      bu = 1;
      bv = 1;
    }
    u = (u << 1) | bu;
    v = (v << 1) | bv;
  }
  keys[2 * i] = (u << 32) | v;
  keys[2 * i + 1] = (v << 32) | u;
}

// x at entry k's column, by MODE (the file's header).
template <int MODE>
__device__ __forceinline__ float gather_one(const int* __restrict__ col, uint64_t k,
                                            const float* __restrict__ x, const float* s_hot,
                                            int hot) {
  const int c = MODE == 0 ? __ldg(col + k) : __ldcs(col + k);
  return MODE == 2 && c < hot ? s_hot[c] : __ldg(x + c);
}

// gather-only: each block sums x over a contiguous chunk of entries
template <int MODE>
__global__ void __launch_bounds__(1024) gather(const int* __restrict__ col, uint64_t nnz,
                                               const float* __restrict__ x, int hot, double* out) {
  extern __shared__ float s_hot[];
  for (int i = threadIdx.x; i < hot; i += blockDim.x) s_hot[i] = x[i];
  __syncthreads();
  double s = 0;
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < nnz; k += stride) {
    s += gather_one<MODE>(col, k, x, s_hot, hot);
  }
  if (s == 12345.678) out[0] = s;
}

// row SpMV: a warp per row group, sub-warps of W lanes per row, persistent
template <int W, int MODE>
__global__ void __launch_bounds__(1024)
    rows(const int64_t* __restrict__ rp, const int* __restrict__ col, int n,
         const float* __restrict__ x, int hot, double* __restrict__ y) {
  extern __shared__ float s_hot[];
  for (int i = threadIdx.x; i < hot; i += blockDim.x) s_hot[i] = x[i];
  __syncthreads();
  const int lane = threadIdx.x % W;
  const int g = (blockIdx.x * blockDim.x + threadIdx.x) / W, G = gridDim.x * blockDim.x / W;
  for (int r = g; r < n; r += G) {
    double s = 0;
    for (int64_t k = rp[r] + lane; k < rp[r + 1]; k += W) {
      s += gather_one<MODE>(col, k, x, s_hot, hot);
    }
    for (int o = W / 2; o; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o, W);
    if (lane == 0) y[r] = s;
  }
}

// binned rows: a list of rows of one length class, W lanes a row (one row
// per W lanes, no persistence); a lane takes its items 4 at a time, loads
// first, then gathers, so 4 gathers are in flight per lane on long rows.
template <int W>
__global__ void __launch_bounds__(256)
    binned(const int* __restrict__ rows, int nr, const int64_t* __restrict__ rp,
           const int* __restrict__ col, const float* __restrict__ x, double* __restrict__ y) {
  const int lane = threadIdx.x % W;
  const int g = (blockIdx.x * blockDim.x + threadIdx.x) / W;
  if (g >= nr) return;
  const int r = rows[g];
  const int64_t b = rp[r], e = rp[r + 1];
  double s = 0;
  int64_t k = b + lane;
  for (; k + 3 * W < e; k += 4 * W) {
    const int c0 = __ldg(col + k), c1 = __ldg(col + k + W), c2 = __ldg(col + k + 2 * W),
              c3 = __ldg(col + k + 3 * W);
    const float x0 = __ldg(x + c0), x1 = __ldg(x + c1), x2 = __ldg(x + c2), x3 = __ldg(x + c3);
    s += double(x0) + double(x1) + double(x2) + double(x3);
  }
  for (; k < e; k += W) s += __ldg(x + __ldg(col + k));
  if (W > 1) {
    unsigned m = W == 32 ? 0xffffffffu : ((1u << W) - 1) << (threadIdx.x % 32 / W * W);
    for (int o = W / 2; o; o /= 2) s += __shfl_down_sync(m, s, o, W);
  }
  if (lane == 0) y[r] = s;
}

// a block of 512 per (huge) row
__global__ void __launch_bounds__(512)
    block_rows(const int* __restrict__ rows, const int64_t* __restrict__ rp,
               const int* __restrict__ col, const float* __restrict__ x, double* __restrict__ y) {
  __shared__ double part[16];
  const int r = rows[blockIdx.x];
  double s = 0;
  for (int64_t k = rp[r] + threadIdx.x; k < rp[r + 1]; k += 512) s += __ldg(x + __ldg(col + k));
  for (int o = 16; o; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double t = 0;
    for (int i = 0; i < 16; ++i) t += part[i];
    y[r] = t;
  }
}

int main(int argc, char** argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int uniform = argc > 2 ? atoi(argv[2]) : 0;
  const int skip_input = argc > 3 ? atoi(argv[3]) : 0;
  int n = 1 << scale;
  uint64_t m = 16ull << scale;
  thrust::device_vector<uint64_t> keys(2 * m);
  rmat<<<(m + 255) / 256, 256>>>(scale, m, thrust::raw_pointer_cast(keys.data()), uniform);
  thrust::device_vector<int> r, c;
  thrust::device_vector<int64_t> rp;
  keys_to_csr(keys, n, r, c, rp);
  const uint64_t nnz = c.size();
  thrust::device_vector<float> xf(n);
  thrust::device_vector<double> xd(n), y(n);
  fill_x(xf, xd, n);
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("scale %d uniform %d n %d nnz %llu sms %d\n", scale, uniform, n, (unsigned long long)nnz,
         sms);
  double* out;
  CK(cudaMalloc(&out, 8));
  for (int sorted = skip_input; sorted < 2; ++sorted) {
    if (sorted) {
      // degree order, descending
      thrust::device_vector<int64_t> deg(n);
      thrust::adjacent_difference(rp.begin() + 1, rp.end(), deg.begin());
      deg[0] = rp[1] - rp[0];
      thrust::device_vector<int> perm(n), rank(n);
      thrust::sequence(perm.begin(), perm.end());
      thrust::stable_sort_by_key(deg.begin(), deg.end(), perm.begin(), thrust::greater<int64_t>());
      scatter_rank<<<(n + 255) / 256, 256>>>(thrust::raw_pointer_cast(perm.data()), n,
                                             thrust::raw_pointer_cast(rank.data()));
      relabel<<<(nnz + 255) / 256, 256>>>(thrust::raw_pointer_cast(keys.data()), nnz,
                                          thrust::raw_pointer_cast(rank.data()));
      keys_to_csr(keys, n, r, c, rp);  // a relabelling: no repeats or loops appear
    }
    const int* cp = thrust::raw_pointer_cast(c.data());
    const int64_t* rpp = thrust::raw_pointer_cast(rp.data());
    const float* xp = thrust::raw_pointer_cast(xf.data());
    double* yp = thrust::raw_pointer_cast(y.data());
    const float cus = cusparse_csr_ms(n, nnz, rp, cp, thrust::raw_pointer_cast(xd.data()), yp, 15);
    printf("\n== %s: cuSPARSE csr double %.3f ms\n", sorted ? "degree order" : "input order", cus);
    // hot coverage
    {
      std::vector<int> hc(std::min<uint64_t>(nnz, 1 << 24));
      cudaMemcpy(hc.data(), cp, hc.size() * 4, cudaMemcpyDeviceToHost);
      for (int K : {12288, 24576, 49152}) {
        size_t k = 0;
        for (int v : hc) k += v < K;
        printf("  share of entries < %d: %.3f\n", K, double(k) / hc.size());
      }
    }
    for (int mode = 0; mode < 3; ++mode) {
      for (int K : {0, 12288, 24576, 49152}) {
        if ((mode < 2) != (K == 0)) continue;
        size_t smem = K * 4;
        for (int bs : {256, 512, 1024}) {
          int per = 0;
          auto kern = mode == 0 ? gather<0> : mode == 1 ? gather<1> : gather<2>;
          CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000));
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, bs, smem);
          if (per == 0) continue;
          float t = timeit([&] { kern<<<sms * per, bs, smem>>>(cp, nnz, xp, K, out); });
          printf("  gather mode %d hot %6d block %4d x%d/SM: %.3f ms\n", mode, K, bs, per, t);
        }
      }
    }
    for (int mode = 0; mode < 3; ++mode) {
      for (int K : {0, 12288, 24576, 49152}) {
        if ((mode < 2) != (K == 0)) continue;
        size_t smem = K * 4;
        int bs = 512, per = 0;
        auto k8 = mode == 0 ? rows<8, 0> : mode == 1 ? rows<8, 1> : rows<8, 2>;
        auto k32 = mode == 0 ? rows<32, 0> : mode == 1 ? rows<32, 1> : rows<32, 2>;
        for (auto kern : {k8, k32}) {
          CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000));
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, bs, smem);
          if (per == 0) continue;
          float t = timeit([&] { kern<<<sms * per, bs, smem>>>(rpp, cp, n, xp, K, yp); });
          printf("  rows %s mode %d hot %6d x%d/SM: %.3f ms\n", kern == k8 ? "w8 " : "w32", mode, K,
                 per, t);
        }
      }
    }
    // binned rows: classes by length (W = power of two >= length, 1..32; a
    // block a row past 2048), each a list of row ids, launched one after another
    {
      std::vector<int64_t> hp(n + 1);
      cudaMemcpy(hp.data(), rpp, (n + 1) * 8, cudaMemcpyDeviceToHost);
      std::vector<std::vector<int>> bins(7);
      for (int i = 0; i < n; ++i) {
        const int64_t len = hp[i + 1] - hp[i];
        int b = 0;
        while (b < 5 && (int64_t(1) << b) < len) ++b;
        if (len > 2048) b = 6;
        bins[b].push_back(i);
      }
      std::vector<thrust::device_vector<int>> db;
      for (auto& v : bins) db.emplace_back(v.begin(), v.end());
      printf("  bins (W 1..32, block):");
      for (auto& v : bins) printf(" %zu", v.size());
      printf("\n");
      // The bins one launch after another on `st`, the long rows' first or last.
      auto launch_bins = [&](cudaStream_t st, bool long_first) {
        auto ptr = [&](int b) { return thrust::raw_pointer_cast(db[b].data()); };
        auto go = [&](auto kern, int b, int w) {
          const int nr = bins[b].size();
          if (nr) kern<<<(int64_t(nr) * w + 255) / 256, 256, 0, st>>>(ptr(b), nr, rpp, cp, xp, yp);
        };
        auto hubs = [&] {
          if (!bins[6].empty()) block_rows<<<bins[6].size(), 512, 0, st>>>(ptr(6), rpp, cp, xp, yp);
        };
        if (long_first) hubs();
        go(binned<1>, 0, 1);
        go(binned<2>, 1, 2);
        go(binned<4>, 2, 4);
        go(binned<8>, 3, 8);
        go(binned<16>, 4, 16);
        go(binned<32>, 5, 32);
        if (!long_first) hubs();
      };
      auto all = [&] { launch_bins(nullptr, false); };
      printf("  binned rows: %.3f ms\n", timeit(all));
      // The same on a stream of its own, then with x in a persisting L2
      // window (its first bytes up to the device's set-aside: the hubs, in
      // degree order), then with the kernels' carve-out at the most L1.
      {
        cudaStream_t st;
        CK(cudaStreamCreate(&st));
        auto on = [&] { launch_bins(st, true); };
        auto timest = [&](auto f) { return timeit(f, 15, st); };
        printf("  binned rows, long rows first, own stream: %.3f ms\n", timest(on));
        int max_persist = 0, max_window = 0;
        cudaDeviceGetAttribute(&max_persist, cudaDevAttrMaxPersistingL2CacheSize, 0);
        cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, 0);
        for (double share : {0.25, 0.5, 1.0}) {
          size_t want = std::min<size_t>(size_t(n) * 4, size_t(share * max_persist));
          CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, want));
          cudaStreamAttrValue v{};
          v.accessPolicyWindow.base_ptr = (void*)xp;
          v.accessPolicyWindow.num_bytes = std::min<size_t>(want, max_window);
          v.accessPolicyWindow.hitRatio = 1.0f;
          v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
          v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
          CK(cudaStreamSetAttribute(st, cudaStreamAttributeAccessPolicyWindow, &v));
          printf("  binned rows, x[0, %zu KB) persisting (set-aside %d KB): %.3f ms\n",
                 v.accessPolicyWindow.num_bytes / 1024, int(want / 1024), timest(on));
          v.accessPolicyWindow.num_bytes = 0;
          CK(cudaStreamSetAttribute(st, cudaStreamAttributeAccessPolicyWindow, &v));
          CK(cudaCtxResetPersistingL2Cache());
        }
        CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
        for (auto k : {binned<1>, binned<2>, binned<4>, binned<8>, binned<16>, binned<32>})
          CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutMaxL1));
        CK(cudaFuncSetAttribute(block_rows, cudaFuncAttributePreferredSharedMemoryCarveout,
                                cudaSharedmemCarveoutMaxL1));
        printf("  binned rows, carve-out at the most L1: %.3f ms\n", timest(on));
        for (auto k : {binned<1>, binned<2>, binned<4>, binned<8>, binned<16>, binned<32>})
          CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
        CK(cudaFuncSetAttribute(block_rows, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
        CK(cudaStreamDestroy(st));
      }
      // y against a plain row loop on the host (first 1M rows)
      std::vector<double> hy(n);
      cudaMemcpy(hy.data(), yp, n * 8, cudaMemcpyDeviceToHost);
      std::vector<int> hc(nnz);
      cudaMemcpy(hc.data(), cp, nnz * 4, cudaMemcpyDeviceToHost);
      std::vector<float> hx(n);
      cudaMemcpy(hx.data(), xp, n * 4, cudaMemcpyDeviceToHost);
      double worst = 0;
      for (int i = 0; i < std::min(n, 1 << 20); ++i) {
        double t = 0;
        for (int64_t k = hp[i]; k < hp[i + 1]; ++k) t += hx[hc[k]];
        worst = std::max(worst, std::abs(t - hy[i]) / (std::abs(t) + 1));
      }
      printf("  binned rows: worst relative difference %.2e\n", worst);
    }
  }
  return 0;
}
