// Markov clustering (van Dongen, "Graph clustering by flow simulation",
// 2000), the algorithm of the `mcl` program with its default parameters:
//
//   M   = the undirected graph, self loops added as mcl adds them,
//         columns normalized to sum 1 (a column-stochastic flow matrix)
//   repeat
//     M = M·M                         expansion: our SpGEMM
//     prune every column              cutoff 1/P, selection of the S largest,
//                                     recovery up to R entries / pct % mass
//     M = Γ_r(M)                      inflation: entries to the power r,
//                                     columns renormalized
//   until M is (nearly) idempotent    mcl's "chaos" below 1e-4
//   clusters = attractor systems of M and the nodes they attract
//
// Orientation. mcl works with columns; graphrun's matrices are CSR, so the
// iterand is stored transposed: row j of the CSR is column j of mcl's M.
// (M·M)ᵀ = Mᵀ·Mᵀ, so squaring the stored matrix is still one SpGEMM, and
// every per-column step of mcl is a per-row step here.
//
// Precision. The iterand is single precision, as mcl's is (mcl -z: "cell
// contents: int and float"); an expansion multiplies and sums in double and
// rounds each entry to float once, as mcl does, so entries that tie in
// exact arithmetic (the leaves of a star) still tie, and pruning, which
// keeps or drops ties together, decides as mcl decides.
//
// Backends. On the CPU the loop is OpenMP over rows; with Device::cuda the
// graph is uploaded once and the whole loop (expansion, pruning, inflation,
// the convergence test) runs on the device; only the final iterand comes
// back to be read off as clusters. Where the expanded iterand would not fit
// in the device's memory (or --max-device-memory), each iteration expands
// its columns block by block, pruning and inflating each block before the
// next is expanded, as mcl prunes each column as soon as it is computed:
// the expanded iterand is never whole, only the pruned one.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "graphrun/algorithms/iteration.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun {

// The parameters of mcl, by its option names; the defaults are mcl's
// (`mcl -z`, mcl 22-282).
struct MclOptions {
  double inflation = 2.0;      // -I: power applied in inflation (> 1)
  int prune_number = 10000;    // -P: entries below 1/P are pruned
  int select_number = 1100;    // -S: at most S entries kept per column...
  int recover_number = 1400;   // -R: ...unless recovery keeps up to R
  int recover_percent = 90;    // -pct: recovery when less than pct % mass kept
  int max_iterations = 10000;  // -L: mcl's main-loop limit
  // Stop when the chaos of an iterand is below this: the largest, over
  // columns, of (max − Σ v²)·nnz of the expanded column, which is 0 when
  // the column is spread evenly over its entries (idempotent). mcl's value.
  double chaos_limit = 1e-4;
  // Called after every iteration with the chaos as `residual` and the
  // iterand's stored entries as `nnz`; returning false stops the loop, and
  // the clusters are read off the current iterand.
  IterationCallback on_iteration;
  // Filled during the run when set: the iteration under way and the share
  // of its columns expanded so far (CPU; the GPU reports whole iterations).
  StepProgress* progress = nullptr;
  // Vertices renumbered by this ordering before the loop (vertex_order.hpp),
  // so that the columns an expansion reads together lie together in memory:
  // rabbit puts a community's vertices side by side. automatic: rabbit where
  // the input's ids say little of its structure (mcl_reorder_for). The limit is numbered back
  // before it is read off, so the clusters, their numbering and every result are by input vertex;
  // only the order of the expansion's floating-point sums changes, which can move an entry that
  // ties a pruning threshold (as between CPU and GPU).
  Reorder reorder = Reorder::none;
};

// Time of each phase of the loop, summed over iterations, in seconds.
struct MclPhaseSeconds {
  double reorder = 0;    // MclOptions::reorder: the ordering and the renumbered graph
  double setup = 0;      // loops, normalization, upload
  double expansion = 0;  // the SpGEMMs (CPU: with pruning and inflation, done
                         // row by row as the SpGEMM's rows come out)
  double pruning = 0;    // GPU: pruning, inflation, renormalization and chaos
  double interpret = 0;  // download and reading the clusters off
};

struct MclResult {
  // cluster[v] = the cluster of dense vertex v; clusters are numbered 0, 1,
  // ... largest first (ties: the cluster whose smallest vertex comes first),
  // as `mcl --abc` writes them.
  std::vector<vertex_t> cluster;
  vertex_t n_clusters = 0;
  int iterations = 0;
  double chaos = 0;  // of the last iterand
  bool converged = false;
  std::int64_t products = 0;              // intermediate products of all expansions
  std::int64_t max_nnz = 0;               // largest iterand after pruning
  int max_blocks = 1;                     // GPU: most column blocks an expansion was split into
  std::vector<double> iteration_seconds;  // wall time of each iteration
  MclPhaseSeconds phases;
  Reorder reorder = Reorder::none;  // the ordering the loop ran in (MclOptions::reorder resolved)
  double seconds = 0;               // the whole call
};

// The ordering MclOptions::reorder = automatic stands for on `a` (a graph's
// adjacency): rabbit when the vertices are many (>= 4,096) and the median
// distance |i - j| / n of an edge's two ids, over a sample of up to 65,536
// entries spread through the matrix, is above 0.15, as for ids drawn at
// random (about 0.29) or a citation graph's (0.21); none where the ids
// already follow the graph (a crawl order: soc-Epinions1 0.06, where
// renumbering by rabbit cost 10-15% on the CPU). docs/experiments.md has
// the measurements behind it.
Reorder mcl_reorder_for(const Csr<double>& a);

// Clusters the undirected version of g (a directed graph is symmetrized:
// w(u,v) = max(w(u,v), w(v,u)), as mcl reads a graph). ArgumentError for
// parameters out of range.
MclResult mcl(Context& ctx, const Graph& g, const MclOptions& options = {});

// The clusters as lists of dense vertex ids, in the order of
// MclResult::cluster's numbering, vertices ascending within each.
std::vector<std::vector<vertex_t>> cluster_lists(const MclResult& r);

}  // namespace graphrun
