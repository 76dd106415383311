// The circulant digraph C(n; 1..d): vertex v has out-edges to (v+1) mod n,
// ..., (v+d) mod n, for 1 <= d < n. Every vertex has in-degree = out-degree
// = d, which gives closed forms to check algorithms against at any size:
//
//   PageRank     exactly 1/n at every vertex, for any damping (the uniform
//                vector is the fixed point of a regular graph's walk)
//   BFS from 0   vertex v at level ceil(v / d) (0 for v = 0)
//   transpose    row v of Aᵀ holds (v-1) mod n, ..., (v-d) mod n
//
// The graph is generated directly as a pattern CSR (no values array: 4 bytes
// per edge plus 8 per vertex), in parallel, so that graphs past 2^31 edges
// take seconds and no memory beyond the CSR itself.
#pragma once

#include <cstdint>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::gen {

// Bytes of circulant(n, d)'s CSR (row_ptr + col_idx), computed with checked
// arithmetic: SizeError when it overflows, ArgumentError for d = 0 or d >= n.
std::uint64_t circulant_bytes(std::uint64_t n, std::uint64_t degree);

// The adjacency as a pattern CSR (columns sorted within each row).
// ArgumentError unless 1 <= degree < n; SizeError when n exceeds the 32-bit
// vertex ids or n * degree the 64-bit offsets.
Csr<double> circulant_csr(std::uint64_t n, std::uint64_t degree);

// The same as a directed, unweighted Graph (input ids 0 .. n-1).
Graph circulant(std::uint64_t n, std::uint64_t degree);

}  // namespace graphrun::gen
