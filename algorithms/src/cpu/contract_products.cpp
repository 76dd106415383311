// The two products of graph contraction, C = (S·A)·Sᵀ, on the CPU (the
// driver is contract.cpp, which says why this order).
#include "cpu_backend.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/engine/types.hpp"
#include "graphrun/kernels/spgemm.hpp"

namespace graphrun::detail {

ContractProducts CpuSteps::contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                             const Csr<double>& st) {
  // Unweighted edges count 1, whatever values the adjacency may carry.
  CsrView<double> a = g.adj().view();
  if (!g.weighted()) a.values = nullptr;
  const Stopwatch t_compute;
  SpgemmStats first, second;
  ContractProducts out;
  const Csr<double> b = spgemm<PlusTimes<double>>(ctx, s.view(), a, &first);    // S·A
  out.quotient = spgemm<PlusTimes<double>>(ctx, b.view(), st.view(), &second);  // (S·A)·Sᵀ
  out.compute_seconds = t_compute.seconds();
  out.products = checked_add(first.intermediate_products, second.intermediate_products,
                             "contract: intermediate products");
  return out;
}

}  // namespace graphrun::detail
