// Graph contraction on the GPU: the two SpGEMMs of C = (S·A)·Sᵀ (see
// contract.cpp for the order and why) with every operand device-resident.
// A, S and Sᵀ are uploaded once; B = S·A never leaves the device; only C
// comes back. compute_seconds is the two products alone: the device is
// synchronized after the uploads and after the second product, so neither
// the transfers nor work queued before are counted.
#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/engine/types.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

namespace graphrun::detail {

ContractProducts CudaSteps::contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                              const Csr<double>& st) {
  use_device(ctx, "contract");
  // Unweighted edges count 1, whatever values the adjacency may carry.
  const DeviceCsr<double> d_a = upload(g.adj(), g.weighted());
  const DeviceCsr<double> d_s(s);
  const DeviceCsr<double> d_st(st);
  GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());

  const Stopwatch t_compute;
  cuda::SpgemmStats first, second;
  ContractProducts out;
  {
    // B and C live in the default stream's pool (which outlives them); the
    // device holds A, S, Sᵀ, B and C at the peak.
    cuda::SpgemmOptions options;
    options.deterministic = ctx.deterministic();
    const DeviceCsr<double> d_b =
        cuda::spgemm<PlusTimes<double>>(d_s, d_a, options, &first);  // S·A
    const DeviceCsr<double> d_c = cuda::spgemm<PlusTimes<double>>(d_b, d_st, options, &second);
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
    out.compute_seconds = t_compute.seconds();
    out.quotient = d_c.download();
  }
  out.products = checked_add(first.intermediate_products, second.intermediate_products,
                             "contract: intermediate products");
  return out;
}

}  // namespace graphrun::detail
