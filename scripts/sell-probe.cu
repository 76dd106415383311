// What the window σ of SELL-32-σ (engine/formats/sell.hpp) buys on the GPU:
// SELL's kernel (a lane per row, slices of 32 rows column-major, slots in
// groups of G, x in float or double) on a uniform random graph (2^SCALE
// vertices, 16 random edges each, symmetrized, no loops or repeats) or an
// R-MAT one, for σ = 32 (no sorting past the slice), 256, 1024, 4096, 16384
// and the whole matrix (JDS's order), beside cuSPARSE's CSR SpMV in double.
// "fill" is the stored slots over the entries. docs/performance.md has the
// run behind sell_window().
//
//   nvcc -O3 -arch=sm_90 -std=c++17 scripts/sell-probe.cu -o sell-probe -lcusparse
//   ./sell-probe [SCALE=22] [RMAT=0]
#include <thrust/scan.h>

#include <cub/cub.cuh>

#include "probe_util.cuh"

__global__ void sell_keys(const int64_t* rp, int n, int sigma_log, int lbits, uint64_t* key,
                          int* id) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t len = rp[i + 1] - rp[i];
  key[i] = (uint64_t(i >> sigma_log) << lbits) | ((1ull << lbits) - 1 - len);
  id[i] = i;
}
__global__ void slice_width(const int64_t* rp, const int* perm, int n, int64_t* w) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= (n + 31) / 32) return;
  int i = perm[s * 32];
  w[s] = 32 * (rp[i + 1] - rp[i]);
}
__global__ void sell_fill(const int64_t* rp, const int* col, const int* perm, int n,
                          const int64_t* sp, int* out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int s = r >> 5, lane = r & 31;
  if (s >= (n + 31) / 32) return;
  int64_t base = sp[s];
  int w = (sp[s + 1] - base) >> 5;
  int64_t b = 0, len = 0;
  if (r < n) {
    int i = perm[r];
    b = rp[i];
    len = rp[i + 1] - b;
  }
  for (int j = 0; j < w; ++j) out[base + int64_t(j) * 32 + lane] = j < len ? col[b + j] : -1;
}
template <class X, int G>
__global__ void __launch_bounds__(256)
    sell(int n, const int64_t* __restrict__ sp, const int* __restrict__ perm,
         const int* __restrict__ col, const X* __restrict__ x, double* __restrict__ y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int s = r >> 5, lane = r & 31;
  if (s >= (n + 31) / 32) return;
  const int64_t base = sp[s];
  const int w = (sp[s + 1] - base) >> 5;
  const double acc = slice_row_sum<X, G>(col, base, w, lane, x);
  if (r < n) y[__ldg(perm + r)] = acc;
}
int main(int argc, char** argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int rmat = argc > 2 ? atoi(argv[2]) : 0;
  int n = 1 << scale;
  thrust::device_vector<uint64_t> keys;
  thrust::device_vector<int> r, c;
  thrust::device_vector<int64_t> rp;
  generated_csr(scale, rmat, keys, r, c, rp);
  const uint64_t nnz = c.size();
  keys.clear();
  keys.shrink_to_fit();
  r.clear();
  r.shrink_to_fit();
  thrust::device_vector<float> xf(n);
  thrust::device_vector<double> xd(n), y(n);
  fill_x(xf, xd, n);
  printf("scale %d %s n %d nnz %llu\n", scale, rmat ? "rmat" : "uniform", n,
         (unsigned long long)nnz);
  printf("cuSPARSE csr double: %.4f ms\n", cusparse_csr_ms(n, nnz, rp, P(c), P(xd), P(y), 20));
  const int ns = (n + 31) / 32;
  const int lbits = 31;
  // 2^31: one window, the whole matrix sorted
  for (int sigma_log : {5, 8, 10, 12, 14, 31}) {
    thrust::device_vector<uint64_t> k(n), k2(n);
    thrust::device_vector<int> id(n), perm(n);
    sell_keys<<<(n + 255) / 256, 256>>>(P(rp), n, std::min(sigma_log, 30), lbits, P(k), P(id));
    size_t tb = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, tb, P(k), P(k2), P(id), P(perm), n);
    thrust::device_vector<char> tmp(tb);
    cub::DeviceRadixSort::SortPairs(P(tmp), tb, P(k), P(k2), P(id), P(perm), n);
    thrust::device_vector<int64_t> w(ns + 1, 0), sp(ns + 1);
    slice_width<<<(ns + 255) / 256, 256>>>(P(rp), P(perm), n, P(w));
    thrust::exclusive_scan(w.begin(), w.end(), sp.begin());
    int64_t slots = sp[ns];
    thrust::device_vector<int> col(slots);
    sell_fill<<<(ns * 32 + 255) / 256, 256>>>(P(rp), P(c), P(perm), n, P(sp), P(col));
    CK(cudaDeviceSynchronize());
    const int grid = (ns * 32 + 255) / 256;
    float tf4 =
        timeit([&] { sell<float, 4><<<grid, 256>>>(n, P(sp), P(perm), P(col), P(xf), P(y)); }, 20);
    float tf8 =
        timeit([&] { sell<float, 8><<<grid, 256>>>(n, P(sp), P(perm), P(col), P(xf), P(y)); }, 20);
    float td4 =
        timeit([&] { sell<double, 4><<<grid, 256>>>(n, P(sp), P(perm), P(col), P(xd), P(y)); }, 20);
    float td1 =
        timeit([&] { sell<double, 1><<<grid, 256>>>(n, P(sp), P(perm), P(col), P(xd), P(y)); }, 20);
    printf(
        "sigma 2^%d: fill %.3f, x float G4 %.4f ms, G8 %.4f ms; x double G4 %.4f ms, G1 %.4f ms\n",
        sigma_log, double(slots) / nnz, tf4, tf8, td4, td1);
  }
}
