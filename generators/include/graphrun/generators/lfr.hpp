// LFR benchmark graphs (Lancichinetti, Fortunato & Radicchi, "Benchmark
// graphs for testing community detection algorithms", Phys. Rev. E 78,
// 046110, 2008): undirected graphs with planted communities, power-law
// degrees and community sizes, and a mixing parameter mu, the share of each
// vertex's edges that leave its community.
//
// The construction, as published:
//   1. degrees from a power law of exponent tau1 on [k_min, max_degree],
//      k_min chosen so that the mean is avg_degree;
//   2. community sizes from a power law of exponent tau2 on
//      [min_community, max_community], until they cover the n vertices;
//   3. each vertex keeps (1 - mu) of its degree inside its community
//      (rounded at random, so that the mean is exact) and joins a community
//      larger than that internal degree;
//   4. inside each community, a configuration model on the internal
//      degrees; between communities, one on the external degrees; self
//      loops, repeated edges and external edges that land inside a
//      community are rewired by edge swaps, and the few that no swap fixes
//      are dropped (dropped_stubs counts them).
// Defaults follow the reference program: tau1 = 2, tau2 = 1, communities
// between the smallest and the largest degree.
//
// Reproducible: every random choice draws from a splitmix64 stream keyed by
// (seed, purpose, index), and the parallel steps (degrees, the wiring of
// each community, the sort of the external stubs) do not depend on the
// thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "graphrun/engine/coo.hpp"

namespace graphrun::gen {

struct LfrOptions {
  std::uint64_t n = 0;
  double avg_degree = 20;
  std::uint64_t max_degree = 50;
  double mu = 0.3;                  // in [0, 1)
  double tau1 = 2.0;                // degree exponent, > 1
  double tau2 = 1.0;                // community-size exponent, >= 1
  std::uint64_t min_community = 0;  // 0: the smallest degree drawn possible
  std::uint64_t max_community = 0;  // 0: max_degree
  std::uint64_t seed = 1;
};

struct LfrGraph {
  // Each undirected edge once, row < col, sorted; a pattern.
  Coo<double> edges;
  std::vector<vertex_t> community;  // community of each vertex, 0 .. n_communities - 1
  vertex_t n_communities = 0;
  // As built: the mean over vertices with an edge of (edges leaving the
  // vertex's community) / (its degree); and the stubs no swap could place.
  double mixing = 0;
  std::int64_t dropped_stubs = 0;
};

// ArgumentError naming the parameter when the options cannot be met (a mean
// degree outside [1, max_degree], communities too small for the internal
// degrees, ...); SizeError past 2^31 - 1 vertices.
LfrGraph lfr(const LfrOptions& options);

}  // namespace graphrun::gen
