// The closed forms of the circulant digraph v -> v+1 .. v+d (mod n)
// (graphrun/generators/circulant.hpp), for the tests that check the library against
// them on the CPU and on the GPU.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "graphrun/engine/types.hpp"

namespace graphrun::test {

// BFS from vertex 0: vertex v at level ceil(v / d).
inline std::vector<std::int32_t> circulant_levels(vertex_t n, vertex_t d) {
  std::vector<std::int32_t> level(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) level[v] = static_cast<std::int32_t>((v + d - 1) / d);
  return level;
}

// Row v of the adjacency, sorted: the targets v+1 .. v+d taken mod n.
inline std::vector<vertex_t> circulant_row(vertex_t n, vertex_t d, vertex_t v) {
  std::vector<vertex_t> row;
  for (vertex_t k = 1; k <= d; ++k) row.push_back(static_cast<vertex_t>((std::int64_t{v} + k) % n));
  std::sort(row.begin(), row.end());
  return row;
}

// Row v of the transpose, sorted: the sources v-1 .. v-d taken mod n.
inline std::vector<vertex_t> circulant_transpose_row(vertex_t n, vertex_t d, vertex_t v) {
  std::vector<vertex_t> row;
  for (vertex_t k = 1; k <= d; ++k)
    row.push_back(static_cast<vertex_t>(((std::int64_t{v} - k) % n + n) % n));
  std::sort(row.begin(), row.end());
  return row;
}

}  // namespace graphrun::test
