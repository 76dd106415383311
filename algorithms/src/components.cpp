// Connected components (components.hpp). The driver: the backend finds the
// components (cpu/components_weak.cpp and components_strong.cpp,
// cuda/components.cu) with whatever vertex it likes as each one's label;
// here every component is renamed after its smallest vertex and counted,
// so the result is the same whichever backend and schedule made it.
#include "graphrun/algorithms/components.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>

#include "afforest_sample.hpp"
#include "backend.hpp"
#include "graphrun/engine/env_flag.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

namespace {

// Renames each component after its smallest vertex (unless the backend's
// labels are that already) and fills the counts, checking the labels on the
// way. Two or four parallel passes over the vertices: on a graph of
// millions of vertices a serial pass would cost as much as the components
// themselves.
void name_by_smallest(std::vector<vertex_t>& label, bool already, int threads,
                      ComponentsResult& r) {
  const auto n = static_cast<vertex_t>(label.size());
  if (!already) {
    std::vector<vertex_t> smallest(label.size(), n);
    bool bad = false;
#pragma omp parallel for num_threads(threads) reduction(|| : bad) schedule(static)
    for (vertex_t v = 0; v < n; ++v) {
      if (label[v] < 0 || label[v] >= n) {
        bad = true;
        continue;
      }
      std::atomic_ref<vertex_t> s(smallest[label[v]]);
      vertex_t seen = s.load(std::memory_order_relaxed);
      while (v < seen && !s.compare_exchange_weak(seen, v, std::memory_order_relaxed)) {
      }
    }
    if (bad) throw Error("connected_components: the backend gave a label outside [0, n)");
#pragma omp parallel for num_threads(threads) schedule(static)
    for (vertex_t v = 0; v < n; ++v) label[v] = smallest[label[v]];
  }
  // A component of more than half the vertices is the largest, whatever
  // the others are: the most frequent label of a fixed sample is counted
  // exactly in one pass with the components and the labels' check, and
  // when it holds the majority no sizes are needed (the sizes below take
  // an array of n and three more passes: 6.5 of 36 ms of gapbs -g 20's
  // components on 2 threads, where 62% of the vertices are one component).
  std::vector<vertex_t> sampled = detail::afforest_sample(n);
  for (vertex_t& v : sampled) v = label[v];
  const vertex_t candidate = detail::most_frequent(sampled);
  bool bad = false;
  vertex_t count = 0, candidate_size = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(|| : bad) \
    reduction(+ : count, candidate_size)
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t l = label[v];
    bad |= l < 0 || l > v;
    count += l == v;
    candidate_size += l == candidate;
  }
  if (bad) throw Error("connected_components: the backend gave a vertex a label above its id");
  r.count = count;
  if (candidate_size > n - candidate_size) {
    r.largest = candidate_size;
    r.largest_component = candidate;
    return;
  }
  // Sizes: each thread adds runs of equal labels at once, so the giant
  // component's counter is not an atomic per vertex (labels were checked
  // above: each is at most its vertex). Then the largest size and the
  // smallest label of that size, each thread's pair merged in turn. One
  // parallel region, its loops apart by their barriers (two fork-joins
  // fewer than a region per loop: components of a graph of a few hundred
  // thousand vertices take about a millisecond on 16 threads, where each
  // fork-join is a visible share). `size` is zeroed there too: a serial
  // fill of a fresh array costs its page faults on one thread (0.3 ms for
  // 1.3 MB).
  const std::unique_ptr<vertex_t[]> size(new vertex_t[label.size()]);
  vertex_t largest = 0, first = 0;
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) size[v] = 0;
    vertex_t run_label = -1, run = 0;
#pragma omp for schedule(static)
    for (vertex_t v = 0; v < n; ++v) {
      const vertex_t l = label[v];
      if (l != run_label) {
        if (run) std::atomic_ref<vertex_t>(size[run_label]).fetch_add(run);
        run_label = l;
        run = 0;
      }
      ++run;
    }
    if (run) std::atomic_ref<vertex_t>(size[run_label]).fetch_add(run);
#pragma omp barrier
    vertex_t my_largest = 0, my_first = 0;
#pragma omp for schedule(static) nowait
    for (vertex_t v = 0; v < n; ++v)
      if (label[v] == v && size[v] > my_largest) my_largest = size[v], my_first = v;
#pragma omp critical(graphrun_components_largest)
    if (my_largest > largest || (my_largest == largest && my_first < first))
      largest = my_largest, first = my_first;
  }
  r.largest = largest;
  r.largest_component = first;
}

// GRAPHRUN_TRACE set: the split between the backend and the naming goes to
// stderr with each call (the command line's other trace lines come from
// apps/cli/phase_trace.hpp).
bool trace_split() {
  static const bool on = env_flag("GRAPHRUN_TRACE");
  return on;
}

}  // namespace

ComponentsResult connected_components(Context& ctx, const Graph& g,
                                      const ComponentsOptions& options) {
  const Stopwatch t0;
  ComponentsResult r;
  if (g.n_vertices() == 0) {
    r.iterations = 0;
    return r;
  }
  detail::ComponentLabels found =
      detail::backend_for(ctx, "connected_components").components(ctx, g, options);
  if (found.label.size() != static_cast<std::size_t>(g.n_vertices()))
    throw Error("connected_components: the backend labelled " + std::to_string(found.label.size()) +
                " of " + std::to_string(g.n_vertices()) + " vertices");
  if (found.one_pass && options.on_iteration) {
    IterationInfo info;
    info.iteration = 1;
    info.elapsed = t0.seconds();
    options.on_iteration(info);  // after the one pass: nothing is left to stop
  }
  const double found_at = t0.seconds();
  name_by_smallest(found.label, found.smallest, ctx.threads(), r);
  if (trace_split()) {
    std::fprintf(stderr, "trace: components found in %.6f s, named and counted in %.6f s\n",
                 found_at, t0.seconds() - found_at);
  }
  r.component = std::move(found.label);
  r.iterations = found.iterations;
  r.complete = found.complete;
  r.compute_seconds = found.compute_seconds;
  r.seconds = t0.seconds();
  return r;
}

}  // namespace graphrun
