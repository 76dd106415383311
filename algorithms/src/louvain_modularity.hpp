// Q of a partition of a Louvain level's graph W, summed in the fixed blocks
// of louvain_sum_block vertices that backend.hpp states (the GPU's
// cuda/louvain.cu sums the same way): per block, in vertex order,
// Σ inner(v) / 2m and Σ γ (tot_v / 2m)²; then the blocks' first sums in
// order, less their second sums in order. The same bits on every thread
// count. label[v] is v's community in 0..n-1, tot[c] the weighted degree of
// community c. Host code (OpenMP); used by the driver and the CPU backend.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "backend.hpp"

namespace graphrun::detail {

// inner(v): the weight of v's entries whose neighbour shares v's label, in
// storage order.
inline double louvain_inner(const CsrView<double>& w, std::span<const vertex_t> label, vertex_t v) {
  double x = 0;
  for (offset_t e = w.row_ptr[v]; e < w.row_ptr[v + 1]; ++e)
    if (label[w.col_idx[e]] == label[v]) x += w.values[e];
  return x;
}

// Q from inner(v) for each vertex (inner_of(v), called once per vertex, a
// vertex's calls all on one thread) in the fixed blocks.
template <class InnerOf>
double louvain_modularity_of(vertex_t n, std::span<const double> tot, double two_m, double gamma,
                             int threads, InnerOf&& inner_of) {
  const vertex_t blocks = (n + louvain_sum_block - 1) / louvain_sum_block;
  std::vector<double> inner(static_cast<std::size_t>(blocks)), outer(inner.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (vertex_t b = 0; b < blocks; ++b) {
    double in = 0, out = 0;
    const vertex_t last = std::min(n, (b + 1) * louvain_sum_block);
    for (vertex_t v = b * louvain_sum_block; v < last; ++v) {
      in += inner_of(v) / two_m;
      out += gamma * (tot[v] / two_m) * (tot[v] / two_m);
    }
    inner[b] = in;
    outer[b] = out;
  }
  double q = 0;
  for (double x : inner) q += x;
  for (double x : outer) q -= x;
  return q;
}

inline double louvain_modularity(const CsrView<double>& w, std::span<const vertex_t> label,
                                 std::span<const double> tot, double two_m, double gamma,
                                 int threads) {
  return louvain_modularity_of(w.n_rows, tot, two_m, gamma, threads,
                               [&](vertex_t v) { return louvain_inner(w, label, v); });
}

}  // namespace graphrun::detail
