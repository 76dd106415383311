// Breadth-first search, direction-optimizing (Beamer, Asanović, Patterson,
// SC'12), written as SpMV over the boolean semiring:
//   push (top-down):  next = frontier · A   masked by unvisited   (small frontier)
//   pull (bottom-up): next = Aᵀ frontier    masked by unvisited   (large frontier)
// switching to pull when the frontier's edges exceed unexplored edges / alpha,
// and back to push when the frontier shrinks below n / beta.
#pragma once

#include <vector>

#include "graphrun/algorithms/pagerank.hpp"  // IterationInfo, IterationCallback
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"
#include "graphrun/engine/spmv_format.hpp"

namespace graphrun {

struct BfsOptions {
  bool parents = false;  // also record a BFS-tree parent per vertex
  // Beamer's thresholds: pull when frontier out-edges > unvisited out-edges / alpha;
  // back to push when the frontier shrinks below n / beta. alpha = 0 forces
  // push only; alpha = beta = infinity pulls from the first step on. Both >= 0.
  double alpha = 15.0;  // push -> pull threshold
  double beta = 18.0;   // pull -> push threshold
  // The SpMV format of pull steps on the GPU (Device::cuda). automatic (or
  // csr_thread): a thread per unvisited vertex, each row stopping at its
  // first frontier in-neighbour; on a graph where no vertex has over 4096
  // in-edges (roads, meshes) inside the device-side level loop, elsewhere a
  // step at a time, the rest of a row longer than 16 in-edges cut into
  // chunks that warps over the whole grid walk. Any other format: that format's masked SpMV over
  // OrAnd, which reads every in-edge of the unvisited rows. The CPU always runs its CSR kernel.
  SpmvFormat format = SpmvFormat::automatic;
  // Called after every level. On the GPU this makes every level wait for the
  // host; without it, runs of levels stay on the device.
  IterationCallback on_iteration;
  // Where the search reports the levels done and the last frontier's size,
  // for a display on another thread (nullptr: nowhere). On the GPU it moves
  // after each run of device-side levels.
  StepProgress* progress = nullptr;
};

struct BfsResult {
  std::vector<std::int32_t> level;  // hops from the source; -1 = unreachable
  std::vector<vertex_t>
      parent;            // if requested: parent, source's own id for the source, -1 unreachable
  int depth = 0;         // number of levels (largest level + 1)
  vertex_t reached = 0;  // vertices with level >= 0
  // Adjacency entries scanned: push steps count the frontier's out-edges;
  // pull steps the in-edges of unvisited vertices (an upper bound, since a
  // row stops at its first frontier neighbour).
  offset_t edges_examined = 0;
  int push_steps = 0, pull_steps = 0;
  double seconds = 0;
  // Device::cuda only: the concrete SpMV format of the pull steps
  // (automatic when none ran), and the seconds of the search alone (seconds
  // minus the graph upload, the format build and the download of the
  // results). automatic and 0 on the CPU.
  SpmvFormat format = SpmvFormat::automatic;
  double compute_seconds = 0;
};

BfsResult bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options = {});

}  // namespace graphrun
