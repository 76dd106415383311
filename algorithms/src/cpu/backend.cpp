// The CPU backend: OpenMP on ctx.threads() threads (see cpu_backend.hpp).
#include "cpu_backend.hpp"

namespace graphrun::detail {

namespace {

class CpuBackend final : public Backend {
 public:
  std::unique_ptr<PageRankSteps> pagerank(Context& ctx, const Graph& g, const PageRankSetup& setup,
                                          PageRankResult& result) const override {
    return cpu_pagerank_steps(ctx, g, setup, result);
  }
  std::unique_ptr<MclSteps> mcl(Context& ctx, const Graph& g,
                                const MclOptions& options) const override {
    return cpu_mcl_steps(ctx, g, options);
  }
  BfsResult bfs(Context& ctx, const Graph& g, vertex_t source,
                const BfsOptions& options) const override {
    return cpu_bfs(ctx, g, source, options);
  }
  ContractProducts contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                     const Csr<double>& st) const override {
    return cpu_contract_products(ctx, g, s, st);
  }
};

}  // namespace

const Backend& cpu_backend() noexcept {
  static const CpuBackend backend;
  return backend;
}

}  // namespace graphrun::detail
