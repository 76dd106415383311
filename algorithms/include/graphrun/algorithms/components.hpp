// Connected components.
//
// Weak (the default): vertices joined by a path when edge direction is
// ignored. Afforest (Sutton, Ben-Nun, Barak, IPDPS 2018), as in the GAP
// reference: a union-find forest hooked larger root under smaller with a
// compare-and-swap, first over two sampled neighbours of every vertex, then,
// once a sample of vertices has named the largest component, over the
// remaining edges of the vertices outside it (which, on a graph with a giant
// component, is a small share of the edges). The GPU runs the same forest
// with one thread, warp or block per row by the row's length (the ECL-CC
// layout, Jaiganesh and Burtscher, HPDC 2018).
//
// Strong (`strong`): vertices that reach one another along edge direction.
// The CPU runs Tarjan's algorithm (iterative, one thread: it is linear and
// the edges are read once); the GPU trims vertices with no in- or out-edges
// left, then repeats min-label forward propagation ("colouring", Orzan 2004)
// and a backward reach from each colour's root within its colour, every
// step a data-parallel sweep.
//
// Either way the result names each component by its smallest vertex (dense
// id, which is the smallest input id: dense ids follow input ids), so the
// labels are the same on every device and thread count.
#pragma once

#include <vector>

#include "graphrun/algorithms/iteration.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun {

struct ComponentsOptions {
  bool strong = false;  // strongly connected (along edge direction); weak otherwise
  // Called after each sweep of the GPU's strong components (colour
  // propagation and backward reach, one round each); IterationInfo.frontier
  // holds the vertices still unassigned. Weak components and the CPU's
  // Tarjan make one pass and call it once, at the end. false stops the run:
  // the result then holds what is known, every unassigned vertex its own
  // component, and `complete` false.
  IterationCallback on_iteration;
};

struct ComponentsResult {
  // component[v] = the smallest vertex (dense id) of v's component.
  std::vector<vertex_t> component;
  vertex_t count = 0;              // number of components
  vertex_t largest = 0;            // vertices in the largest one
  vertex_t largest_component = 0;  // its label (the smallest such, on a tie)
  int iterations = 0;              // sweeps of an iterative method (GPU strong), else 1
  bool complete = true;            // false when on_iteration stopped the run
  double seconds = 0;              // the whole call
  // Device::cuda: the seconds of the computation alone (without the upload
  // of the graph and the download of the labels); 0 on the CPU.
  double compute_seconds = 0;
};

ComponentsResult connected_components(Context& ctx, const Graph& g,
                                      const ComponentsOptions& options = {});

}  // namespace graphrun
