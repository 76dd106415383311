// The README's library example: load a graph, run PageRank, print the top 5.
#include <algorithm>
#include <cstdio>
#include <graphrun/algorithms/pagerank.hpp>
#include <graphrun/io/load.hpp>
#include <numeric>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  graphrun::Context ctx(graphrun::Device::cpu);  // all cores
  graphrun::Graph g = graphrun::io::load_graph(argv[1], {.undirected = true});
  graphrun::PageRankResult pr = graphrun::pagerank(ctx, g, {.damping = 0.85, .tol = 1e-10});
  std::vector<graphrun::vertex_t> order(g.n_vertices());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + std::min<std::size_t>(5, order.size()),
                    order.end(), [&](auto a, auto b) { return pr.rank[a] > pr.rank[b]; });
  for (std::size_t i = 0; i < std::min<std::size_t>(5, order.size()); ++i)
    std::printf("%llu\t%.6f\n", static_cast<unsigned long long>(g.input_id(order[i])),
                pr.rank[order[i]]);
  std::printf("%d iterations\n", pr.iterations);
}
