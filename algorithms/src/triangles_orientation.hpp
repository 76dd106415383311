// Whether triangle counting renumbers the vertices by degree, for the CPU
// (cpu/triangles.cpp) and the GPU (cuda/triangles.cu). Orienting every edge
// towards the endpoint of higher (degree, id) bounds each row by sqrt(2m),
// which matters where degrees are skewed; where they are not, the
// renumbering (a sort of the vertices, a copy of the edges) can be most of
// the count's time. The GAP reference's WorthRelabelling renumbers only
// graphs with 10 or more edges per vertex whose degrees are skewed: the
// GPU's rule (it builds L on the graph's own ids for the other dense or
// skewed graphs). The CPU's merge gains from the renumbered rows' locality
// on every graph measured but the sparse flat ones (roads, meshes), so it
// keeps a graph's own ids only there. Both count the sparse flat graphs on
// the adjacency's own rows, with nothing built.
#pragma once

#include <algorithm>
#include <vector>

#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::detail {

// The vertices whose degrees the test samples: up to 1000, spread evenly.
inline int renumbering_samples(vertex_t n) { return static_cast<int>(std::min<vertex_t>(1000, n)); }
GRAPHRUN_HD inline vertex_t renumbering_sample(vertex_t n, int samples, int i) {
  return static_cast<vertex_t>(static_cast<long long>(i) * n / samples);
}

// 10 or more edges per vertex (entries: stored adjacency entries, each
// undirected edge twice).
inline bool ten_edges_per_vertex(vertex_t n, offset_t entries) {
  return n > 0 && entries / 2 / n >= 10;
}

// The sampled degrees' mean over 1.3 times their median.
inline bool degrees_skewed(std::vector<vertex_t> sampled) {
  if (sampled.empty()) return false;
  std::sort(sampled.begin(), sampled.end());
  double sum = 0;
  for (vertex_t d : sampled) sum += d;
  return sum / static_cast<double>(sampled.size()) / 1.3 > sampled[sampled.size() / 2];
}

}  // namespace graphrun::detail
