// The CPU anchor's plumbing, shared by the benchmark drivers: SuiteSparse:
// GraphBLAS calls checked, initialised once per process, and a Csr copied
// into a GraphBLAS matrix. Exists where the build found GraphBLAS
// (GRAPHRUN_HAVE_GRAPHBLAS).
#pragma once

#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
extern "C" {
#include <GraphBLAS.h>
}

#include "graphrun/engine/csr.hpp"

namespace graphrun::anchors {

// Throws graphrun::Error naming the call unless info is GrB_SUCCESS (or
// GrB_NO_VALUE, which GraphBLAS returns for an absent entry, not a failure).
void grb_check(GrB_Info info, const char* what);
#define GRAPHRUN_GRB(call) ::graphrun::anchors::grb_check((call), #call)

// GrB_init on the first call in the process; every call sets the thread count.
void grb_init(int threads);

// A copy of `a` as an FP64 CSR GraphBLAS matrix; its entries are all ones
// when `ones` is set or `a` is a pattern. The caller frees it (GrB_Matrix_free).
GrB_Matrix grb_matrix(const Csr<double>& a, bool ones = false);

}  // namespace graphrun::anchors
#endif  // GRAPHRUN_HAVE_GRAPHBLAS
