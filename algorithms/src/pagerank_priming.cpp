// prime_pagerank_kernels: see pagerank.hpp.
#include <cstdint>
#include <vector>

#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/coo.hpp"
#include "graphrun/engine/env_flag.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun {

namespace {

// 4,096 vertices, about 60,000 edges: more than one tile of CUB's radix
// sort, so that the transpose's sort launches the kernels it uses at scale.
// In-degrees lean toward small ids, as a web graph's. Fixed, so that every
// priming launches the same kernels. `undirected`: each edge stored both
// ways, for the undirected graph's method (Chebyshev).
Graph priming_graph(bool undirected) {
  constexpr vertex_t n = 1 << 12;
  Coo<double> coo;
  coo.n_rows = coo.n_cols = n;
  std::uint64_t s = 0x9e3779b97f4a7c15ULL;
  const auto next = [&s] {  // xorshift64
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  for (vertex_t i = 0; i < n; ++i) {
    const auto degree = 1 + next() % 31;
    for (std::uint64_t k = 0; k < degree; ++k) {
      // The product of two uniform ids over n leans toward 0.
      const std::uint64_t a = next() % n, b = next() % n;
      const auto j = static_cast<vertex_t>(a * b / n);
      coo.row.push_back(i);
      coo.col.push_back(j);
      if (undirected && j != i) {
        coo.row.push_back(j);
        coo.col.push_back(i);
      }
    }
  }
  // Repeated edges merge into one entry (the weights are not used).
  return Graph(Csr<double>::from_coo(coo), {}, /*directed=*/!undirected, /*weighted=*/false);
}

// The set-up's trace belongs to the run being measured, not to these.
struct MuteTraces {
  bool was = trace_muted;
  MuteTraces() { trace_muted = true; }
  ~MuteTraces() { trace_muted = was; }
};

}  // namespace

int prime_pagerank_kernels(int device, SpmvFormat format, Reorder reorder,
                           const std::atomic<bool>* stop, PageRankMethod method) {
  const auto stopped = [stop] { return stop != nullptr && stop->load(); };
  if (stopped()) return 0;
  const MuteTraces mute;
  const bool undirected = method != PageRankMethod::jacobi;
  const Graph g = priming_graph(undirected);
  // The formats the GPU's chooser picks at scale: COO and merge-path
  // (skewed rows; csr-bins under an ordering by degree), SELL and csr-thread
  // (regular rows), csr-warp (the rest); `automatic` first, for the row
  // statistics it reads.
  std::vector<SpmvFormat> formats{format};
  if (format == SpmvFormat::automatic) {
    formats = {SpmvFormat::automatic, SpmvFormat::coo,        SpmvFormat::merge_path,
               SpmvFormat::sell,      SpmvFormat::csr_thread, SpmvFormat::csr_warp};
    if (groups_rows_by_degree(reorder)) formats.push_back(SpmvFormat::csr_bins);
  }
  // Each in double, then with x gathered in float (other kernels: what
  // PageRankGather::automatic picks for a large graph).
  int runs = 0;
  for (const SpmvFormat f : formats)
    for (const PageRankGather gather : {PageRankGather::float64, PageRankGather::float32}) {
      if (stopped()) return runs;
      Context ctx(Device::cuda, 1, device);
      PageRankOptions o;
      o.format = f;
      o.reorder = reorder;
      o.method = method;
      o.gather = gather;
      o.tol = 1e-300;  // three iterations, none of them the last
      o.max_iter = 3;
      try {
        (void)pagerank(ctx, g, o);
      } catch (const FormatError&) {
        continue;  // a format that refuses this graph's padding primes nothing
      }
      ++runs;
    }
  return runs;
}

}  // namespace graphrun
