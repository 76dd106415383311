// The CUDA backend (see cuda_backend.hpp).
#include "cuda_backend.hpp"

namespace graphrun::detail {

namespace {

class CudaBackend final : public Backend {
 public:
  std::unique_ptr<PageRankSteps> pagerank(Context& ctx, const Graph& g, const PageRankSetup& setup,
                                          PageRankResult& result) const override {
    return cuda_pagerank_steps(ctx, g, setup, result);
  }
  std::unique_ptr<MclSteps> mcl(Context& ctx, const Graph& g,
                                const MclOptions& options) const override {
    return cuda_mcl_steps(ctx, g, options, cuda::MclExpansion(), cuda::MclBlocking());
  }
  BfsResult bfs(Context& ctx, const Graph& g, vertex_t source,
                const BfsOptions& options) const override {
    return cuda_bfs(ctx, g, source, options);
  }
  ContractProducts contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                     const Csr<double>& st) const override {
    return cuda_contract_products(ctx, g, s, st);
  }
};

}  // namespace

const Backend* cuda_backend() noexcept {
  static const CudaBackend backend;
  return &backend;
}

}  // namespace graphrun::detail
