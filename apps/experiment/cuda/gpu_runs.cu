// See gpu_runs.hpp.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../../bench/bench.hpp"
#include "../../bench/cuda/spgemm_cuda.hpp"
#include "anchors/cuda/cusparse_spgemm.hpp"
#include "gpu_runs.hpp"
#include "graphrun/algorithms/cuda/mcl.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

namespace graphrun::cli::experiment {

using anchors::cusparse_spgemm;
using anchors::CusparseHandle;

namespace {

__global__ void to_double(std::int64_t n, const float* in, double* out) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    out[i] = in[i];
}

// m with its values in double (structure copied on the device).
DeviceCsr<double> widen_values(const DeviceCsr<float>& m, cudaStream_t s) {
  const auto rows = static_cast<std::size_t>(m.n_rows()) + 1;
  const auto nnz = static_cast<std::size_t>(m.nnz());
  DeviceArray<offset_t> ptr(rows, s);
  DeviceArray<vertex_t> col(nnz, s);
  DeviceArray<double> val(nnz, s);
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(ptr.data(), m.row_ptr().data(), rows * sizeof(offset_t),
                                      cudaMemcpyDeviceToDevice, s));
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(col.data(), m.col_idx().data(), nnz * sizeof(vertex_t),
                                      cudaMemcpyDeviceToDevice, s));
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>(nnz / 256 + 1, 4096));
  to_double<<<blocks, 256, 0, s>>>(static_cast<std::int64_t>(nnz), m.values().data(), val.data());
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  return DeviceCsr<double>(m.n_rows(), m.n_cols(), std::move(ptr), std::move(col), std::move(val));
}

}  // namespace

ContractionTiming time_contraction_cuda(const Csr<double>& a, const Csr<double>& s, int reps,
                                        const std::vector<std::string>& tune) {
  const cuda::SpgemmOptions options = bench::parse_spgemm_tune(tune);
  const DeviceCsr<double> da = upload_with_values(a.view()), ds = upload_with_values(s.view()),
                          dst = upload_with_values(s.transpose().view());
  CusparseHandle handle;
  cudaStream_t stream = nullptr;
  ContractionTiming t;
  // Stats (and the events of the phase split) only where asked: the timed
  // runs go without them.
  auto ours = [&](cuda::SpgemmStats* s1 = nullptr, cuda::SpgemmStats* s2 = nullptr) {
    const auto sa = cuda::spgemm<PlusTimes<double>>(ds, da, options, s1, stream);
    return cuda::spgemm<PlusTimes<double>>(sa, dst, options, s2, stream);
  };
  // A warm call with the phase split, after the warm-up below.
  auto phases = [&] {
    cuda::SpgemmStats st[2];
    ours(&st[0], &st[1]);
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    t.products = st[0].intermediate_products + st[1].intermediate_products;
    for (int k = 0; k < 2; ++k) {
      t.phase_ms[k][0] = st[k].analysis_ms;
      t.phase_ms[k][1] = st[k].symbolic_ms;
      t.phase_ms[k][2] = st[k].numeric_ms;
      t.phase_ms[k][3] = st[k].sort_ms;
      t.global_rows[k] = st[k].global_rows;
      t.sorted_rows[k] = st[k].sorted_rows;
      t.direct_rows[k] = st[k].direct_rows;
    }
  };
  auto anchor = [&] {
    const auto sa = cusparse_spgemm(handle, ds, da, stream);
    return cusparse_spgemm(handle, sa, dst, stream);
  };
  // Warm-up of both, and the two C compared.
  const Csr<double> c_ours = ours().download();
  Csr<double> c_anchor;
  try {
    c_anchor = anchor().download();
  } catch (const DeviceError& e) {
    t.anchor_error = e.what();
    t.nnz_ours = c_ours.nnz();
    phases();
    t.ours_ms = bench::median_ms(reps, [&] {
      ours();
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    });
    return t;
  }
  phases();
  t.nnz_ours = c_ours.nnz();
  t.nnz_anchor = c_anchor.nnz();
  if (c_ours.nnz() == c_anchor.nnz() && c_ours.col_idx() == c_anchor.col_idx())
    for (std::size_t k = 0; k < c_ours.values().size(); ++k) {
      const double x = c_ours.values()[k], y = c_anchor.values()[k];
      const double scale = std::max({std::abs(x), std::abs(y), 1e-300});
      t.max_relative_difference = std::max(t.max_relative_difference, std::abs(x - y) / scale);
    }
  else
    t.max_relative_difference = INFINITY;
  std::vector<double> ms_ours, ms_anchor;
  for (int r = 0; r < std::max(reps, 1); ++r) {
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
    Stopwatch t0;
    {
      const auto c = ours();
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
      ms_ours.push_back(t0.ms());
    }
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
    t0.restart();
    {
      const auto c = anchor();
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
      ms_anchor.push_back(t0.ms());
    }
  }
  t.ours_ms = cli::median(ms_ours);
  t.anchor_ms = cli::median(ms_anchor);
  return t;
}

MclPair mcl_both_cuda(Context& ctx, const Graph& g, const MclOptions& options,
                      const std::vector<std::string>& tune) {
  // graphrun's expansion with --tune's overrides (none: the loop's own).
  cuda::SpgemmOptions spgemm_options =
      bench::parse_spgemm_tune(tune, cuda::mcl_spgemm_options(ctx.deterministic()), true);
  const cuda::MclExpansion by_graphrun = cuda::spgemm_expansion(spgemm_options);
  CusparseHandle handle;
  // cuSPARSE multiplies matrices of one type: the float iterand is widened
  // to double (O(nnz), inside the anchor's time) and squared in double, as
  // graphrun's expansion sums in double.
  const cuda::MclExpansion by_cusparse = [&](const DeviceCsr<float>& rows,
                                             const DeviceCsr<float>& m, cudaStream_t stream,
                                             std::int64_t* products) {
    *products = 0;  // cuSPARSE does not say
    const DeviceCsr<double> wide = widen_values(m, stream);
    if (&rows == &m) return cusparse_spgemm(handle, wide, wide, stream);
    return cusparse_spgemm(handle, widen_values(rows, stream), wide, stream);
  };
  MclPair p;
  p.ours = cuda::mcl(ctx, g, options, by_graphrun);
  try {
    p.anchor = cuda::mcl(ctx, g, options, by_cusparse);
  } catch (const DeviceError& e) {
    p.anchor_error = e.what();
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
  }
  return p;
}

}  // namespace graphrun::cli::experiment
