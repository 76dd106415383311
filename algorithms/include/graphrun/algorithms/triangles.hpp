// Triangles of the undirected graph: how many there are, through each
// vertex, and the clustering coefficients they give. Edge direction, self
// loops, repeated edges and weights are ignored (u and v are neighbours when
// either edge is stored), as NetworkX's triangles and clustering define it.
//
// The count is the masked product of linear-algebra triangle counting
// (Azad, Buluç, Gilbert, 2015; Wolf et al.'s "Sandia" form, LAGraph's
// LAGr_TriangleCount): with L the graph oriented from the lower to the
// higher of (degree, id), every triangle a < b < c in that order is found
// once, at the entry (a, b) of
//     C<L> = L ·(+,pair) Lᵀ,   C(a, b) = |L(a,:) ∩ L(b,:)|,
// and the total is the sum of C. Orienting by degree bounds every row of L
// by sqrt(2m), so the work is O(m^1.5) on any graph (Schank and Wagner,
// 2005) where orienting by id alone lets a hub's row meet every other.
// The product runs as a dot-product SpGEMM: the mask's entries are the only
// ones computed, each as a merge of two sorted rows (the CPU: a thread per
// row of L; the GPU: a thread per entry of L).
//
// The counts are integers and the same on every device and thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun {

struct TriangleOptions {
  // Count the triangles through every vertex as well (and so the local
  // clustering coefficients). It costs an atomic increment per triangle
  // found; false gives the total, the degrees and the transitivity alone.
  bool per_vertex = true;
};

struct TriangleResult {
  std::uint64_t total = 0;  // triangles of the graph, each counted once
  // Triangles through each vertex (empty unless options.per_vertex); they
  // sum to 3 · total.
  std::vector<std::uint64_t> per_vertex;
  // The local clustering coefficient of each vertex, 2 t / (d (d - 1)) with
  // d its number of neighbours (0 where d < 2), as NetworkX's clustering;
  // empty unless options.per_vertex.
  std::vector<double> clustering;
  double average_clustering = 0;  // their mean over all vertices (0 unless per_vertex)
  // Neighbours of each vertex in the undirected simple graph.
  std::vector<vertex_t> degree;
  std::uint64_t edges = 0;   // edges of the undirected simple graph (entries of L)
  std::uint64_t wedges = 0;  // paths of length 2: the sum of d (d - 1) / 2
  double transitivity = 0;   // 3 · total / wedges (0 without wedges), NetworkX's transitivity
  double seconds = 0;
  double compute_seconds = 0;  // on the GPU, the device's part alone; 0 on the CPU
};

TriangleResult triangles(Context& ctx, const Graph& g, const TriangleOptions& options = {});

}  // namespace graphrun
