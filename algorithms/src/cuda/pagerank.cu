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
// every vector stays on the device. With a vertex ordering (--reorder) the
// iterations run on the renumbered matrix and the ranks are scattered back
// to input order before they are downloaded. An iteration is two launches: the SpMV,
// and one fused pass that writes r', the next x, and reduces the L1 change
// and the next dangling mass; with csr-thread, one launch that also does the
// SpMV's rows. The reduction is single-pass: each block
// reduces its share (CUB BlockReduce), the last block to finish adds the
// blocks' partial sums in block order, so ranks are bit-identical from run
// to run on the same GPU. The dangling mass never leaves the device (the
// next pass reads it there); the L1 change is copied back once per
// batch of iterations into pinned memory: the stopping rule runs on the
// device (see Stopping below), so that without an on_iteration callback the
// host queues several iterations at a time and waits once per batch instead
// of once per iteration; with a callback every iteration is a batch of one,
// so that the callback sees each iteration before the next one starts.
#include <algorithm>
#include <cmath>
#include <cub/block/block_reduce.cuh>

#include "../gpu_backend.hpp"
#include "../pagerank_start.hpp"
#include "device_util.cuh"
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

// Passes queued ahead of the host keep their L1 changes in a ring this long
// (more than the largest batch), read back once per batch.
constexpr int kResidualRing = 64;

// The stopping rule on the device. The last block of pass `pass` records its
// L1 change in the ring and raises *stop when the change is below tol, or is
// not a finite number (which the host then reports); every pass returns at
// once while *stop is raised, so the passes queued behind the last one the
// host needs do nothing, and the ranks of that one stay where it put them.
struct Stopping {
  double tol;
  int* stop;
  double* residuals;  // kResidualRing entries; pass p writes p % kResidualRing
  int pass;
};

// Reduces every thread's `mine` into out[0..1]: a block sum per block into
// `partials`, then the last block to arrive sums the partials in block
// order (a fixed order for a fixed grid: deterministic), applies the
// stopping rule when `rule` is given, and re-arms `done`.
__device__ void reduce_sums(Sums mine, double* partials, unsigned* done, double* out,
                            const Stopping* rule = nullptr) {
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
    if (rule) {
      rule->residuals[rule->pass % kResidualRing] = total.err;
      if (!(total.err >= rule->tol) || isinf(total.err)) *rule->stop = 1;
    }
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
                 double* partials, unsigned* done, double* out, Stopping rule) {
  if (*rule.stop) return;
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
  reduce_sums(mine, partials, done, out, &rule);
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
                      double* partials, unsigned* done, double* out, Stopping rule) {
  if (*rule.stop) return;
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
  reduce_sums(mine, partials, done, out, &rule);
}

// out[i] = in[order[i]] and out[order[i]] = in[i]: a vector into and out of
// the renumbered order.
__global__ void gather_by_order(vertex_t n, const vertex_t* __restrict__ order,
                                const double* __restrict__ in, double* __restrict__ out) {
  for (offset_t i = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; i < n;
       i += offset_t{gridDim.x} * blockDim.x)
    out[i] = in[order[i]];
}
__global__ void scatter_by_order(vertex_t n, const vertex_t* __restrict__ order,
                                 const double* __restrict__ in, double* __restrict__ out) {
  for (offset_t i = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; i < n;
       i += offset_t{gridDim.x} * blockDim.x)
    out[order[i]] = in[i];
}

// How many iterations to queue before the host looks at their L1 changes:
// one while a callback must see every iteration before the next starts;
// otherwise as many as the L1 change's rate of decrease says are left until
// it passes tol (PageRank's converges geometrically, at about the damping
// factor per iteration), two while that rate is unknown, at most kMaxBatch.
// Queued passes past convergence return at once (the fused csr-thread pass)
// or cost one SpMV each (the others), so the prediction is not padded.
constexpr int kMaxBatch = 32;
static_assert(kMaxBatch < kResidualRing);

int pagerank_batch(const PageRankOptions& o, int it, double err, double previous_err) {
  if (o.on_iteration) return 1;
  if (it <= 2 || !(previous_err > 0.0) || !(err > 0.0)) return 2;
  const double rate = err / previous_err;
  if (!(rate < 1.0)) return kMaxBatch;
  const double left = std::ceil(std::log(o.tol / err) / std::log(rate));
  return static_cast<int>(std::clamp(left, 1.0, static_cast<double>(kMaxBatch)));
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

  // Aᵀ on the device (A for an undirected graph: the same matrix). A goes
  // up once: its rows give the out-weights, and Aᵀ is built from it there,
  // so the host never builds the transpose (a directed graph's largest cost
  // of setting up at 10^8 edges and more). A vertex ordering is computed
  // from A's out-degrees and applied to A before the transpose; the
  // iterations run in the new order, and the ranks go back to input order
  // on the device.
  DeviceCsr<double> at;
  DeviceArray<double> inv_outw(n);
  DeviceArray<vertex_t> order;  // order[new] = input vertex; empty: none
  {
    DeviceCsr<double> a = adjacency_on_device(g, weighted);
    const Reorder how =
        options.reorder == Reorder::automatic ? choose_reorder(analyze(a)) : options.reorder;
    result.reorder = how;
    if (how != Reorder::none) {
      const Stopwatch t_order;
      order = device_vertex_order(a, how);
      // Rows keep their entries' input order, columns renamed: the SpMV
      // needs no sorted rows (each row's sum keeps a fixed order), and
      // sorting them took the renumbering of R-MAT 22 from 3-4 ms to 16 ms
      // on the H200 (the transpose of a directed graph sorts them anyway).
      a = device_permute(a, order, /*sort_columns=*/false);
      result.reorder_seconds = t_order.seconds();
    }
    const unsigned grid = grid_for(n, kBlock);
    inverse_out_weight<<<grid, kBlock>>>(n, a.row_ptr().data(), a.view().values, inv_outw.data());
    check_launch();
    if (g.directed())
      at = device_transpose(a);  // waits for the stream: `a` may go
    else
      at = std::move(a);
  }
  const cuda::SpmvOperator<double> op(at, options.format);
  result.format = op.format();

  // csr-thread runs the fused pass above instead of the SpMV + update.
  const bool fused = op.format() == SpmvFormat::csr_thread;
  // Ranks (and, fused, x) of iteration p live in buffer p % 2: a pass that
  // the stopping rule skips writes nothing, so the ranks of the last pass
  // that ran stay in its buffer, whatever the host queued behind it.
  DeviceArray<double> r_buf[2] = {DeviceArray<double>(n), DeviceArray<double>(n)};
  DeviceArray<double> x_buf[2] = {DeviceArray<double>(n), DeviceArray<double>(fused ? n : 0)};
  DeviceArray<double> y(fused ? 0 : n);
  const unsigned grid = grid_for(n, kBlock, 4);
  DeviceArray<double> partials(2 * std::size_t{grid});
  DeviceArray<unsigned> done(1);
  DeviceArray<double> sums(4);  // (err, dangling) of even and odd passes
  DeviceArray<int> stop(1);
  DeviceArray<double> residuals(kResidualRing);
  GRAPHRUN_CUDA_CHECK(cudaMemset(done.data(), 0, sizeof(unsigned)));
  GRAPHRUN_CUDA_CHECK(cudaMemset(stop.data(), 0, sizeof(int)));
  Pinned<double> host_residuals(kResidualRing);

  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  {
    // The start travels only for the first pass; freed before the iterations.
    DeviceArray<double> start;
    if (start_scale > 0.0) {
      start = DeviceArray<double>{options.start};
      if (order.size() > 0) {
        DeviceArray<double> renumbered(start.size());
        gather_by_order<<<grid_for(n, kBlock), kBlock>>>(n, order.data(), start.data(),
                                                         renumbered.data());
        check_launch();
        start = std::move(renumbered);  // cudaFree of the old waits for the gather
      }
    }
    init_ranks<<<grid, kBlock>>>(n, inv_n, start_scale > 0.0 ? start.data() : nullptr, start_scale,
                                 inv_outw.data(), r_buf[0].data(), x_buf[0].data(), partials.data(),
                                 done.data(), sums.data());
    check_launch();
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());  // before the start is freed
  }
  const auto queue_pass = [&](int p) {
    const Stopping rule{options.tol, stop.data(), residuals.data(), p};
    const double* prev = sums.data() + 2 * ((p - 1) % 2);
    double* out = sums.data() + 2 * (p % 2);
    const double* r = r_buf[(p - 1) % 2].data();
    double* r_next = r_buf[p % 2].data();
    if (fused) {
      const CsrView<double> v = at.view();
      const double* x = x_buf[(p - 1) % 2].data();
      double* x_next = x_buf[p % 2].data();
      if (v.values == nullptr)
        fused_thread_rows<true><<<grid, kBlock>>>(n, v.row_ptr, v.col_idx, v.values, d, inv_n, x, r,
                                                  inv_outw.data(), prev, r_next, x_next,
                                                  partials.data(), done.data(), out, rule);
      else
        fused_thread_rows<false><<<grid, kBlock>>>(n, v.row_ptr, v.col_idx, v.values, d, inv_n, x,
                                                   r, inv_outw.data(), prev, r_next, x_next,
                                                   partials.data(), done.data(), out, rule);
    } else {
      // x is updated in place; a skipped pass leaves it (and y's use) idle.
      op.apply<PlusTimes<double>>(x_buf[0].data(), y.data());
      update_ranks<<<grid, kBlock>>>(n, d, inv_n, y.data(), r, inv_outw.data(), prev, r_next,
                                     x_buf[0].data(), partials.data(), done.data(), out, rule);
    }
    check_launch();
  };

  const Stopwatch t_compute;
  int last = 0;                  // the last iteration whose ranks count
  double previous_residual = 0;  // the L1 change of the iteration before `last`
  for (int it = 1; it <= options.max_iter && !result.converged;) {
    const int batch = std::min(pagerank_batch(options, it, result.residual, previous_residual),
                               options.max_iter - it + 1);
    if (options.progress) options.progress->start(it);
    for (int p = it; p < it + batch; ++p) queue_pass(p);
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_residuals.data(), residuals.data(),
                                        kResidualRing * sizeof(double), cudaMemcpyDeviceToHost));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    bool stopped = false;
    for (int p = it; p < it + batch && !stopped; ++p) {
      const double err = host_residuals[static_cast<std::size_t>(p % kResidualRing)];
      pagerank_check_residual(p, err);
      last = p;
      previous_residual = result.residual;
      result.iterations = p;
      result.residual = err;
      if (err < options.tol) result.converged = true;
      if (options.progress) options.progress->set_residual(err);
      if (options.on_iteration) {
        IterationInfo info;
        info.iteration = p;
        info.residual = err;
        info.elapsed = t0.seconds();
        stopped = !options.on_iteration(info);
      }
      stopped |= result.converged;
    }
    if (stopped && !result.converged) break;  // the callback said so
    it += batch;
  }
  result.compute_seconds = t_compute.seconds();
  if (order.size() > 0) {
    // Back to input order: y is free now (or x_buf[1], fused).
    DeviceArray<double>& by_input = fused ? x_buf[1] : y;
    scatter_by_order<<<grid_for(n, kBlock), kBlock>>>(n, order.data(), r_buf[last % 2].data(),
                                                      by_input.data());
    check_launch();
    result.rank = by_input.download();
  } else {
    result.rank = r_buf[last % 2].download();
  }
  result.seconds = t0.seconds();
  return result;
}

}  // namespace graphrun::detail
