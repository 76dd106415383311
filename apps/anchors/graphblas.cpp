#include "anchors/graphblas.hpp"

#if defined(GRAPHRUN_HAVE_GRAPHBLAS)
#include <algorithm>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"

namespace graphrun::anchors {

void grb_check(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS && info != GrB_NO_VALUE)
    throw Error(std::string("GraphBLAS call failed: ") + what + " (GrB_Info " +
                std::to_string(static_cast<int>(info)) + ")");
}

void grb_init(int threads) {
  static const bool ready = [] {
    GRAPHRUN_GRB(GrB_init(GrB_NONBLOCKING));
    return true;
  }();
  (void)ready;
  GRAPHRUN_GRB(GxB_Global_Option_set(GxB_GLOBAL_NTHREADS, threads));
}

GrB_Matrix grb_matrix(const Csr<double>& a, bool ones) {
  const auto rows = static_cast<GrB_Index>(a.n_rows());
  const auto cols = static_cast<GrB_Index>(a.n_cols());
  const auto nnz = static_cast<GrB_Index>(a.nnz());
  // GrB_Matrix_import copies the arrays; it wants non-empty index and value arrays.
  std::vector<GrB_Index> ap(a.row_ptr().begin(), a.row_ptr().end());
  std::vector<GrB_Index> aj(a.col_idx().begin(), a.col_idx().end());
  std::vector<double> ax = ones || a.is_pattern() ? std::vector<double>(nnz, 1.0) : a.values();
  aj.resize(std::max<GrB_Index>(nnz, 1));
  ax.resize(std::max<GrB_Index>(nnz, 1));
  GrB_Matrix m = nullptr;
  GRAPHRUN_GRB(GrB_Matrix_import_FP64(&m, GrB_FP64, rows, cols, ap.data(), aj.data(), ax.data(),
                                      rows + 1, nnz, nnz, GrB_CSR_FORMAT));
  return m;
}

}  // namespace graphrun::anchors
#endif  // GRAPHRUN_HAVE_GRAPHBLAS
