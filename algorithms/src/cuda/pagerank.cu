// PageRank on the GPU: the power iteration of pagerank.cpp (NetworkX's
// definition: uniform teleport, dangling mass spread uniformly, L1 stopping
// rule), in double precision throughout, but for x where the SpMV gathers a
// float copy of it (PageRankGather, pagerank.hpp): on an H100, gen:uniform
// 4M x 16 and 16M x 16 took 1.22-1.51x less time an SpMV with x in float
// than in double in every format, R-MAT 22 and 24 1.13-1.16x in coo, hyb
// and merge-path (graphrun bench spmv, x and y in float against double).
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
//
// PageRankMethod::chebyshev (undirected graphs) moves each pass to
// ω (y - r_prev) + r_prev, y the Jacobi step, as the CPU does
// (cpu/pagerank_steps.cpp has the reasoning); ω, which depends on the L1
// changes, is chosen on the device too (see Chebyshev below), so batches
// need the host no more than Jacobi's do.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cub/block/block_reduce.cuh>
#include <future>
#include <memory>
#include <optional>

#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "graphrun/engine/cuda/step_trace.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/engine/vertex_order.hpp"
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

// Chebyshev semi-iteration on the device. Pass p reads its ω from omega[p %
// 2] (0: a Jacobi step) and r_p-2 from `r_before`; the last block of pass p,
// once it knows the pass's L1 change, writes ω for pass p + 1 into omega[(p +
// 1) % 2] by the CPU's rule: Jacobi steps while the L1 change falls faster
// than `rate` = d / (1 + √(1 - d²)) an iteration, then ω = 1, 1 / (1 - d²/2),
// and ω' = 1 / (1 - d² ω / 4). The L1 change of pass p - 1 is in the
// Stopping ring. A skipped pass writes nothing, so omega[last % 2] still
// holds the ω of the last pass that ran when the ranks are read.
struct Chebyshev {
  const double* r_before;
  const double* omega;
  double* next_omega;
  double rate;
  double rho2;  // d²
};

__device__ double next_chebyshev_omega(double omega, double err, double err_before, double rate,
                                       double rho2) {
  if (omega != 0.0)
    return omega == 1.0 ? 1.0 / (1.0 - rho2 / 2.0) : 1.0 / (1.0 - rho2 * omega / 4.0);
  return err > 0.0 && err_before > 0.0 && err > rate * err_before ? 1.0 : 0.0;
}

// Reduces every thread's `mine` into out[0..1]: a block sum per block into
// `partials`, then the last block to arrive sums the partials in block
// order (a fixed order for a fixed grid: deterministic), applies the
// stopping rule when `rule` is given and picks the next pass's ω when
// `chebyshev` is, and re-arms `done`.
__device__ void reduce_sums(Sums mine, double* partials, unsigned* done, double* out,
                            const Stopping* rule = nullptr, const Chebyshev* chebyshev = nullptr) {
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
      if (chebyshev) {
        const double err_before =
            rule->pass > 1 ? rule->residuals[(rule->pass - 1) % kResidualRing] : 0.0;
        *chebyshev->next_omega = next_chebyshev_omega(*chebyshev->omega, total.err, err_before,
                                                      chebyshev->rate, chebyshev->rho2);
      }
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

// r = 1/n, or start * scale where a start is given; x = r ./ outw (in X:
// double, or float where the SpMV gathers a float copy), out[1] = dangling
// mass of r.
template <class X>
__global__ void __launch_bounds__(kBlock)
    init_ranks(vertex_t n, double inv_n, const double* __restrict__ start, double scale,
               const double* __restrict__ inv_outw, double* __restrict__ r, X* __restrict__ x,
               double* partials, unsigned* done, double* out) {
  Sums mine{0.0, 0.0};
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock) {
    const double w = inv_outw[i];
    const double ri = start ? start[i] * scale : inv_n;
    r[i] = ri;
    x[i] = static_cast<X>(ri * w);
    if (w == 0.0) mine.dangling += ri;
  }
  reduce_sums(mine, partials, done, out);
}

// What every rank gets besides its in-links: the teleport share and the
// dangling mass of the pass before, both spread uniformly.
__device__ __forceinline__ double rank_base(double d, double dangling, double inv_n) {
  return (d * dangling + 1.0 - d) * inv_n;
}

// Row i's Jacobi step yi: its change into `mine`; the new rank ri = yi,
// or with Chebyshev and ω != 0, ω (yi - r_before(i)) + r_before(i); r'(i) =
// ri, x(i) = ri / outw(i) for the next SpMV and, where i has no out-edge,
// ri into the dangling mass. Jacobi's instance reads and writes what it
// did before Chebyshev existed.
template <bool IsChebyshev, class X>
__device__ __forceinline__ void update_rank(offset_t i, double yi, const double* __restrict__ r,
                                            const double* __restrict__ inv_outw,
                                            double* __restrict__ r_next, X* __restrict__ x,
                                            Sums& mine, const double* __restrict__ r_before,
                                            double omega) {
  const double w = inv_outw[i];
  mine.err += fabs(yi - r[i]);
  double ri = yi;
  if constexpr (IsChebyshev) {
    if (omega != 0.0) ri = omega * (yi - r_before[i]) + r_before[i];
  }
  r_next[i] = ri;
  x[i] = static_cast<X>(ri * w);
  if (w == 0.0) mine.dangling += ri;
}

// r' = d y + (d dangling + 1 - d) / n (with Chebyshev, moved by ω), with
// dangling = prev[1] from the pass before; out = (|d y + ... - r|_1,
// dangling mass of r'); x = r' ./ outw. `chebyshev` is read only by the
// IsChebyshev instance.
template <bool IsChebyshev, class X>
__global__ void __launch_bounds__(kBlock)
    update_ranks(vertex_t n, double d, double inv_n, const double* __restrict__ y,
                 const double* __restrict__ r, const double* __restrict__ inv_outw,
                 const double* prev, double* __restrict__ r_next, X* __restrict__ x,
                 double* partials, unsigned* done, double* out, Stopping rule,
                 Chebyshev chebyshev) {
  if (*rule.stop) return;
  const double base = rank_base(d, prev[1], inv_n);
  const double omega = IsChebyshev ? *chebyshev.omega : 0.0;
  Sums mine{0.0, 0.0};
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock)
    update_rank<IsChebyshev, X>(i, d * y[i] + base, r, inv_outw, r_next, x, mine,
                                chebyshev.r_before, omega);
  reduce_sums(mine, partials, done, out, &rule, IsChebyshev ? &chebyshev : nullptr);
}

// csr-thread's SpMV row and the update fused in one pass, a thread per row of
// Aᵀ (the chooser picks csr-thread for grids and roads): one launch instead
// of two, and no write and read-back of y. Measured on the H200
// (graphrun bench pagerank): luxembourg_osm 0.024 -> 0.021 ms per iteration;
// the 2000x2000 grid unchanged (0.104 -> 0.109 ms), since the pass still
// moves r, inv_outw, r' and the next x: 1.6x the bytes of the SpMV alone,
// which is what bounds an iteration there. Each row is summed from zero in
// entry order, as csr-thread sums it; x is read through the rows while
// x_next is written. The update is update_ranks'.
template <bool Pattern, bool IsChebyshev, class X>
__global__ void __launch_bounds__(kBlock)
    fused_thread_rows(vertex_t n, const offset_t* __restrict__ row_ptr,
                      const vertex_t* __restrict__ col_idx, const double* __restrict__ values,
                      double d, double inv_n, const X* __restrict__ x, const double* __restrict__ r,
                      const double* __restrict__ inv_outw, const double* prev,
                      double* __restrict__ r_next, X* __restrict__ x_next, double* partials,
                      unsigned* done, double* out, Stopping rule, Chebyshev chebyshev) {
  if (*rule.stop) return;
  const double base = rank_base(d, prev[1], inv_n);
  const double omega = IsChebyshev ? *chebyshev.omega : 0.0;
  Sums mine{0.0, 0.0};
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock) {
    double y = 0.0;
    for (offset_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k)
      y += (Pattern ? 1.0 : values[k]) * static_cast<double>(__ldg(x + col_idx[k]));
    update_rank<IsChebyshev, X>(i, d * y + base, r, inv_outw, r_next, x_next, mine,
                                chebyshev.r_before, omega);
  }
  reduce_sums(mine, partials, done, out, &rule, IsChebyshev ? &chebyshev : nullptr);
}

// The Jacobi step y of the last Chebyshev pass, from that pass's ranks
// r_new = ω (y - r_before) + r_before: y = r_before + (r_new - r_before) / ω,
// as the CPU rebuilds it (the ranks returned are y; see cpu/pagerank_steps.cpp).
__global__ void chebyshev_jacobi_step(vertex_t n, const double* __restrict__ r_before,
                                      const double* __restrict__ r_new, double inv_omega,
                                      double* __restrict__ y) {
  for (offset_t i = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; i < n;
       i += offset_t{gridDim.x} * blockDim.x)
    y[i] = r_before[i] + (r_new[i] - r_before[i]) * inv_omega;
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

static_assert(max_pagerank_batch < kResidualRing);

class CudaPageRankSteps final : public PageRankSteps {
 public:
  // ctx's device must be current (CudaSteps::pagerank makes it so).
  CudaPageRankSteps(const Graph& g, const PageRankSetup& setup, PageRankResult& result)
      : o_(setup.options), n_(g.n_vertices()), inv_outw_(n_) {
    cuda::StepTrace& trace = trace_;
    trace.step("buffers");
    const double inv_n = 1.0 / static_cast<double>(n_);
    // Aᵀ on the device (A for an undirected graph: the same matrix). A goes
    // up once: its rows give the out-weights, and Aᵀ is built from it
    // there, so the host never builds the transpose (a directed graph's
    // largest cost of setting up at 10^8 edges and more). A vertex ordering
    // is computed from A's out-degrees and applied to A before the
    // transpose; the iterations run in the new order, and the ranks go back
    // to input order on the device.
    // The row of each of Aᵀ's entries, the transpose's by-product: the COO
    // format's row index.
    DeviceArray<vertex_t> row_of_entry;
    {
      const Stopwatch t_upload;
      AdjacencyOnDevice adjacency(g, setup.weighted);
      GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
      result.upload_seconds = t_upload.seconds();
      trace.step("adjacency");
      const DeviceCsr<double>* a = &adjacency.csr();
      const PageRankOrdering ordering =
          pagerank_ordering(g, o_.reorder, [&] { return choose_reorder(analyze(*a)); });
      const Reorder how = ordering.how;
      result.reorder = how;
      result.reorder_stored = ordering.stored != nullptr;
      trace.step("ordering chosen");
      DeviceCsr<double> renumbered;
      if (how != Reorder::none) {
        const Stopwatch t_order;
        // A stored ordering goes up as it is; the others are computed here.
        order_ = ordering.stored
                     ? DeviceArray<vertex_t>(std::span<const vertex_t>(*ordering.stored))
                     : device_vertex_order(*a, how, nullptr, !g.directed());
        // Rows keep their entries' input order, columns renamed: the SpMV
        // needs no sorted rows (each row's sum keeps a fixed order), and
        // sorting them took the renumbering of R-MAT 22 from 3-4 ms to 16 ms
        // on the H200 (the transpose of a directed graph sorts them anyway).
        renumbered = device_permute(*a, order_, /*sort_columns=*/false);
        a = &renumbered;
        result.reorder_seconds = t_order.seconds();
        trace.step("renumbered");
      }
      const unsigned grid = grid_for(n_, kBlock);
      inverse_out_weight<<<grid, kBlock>>>(n_, a->row_ptr().data(), a->view().values,
                                           inv_outw_.data());
      check_launch();
      trace.step("out-weights");
      if (g.directed()) {
        owned_at_ = device_transpose(*a, nullptr, &row_of_entry);  // waits for the stream
        at_ = &owned_at_;
      } else if (a == &renumbered) {
        owned_at_ = std::move(renumbered);
        at_ = &owned_at_;
      } else {
        adjacency_ = std::move(adjacency);  // A itself, kept while the iterations run
        at_ = &adjacency_.csr();
      }
    }
    trace.step("transpose");
    // A symmetric matrix renumbered by degree has its rows of like length
    // side by side, which the choice of format weighs.
    // x in float where the SpMV gathers it so (PageRankGather): the ranks,
    // sums and L1 changes stay double. The format is told (SELL sizes its
    // column parts by it).
    float_gathers_ = gathers_in_float(o_, n_ >= gpu_float_gather_min_vertices);
    op_.emplace(
        *at_, o_.format, 0, std::move(row_of_entry), rows_after(result.reorder, !g.directed()),
        cuda::SpmvLayoutHints{static_cast<int>(float_gathers_ ? sizeof(float) : sizeof(double))});
    result.format = op_->format();
    trace.step("format");

    // csr-thread runs the fused pass above instead of the SpMV + update.
    fused_ = op_->format() == SpmvFormat::csr_thread;
    // Ranks of iteration p live in buffer p % 2 (x, fused, too): a pass
    // that the stopping rule skips writes nothing, so the ranks of the last
    // pass that ran stay in its buffer, whatever the host queued behind it.
    // Chebyshev reads the ranks of the two passes before, so its ranks
    // rotate through three buffers, p % 3.
    chebyshev_ = o_.method == PageRankMethod::chebyshev;
    rank_buffers_ = chebyshev_ ? 3 : 2;
    for (int b = 0; b < rank_buffers_; ++b) r_buf_[b] = DeviceArray<double>(n_);
    if (chebyshev_) {
      omega_ = DeviceArray<double>(2);
      GRAPHRUN_CUDA_CHECK(cudaMemset(omega_.data(), 0, 2 * sizeof(double)));  // Jacobi steps first
    }
    result.float_gathers = float_gathers_;
    if (float_gathers_) {
      xf_buf_[0] = DeviceArray<float>(n_);
      xf_buf_[1] = DeviceArray<float>(fused_ ? n_ : 0);
    } else {
      x_buf_[0] = DeviceArray<double>(n_);
      x_buf_[1] = DeviceArray<double>(fused_ ? n_ : 0);
    }
    y_ = DeviceArray<double>(fused_ ? 0 : n_);
    grid_ = grid_for(n_, kBlock, 4);
    partials_ = DeviceArray<double>(2 * std::size_t{grid_});
    GRAPHRUN_CUDA_CHECK(cudaMemset(done_.data(), 0, sizeof(unsigned)));
    GRAPHRUN_CUDA_CHECK(cudaMemset(stop_.data(), 0, sizeof(int)));

    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
    // The start travels only for the first pass; freed before the iterations.
    DeviceArray<double> start;
    if (setup.start_scale > 0.0) {
      start = DeviceArray<double>{o_.start};
      if (order_.size() > 0) {
        DeviceArray<double> renumbered(start.size());
        gather_by_order<<<grid_for(n_, kBlock), kBlock>>>(n_, order_.data(), start.data(),
                                                          renumbered.data());
        check_launch();
        start = std::move(renumbered);  // cudaFree of the old waits for the gather
      }
    }
    const auto init = [&](auto* x) {
      init_ranks<<<grid_, kBlock>>>(n_, inv_n, setup.start_scale > 0.0 ? start.data() : nullptr,
                                    setup.start_scale, inv_outw_.data(), r_buf_[0].data(), x,
                                    partials_.data(), done_.data(), sums_.data());
    };
    if (float_gathers_)
      init(xf_buf_[0].data());
    else
      init(x_buf_[0].data());
    check_launch();
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());  // before the start is freed
    trace.step("vectors");
    host_ranks_ = std::async(std::launch::async,
                             [n = std::size_t(n_)] { return host_vector_for_download<double>(n); });
  }

  int max_batch() const noexcept override { return max_pagerank_batch; }

  // Queues the passes, then reads their L1 changes back once.
  void iterate(int first, std::span<double> residuals) override {
    const int count = static_cast<int>(residuals.size());
    for (int p = first; p < first + count; ++p) queue_pass(p);
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_residuals_.data(), residuals_.data(),
                                        kResidualRing * sizeof(double), cudaMemcpyDeviceToHost));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    for (int p = first; p < first + count; ++p)
      residuals[static_cast<std::size_t>(p - first)] =
          host_residuals_[static_cast<std::size_t>(p % kResidualRing)];
  }

  std::vector<double> ranks(int last) override {
    std::vector<double> host = host_ranks_.get();
    const DeviceArray<double>* out = &r_buf_[last % rank_buffers_];
    if (chebyshev_) {
      // After an accelerated pass the ranks are its Jacobi step y, rebuilt
      // into the buffer of pass last - 1 (read by nothing now).
      double omega = 0.0;
      GRAPHRUN_CUDA_CHECK(
          cudaMemcpy(&omega, omega_.data() + last % 2, sizeof(double), cudaMemcpyDeviceToHost));
      if (omega != 0.0) {
        DeviceArray<double>& y = r_buf_[(last + 2) % 3];
        chebyshev_jacobi_step<<<grid_for(n_, kBlock), kBlock>>>(n_, r_buf_[(last + 1) % 3].data(),
                                                                out->data(), 1.0 / omega, y.data());
        check_launch();
        out = &y;
      }
    }
    if (order_.size() > 0) {
      // Back to input order, into the rank buffer that follows the last
      // pass's: the ranks of a pass no longer read (with Chebyshev, r_before
      // of the last pass, read above by the Jacobi step's rebuild, before
      // this launch on the same stream).
      DeviceArray<double>& by_input = r_buf_[(last + 1) % rank_buffers_];
      scatter_by_order<<<grid_for(n_, kBlock), kBlock>>>(n_, order_.data(), out->data(),
                                                         by_input.data());
      check_launch();
      out = &by_input;
    }
    out->download_into(host);
    return host;
  }

 private:
  void queue_pass(int p) {
    const double d = o_.damping;
    const double inv_n = 1.0 / static_cast<double>(n_);
    const Stopping rule{o_.tol, stop_.data(), residuals_.data(), p};
    const double* prev = sums_.data() + 2 * ((p - 1) % 2);
    double* out = sums_.data() + 2 * (p % 2);
    const double* r = r_buf_[(p - 1) % rank_buffers_].data();
    double* r_next = r_buf_[p % rank_buffers_].data();
    // r_p-2 is in buffer (p + 1) % 3, read once ω is set (from pass 3 on).
    const Chebyshev chebyshev = chebyshev_ ? Chebyshev{.r_before = r_buf_[(p + 1) % 3].data(),
                                                       .omega = omega_.data() + p % 2,
                                                       .next_omega = omega_.data() + (p + 1) % 2,
                                                       .rate = d / (1.0 + std::sqrt(1.0 - d * d)),
                                                       .rho2 = d * d}
                                           : Chebyshev{};
    if (fused_) {
      const CsrView<double> v = at_->view();
      const auto launch = [&]<bool Pattern, bool IsChebyshev, class X>(DeviceArray<X>* x_buf) {
        fused_thread_rows<Pattern, IsChebyshev, X><<<grid_, kBlock>>>(
            n_, v.row_ptr, v.col_idx, v.values, d, inv_n, x_buf[(p - 1) % 2].data(), r,
            inv_outw_.data(), prev, r_next, x_buf[p % 2].data(), partials_.data(), done_.data(),
            out, rule, chebyshev);
      };
      const auto with_x = [&]<bool Pattern, bool IsChebyshev>() {
        if (float_gathers_)
          launch.template operator()<Pattern, IsChebyshev>(xf_buf_);
        else
          launch.template operator()<Pattern, IsChebyshev>(x_buf_);
      };
      if (v.values == nullptr && chebyshev_)
        with_x.template operator()<true, true>();
      else if (v.values == nullptr)
        with_x.template operator()<true, false>();
      else if (chebyshev_)
        with_x.template operator()<false, true>();
      else
        with_x.template operator()<false, false>();
    } else {
      // x is updated in place; a skipped pass leaves it (and y's use) idle.
      const auto launch = [&]<bool IsChebyshev, class X>(X* x) {
        op_->apply<PlusTimes<double>>(x, y_.data());
        update_ranks<IsChebyshev, X>
            <<<grid_, kBlock>>>(n_, d, inv_n, y_.data(), r, inv_outw_.data(), prev, r_next, x,
                                partials_.data(), done_.data(), out, rule, chebyshev);
      };
      const auto with_x = [&]<bool IsChebyshev>() {
        if (float_gathers_)
          launch.template operator()<IsChebyshev>(xf_buf_[0].data());
        else
          launch.template operator()<IsChebyshev>(x_buf_[0].data());
      };
      if (chebyshev_)
        with_x.template operator()<true>();
      else
        with_x.template operator()<false>();
    }
    check_launch();
  }

  // GRAPHRUN_TRACE: the set-up's steps. First: its clock starts before the
  // buffers below are made.
  cuda::StepTrace trace_{"pagerank set-up"};
  const PageRankOptions& o_;
  vertex_t n_;
  // Aᵀ: owned_at_, or for an undirected graph A itself (adjacency_, often
  // the loader's own on the device, borrowed).
  AdjacencyOnDevice adjacency_;
  DeviceCsr<double> owned_at_;
  const DeviceCsr<double>* at_ = nullptr;
  DeviceArray<double> inv_outw_;
  DeviceArray<vertex_t> order_;  // order_[new] = input vertex; empty: none
  std::optional<cuda::SpmvOperator<double>> op_;
  bool fused_ = false;
  bool float_gathers_ = false;  // x in xf_buf_, in float (PageRankGather)
  bool chebyshev_ = false;      // PageRankMethod::chebyshev
  int rank_buffers_ = 2;        // r_buf_ in use: 3 for Chebyshev
  unsigned grid_ = 0;
  DeviceArray<double> r_buf_[3], x_buf_[2], y_, partials_;
  DeviceArray<float> xf_buf_[2];  // x_buf_'s place with float_gathers_
  DeviceArray<double> omega_;     // Chebyshev: ω of even and odd passes
  DeviceArray<unsigned> done_{1};
  DeviceArray<double> sums_{4};  // (err, dangling) of even and odd passes
  DeviceArray<int> stop_{1};
  DeviceArray<double> residuals_{kResidualRing};
  Pinned<double> host_residuals_{kResidualRing};
  // Where ranks() downloads to: made on another host thread while the
  // device sets up and iterates, its pages faulted in (R-MAT 23's 37 MB took
  // ~25 ms when the download faulted them after the last pass).
  std::future<std::vector<double>> host_ranks_;
};

}  // namespace

std::unique_ptr<PageRankSteps> CudaSteps::pagerank(Context& ctx, const Graph& g,
                                                   const PageRankSetup& setup,
                                                   PageRankResult& result) {
  // ctx's GPU current before the steps' members allocate on it.
  use_device(ctx, "pagerank");
  return std::make_unique<CudaPageRankSteps>(g, setup, result);
}

}  // namespace graphrun::detail
