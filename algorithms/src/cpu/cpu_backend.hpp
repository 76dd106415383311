// The CPU backend's steps, one file each (pagerank_steps.cpp,
// mcl_steps.cpp, bfs_search.cpp, contract_products.cpp); backend.cpp puts
// them behind the Backend interface.
#pragma once

#include <memory>

#include "../backend.hpp"

namespace graphrun::detail {

std::unique_ptr<PageRankSteps> cpu_pagerank_steps(const Context& ctx, const Graph& g,
                                                  const PageRankSetup& setup,
                                                  PageRankResult& result);
std::unique_ptr<MclSteps> cpu_mcl_steps(const Context& ctx, const Graph& g,
                                        const MclOptions& options);
BfsResult cpu_bfs(const Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options);
ContractProducts cpu_contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                       const Csr<double>& st);

}  // namespace graphrun::detail
