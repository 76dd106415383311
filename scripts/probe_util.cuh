// What scripts/gather-probe.cu, sell-probe.cu and split-probe.cu share:
// error checks, a 64-bit mix and a generator of edges on the device, a
// renumbering of them, the CSR of a
// list of (row << 32 | column) keys (sorted, repeats and loops dropped),
// the x vectors, a median timer, and cuSPARSE's CSR SpMV in double as the
// anchor. Header-only: each probe is one nvcc command.
#pragma once

#include <cuda_runtime.h>
#include <cusparse.h>
#include <thrust/binary_search.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/remove.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                          \
  do {                                                                 \
    cudaError_t e = (x);                                               \
    if (e != cudaSuccess) {                                            \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)
#define P(v) thrust::raw_pointer_cast((v).data())

__device__ inline uint64_t mix(uint64_t z) {  // splitmix64's finalizer
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

struct IsLoop {
  __device__ bool operator()(uint64_t k) const { return (k >> 32) == (k & 0xffffffffu); }
};

__global__ void split_keys(const uint64_t* k, uint64_t n, int* r, int* c) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i < n) {
    r[i] = int(k[i] >> 32);
    c[i] = int(k[i] & 0xffffffffu);
  }
}

// Edge i of 16 2^scale (both directions): uniform random ends, or R-MAT's
// (a, b, c) = (0.57, 0.19, 0.19).
__global__ void gen(int scale, uint64_t m, uint64_t* keys, int rmat) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i >= m) return;
  uint64_t u = 0, v = 0;
  if (!rmat) {
    u = mix(2 * i) >> (64 - scale);
    v = mix(2 * i + 1) >> (64 - scale);
  } else
    for (int l = 0; l < scale; ++l) {
      double r = (mix(i * 64 + l) >> 11) * (1.0 / 9007199254740992.0);
      int bu = r >= 0.76, bv = (r >= 0.57 && r < 0.76) || r >= 0.95;
      u = (u << 1) | bu;
      v = (v << 1) | bv;
    }
  keys[2 * i] = (u << 32) | v;
  keys[2 * i + 1] = (v << 32) | u;
}

// Both ends of every key renamed: v -> rank[v].
__global__ void relabel(uint64_t* k, uint64_t n, const int* rank) {
  uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  if (i < n) {
    uint64_t u = rank[k[i] >> 32], v = rank[k[i] & 0xffffffffu];
    k[i] = (u << 32) | v;
  }
}

// rank[perm[i]] = i.
__global__ void scatter_rank(const int* perm, int n, int* rank) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) rank[perm[i]] = i;
}

// Lane `lane`'s row of a SELL slice (slots `base + j 32 + lane`, w wide,
// -1 past the row), G slots' columns loaded together, then their gathers,
// summed to the row's first padding slot.
template <class X, int G>
__device__ inline double slice_row_sum(const int* __restrict__ col, int64_t base, int w, int lane,
                                       const X* __restrict__ x) {
  double acc = 0;
  for (int j0 = 0; j0 < w; j0 += G) {
    int c[G];
#pragma unroll
    for (int u = 0; u < G; ++u)
      c[u] = j0 + u < w ? __ldg(col + base + int64_t(j0 + u) * 32 + lane) : -1;
    double p[G];
#pragma unroll
    for (int u = 0; u < G; ++u) p[u] = c[u] >= 0 ? double(__ldg(x + c[u])) : 0.0;
    bool ended = false;
#pragma unroll
    for (int u = 0; u < G; ++u) {
      ended = ended || c[u] < 0;
      if (!ended) acc += p[u];
    }
    if (ended) break;
  }
  return acc;
}

// keys sorted, repeats and loops dropped; then rows r, columns c and row
// pointers rp (n + 1) of the CSR they make.
inline void keys_to_csr(thrust::device_vector<uint64_t>& keys, int n, thrust::device_vector<int>& r,
                        thrust::device_vector<int>& c, thrust::device_vector<int64_t>& rp) {
  thrust::sort(keys.begin(), keys.end());
  keys.erase(thrust::unique(keys.begin(), keys.end()), keys.end());
  keys.erase(thrust::remove_if(keys.begin(), keys.end(), IsLoop()), keys.end());
  const uint64_t nnz = keys.size();
  r.resize(nnz);
  c.resize(nnz);
  split_keys<<<(nnz + 255) / 256, 256>>>(P(keys), nnz, P(r), P(c));
  rp.resize(n + 1);
  thrust::lower_bound(r.begin(), r.end(), thrust::counting_iterator<int>(0),
                      thrust::counting_iterator<int>(n + 1), rp.begin());
}

// x(i) = 1 / (1 + i mod 7), in float and double.
inline void fill_x(thrust::device_vector<float>& xf, thrust::device_vector<double>& xd, int n) {
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = 1.0f / (1 + i % 7);
  xf = h;
  std::vector<double> hd(h.begin(), h.end());
  xd = hd;
}

// The median of `reps` timed calls of f on `stream`, after one untimed.
template <class F>
float timeit(F f, int reps = 15, cudaStream_t stream = nullptr) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  f();
  CK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a, stream);
    f();
    cudaEventRecord(b, stream);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaGetLastError());
  return t[reps / 2];
}

// cuSPARSE's CSR SpMV (y = A x, all ones, double), its median ms over `reps`.
inline float cusparse_csr_ms(int n, uint64_t nnz, const thrust::device_vector<int64_t>& rp,
                             const int* col, const double* x, double* y, int reps) {
  thrust::device_vector<int> rp32(rp.begin(), rp.end());  // one index type for both
  thrust::device_vector<double> vals(nnz, 1.0);
  cusparseHandle_t h;
  cusparseCreate(&h);
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t X, Y;
  cusparseCreateCsr(&A, n, n, nnz, P(rp32), (void*)col, P(vals), CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  cusparseCreateDnVec(&X, n, (void*)x, CUDA_R_64F);
  cusparseCreateDnVec(&Y, n, y, CUDA_R_64F);
  double al = 1, be = 0;
  size_t bs;
  void* buf;
  cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &al, A, X, &be, Y, CUDA_R_64F,
                          CUSPARSE_SPMV_ALG_DEFAULT, &bs);
  cudaMalloc(&buf, bs + 1);
  const float t = timeit(
      [&] {
        cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &al, A, X, &be, Y, CUDA_R_64F,
                     CUSPARSE_SPMV_ALG_DEFAULT, buf);
      },
      reps);
  cudaFree(buf);
  cusparseDestroySpMat(A);
  cusparseDestroyDnVec(X);
  cusparseDestroyDnVec(Y);
  cusparseDestroy(h);
  return t;
}

// The probes' graph: 2^scale vertices and 16 2^scale random edges, both
// ways (gen), as keys and their CSR (keys_to_csr).
inline void generated_csr(int scale, int rmat, thrust::device_vector<uint64_t>& keys,
                          thrust::device_vector<int>& r, thrust::device_vector<int>& c,
                          thrust::device_vector<int64_t>& rp) {
  const uint64_t m = 16ull << scale;
  keys.resize(2 * m);
  gen<<<(m + 255) / 256, 256>>>(scale, m, P(keys), rmat);
  keys_to_csr(keys, 1 << scale, r, c, rp);
}
