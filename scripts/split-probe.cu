// What splitting the matrix by columns buys when x is past the L2: y = A x
// computed as y = A_0 x_0 + A_1 x_1 + ... + A_{K-1} x_{K-1}, A_k the
// columns [k n / K, (k + 1) n / K), so each pass gathers from a slice of x a
// K-th of its size. Every pass reads and writes y once more; what it may
// save is the gathers that miss the L2 (on an H100 the L2 is two halves,
// and a line read by SMs of both halves may live in both).
//
// Measured on a uniform random graph (2^SCALE vertices, 16 random edges
// each, symmetrized, input order) and an R-MAT one renumbered by degree
// (hubs first, as `--reorder degree`), both with cuSPARSE's CSR SpMV split
// the same way (beta = 1 past the first pass) and with graphrun-like
// kernels: SELL-32 in the rows' own order (a lane per row, slices of 32
// rows column-major) and, for rows of >= 32 entries, a warp per row.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 scripts/split-probe.cu -o split-probe -lcusparse
//   ./split-probe [SCALE=22] [RMAT=0] [HOT=f1,f2,...]
#include <thrust/host_vector.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>

#include "probe_util.cuh"

__global__ void neg_degree(const int64_t* rp, int n, int64_t* d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = -(rp[i + 1] - rp[i]);
}
__device__ int64_t lower(const int* c, int64_t b, int64_t e, int v) {
  while (b < e) {
    int64_t m = (b + e) / 2;
    if (c[m] < v)
      b = m + 1;
    else
      e = m;
  }
  return b;
}
// Row i's entries in columns [lo, hi): [beg[i], beg[i] + len[i]).
__global__ void seg_bounds(const int64_t* rp, const int* c, int n, int lo, int hi, int64_t* beg,
                           int64_t* len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int64_t b = lower(c, rp[i], rp[i + 1], lo), e = lower(c, b, rp[i + 1], hi);
  beg[i] = b;
  len[i] = e - b;
}
__global__ void seg_copy(const int* c, const int64_t* beg, const int64_t* rp2, int n, int* c2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int64_t j = 0; j < rp2[i + 1] - rp2[i]; ++j) c2[rp2[i] + j] = c[beg[i] + j];
}
// SELL-32 over rows [row0, n), the rows' own order: each slice's width is
// its longest row.
__global__ void slice_width(const int64_t* rp, int row0, int n, int64_t* w) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= (n - row0 + 31) / 32) return;
  int64_t m = 0;
  for (int r = row0 + 32 * s; r < min(n, row0 + 32 * s + 32); ++r) m = max(m, rp[r + 1] - rp[r]);
  w[s] = 32 * m;
}
__global__ void sell_fill(const int64_t* rp, const int* col, int row0, int n, const int64_t* sp,
                          int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int s = t >> 5, lane = t & 31, r = row0 + t;
  if (s >= (n - row0 + 31) / 32) return;
  int64_t base = sp[s];
  int w = (sp[s + 1] - base) >> 5;
  int64_t b = 0, len = 0;
  if (r < n) {
    b = rp[r];
    len = rp[r + 1] - b;
  }
  for (int j = 0; j < w; ++j) out[base + int64_t(j) * 32 + lane] = j < len ? col[b + j] : -1;
}
template <class X, bool ACC>
__global__ void __launch_bounds__(256)
    sell(int row0, int n, const int64_t* __restrict__ sp, const int* __restrict__ col,
         const X* __restrict__ x, double* __restrict__ y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int s = t >> 5, lane = t & 31, r = row0 + t;
  if (s >= (n - row0 + 31) / 32) return;
  const int64_t base = sp[s];
  const int w = (sp[s + 1] - base) >> 5;
  const double acc = slice_row_sum<X, 4>(col, base, w, lane, x);
  if (r < n) y[r] = ACC ? y[r] + acc : acc;
}
// A warp per row for rows [0, h).
template <class X, bool ACC>
__global__ void __launch_bounds__(256)
    warp_rows(int h, const int64_t* __restrict__ rp, const int* __restrict__ col,
              const X* __restrict__ x, double* __restrict__ y) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r >= h) return;
  double acc = 0;
  for (int64_t k = rp[r] + lane; k < rp[r + 1]; k += 32) acc += double(__ldg(x + __ldg(col + k)));
  for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(~0u, acc, o);
  if (lane == 0) y[r] = ACC ? y[r] + acc : acc;
}
struct Part {  // one column slice: its CSR and its SELL
  thrust::device_vector<int64_t> rp, sp;
  thrust::device_vector<int> col, sell;
};
int main(int argc, char** argv) {
  int scale = argc > 1 ? atoi(argv[1]) : 22;
  int rmat = argc > 2 ? atoi(argv[2]) : 0;
  int n = 1 << scale;
  thrust::device_vector<uint64_t> keys;
  thrust::device_vector<int> r, c;
  thrust::device_vector<int64_t> rp;
  generated_csr(scale, rmat, keys, r, c, rp);
  int h = 0;   // rows [0, h) by a warp each
  if (rmat) {  // renumber by degree, hubs first
    thrust::device_vector<int64_t> d(n);
    thrust::device_vector<int> order(n), id(n);
    neg_degree<<<(n + 255) / 256, 256>>>(P(rp), n, P(d));
    thrust::sequence(order.begin(), order.end());
    thrust::stable_sort_by_key(d.begin(), d.end(), order.begin());
    scatter_rank<<<(n + 255) / 256, 256>>>(P(order), n, P(id));
    relabel<<<(keys.size() + 255) / 256, 256>>>(P(keys), keys.size(), P(id));
    keys_to_csr(keys, n, r, c, rp);
    thrust::host_vector<int64_t> hrp(rp);
    while (h < n && hrp[h + 1] - hrp[h] >= 32) ++h;
  }
  const uint64_t nnz = c.size();
  keys.clear();
  keys.shrink_to_fit();
  r.clear();
  r.shrink_to_fit();
  thrust::device_vector<float> xf(n);
  thrust::device_vector<double> xd(n), y(n), yref(n);
  fill_x(xf, xd, n);
  printf("scale %d %s n %d nnz %llu, rows by a warp %d\n", scale,
         rmat ? "rmat by degree" : "uniform", n, (unsigned long long)nnz, h);
  const float cus = cusparse_csr_ms(n, nnz, rp, P(c), P(xd), P(y), 20);
  printf("cuSPARSE csr double, whole: %.4f ms\n", cus);
  // Equal parts, K = 1, 2, 3, 4, 8; then, for each fraction f of HOT, two
  // parts cut at f n (a hot part of the first columns, hubs first on R-MAT).
  std::vector<std::vector<double>> cuts;
  for (int K : {1, 2, 3, 4, 8}) {
    std::vector<double> b;
    for (int k = 0; k <= K; ++k) b.push_back(double(k) / K);
    cuts.push_back(b);
  }
  for (char* f = argc > 3 ? argv[3] : nullptr; f && *f;) {
    char* end;
    cuts.push_back({0.0, strtod(f, &end), 1.0});
    f = *end ? end + 1 : end;
  }
  for (const std::vector<double>& cut : cuts) {
    const int K = int(cut.size()) - 1;
    std::vector<Part> parts(K);
    thrust::device_vector<int64_t> beg(n), len(n + 1);
    for (int k = 0; k < K; ++k) {
      Part& p = parts[k];
      int lo = int(n * cut[k]), hi = int(n * cut[k + 1]);
      seg_bounds<<<(n + 255) / 256, 256>>>(P(rp), P(c), n, lo, hi, P(beg), P(len));
      len[n] = 0;
      p.rp.resize(n + 1);
      thrust::exclusive_scan(len.begin(), len.end(), p.rp.begin());
      p.col.resize(p.rp[n]);
      seg_copy<<<(n + 255) / 256, 256>>>(P(c), P(beg), P(p.rp), n, P(p.col));
      const int ns = (n - h + 31) / 32;
      thrust::device_vector<int64_t> w(ns + 1, 0);
      slice_width<<<(ns + 255) / 256, 256>>>(P(p.rp), h, n, P(w));
      p.sp.resize(ns + 1);
      thrust::exclusive_scan(w.begin(), w.end(), p.sp.begin());
      p.sell.resize(p.sp[ns]);
      sell_fill<<<(ns * 32 + 255) / 256, 256>>>(P(p.rp), P(p.col), h, n, P(p.sp), P(p.sell));
      CK(cudaDeviceSynchronize());
    }
    const int gs = ((n - h + 31) / 32 * 32 + 255) / 256, gw = (h * 32 + 255) / 256;
    auto run = [&](auto xp) {
      for (int k = 0; k < K; ++k) {
        Part& p = parts[k];
        if (k == 0) {
          if (h)
            warp_rows<std::remove_pointer_t<decltype(xp)>, false>
                <<<gw, 256>>>(h, P(p.rp), P(p.col), xp, P(y));
          sell<std::remove_pointer_t<decltype(xp)>, false>
              <<<gs, 256>>>(h, n, P(p.sp), P(p.sell), xp, P(y));
        } else {
          if (h)
            warp_rows<std::remove_pointer_t<decltype(xp)>, true>
                <<<gw, 256>>>(h, P(p.rp), P(p.col), xp, P(y));
          sell<std::remove_pointer_t<decltype(xp)>, true>
              <<<gs, 256>>>(h, n, P(p.sp), P(p.sell), xp, P(y));
        }
      }
    };
    float tf = timeit([&] { run(P(xf)); }, 20);
    float td = timeit([&] { run(P(xd)); }, 20);
    // cuSPARSE over the same slices, beta = 1 past the first
    thrust::device_vector<double> vals(nnz, 1.0);
    cusparseHandle_t hs;
    cusparseCreate(&hs);
    std::vector<cusparseSpMatDescr_t> A(K);
    std::vector<thrust::device_vector<int>> rp32(K);
    std::vector<void*> buf(K);
    cusparseDnVecDescr_t X, Y;
    cusparseCreateDnVec(&X, n, P(xd), CUDA_R_64F);
    cusparseCreateDnVec(&Y, n, P(yref), CUDA_R_64F);
    double al = 1, b0 = 0, b1 = 1;
    int64_t fill = 0;
    for (int k = 0; k < K; ++k) {
      rp32[k] = thrust::device_vector<int>(parts[k].rp.begin(), parts[k].rp.end());
      fill += parts[k].sp.back();
      cusparseCreateCsr(&A[k], n, n, parts[k].col.size(), P(rp32[k]), P(parts[k].col), P(vals),
                        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                        CUDA_R_64F);
      size_t bs;
      cusparseSpMV_bufferSize(hs, CUSPARSE_OPERATION_NON_TRANSPOSE, &al, A[k], X, k ? &b1 : &b0, Y,
                              CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &bs);
      cudaMalloc(&buf[k], bs + 1);
    }
    float tc = timeit(
        [&] {
          for (int k = 0; k < K; ++k)
            cusparseSpMV(hs, CUSPARSE_OPERATION_NON_TRANSPOSE, &al, A[k], X, k ? &b1 : &b0, Y,
                         CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, buf[k]);
        },
        20);
    // the two sums agree (all ones: the sums are exact in double up to 2^53)
    run(P(xd));
    CK(cudaDeviceSynchronize());
    thrust::host_vector<double> a(y), b(yref);
    double err = 0;
    for (int i = 0; i < n; ++i)
      err = std::max(err, std::abs(a[i] - b[i]) / std::max(1.0, std::abs(b[i])));
    printf(
        "cut at %.3f: K %d: ours x float %.4f ms (%.2fx cuSPARSE whole), x double %.4f ms (%.2fx); "
        "cuSPARSE "
        "split %.4f ms (%.2fx); SELL fill %.3f; max rel diff %.1e\n",
        K > 1 ? cut[1] : 1.0, K, tf, cus / tf, td, cus / td, tc, cus / tc, double(fill) / nnz, err);
    for (int k = 0; k < K; ++k) {
      cusparseDestroySpMat(A[k]);
      cudaFree(buf[k]);
    }
    cusparseDestroyDnVec(X);
    cusparseDestroyDnVec(Y);
    cusparseDestroy(hs);
  }
}
