// What scripts/gather-probe.cu and scripts/sell-probe.cu share: error
// checks, a 64-bit mix for generating edges on the device, the CSR of a
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
