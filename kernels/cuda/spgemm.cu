// C = A ⊕.⊗ B on the GPU, the hash-based multi-phase algorithm, laid out as
// CUB lays out its algorithms:
//
//   plan      plan/spgemm_gpu_policy.hpp  the tuning: groups, table and block sizes
//             plan/spgemm_gpu_plan.hpp    every buffer's bytes and layout, the
//                                         row chunks; the memory estimate
//                                         (--estimate) sizes by the same code
//   dispatch  spgemm_dispatch.cuh  one call's steps: workspace, CUB scans and
//                                  sorts, waits for the agents' scalars, chunks
//             spgemm_launch.cuh    one launch per group, side by side
//                                  (spgemm_streams.cuh); spgemm_workspace.cuh:
//                                  pool buffers; spgemm_host.cuh: waits, timers
//   agents    spgemm_agent_grouping.cuh  row analysis and grouping
//             spgemm_agent_hash.cuh      hash-table rows (symbolic, numeric)
//             spgemm_agent_dense.cuh     bitmap rows (symbolic, numeric)
//             spgemm_agent_spa.cuh       staged fixed-point rows by a dense accumulator
//             spgemm_agent_esc.cuh       short rows by expand-sort-compress
//             spgemm_agent_sort.cuh      staged rows copied into C
//
// The steps:
//   1. analysis   IP(i) per row (64-bit) and its group from min(IP(i), n_cols),
//                 one warp per row; rows listed group by group by a
//                 counting sort (count, then scatter)
//   2. staged     rows of 17 to 8,192 products in one pass by
//                 expand-sort-compress (a block radix sort per row), and the
//                 other shared hash rows in one pass by the numeric agent,
//                 its tables sized by the bound (direct); both staged
//      symbolic   distinct columns of the other rows (hash tables or a
//                 bitmap), one launch per group; an exclusive scan (CUB)
//                 gives C's row pointers, and C is allocated exactly
//   3. numeric    rows regrouped by nnz(C(i,:)); hash insertion with
//                 accumulation, each shared-memory row sorted in its block
//                 and written to C; bitmap rows written to C in column order;
//                 the staged rows copied in from their staging
//   4. sort       rows with tables in global memory (only where n_cols is too
//                 large for a bitmap) staged and sorted by a CUB segmented sort
#include <utility>

#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"
#include "spgemm_dispatch.cuh"

namespace graphrun::cuda {

namespace spgemm_detail {
namespace {

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm_impl(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                              const SpgemmOptions& options, SpgemmStats* stats,
                                              cudaStream_t stream) {
  check_operands(a, b);
  SpgemmDispatch<S, T> call(a, b, options, stats != nullptr, stream);  // C's row pointers
  if (call.trivial()) return call.empty(stats);
  call.allocate_workspace();  // plan: the tuning, CUB's scratch, the row workspace
  call.analyse();             // 1. IP and symbolic (or staged) group per row
  call.stage_rows();          // 2a. short rows sorted, shared hash rows direct; staged
  call.symbolic();            // 2b. nnz(C(i,:)) per row, C's row pointers
  call.group_numeric();       // 3. numeric groups, nnz(C)
  call.allocate_c();          //    C's columns and values, exactly
  call.numeric_and_sort();    // 4. C's rows; staged rows sorted and copied in
  return call.finish(stats);
}

}  // namespace
}  // namespace spgemm_detail

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                         SpgemmStats* stats, cudaStream_t stream) {
  return spgemm_detail::spgemm_impl<S, T>(a, b, SpgemmOptions{}, stats, stream);
}

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                         const SpgemmOptions& options, SpgemmStats* stats,
                                         cudaStream_t stream) {
  return spgemm_detail::spgemm_impl<S, T>(a, b, options, stats, stream);
}

template <class S, class T>
Csr<typename S::value_type> spgemm_host(const CsrView<T>& a, const CsrView<T>& b,
                                        const SpgemmOptions& options, SpgemmStats* stats) {
  const DeviceCsr<T> da(a), db(b);
  return spgemm<S, T>(da, db, options, stats).download();
}

#define GRAPHRUN_SPGEMM_INSTANTIATE(S, T)                                                          \
  template DeviceCsr<S::value_type> spgemm<S, T>(const DeviceCsr<T>&, const DeviceCsr<T>&,         \
                                                 SpgemmStats*, cudaStream_t);                      \
  template DeviceCsr<S::value_type> spgemm<S, T>(                                                  \
      const DeviceCsr<T>&, const DeviceCsr<T>&, const SpgemmOptions&, SpgemmStats*, cudaStream_t); \
  template Csr<S::value_type> spgemm_host<S, T>(const CsrView<T>&, const CsrView<T>&,              \
                                                const SpgemmOptions&, SpgemmStats*);

GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_INSTANTIATE)
#undef GRAPHRUN_SPGEMM_INSTANTIATE

}  // namespace graphrun::cuda
