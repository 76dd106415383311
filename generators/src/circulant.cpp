// The circulant digraph as a pattern CSR (graphrun/generators/circulant.hpp), built in
// place and in parallel: row v is written by whichever thread owns v, from
// its closed form, so the graph does not depend on the thread count.
#include "graphrun/generators/circulant.hpp"

#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::gen {

namespace {

// n and d as the index types, after the range checks every entry point shares.
struct Shape {
  vertex_t n;
  offset_t d;
  offset_t nnz;
};

Shape checked_shape(std::uint64_t n, std::uint64_t degree) {
  if (n > static_cast<std::uint64_t>(max_vertices))
    throw SizeError("circulant: " + std::to_string(n) + " vertices exceed the 32-bit vertex ids");
  if (degree == 0 || degree >= n)
    throw ArgumentError("circulant: the degree must be in 1 .. n-1 (n = " + std::to_string(n) +
                        ", degree = " + std::to_string(degree) + ")");
  Shape s;
  s.n = static_cast<vertex_t>(n);
  s.d = static_cast<offset_t>(degree);  // < n < 2^31
  s.nnz = checked_mul<offset_t>(offset_t{s.n}, s.d, "circulant: n * degree edges");
  return s;
}

}  // namespace

std::uint64_t circulant_bytes(std::uint64_t n, std::uint64_t degree) {
  const Shape s = checked_shape(n, degree);
  const auto row_ptr = checked_mul<std::uint64_t>(static_cast<std::uint64_t>(s.n) + 1,
                                                  sizeof(offset_t), "circulant: row_ptr bytes");
  const auto col_idx = checked_mul<std::uint64_t>(static_cast<std::uint64_t>(s.nnz),
                                                  sizeof(vertex_t), "circulant: col_idx bytes");
  return checked_add(row_ptr, col_idx, "circulant: CSR bytes");
}

Csr<double> circulant_csr(std::uint64_t n, std::uint64_t degree) {
  const Shape s = checked_shape(n, degree);
  // The vectors' value-initialisation is one serial pass; the fill below,
  // which is most of the work at billions of edges, is parallel.
  std::vector<offset_t> row_ptr(static_cast<std::size_t>(s.n) + 1);
  std::vector<vertex_t> col_idx(static_cast<std::size_t>(s.nnz));
  const offset_t n64 = s.n, d = s.d;
#pragma omp parallel for schedule(static)
  for (offset_t v = 0; v <= n64; ++v) row_ptr[v] = v * d;  // v * d <= nnz: checked above
    // Row v, sorted: its targets v+1 .. v+d, of which those past n-1 wrap to
    // 0 .. v+d-n and so come first.
#pragma omp parallel for schedule(static)
  for (offset_t v = 0; v < n64; ++v) {
    vertex_t* out = col_idx.data() + v * d;
    const offset_t wrapped = v + d >= n64 ? v + d - n64 + 1 : 0;  // targets in 0 .. wrapped-1
    for (offset_t c = 0; c < wrapped; ++c) *out++ = static_cast<vertex_t>(c);
    for (offset_t c = v + 1; c <= v + d - wrapped; ++c) *out++ = static_cast<vertex_t>(c);
  }
  // The constructor checks shape, bounds and sorted unique rows (in parallel).
  return Csr<double>(s.n, s.n, std::move(row_ptr), std::move(col_idx), {});
}

Graph circulant(std::uint64_t n, std::uint64_t degree) {
  return Graph(circulant_csr(n, degree), {}, /*directed=*/true, /*weighted=*/false);
}

}  // namespace graphrun::gen
