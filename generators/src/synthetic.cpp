// The synthetic graph generators (graphrun/generators/synthetic.hpp). Edge k draws from
// its own splitmix64 stream seeded by (seed, k), so edges are generated in
// parallel and the graph does not depend on the thread count.
#include "graphrun/generators/synthetic.hpp"

#include <omp.h>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"
#include "splitmix64.hpp"

namespace graphrun::gen {

namespace {

using detail::SplitMix64;

// The stream of edge k: a distinct, well-mixed starting state per edge.
SplitMix64 edge_stream(std::uint64_t seed, std::uint64_t k) {
  SplitMix64 s{seed * 0xd1342543de82ef95ULL + k};
  s.next();
  return SplitMix64{s.next()};
}

Coo<double> sized(std::uint64_t n_vertices, std::uint64_t m, const char* what) {
  if (n_vertices > static_cast<std::uint64_t>(max_vertices))
    throw SizeError(std::string(what) + ": " + std::to_string(n_vertices) +
                    " vertices exceed the 32-bit vertex ids");
  Coo<double> coo;
  coo.n_rows = coo.n_cols = static_cast<vertex_t>(n_vertices);
  coo.row.resize(m);
  coo.col.resize(m);
  return coo;
}

}  // namespace

Coo<double> uniform(std::uint64_t n, std::uint64_t degree, std::uint64_t seed) {
  if (n == 0) throw ArgumentError("uniform: the number of vertices must be positive");
  if (degree > (std::uint64_t{1} << 40) / n)
    throw SizeError("uniform: n * degree exceeds 2^40 edges");
  const std::uint64_t m = n * degree;
  Coo<double> coo = sized(n, m, "uniform");
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(m); ++k) {
    SplitMix64 r = edge_stream(seed, static_cast<std::uint64_t>(k));
    coo.row[k] = static_cast<vertex_t>(r.below(n));
    coo.col[k] = static_cast<vertex_t>(r.below(n));
  }
  return coo;
}

Coo<double> rmat(unsigned scale, std::uint64_t edge_factor, std::uint64_t seed, double a, double b,
                 double c) {
  if (scale == 0 || scale > 31) throw ArgumentError("rmat: scale must be in 1..31");
  if (edge_factor == 0 || edge_factor > (std::uint64_t{1} << 20))
    throw ArgumentError("rmat: edge factor must be in 1..2^20");
  if (a < 0 || b < 0 || c < 0 || a + b + c > 1)
    throw ArgumentError("rmat: a, b, c must be >= 0 with a + b + c <= 1");
  const std::uint64_t m = edge_factor << scale;
  Coo<double> coo = sized(std::uint64_t{1} << scale, m, "rmat");
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(m); ++k) {
    SplitMix64 r = edge_stream(seed, static_cast<std::uint64_t>(k));
    std::uint32_t u = 0, v = 0;
    for (unsigned bit = 0; bit < scale; ++bit) {
      const double x = r.unit();  // quadrant: a (0,0), b (0,1), c (1,0), else (1,1)
      const bool row = x >= a + b, col = (x >= a && x < a + b) || x >= a + b + c;
      u |= static_cast<std::uint32_t>(row) << bit;
      v |= static_cast<std::uint32_t>(col) << bit;
    }
    coo.row[k] = static_cast<vertex_t>(u);
    coo.col[k] = static_cast<vertex_t>(v);
  }
  return coo;
}

Coo<double> grid(std::uint64_t rows, std::uint64_t cols) {
  if (rows == 0 || cols == 0) throw ArgumentError("grid: rows and columns must be positive");
  if (rows > (std::uint64_t{1} << 31) / cols) throw SizeError("grid: rows * cols exceeds 2^31");
  const std::uint64_t m = rows * (cols - 1) + (rows - 1) * cols;
  Coo<double> coo = sized(rows * cols, m, "grid");
  // Row r owns its horizontal edges, then its vertical edges down to row r+1.
  const std::uint64_t per_row = (cols - 1) + cols;
#pragma omp parallel for schedule(static)
  for (std::int64_t r = 0; r < static_cast<std::int64_t>(rows); ++r) {
    std::uint64_t k = static_cast<std::uint64_t>(r) * per_row;
    const std::uint64_t base = static_cast<std::uint64_t>(r) * cols;
    for (std::uint64_t col = 0; col + 1 < cols; ++col, ++k) {
      coo.row[k] = static_cast<vertex_t>(base + col);
      coo.col[k] = static_cast<vertex_t>(base + col + 1);
    }
    if (static_cast<std::uint64_t>(r) + 1 < rows)
      for (std::uint64_t col = 0; col < cols; ++col, ++k) {
        coo.row[k] = static_cast<vertex_t>(base + col);
        coo.col[k] = static_cast<vertex_t>(base + col + cols);
      }
  }
  return coo;
}

}  // namespace graphrun::gen
