// Csr::from_coo: the COO in one part per thread, through assemble_csr
// (csr_assembly.hpp: bucketed, stable, no atomics).
#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/csr_assembly.hpp"
#include "graphrun/engine/error.hpp"

namespace graphrun {

template <class T>
Csr<T> Csr<T>::from_coo(const Coo<T>& coo, Duplicates dup) {
  const bool pattern = coo.is_pattern();
  if (coo.n_rows < 0 || coo.n_cols < 0) throw ArgumentError("Coo: negative shape");
  if (coo.col.size() != coo.row.size() || (!pattern && coo.val.size() != coo.row.size()))
    throw ArgumentError("Coo: row, col and val must have the same length");
  const offset_t nnz = coo.nnz();
  const std::int64_t parts = nnz < (offset_t{1} << 16) ? 1 : std::max(1, omp_get_max_threads());
  const auto first = [nnz, parts](std::int64_t p) { return split_point(nnz, parts, p); };
  return assemble_csr<T>(
      coo.n_rows, coo.n_cols, parts, pattern, dup, 0,
      [&](std::int64_t p) { return first(p + 1) - first(p); },
      [&](std::int64_t p, auto&& emit) {
        for (offset_t k = first(p); k < first(p + 1); ++k)
          emit(coo.row[k], coo.col[k], pattern ? T(1) : coo.val[k]);
      });
}

template Csr<float> Csr<float>::from_coo(const Coo<float>&, Duplicates);
template Csr<double> Csr<double>::from_coo(const Coo<double>&, Duplicates);

}  // namespace graphrun
