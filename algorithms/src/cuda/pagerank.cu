// PageRank on the GPU: the power iteration of pagerank.cpp (NetworkX's
// definition: uniform teleport, dangling mass spread uniformly, L1 stopping
// rule), in double precision throughout.
//
//   x(j)  = r(j) / outw(j)            (0 for a dangling vertex)
//   y     = Aᵀ x                      cuda::SpmvOperator, PlusTimes<double>
//   r'(i) = d y(i) + (d Σ_dangling r(j) + 1 - d) / n
//
// The graph is uploaded once (Aᵀ as CSR; for an undirected graph A itself,
// which is its own transpose, so no transpose is built on the host) and
// every vector stays on the device. An iteration is two launches: the SpMV,
// and one fused pass that writes r', the next x, and reduces the L1 change
// and the next dangling mass; with csr-thread, one launch that also does the
// SpMV's rows. The reduction is single-pass: each block
// reduces its share (CUB BlockReduce), the last block to finish adds the
// blocks' partial sums in block order, so ranks are bit-identical from run
// to run on the same GPU. The dangling mass never leaves the device (the
// next pass reads it there); the L1 change is copied back once per
// iteration into pinned memory for the stopping rule and the callback.
#include <cub/block/block_reduce.cuh>

#include "../pagerank_start.hpp"
#include "device_util.cuh"
#include "gpu_algorithms.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"

namespace graphrun::detail {

namespace {

constexpr int kBlock = 256;

// (L1 change, dangling mass), reduced together.
struct Sums {
  double err;
  double dangling;
};
struct AddSums {
  __device__ Sums operator()(const Sums& a, const Sums& b) const {
    return {a.err + b.err, a.dangling + b.dangling};
  }
};

// Reduces every thread's `mine` into out[0..1]: a block sum per block into
// `partials`, then the last block to arrive sums the partials in block
// order (a fixed order for a fixed grid: deterministic) and re-arms `done`.
__device__ void reduce_sums(Sums mine, double* partials, unsigned* done, double* out) {
  using BlockReduce = cub::BlockReduce<Sums, kBlock>;
  __shared__ typename BlockReduce::TempStorage tmp;
  __shared__ bool last;
  const Sums block = BlockReduce(tmp).Reduce(mine, AddSums());
  if (threadIdx.x == 0) {
    partials[2 * blockIdx.x] = block.err;
    partials[2 * blockIdx.x + 1] = block.dangling;
    __threadfence();  // the partials are visible before the count says so
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  Sums acc{0.0, 0.0};
  // __ldcg: read the other blocks' partials from L2, not a stale L1 line.
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kBlock)
    acc = AddSums()(acc, Sums{__ldcg(partials + 2 * b), __ldcg(partials + 2 * b + 1)});
  __syncthreads();  // tmp is reused
  const Sums total = BlockReduce(tmp).Reduce(acc, AddSums());
  if (threadIdx.x == 0) {
    out[0] = total.err;
    out[1] = total.dangling;
    *done = 0;
  }
}

// inv_outw(j) = 1 / out-weight of j (out-degree when `values` is null), 0
// for a dangling vertex; each row summed serially, as on the CPU.
__global__ void inverse_out_weight(vertex_t n, const offset_t* row_ptr, const double* values,
                                   double* inv_outw) {
  for (offset_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n;
       j += offset_t{gridDim.x} * blockDim.x) {
    double w = 0.0;
    if (values) {
      for (offset_t k = row_ptr[j]; k < row_ptr[j + 1]; ++k) w += values[k];
    } else {
      w = static_cast<double>(row_ptr[j + 1] - row_ptr[j]);
    }
    inv_outw[j] = w != 0.0 ? 1.0 / w : 0.0;
  }
}

// r = 1/n, or start * scale where a start is given; x = r ./ outw,
// out[1] = dangling mass of r.
__global__ void __launch_bounds__(kBlock)
    init_ranks(vertex_t n, double inv_n, const double* __restrict__ start, double scale,
               const double* __restrict__ inv_outw, double* __restrict__ r, double* __restrict__ x,
               double* partials, unsigned* done, double* out) {
  Sums mine{0.0, 0.0};
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock) {
    const double w = inv_outw[i];
    const double ri = start ? start[i] * scale : inv_n;
    r[i] = ri;
    x[i] = ri * w;
    if (w == 0.0) mine.dangling += ri;
  }
  reduce_sums(mine, partials, done, out);
}

// r' = d y + (d dangling + 1 - d) / n, with dangling = prev[1] from the
// pass before; out = (|r' - r|_1, dangling mass of r'); x = r' ./ outw.
__global__ void __launch_bounds__(kBlock)
    update_ranks(vertex_t n, double d, double inv_n, const double* __restrict__ y,
                 const double* __restrict__ r, const double* __restrict__ inv_outw,
                 const double* prev, double* __restrict__ r_next, double* __restrict__ x,
                 double* partials, unsigned* done, double* out) {
  const double base = (d * prev[1] + 1.0 - d) * inv_n;
  Sums mine{0.0, 0.0};
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock) {
    const double ri = d * y[i] + base;
    const double w = inv_outw[i];
    mine.err += fabs(ri - r[i]);
    r_next[i] = ri;
    x[i] = ri * w;
    if (w == 0.0) mine.dangling += ri;
  }
  reduce_sums(mine, partials, done, out);
}

// csr-thread's SpMV row and the update fused in one pass, a thread per row of
// Aᵀ (the chooser picks csr-thread for grids and roads): one launch instead
// of two, and no write and read-back of y. Measured on the H200
// (graphrun bench pagerank): luxembourg_osm 0.024 -> 0.021 ms per iteration;
// the 2000x2000 grid unchanged (0.104 -> 0.109 ms), since the pass still
// moves r, inv_outw, r' and the next x: 1.6x the bytes of the SpMV alone,
// which is what bounds an iteration there. Each row is summed from zero in
// entry order, as csr-thread sums it; x is read through the rows while
// x_next is written.
template <bool Pattern>
__global__ void __launch_bounds__(kBlock)
    fused_thread_rows(vertex_t n, const offset_t* __restrict__ row_ptr,
                      const vertex_t* __restrict__ col_idx, const double* __restrict__ values,
                      double d, double inv_n, const double* __restrict__ x,
                      const double* __restrict__ r, const double* __restrict__ inv_outw,
                      const double* prev, double* __restrict__ r_next, double* __restrict__ x_next,
                      double* partials, unsigned* done, double* out) {
  const double base = (d * prev[1] + 1.0 - d) * inv_n;
  Sums mine{0.0, 0.0};
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock) {
    double y = 0.0;
    for (offset_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k)
      y += (Pattern ? 1.0 : values[k]) * __ldg(x + col_idx[k]);
    const double ri = d * y + base;
    const double w = inv_outw[i];
    mine.err += fabs(ri - r[i]);
    r_next[i] = ri;
    x_next[i] = ri * w;
    if (w == 0.0) mine.dangling += ri;
  }
  reduce_sums(mine, partials, done, out);
}

}  // namespace

PageRankResult pagerank_cuda(Context& ctx, const Graph& g, const PageRankOptions& options) {
  const Stopwatch t0;
  use_device(ctx, "pagerank");
  PageRankResult result;
  const vertex_t n = g.n_vertices();
  if (n == 0) {
    result.converged = true;
    result.seconds = t0.seconds();
    return result;
  }
  const bool weighted = options.use_weights && g.weighted() && !g.adj().is_pattern();
  const double d = options.damping;
  const double inv_n = 1.0 / static_cast<double>(n);
  const double start_scale = pagerank_start_scale(options, n);

  // Aᵀ on the device (A for an undirected graph: the same matrix).
  const DeviceCsr<double> at = upload(g.directed() ? g.transpose() : g.adj(), weighted);
  DeviceArray<double> inv_outw(n);
  {
    const unsigned grid = grid_for(n, kBlock);
    if (g.directed()) {
      // Out-weights come from A's rows: only its offsets (and values) travel.
      const DeviceArray<offset_t> row_ptr{std::span<const offset_t>(g.adj().row_ptr())};
      DeviceArray<double> values;
      if (weighted) values = DeviceArray<double>{std::span<const double>(g.adj().values())};
      inverse_out_weight<<<grid, kBlock>>>(n, row_ptr.data(), weighted ? values.data() : nullptr,
                                           inv_outw.data());
      check_launch();
      GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());  // before the arrays are freed
    } else {
      inverse_out_weight<<<grid, kBlock>>>(n, at.row_ptr().data(), at.view().values,
                                           inv_outw.data());
      check_launch();
    }
  }
  const cuda::SpmvOperator<double> op(at, options.format);
  result.format = op.format();

  // csr-thread runs the fused pass above instead of the SpMV + update.
  const bool fused = op.format() == SpmvFormat::csr_thread;
  DeviceArray<double> r(n), r_next(n), x(n), y(fused ? 0 : n), x_next(fused ? n : 0);
  const unsigned grid = grid_for(n, kBlock, 4);
  DeviceArray<double> partials(2 * std::size_t{grid});
  DeviceArray<unsigned> done(1);
  DeviceArray<double> sums(4);  // (err, dangling) of even and odd passes
  GRAPHRUN_CUDA_CHECK(cudaMemset(done.data(), 0, sizeof(unsigned)));
  Pinned<double> host_sums(2);

  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  {
    // The start travels only for the first pass; freed before the iterations.
    DeviceArray<double> start;
    if (start_scale > 0.0) start = DeviceArray<double>{options.start};
    init_ranks<<<grid, kBlock>>>(n, inv_n, start_scale > 0.0 ? start.data() : nullptr, start_scale,
                                 inv_outw.data(), r.data(), x.data(), partials.data(), done.data(),
                                 sums.data());
    check_launch();
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());  // before the start is freed
  }
  const Stopwatch t_compute;
  for (int it = 1; it <= options.max_iter; ++it) {
    if (options.progress) options.progress->start(it);
    const double* prev = sums.data() + 2 * ((it - 1) % 2);
    double* out = sums.data() + 2 * (it % 2);
    if (fused) {
      const CsrView<double> v = at.view();
      if (v.values == nullptr)
        fused_thread_rows<true><<<grid, kBlock>>>(
            n, v.row_ptr, v.col_idx, v.values, d, inv_n, x.data(), r.data(), inv_outw.data(), prev,
            r_next.data(), x_next.data(), partials.data(), done.data(), out);
      else
        fused_thread_rows<false><<<grid, kBlock>>>(
            n, v.row_ptr, v.col_idx, v.values, d, inv_n, x.data(), r.data(), inv_outw.data(), prev,
            r_next.data(), x_next.data(), partials.data(), done.data(), out);
      check_launch();
      std::swap(x, x_next);
    } else {
      op.apply<PlusTimes<double>>(x.data(), y.data());
      update_ranks<<<grid, kBlock>>>(n, d, inv_n, y.data(), r.data(), inv_outw.data(), prev,
                                     r_next.data(), x.data(), partials.data(), done.data(), out);
      check_launch();
    }
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpyAsync(host_sums.data(), out, 2 * sizeof(double), cudaMemcpyDeviceToHost));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    const double err = host_sums[0];
    std::swap(r, r_next);
    detail::pagerank_check_residual(it, err);
    result.iterations = it;
    result.residual = err;
    if (err < options.tol) result.converged = true;
    if (options.on_iteration) {
      IterationInfo info;
      info.iteration = it;
      info.residual = err;
      info.elapsed = t0.seconds();
      if (!options.on_iteration(info)) break;
    }
    if (result.converged) break;
  }
  result.compute_seconds = t_compute.seconds();
  result.rank = r.download();
  result.seconds = t0.seconds();
  return result;
}

}  // namespace graphrun::detail
