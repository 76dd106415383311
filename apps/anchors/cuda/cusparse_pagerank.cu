// PageRank over cusparseSpMV, for `graphrun bench pagerank --device cuda`.
#include <algorithm>
#include <span>

#include "anchors/cuda/cusparse_pagerank.hpp"
#include "anchors/cuda/cusparse_spmv.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun::anchors {

namespace {

constexpr int kBlock = 256;

// r' = d y + base, sums[0] += |r' - r|, sums[1] += dangling mass of r',
// x = r' ./ outw.
__global__ void update(vertex_t n, double d, double base, const double* y, const double* r,
                       const double* inv_outw, double* r_next, double* x, double* sums) {
  double err = 0, dangling = 0;
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock) {
    const double ri = d * y[i] + base;
    err += fabs(ri - r[i]);
    r_next[i] = ri;
    x[i] = ri * inv_outw[i];
    if (inv_outw[i] == 0.0) dangling += ri;
  }
  // Warp sums, then one atomic per warp.
  for (int off = 16; off > 0; off /= 2) {
    err += __shfl_down_sync(0xffffffffu, err, off);
    dangling += __shfl_down_sync(0xffffffffu, dangling, off);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(sums, err);
    atomicAdd(sums + 1, dangling);
  }
}

}  // namespace

double cusparse_pagerank_ms(const Graph& g, int iters, double damping, std::vector<double>* rank) {
  const vertex_t n = g.n_vertices();
  const Csr<double>& t = g.directed() ? g.transpose() : g.adj();
  const DeviceCsr<double> at(
      t.n_rows(), t.n_cols(), DeviceArray<offset_t>{std::span<const offset_t>(t.row_ptr())},
      DeviceArray<vertex_t>{std::span<const vertex_t>(t.col_idx())}, DeviceArray<double>());
  std::vector<double> host_inv(n), host_r(n, 1.0 / n), host_x(n);
  double dangling = 0;
  for (vertex_t v = 0; v < n; ++v) {
    const auto deg = g.adj().row_length(v);
    host_inv[v] = deg > 0 ? 1.0 / static_cast<double>(deg) : 0.0;
    host_x[v] = host_r[v] * host_inv[v];
    if (deg == 0) dangling += host_r[v];
  }
  DeviceArray<double> inv_outw{std::span<const double>(host_inv)};
  DeviceArray<double> r{std::span<const double>(host_r)}, x{std::span<const double>(host_x)};
  DeviceArray<double> r_next(n), y(n), sums(2);
  CusparseSpmv spmv(at, x.data(), y.data());
  int sms = 0;
  GRAPHRUN_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const long long want = (static_cast<long long>(n) + kBlock - 1) / kBlock;
  const auto grid = static_cast<unsigned>(std::max(1LL, std::min<long long>(want, sms * 4LL)));
  double host_sums[2];
  Stopwatch first;
  for (int it = 1; it <= iters; ++it) {
    spmv.run(nullptr);
    const double base = (damping * dangling + 1.0 - damping) / n;
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(sums.data(), 0, 2 * sizeof(double)));
    update<<<grid, kBlock>>>(n, damping, base, y.data(), r.data(), inv_outw.data(), r_next.data(),
                             x.data(), sums.data());
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpy(host_sums, sums.data(), sizeof host_sums, cudaMemcpyDeviceToHost));
    dangling = host_sums[1];
    std::swap(r, r_next);
    if (it == 1) first.restart();
  }
  const double ms = first.ms() / (iters - 1);
  *rank = r.download();
  return ms;
}

}  // namespace graphrun::anchors
