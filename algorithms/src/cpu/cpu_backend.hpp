// The CPU backend's steps, one file each (pagerank_steps.cpp,
// mcl_steps.cpp, bfs_search.cpp, contract_products.cpp); backend.cpp puts
// them behind the Backend interface. OpenMP on ctx.threads() threads.
#pragma once

#include <memory>
#include <vector>

#include "../backend.hpp"

namespace graphrun::detail {

struct CpuSteps {
  GRAPHRUN_BACKEND_STEPS
};

// Labels of the weak (Afforest) and strong (Tarjan) components, each
// component labelled by one of its vertices.
std::vector<vertex_t> cpu_weak_components(const Context& ctx, const Graph& g);
std::vector<vertex_t> cpu_strong_components(const Graph& g);

// The undirected simple graph of g (undirected_view.cpp): a pattern CSR,
// rows sorted, no loops, no repeats.
Csr<double> cpu_undirected_view(const Graph& g, int threads);

// Delta-stepping with setup.delta (sssp_delta_stepping.cpp).
SsspDistances cpu_delta_stepping(const Context& ctx, const Graph& g, vertex_t source,
                                 const SsspSetup& setup);

}  // namespace graphrun::detail
