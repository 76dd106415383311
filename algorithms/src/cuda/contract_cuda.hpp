// The device half of contract() (CUDA builds only): the two products of
// C = (S·A)·Sᵀ on the GPU. contract() builds S and Sᵀ on the host, checks
// the labels, and removes C's loops afterwards; see contract.cu.
#pragma once

#include <cstdint>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"

#if defined(GRAPHRUN_HAVE_CUDA)
namespace graphrun::detail {

struct ContractProducts {
  Csr<double> quotient;        // (S·A)·Sᵀ, loops included, in host memory
  std::int64_t products = 0;   // intermediate products of both SpGEMMs
  double compute_seconds = 0;  // the two SpGEMMs on the device alone
};

// a: the adjacency, read as a pattern (entries 1) unless `weighted`;
// s: S (n_labels × n); st: Sᵀ (n × n_labels). Runs on ctx.device_id().
ContractProducts contract_products_cuda(Context& ctx, const Csr<double>& a, bool weighted,
                                        const Csr<double>& s, const Csr<double>& st);

}  // namespace graphrun::detail
#endif
