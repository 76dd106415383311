// Markov clustering on the GPU: the loop of mcl.cpp with every step on the
// device. The start matrix is built on the host (mcl_start.cpp) and uploaded
// once; each iteration is
//
//   E = M·M                    cuda::spgemm<PlusTimes<double>> over the
//                              float M: products and sums in double, as on
//                              the CPU and in mcl (or the caller's
//                              expansion, e.g. cuSPARSE in double)
//   measure_columns            warp per column: rounds E to float (as mcl
//                              stores it), max, Σv², entries >= cut and
//                              their mass
//   decide_columns             block per column: mcl's threshold (cut, or
//                              the S-th or R-th largest, found by radix
//                              selection where selection or recovery asks
//                              for it: column_select.cuh), kept count, chaos
//   exclusive scan             CUB DeviceScan over the kept counts → M's
//                              row pointers
//   compact_inflate            warp per column: keep v >= threshold in
//                              order, renormalize, v^r, renormalize
//
// and one wait per iteration, for nnz(M) (to size the next arrays) and the
// chaos (the stopping rule), read together from pinned memory. The limit
// comes back to the host to be read off as clusters (mcl_interpret.cpp).
//
// Column blocks. The expanded iterand of a million-edge graph can hold 10⁹
// entries and more, where the pruned one holds ~10⁷. Before each expansion
// a warp per column adds up its intermediate products; when Σ over columns
// of min(products, n) — a bound on E's entries — is past what the device's
// free memory allows (plan_blocks), the columns are split into consecutive
// blocks, and each block is expanded (its rows of M times M), pruned and
// inflated before the next one is expanded. Pruning and inflation are per
// column, so the result does not depend on the blocks (bit for bit with a
// deterministic SpGEMM). The pruned blocks are then put together as the
// next iterand. This is mcl's column-at-a-time loop and HipMCL's phases,
// with blocks as large as memory allows, so that a graph whose expansion
// fits runs as one block, as before.
//
// The rules are those of prune_column in mcl_parts.hpp, evaluated with
// order statistics of the column: the k-th largest below the cut is the
// R-th largest of the column, and so on (see decide_columns). Sums are in
// double; a warp, and the SpGEMM's atomics, add in a different order than
// the CPU's serial loops, so a sum can differ from the CPU's in its last
// bits, which the rounding to float almost always absorbs. (An expansion
// summed in float instead moves entries that tie exactly in double, such
// as the leaves of a star, apart, and with them pruning decisions: on
// PGPgiantcompo it took 33 iterations instead of 18.)
#include <cstdio>
#include <cstring>
#include <cub/device/device_scan.cuh>
#include <memory>

#include "../mcl_parts.hpp"
#include "column_select.cuh"
#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "graphrun/algorithms/cuda/mcl.hpp"
#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/env_flag.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

namespace graphrun {

namespace detail {

namespace {

constexpr int kBlock = 256;
// Most entries of one expanded block (a 32-bit count, kept from when the
// pruning sorted with CUB; device memory binds first on a 141 GB H200).
constexpr std::int64_t kMaxBlockEntries = INT32_MAX;
// Device bytes a block's expansion takes per entry of its bound: C's column
// and double value (12), the float copy with its slack (5), the staging of
// the bitmap rows that skip the symbolic phase (12), and the SpGEMM's tables
// beside them: an estimate with a margin, not yet checked against measured
// peaks (the SpGEMM chunks its own tables, and gives up the staging, when
// they do not fit). Blocks are sized to half of the free memory so that the
// pruned blocks, and the next iterand, fit beside.
constexpr std::int64_t kBytesPerBlockEntry = 48;

// Per-column results of the measuring pass.
struct ColumnMeasure {
  double center;  // Σ v² of the expanded column
  double mass;    // Σ of the entries >= cut
  float maxval;
  std::int64_t n_cut;  // entries >= cut
};

__device__ double warp_sum(double v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ long long warp_sum(long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__global__ void measure_columns(vertex_t n, const offset_t* row_ptr, const double* e_val,
                                float* val, mcl::PruneParams p, ColumnMeasure* measure) {
  const int lane = threadIdx.x & 31;
  for (vertex_t j = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; j < n;
       j += (gridDim.x * blockDim.x) >> 5) {
    const offset_t b = row_ptr[j], e = row_ptr[j + 1];
    double center = 0, mass = 0;
    long long n_cut = 0;
    float maxval = 0;
    for (offset_t k = b + lane; k < e; k += 32) {
      const float v = static_cast<float>(e_val[k]);  // mcl stores the expanded column as float
      val[k] = v;
      const double x = v;
      maxval = fmaxf(maxval, v);
      center += x * x;
      if (x >= p.cut) {
        mass += x;
        ++n_cut;
      }
    }
    ColumnMeasure m{warp_sum(center), warp_sum(mass), warp_max(maxval), warp_sum(n_cut)};
    if (lane == 0) measure[j] = m;
  }
}

// A block per column: mcl's threshold and kept count (prune_column in
// mcl_parts.hpp), the order statistics found in the unsorted column by
// radix selection where selection or recovery needs them (every thread of
// the block takes the same branches: they depend on the column only), and
// the column's chaos.
constexpr int kDecideBlock = 128;
__global__ void __launch_bounds__(kDecideBlock)
    decide_columns(vertex_t n, const offset_t* row_ptr, const float* val, mcl::PruneParams p,
                   const ColumnMeasure* measure, double* threshold, offset_t* kept,
                   unsigned* chaos_bits) {
  using Select = ColumnSelect<kDecideBlock>;
  __shared__ typename Select::Shared sel;
  for (vertex_t j = blockIdx.x; j < n; j += gridDim.x) {
    const offset_t b = row_ptr[j];
    const std::int64_t len = row_ptr[j + 1] - b;
    const ColumnMeasure m = measure[j];
    const float* v = val + b;
    double t = p.cut;
    long long count = m.n_cut;
    double mass_unused = 0;
    if (p.recover > 0 && m.n_cut < p.recover && m.mass < p.pct) {
      if (len > p.recover) {
        // The (R - n_cut)-th largest below the cut is the R-th largest.
        t = Select::kth_largest(v, len, p.recover, sel);
        Select::at_least(v, len, t, count, mass_unused, sel);
      } else {
        t = 0;  // recovery keeps the whole column
        count = len;
      }
    } else if (p.select > 0 && m.n_cut > p.select) {
      const double sbar = Select::kth_largest(v, len, p.select, sel);
      long long n_select = 0;
      double mass_select = 0;
      Select::at_least(v, len, sbar, n_select, mass_select, sel);
      t = sbar;
      count = n_select;
      if (p.recover > 0 && n_select < p.recover && mass_select < p.pct) {
        // The (R - n_select)-th largest below sbar is the R-th largest,
        // and only entries that passed the cut come back.
        t = m.n_cut > p.recover
                ? fmax(static_cast<double>(Select::kth_largest(v, len, p.recover, sel)), p.cut)
                : p.cut;
        Select::at_least(v, len, t, count, mass_unused, sel);
      }
    }
    if (threadIdx.x == 0) {
      threshold[j] = t;
      kept[j] = count;
      const float chaos = static_cast<float>((static_cast<double>(m.maxval) - m.center) *
                                             static_cast<double>(count));
      // Non-negative floats order like their bit patterns.
      if (chaos > 0) atomicMax(chaos_bits, __float_as_uint(chaos));
    }
  }
}

// Keeps v >= threshold of every column in order (a warp ballot gives each
// lane its output slot), renormalizes, raises to the power r, and
// renormalizes again, each step a double sum and a float rounding, as mcl.
__global__ void compact_inflate(vertex_t n, const offset_t* e_ptr, const vertex_t* e_col,
                                const float* e_val, const double* threshold, const offset_t* m_ptr,
                                vertex_t* m_col, float* m_val, double r) {
  const int lane = threadIdx.x & 31;
  const unsigned below = (1u << lane) - 1;
  for (vertex_t j = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; j < n;
       j += (gridDim.x * blockDim.x) >> 5) {
    const offset_t b = e_ptr[j], e = e_ptr[j + 1];
    const offset_t out = m_ptr[j], out_end = m_ptr[j + 1];
    const double t = threshold[j];
    offset_t o = out;
    double mass = 0;
    for (offset_t base = b; base < e; base += 32) {
      const offset_t k = base + lane;
      const float v = k < e ? e_val[k] : 0.0f;
      const bool keep = k < e && static_cast<double>(v) >= t;
      const unsigned ballot = __ballot_sync(0xffffffffu, keep);
      if (keep) {
        const offset_t slot = o + __popc(ballot & below);
        m_col[slot] = e_col[k];
        m_val[slot] = v;
        mass += v;
      }
      o += __popc(ballot);
    }
    mass = warp_sum(mass);
    __syncwarp();
    double powsum = 0;
    for (offset_t k = out + lane; k < out_end; k += 32) {
      float v = m_val[k];
      if (mass != 0) v = static_cast<float>(static_cast<double>(v) / mass);
      v = static_cast<float>(pow(static_cast<double>(v), r));
      m_val[k] = v;
      powsum += v;
    }
    powsum = warp_sum(powsum);
    if (powsum > 0)
      for (offset_t k = out + lane; k < out_end; k += 32)
        m_val[k] = static_cast<float>(static_cast<double>(m_val[k]) / powsum);
  }
}

// products[j] = min(Σ_{k in row j} |row k|, n): the intermediate products of
// row j of M·M, a bound on its distinct columns (warp per row).
__global__ void row_product_bounds(vertex_t n, const offset_t* ptr, const vertex_t* col,
                                   std::int64_t* products) {
  const int lane = threadIdx.x & 31;
  for (vertex_t j = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; j < n;
       j += (gridDim.x * blockDim.x) >> 5) {
    long long ip = 0;
    for (offset_t k = ptr[j] + lane; k < ptr[j + 1]; k += 32) ip += ptr[col[k] + 1] - ptr[col[k]];
    ip = warp_sum(ip);
    if (lane == 0) products[j] = ip < n ? ip : n;
  }
}

// out[i] = ptr[i] - ptr[0] + shift for i < count: a block's row pointers cut
// out of M's (shift 0), or put back at their place in the next iterand's.
__global__ void rebase_row_ptr(std::int64_t count, const offset_t* ptr, offset_t shift,
                               offset_t* out) {
  const offset_t base = ptr[0];
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = ptr[i] - base + shift;
}

unsigned warp_grid(vertex_t n) { return grid_for(static_cast<long long>(n) * 32, kBlock, 16); }

// The pruning, inflation and chaos of one iteration or column block (E has
// at most the n rows it was made for), with its scratch arrays kept from one
// call to the next (grown when needed).
class PruneInflate {
 public:
  PruneInflate(vertex_t n, cudaStream_t stream)
      : stream_(stream),
        measure_(static_cast<std::size_t>(n)),
        threshold_(static_cast<std::size_t>(n)),
        kept_(static_cast<std::size_t>(n) + 1),
        chaos_(1),
        scalars_(2) {}

  // M = prune, inflate (E); *chaos gets the largest column chaos.
  DeviceCsr<float> operator()(const DeviceCsr<double>& e, const mcl::PruneParams& p, double r,
                              float* chaos) {
    const offset_t nnz_e = e.nnz();
    if (e_float_.size() < static_cast<std::size_t>(nnz_e))
      e_float_ = DeviceArray<float>(static_cast<std::size_t>(nnz_e) + nnz_e / 4);
    const vertex_t rows = e.n_rows();
    const unsigned grid = warp_grid(rows);
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(chaos_.data(), 0, sizeof(unsigned), stream_));
    measure_columns<<<grid, kBlock, 0, stream_>>>(rows, e.row_ptr().data(), e.values().data(),
                                                  e_float_.data(), p, measure_.data());
    check_launch();
    decide_columns<<<grid_for(rows, 1, 16), kDecideBlock, 0, stream_>>>(
        rows, e.row_ptr().data(), e_float_.data(), p, measure_.data(), threshold_.data(),
        kept_.data(), chaos_.data());
    check_launch();
    // kept → row pointers of M, in place (the scan reads kept_[0..rows], the
    // last of which it ignores, and writes the rows+1 pointers).
    DeviceArray<offset_t> m_ptr(static_cast<std::size_t>(rows) + 1, stream_);
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(kept_.data() + rows, 0, sizeof(offset_t), stream_));
    std::size_t bytes = 0;
    GRAPHRUN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, kept_.data(), m_ptr.data(),
                                                      rows + 1, stream_));
    reserve_temp(bytes);
    GRAPHRUN_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp_.data(), bytes, kept_.data(),
                                                      m_ptr.data(), rows + 1, stream_));
    // One wait: nnz(M) and the chaos come back together.
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(&scalars_[0], m_ptr.data() + rows, sizeof(offset_t),
                                        cudaMemcpyDeviceToHost, stream_));
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(&scalars_[1], chaos_.data(), sizeof(unsigned),
                                        cudaMemcpyDeviceToHost, stream_));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const offset_t nnz_m = scalars_[0];
    const auto bits = static_cast<unsigned>(scalars_[1]);
    std::memcpy(chaos, &bits, sizeof(float));

    DeviceArray<vertex_t> m_col(static_cast<std::size_t>(nnz_m), stream_);
    DeviceArray<float> m_val(static_cast<std::size_t>(nnz_m), stream_);
    compact_inflate<<<grid, kBlock, 0, stream_>>>(rows, e.row_ptr().data(), e.col_idx().data(),
                                                  e_float_.data(), threshold_.data(), m_ptr.data(),
                                                  m_col.data(), m_val.data(), r);
    check_launch();
    return DeviceCsr<float>(rows, e.n_cols(), std::move(m_ptr), std::move(m_col), std::move(m_val));
  }

 private:
  void reserve_temp(std::size_t bytes) {
    if (temp_.size() < bytes) temp_ = DeviceArray<unsigned char>(bytes + bytes / 4);
  }

  cudaStream_t stream_;
  DeviceArray<ColumnMeasure> measure_;
  DeviceArray<double> threshold_;
  DeviceArray<offset_t> kept_;
  DeviceArray<unsigned> chaos_;
  DeviceArray<float> e_float_;  // E's values rounded to float
  DeviceArray<unsigned char> temp_;
  Pinned<std::int64_t> scalars_;
};

// The column blocks of one expansion: block b is rows bounds[b] ..
// bounds[b+1] of the stored iterand. One block (all of M) when the bound on
// E's entries fits in `max_entries`; otherwise consecutive rows, each block
// as many as fit (at least one row).
std::vector<vertex_t> plan_blocks(const DeviceCsr<float>& m, std::int64_t max_entries,
                                  cudaStream_t stream) {
  const vertex_t n = m.n_rows();
  if (n == 0) return {0, 0};
  // No column has more than n entries: below sqrt(budget) vertices (~37,000
  // on the H200) one block is certain, and the pass below is skipped.
  if (static_cast<std::int64_t>(n) * n <= max_entries) return {0, n};
  DeviceArray<std::int64_t> bound(static_cast<std::size_t>(n) + 1, stream);
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(bound.data(), 0, sizeof(std::int64_t), stream));
  row_product_bounds<<<warp_grid(n), kBlock, 0, stream>>>(n, m.row_ptr().data(), m.col_idx().data(),
                                                          bound.data() + 1);
  check_launch();
  // In place: bound[j] = Σ of the bounds of rows before j.
  std::size_t bytes = 0;
  GRAPHRUN_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(nullptr, bytes, bound.data() + 1, bound.data() + 1, n, stream));
  DeviceArray<unsigned char> temp(bytes, stream);
  GRAPHRUN_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.data(), bytes, bound.data() + 1,
                                                    bound.data() + 1, n, stream));
  std::int64_t total = 0;
  GRAPHRUN_CUDA_CHECK(
      cudaMemcpyAsync(&total, bound.data() + n, sizeof(total), cudaMemcpyDeviceToHost, stream));
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (total <= max_entries) return {0, n};
  const std::vector<std::int64_t> prefix = bound.download();
  std::vector<vertex_t> bounds{0};
  for (vertex_t start = 0; start < n;) {
    // The last row whose prefix stays within the budget, and at least one.
    const auto past = std::upper_bound(prefix.begin() + start + 1, prefix.end(),
                                       prefix[static_cast<std::size_t>(start)] + max_entries);
    const auto end =
        std::max<vertex_t>(start + 1, static_cast<vertex_t>(past - prefix.begin()) - 1);
    bounds.push_back(end);
    start = end;
  }
  return bounds;
}

// Entries a block may bound: half of what the device has free within the
// cap, at kBytesPerBlockEntry each, at most the sort's limit; or the
// caller's figure.
std::int64_t block_entries(const cuda::MclBlocking& blocking) {
  if (blocking.max_block_entries > 0) return std::min(blocking.max_block_entries, kMaxBlockEntries);
  const auto budget =
      static_cast<std::int64_t>(device_memory_available() / 2) / kBytesPerBlockEntry;
  return std::clamp<std::int64_t>(budget, 1, kMaxBlockEntries);
}

// Rows begin .. end of m as a matrix of their own (n columns).
DeviceCsr<float> slice_rows(const DeviceCsr<float>& m, vertex_t begin, vertex_t end,
                            cudaStream_t stream) {
  const vertex_t rows = end - begin;
  DeviceArray<offset_t> ptr(static_cast<std::size_t>(rows) + 1, stream);
  rebase_row_ptr<<<grid_for(rows + 1LL, kBlock), kBlock, 0, stream>>>(
      rows + 1LL, m.row_ptr().data() + begin, 0, ptr.data());
  check_launch();
  offset_t range[2];
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(&range[0], m.row_ptr().data() + begin, sizeof(offset_t),
                                      cudaMemcpyDeviceToHost, stream));
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(&range[1], m.row_ptr().data() + end, sizeof(offset_t),
                                      cudaMemcpyDeviceToHost, stream));
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  const auto nnz = static_cast<std::size_t>(range[1] - range[0]);
  DeviceArray<vertex_t> col(nnz, stream);
  DeviceArray<float> val(nnz, stream);
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(col.data(), m.col_idx().data() + range[0],
                                      nnz * sizeof(vertex_t), cudaMemcpyDeviceToDevice, stream));
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(val.data(), m.values().data() + range[0], nnz * sizeof(float),
                                      cudaMemcpyDeviceToDevice, stream));
  return DeviceCsr<float>(rows, m.n_cols(), std::move(ptr), std::move(col), std::move(val));
}

// The pruned blocks, in order, as one matrix; each part is freed as soon as
// it has been copied, so the peak is the new iterand and one part.
DeviceCsr<float> join_rows(std::vector<DeviceCsr<float>>& parts, vertex_t n_cols,
                           cudaStream_t stream) {
  vertex_t rows = 0;
  offset_t nnz = 0;
  for (const DeviceCsr<float>& p : parts) {
    rows += p.n_rows();
    nnz += p.nnz();
  }
  DeviceArray<offset_t> ptr(static_cast<std::size_t>(rows) + 1, stream);
  DeviceArray<vertex_t> col(static_cast<std::size_t>(nnz), stream);
  DeviceArray<float> val(static_cast<std::size_t>(nnz), stream);
  vertex_t row = 0;
  offset_t at = 0;
  for (std::size_t b = 0; b < parts.size(); ++b) {
    DeviceCsr<float>& p = parts[b];
    // Every part writes its row pointers but the last; the last part also
    // writes the final one (nnz).
    const long long count = p.n_rows() + (b + 1 == parts.size() ? 1 : 0);
    if (count > 0) {
      rebase_row_ptr<<<grid_for(count, kBlock), kBlock, 0, stream>>>(count, p.row_ptr().data(), at,
                                                                     ptr.data() + row);
      check_launch();
    }
    const auto k = static_cast<std::size_t>(p.nnz());
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(col.data() + at, p.col_idx().data(), k * sizeof(vertex_t),
                                        cudaMemcpyDeviceToDevice, stream));
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(val.data() + at, p.values().data(), k * sizeof(float),
                                        cudaMemcpyDeviceToDevice, stream));
    row += p.n_rows();
    at += p.nnz();
    p = DeviceCsr<float>();  // freed in stream order, after the copies
  }
  return DeviceCsr<float>(rows, n_cols, std::move(ptr), std::move(col), std::move(val));
}

// The start matrix (mcl_parts.hpp), built on the host, on ctx's device.
DeviceCsr<float> start_matrix_on_device(Context& ctx, const Graph& g) {
  use_device(ctx, "mcl");
  return DeviceCsr<float>(mcl::start_matrix(g, ctx.threads()));
}

// The loop's steps on the device: the iterand stays there; each
// expansion runs in column blocks sized from the free memory, each block
// pruned and inflated as soon as it is computed.
class CudaMclSteps final : public MclSteps {
 public:
  CudaMclSteps(Context& ctx, const Graph& g, const MclOptions& options,
               const cuda::MclExpansion& expansion, const cuda::MclBlocking& blocking)
      : n_(g.n_vertices()),
        params_(mcl::PruneParams::from(options)),
        expansion_(expansion ? expansion : default_expansion(ctx)),
        blocking_(blocking),
        m_(start_matrix_on_device(ctx, g)),
        prune_inflate_(n_, stream_) {
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  std::int64_t nnz() const override { return m_.nnz(); }

  MclStep iterate(double inflation, StepProgress*) override {
    MclStep step;
    const std::vector<vertex_t> bounds = plan_blocks(m_, block_entries(blocking_), stream_);
    step.blocks = static_cast<int>(bounds.size() - 1);
    std::vector<DeviceCsr<float>> parts;
    for (int b = 0; b < step.blocks; ++b) {
      const Stopwatch tb;
      std::int64_t block_products = 0;
      DeviceCsr<double> e =
          step.blocks == 1
              ? expand(m_, &block_products)
              : expand(slice_rows(m_, bounds[b], bounds[b + 1], stream_), &block_products);
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
      const double t_expand = tb.seconds();
      float block_chaos = 0;
      parts.push_back(prune_inflate_(e, params_, inflation, &block_chaos));
      e = DeviceCsr<double>();  // freed on the stream, before the next expansion
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
      step.expansion_seconds += t_expand;
      step.pruning_seconds += tb.seconds() - t_expand;
      step.products += block_products;
      step.chaos = std::max(step.chaos, block_chaos);
    }
    m_ = step.blocks == 1 ? std::move(parts.front()) : join_rows(parts, n_, stream_);
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    step.nnz = m_.nnz();
    return step;
  }

  Csr<float> limit() override { return m_.download(); }

 private:
  static cuda::MclExpansion default_expansion(const Context& ctx) {
    return cuda::spgemm_expansion(cuda::mcl_spgemm_options(ctx.deterministic()));
  }

  // E = rows·M, by the caller's expansion or graphrun's SpGEMM.
  DeviceCsr<double> expand(const DeviceCsr<float>& rows, std::int64_t* products) {
    return expansion_(rows, m_, stream_, products);
  }

  cudaStream_t stream_ = nullptr;  // the legacy stream: C of the SpGEMM is freed on it
  vertex_t n_;
  mcl::PruneParams params_;
  const cuda::MclExpansion expansion_;
  const cuda::MclBlocking blocking_;
  DeviceCsr<float> m_;
  PruneInflate prune_inflate_;
};

}  // namespace

std::unique_ptr<MclSteps> cuda_mcl_steps(Context& ctx, const Graph& g, const MclOptions& options,
                                         const cuda::MclExpansion& expansion,
                                         const cuda::MclBlocking& blocking) {
  return std::make_unique<CudaMclSteps>(ctx, g, options, expansion, blocking);
}

std::unique_ptr<MclSteps> CudaSteps::mcl(Context& ctx, const Graph& g, const MclOptions& options) {
  return cuda_mcl_steps(ctx, g, options, cuda::MclExpansion(), cuda::MclBlocking());
}

}  // namespace detail

namespace cuda {

SpgemmOptions mcl_spgemm_options(bool deterministic) {
  SpgemmOptions o;
  o.deterministic = deterministic;
  // The iterand is stochastic when it is expanded (normalized after the
  // start, the inflation and the pruning), so every product and every entry
  // of its square lie in [0, 1] but for float rounding.
  o.unit_sums = true;
  // Its expanded rows are bitmap rows of tens of products an entry, whose
  // symbolic phase would walk every product once more to count what the
  // numeric phase's bitmap counts anyway.
  o.stage_bitmap_rows = true;
  return o;
}

MclExpansion spgemm_expansion(const SpgemmOptions& options) {
  return [options](const DeviceCsr<float>& rows, const DeviceCsr<float>& m, cudaStream_t stream,
                   std::int64_t* products) {
    SpgemmStats stats;
    DeviceCsr<double> e = spgemm<PlusTimes<double>>(rows, m, options, &stats, stream);
    *products = stats.intermediate_products;
    // GRAPHRUN_TRACE: each expansion's phases, to see which one binds.
    static const bool traced = env_flag("GRAPHRUN_TRACE");
    if (traced && !trace_muted)
      std::fprintf(
          stderr,
          "trace: mcl expansion %.3f ms: analysis %.3f, symbolic %.3f, numeric %.3f, "
          "sort %.3f; %lld products, %lld entries; bitmap rows %lld (staged %lld, SPA %lld), "
          "sorted %lld, direct %lld, global %lld\n",
          stats.total_ms, stats.analysis_ms, stats.symbolic_ms, stats.numeric_ms, stats.sort_ms,
          static_cast<long long>(stats.intermediate_products), static_cast<long long>(stats.nnz_c),
          static_cast<long long>(stats.dense_rows),
          static_cast<long long>(stats.staged_bitmap_rows), static_cast<long long>(stats.spa_rows),
          static_cast<long long>(stats.sorted_rows), static_cast<long long>(stats.direct_rows),
          static_cast<long long>(stats.global_rows));
    return e;
  };
}

MclResult mcl(Context& ctx, const Graph& g, const MclOptions& options,
              const MclExpansion& expansion, const MclBlocking& blocking) {
  if (ctx.device() != Device::cuda)
    throw ArgumentError("cuda::mcl runs on the GPU: give it a Context with Device::cuda");
  detail::mcl::validate(options);
  if (blocking.max_block_entries < 0)
    throw ArgumentError("cuda::mcl: MclBlocking::max_block_entries must be >= 0 (0: from memory)");
  const Stopwatch t0;
  const std::unique_ptr<detail::MclSteps> steps =
      detail::cuda_mcl_steps(ctx, g, options, expansion, blocking);
  return detail::drive_mcl(g, options, *steps, t0);
}

}  // namespace cuda

}  // namespace graphrun
