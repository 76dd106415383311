// Core numbers (k-core decomposition) of the undirected graph: the core
// number of v is the largest k such that v belongs to a subgraph in which
// every vertex has at least k neighbours. Edge direction is ignored (u and
// v are neighbours when either edge is stored), as are self loops and
// repeated edges; NetworkX's core_number and Boost's core_numbers define
// the same.
//
// Parallel peeling (Kabir and Madduri's PKC, 2017): level k starts from
// every remaining vertex of degree <= k; removing a vertex lowers its
// remaining neighbours' degrees by atomic decrements, and a neighbour that
// comes down to k joins the next sub-round of the same level; when a level
// runs dry, k moves to the lowest degree left. The result does not depend
// on the schedule: each vertex's core number is the level that removes it.
#pragma once

#include <vector>

#include "graphrun/algorithms/iteration.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun {

struct KcoreOptions {
  // Called after every level k is peeled, with IterationInfo.iteration the
  // number of levels so far and .frontier the vertices left; false stops
  // the run (`complete` false; the vertices left keep core number -1).
  IterationCallback on_iteration;
};

struct KcoreResult {
  std::vector<vertex_t> core;  // core number of every vertex (-1: not reached when stopped)
  vertex_t degeneracy = 0;     // the largest core number (0 for an edgeless graph)
  vertex_t in_top_core = 0;    // vertices whose core number is the degeneracy
  int iterations = 0;          // levels peeled
  offset_t rounds = 0;         // sub-rounds over all levels (each a parallel step)
  bool complete = true;        // false when on_iteration stopped the run
  double seconds = 0;
  double compute_seconds = 0;  // on the GPU, the device's part alone; 0 on the CPU
};

KcoreResult core_numbers(Context& ctx, const Graph& g, const KcoreOptions& options = {});

}  // namespace graphrun
