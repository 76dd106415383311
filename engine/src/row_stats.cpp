#include "graphrun/engine/row_stats.hpp"

#include <bit>
#include <cmath>

namespace graphrun {

template <class T>
RowStats analyze(const CsrView<T>& a) {
  RowStats s;
  s.n_rows = a.n_rows;
  s.nnz = a.nnz;
  if (a.n_rows == 0) return s;
  offset_t mn = a.row_ptr[1] - a.row_ptr[0], mx = mn;
  double sumsq = 0.0;
  std::int64_t empty = 0;
  for (vertex_t i = 0; i < a.n_rows; ++i) {
    const offset_t len = a.row_ptr[i + 1] - a.row_ptr[i];
    mn = std::min(mn, len);
    mx = std::max(mx, len);
    sumsq += static_cast<double>(len) * static_cast<double>(len);
    empty += len == 0;
    const int bucket = len == 0 ? 0 : std::bit_width(static_cast<std::uint64_t>(len));
    ++s.histogram[std::min<int>(bucket, static_cast<int>(s.histogram.size()) - 1)];
  }
  s.min_length = mn;
  s.max_length = mx;
  s.mean = static_cast<double>(a.nnz) / a.n_rows;
  s.stddev = std::sqrt(std::max(0.0, sumsq / a.n_rows - s.mean * s.mean));
  s.cv = s.mean > 0 ? s.stddev / s.mean : 0.0;
  s.empty_fraction = static_cast<double>(empty) / a.n_rows;
  return s;
}

template RowStats analyze(const CsrView<float>&);
template RowStats analyze(const CsrView<double>&);

}  // namespace graphrun
