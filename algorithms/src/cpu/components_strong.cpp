// Strong components on the CPU: Tarjan's algorithm ("Depth-first search and
// linear graph algorithms", SIAM J. Comput. 1(2), 1972), with an explicit
// stack of (vertex, next edge) frames instead of recursion, which a path of
// millions of vertices (a road network's long chains) would overflow. One
// thread: it reads every edge once, O(n + m), and its depth-first order is
// inherently serial; the GPU backend has a data-parallel method.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu_backend.hpp"

namespace graphrun::detail {

std::vector<vertex_t> cpu_strong_components(const Graph& g) {
  const vertex_t n = g.n_vertices();
  const CsrView<double> a = g.adj().view();
  constexpr vertex_t unseen = -1;
  std::vector<vertex_t> index(n, unseen);  // discovery order
  std::vector<vertex_t> low(n);  // smallest index reachable through the tree and one back edge
  std::vector<vertex_t> label(n, -1);  // the component's root, once popped
  std::vector<vertex_t> stack;         // Tarjan's stack of vertices not yet in a component
  struct Frame {
    vertex_t v;
    offset_t next;  // the next out-edge of v to follow
  };
  std::vector<Frame> frames;
  vertex_t counter = 0;

  auto discover = [&](vertex_t v) {
    index[v] = low[v] = counter++;
    stack.push_back(v);
    frames.push_back({v, a.row_ptr[v]});
  };
  for (vertex_t s = 0; s < n; ++s) {
    if (index[s] != unseen) continue;
    discover(s);
    while (!frames.empty()) {
      Frame& f = frames.back();
      const vertex_t v = f.v;
      if (f.next < a.row_ptr[v + 1]) {
        const vertex_t w = a.col_idx[f.next++];
        if (index[w] == unseen)
          discover(w);          // invalidates f
        else if (label[w] < 0)  // w is on the stack
          low[v] = std::min(low[v], index[w]);
        continue;
      }
      frames.pop_back();
      if (!frames.empty()) {
        const vertex_t parent = frames.back().v;
        low[parent] = std::min(low[parent], low[v]);
      }
      if (low[v] == index[v]) {
        vertex_t w;
        do {
          w = stack.back();
          stack.pop_back();
          label[w] = v;
        } while (w != v);
      }
    }
  }
  return label;
}

}  // namespace graphrun::detail
