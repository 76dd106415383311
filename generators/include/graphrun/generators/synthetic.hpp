// Synthetic graphs large enough to load a machine, reproducible from their
// parameters and seed: one (splitmix64) random stream mapped to ranges by
// multiply-shift, so the same parameters give the same graph everywhere.
//
//   uniform(n, degree)   n vertices, n*degree directed edges, endpoints uniform
//                        (G(n, m) with repeats)
//   rmat(scale, ef)      R-MAT (Chakrabarti, Zhan, Faloutsos 2004): 2^scale
//                        vertices, ef*2^scale directed edges; Graph500's
//                        a=.57, b=c=.19 by default
//   grid(rows, cols)     5-point grid, each undirected edge once (symmetrize)
//   circulant(n, d)      vertex v -> (v+1) mod n, ..., (v+d) mod n: n*d edges,
//                        every in- and out-degree d (graphrun/generators/circulant.hpp)
//
// The random and grid edges come as a pattern COO (repeats kept: the
// loader's duplicate policy decides), built in parallel where the generator
// allows it. The circulant comes as a pattern CSR, built in place: at
// billions of edges a COO would cost twice the memory of the graph.
#pragma once

#include <cstdint>

#include "graphrun/engine/coo.hpp"

namespace graphrun::gen {

Coo<double> uniform(std::uint64_t n, std::uint64_t degree, std::uint64_t seed = 1);
Coo<double> rmat(unsigned scale, std::uint64_t edge_factor, std::uint64_t seed = 1, double a = 0.57,
                 double b = 0.19, double c = 0.19);
Coo<double> grid(std::uint64_t rows, std::uint64_t cols);

}  // namespace graphrun::gen
