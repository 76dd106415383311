// Communities by modularity: the Louvain method (Blondel, Guillaume,
// Lambiotte, Lefebvre, J. Stat. Mech. 2008) on the undirected weighted
// graph (a directed graph's two directions summed; self loops ignored;
// weights must be >= 0, an unweighted edge weighs 1).
//
// Modularity with resolution γ (Reichardt and Bornholdt):
//     Q = Σ_c [ in_c / 2m  -  γ (tot_c / 2m)² ]
// with in_c the weight of the edges inside community c counted from both
// ends, tot_c the weighted degree of its vertices and 2m the total.
//
// Level after level: local moving (every vertex joins the neighbouring
// community that raises Q most, sweep after sweep until a sweep gains less
// than `tolerance`), then aggregation: the communities become the vertices
// of the next level's graph, the contraction C = S·W·Sᵀ by graphrun's
// SpGEMM (contract.hpp), its diagonal kept as each community's inner
// weight. It stops when a level moves no vertex; then the input vertices
// are moved once more between the communities found (a refinement, which
// can only raise Q).
//
// The moves are made in parallel and deterministically: each sweep visits
// the vertices in `batches` groups (by a hash of the vertex and the seed);
// the vertices of a group decide together from the state before the group,
// and their moves are applied in vertex order. Two singletons never join
// each other crosswise: a singleton moves into another singleton only when
// that one's id is lower (as Grappolo does). So the communities are the
// same for a given seed on every thread count. The GPU (Device::cuda)
// takes the same steps in the same arithmetic order: on graphs whose
// weights are integers (unweighted graphs among them) it finds the CPU's
// communities bit for bit; with fractional weights its aggregation sums
// in another (fixed) order, so later levels may differ in the last bits.
// Both are deterministic for a seed.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graphrun/algorithms/iteration.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun {

struct LouvainOptions {
  double resolution = 1.0;  // γ > 0: larger gives more, smaller communities
  std::uint64_t seed = 1;   // the order in which the vertices are visited
  // A level's local moving ends when a sweep raises Q by less than this.
  double tolerance = 1e-7;
  int max_levels = 100;
  // On Device::cuda, a level (or the final refinement) whose graph has
  // fewer stored entries is moved and contracted on the CPU, on the
  // context's threads: a GPU level has fixed costs (its upload and edge
  // list, its sweep captured as a CUDA graph, 16 groups of sorts and
  // kernels a sweep) that the CPU beats on a small level, and the CPU's
  // cost per entry falls with its threads. < 0 (the default): 65536 entries per thread (2^20 on 16
  // threads: soc-Slashdot0902's 1.0M-entry first level ran faster on 16
  // cores, the 2-20M-entry levels of a 1M-vertex LFR graph faster on the
  // H200). The steps are the same on both, so the result does not change.
  // 0 puts every level on the GPU.
  offset_t gpu_min_entries = -1;
  // Called after every level with IterationInfo.iteration the level,
  // .residual the modularity and .frontier the communities; false stops
  // (`complete` false, the communities of the levels done).
  IterationCallback on_iteration;
};

struct LouvainResult {
  std::vector<vertex_t> community;  // numbered 0.. largest first (ties: smallest vertex)
  vertex_t n_communities = 0;
  double modularity = 0;                 // of `community` on the input graph
  std::vector<double> level_modularity;  // after each level
  int levels = 0;
  int sweeps = 0;  // local-moving sweeps over all levels
  bool complete = true;
  double seconds = 0;
};

LouvainResult louvain(Context& ctx, const Graph& g, const LouvainOptions& options = {});

// The entries under which a level runs on the CPU within a GPU run:
// options.gpu_min_entries, or where it is < 0, 65536 per thread.
offset_t louvain_gpu_min_entries(const LouvainOptions& options, int threads);

// Q of a partition (community[v] in any numbering, -1 not allowed) of g
// taken as louvain() takes it (undirected, loops ignored), computed
// directly from the edges.
double modularity(Context& ctx, const Graph& g, std::span<const vertex_t> community,
                  double resolution = 1.0);

}  // namespace graphrun
