// Matrix Market writer: coordinate real general (or pattern), 1-based. CSR
// order is row-major with sorted columns, so the output is sorted as is.
// gzip when the path ends in ".gz".

#include "graphrun/io/write.hpp"
#include "write_text_file.hpp"

namespace graphrun::io {

void write_matrix_market(const std::string& path, const Csr<double>& a) {
  detail::write_text_file(path, [&](TextWriter& w) {
    w.put(a.is_pattern() ? "%%MatrixMarket matrix coordinate pattern general\n"
                         : "%%MatrixMarket matrix coordinate real general\n");
    w.put("% written by graphrun\n");
    w.put(a.n_rows());
    w.put(' ');
    w.put(a.n_cols());
    w.put(' ');
    w.put(a.nnz());
    w.put('\n');
    const auto& row_ptr = a.row_ptr();
    const auto& col_idx = a.col_idx();
    const auto& values = a.values();
    for (vertex_t i = 0; i < a.n_rows(); ++i) {
      for (offset_t k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
        w.put(i + 1);
        w.put(' ');
        w.put(col_idx[k] + 1);
        if (!a.is_pattern()) {
          w.put(' ');
          w.put(values[k]);
        }
        w.put('\n');
      }
    }
  });
}

}  // namespace graphrun::io
