// Louvain's local moving on the CPU (louvain.hpp): sweeps of deterministic
// parallel moves.
//
// A sweep visits the vertices in louvain_batches groups, by a hash of the
// vertex and the seed (backend.hpp). The vertices of a group decide in
// parallel from the state before the group: each sums its edge weights per
// neighbouring community in a thread-local dense array (touched entries
// listed, then cleared), and takes the community of the largest gain
//     ΔQ(c) ∝ w(v, c) - γ k_v tot_c / 2m
// (its own community, with v taken out, when none is strictly larger;
// otherwise the lowest id among the best). Then the group's moves are
// applied on one thread in vertex order, so the totals are the same sums in
// the same order whatever the thread count. The sweep's Q is summed in
// fixed blocks of vertices (backend.hpp), whatever the thread count. The
// GPU (cuda/louvain.cu) follows the same steps to the same bits.
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu_backend.hpp"

namespace graphrun::detail {

namespace {

// Q of the level in louvain_sum_block blocks (backend.hpp), as the GPU.
double level_modularity(const CsrView<double>& w, const std::vector<vertex_t>& community,
                        const std::vector<double>& tot, double two_m, double gamma, int threads) {
  const vertex_t n = w.n_rows;
  const vertex_t blocks = (n + louvain_sum_block - 1) / louvain_sum_block;
  std::vector<double> inner(static_cast<std::size_t>(blocks)), outer(inner.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (vertex_t b = 0; b < blocks; ++b) {
    double in = 0, out = 0;
    const vertex_t last = std::min(n, (b + 1) * louvain_sum_block);
    for (vertex_t v = b * louvain_sum_block; v < last; ++v) {
      double x = 0;
      for (offset_t e = w.row_ptr[v]; e < w.row_ptr[v + 1]; ++e)
        if (community[w.col_idx[e]] == community[v]) x += w.values[e];
      in += x / two_m;
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

}  // namespace

LouvainMoves CpuSteps::louvain_moves(Context& ctx, const LouvainLevel& level,
                                     const LouvainOptions& options) {
  const int threads = ctx.threads();
  const CsrView<double> w = level.w.view();
  const vertex_t n = w.n_rows;
  const double two_m = level.two_m, gamma = options.resolution;
  LouvainMoves r;
  r.community.resize(static_cast<std::size_t>(n));
  std::vector<double> tot(static_cast<std::size_t>(n), 0.0);
  std::vector<vertex_t> size(static_cast<std::size_t>(n), 0), target(static_cast<std::size_t>(n));
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t c = level.start.empty() ? v : level.start[v];
    r.community[v] = c;
    tot[c] += level.k[v];
    ++size[c];
  }
  std::vector<std::vector<vertex_t>> group(louvain_batches);
  for (vertex_t v = 0; v < n; ++v) group[louvain_group(v, options.seed)].push_back(v);
  vertex_t* community = r.community.data();

  // Each thread's per-community sums, cleared after every vertex.
  std::vector<std::vector<double>> sums(static_cast<std::size_t>(threads));
  double q = level_modularity(w, r.community, tot, two_m, gamma, threads);
  for (;;) {
    offset_t moved = 0;
    for (const std::vector<vertex_t>& members : group) {
      const auto count = static_cast<std::int64_t>(members.size());
#pragma omp parallel num_threads(threads)
      {
        std::vector<double>& weight_to = sums[static_cast<std::size_t>(omp_get_thread_num())];
        if (weight_to.size() != static_cast<std::size_t>(n)) weight_to.assign(n, 0.0);
        std::vector<vertex_t> touched;
#pragma omp for schedule(dynamic, 256)
        for (std::int64_t i = 0; i < count; ++i) {
          const vertex_t v = members[i];
          const vertex_t own = community[v];
          for (offset_t e = w.row_ptr[v]; e < w.row_ptr[v + 1]; ++e) {
            const vertex_t u = w.col_idx[e];
            if (u == v) continue;  // v's loop moves with v
            const vertex_t c = community[u];
            if (weight_to[c] == 0) touched.push_back(c);
            weight_to[c] += w.values[e];
          }
          const double kv = level.k[v];
          vertex_t best = own;
          double best_gain = weight_to[own] - gamma * kv * (tot[own] - kv) / two_m;
          for (vertex_t c : touched) {
            if (c == own) continue;
            // Two singletons join one way only: into the lower id.
            if (size[own] == 1 && size[c] == 1 && c > own) continue;
            const double gain = weight_to[c] - gamma * kv * tot[c] / two_m;
            if (gain > best_gain || (gain == best_gain && best != own && c < best)) {
              best = c;
              best_gain = gain;
            }
          }
          for (vertex_t c : touched) weight_to[c] = 0;
          touched.clear();
          target[v] = best;
        }
      }
      for (vertex_t v : members) {
        const vertex_t from = community[v], to = target[v];
        if (from == to) continue;
        tot[from] -= level.k[v];
        tot[to] += level.k[v];
        --size[from];
        ++size[to];
        community[v] = to;
        ++moved;
      }
    }
    ++r.sweeps;
    r.moves += moved;
    const double next = level_modularity(w, r.community, tot, two_m, gamma, threads);
    const double gained = next - q;
    q = next;
    if (moved == 0 || gained < options.tolerance) break;
  }
  r.modularity = q;
  return r;
}

}  // namespace graphrun::detail
