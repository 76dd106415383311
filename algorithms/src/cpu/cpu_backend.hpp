// The CPU backend's steps, one file each (pagerank_steps.cpp,
// mcl_steps.cpp, bfs_search.cpp, contract_products.cpp); backend.cpp puts
// them behind the Backend interface. OpenMP on ctx.threads() threads.
#pragma once

#include <memory>

#include "../backend.hpp"

namespace graphrun::detail {

struct CpuSteps {
  static std::unique_ptr<PageRankSteps> pagerank(Context& ctx, const Graph& g,
                                                 const PageRankSetup& setup,
                                                 PageRankResult& result);
  static std::unique_ptr<MclSteps> mcl(Context& ctx, const Graph& g, const MclOptions& options);
  static BfsResult bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options);
  static ContractProducts contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                            const Csr<double>& st);
};

}  // namespace graphrun::detail
