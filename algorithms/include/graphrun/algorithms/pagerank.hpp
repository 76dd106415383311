// PageRank by power iteration, pull-style over the transpose.
//
//   r' = d * Aᵀ D⁻¹ r  +  d * (dangling mass)/n  +  (1-d)/n
//
// D is the out-degree (or out-weight) diagonal; dangling vertices (no
// out-edge) spread their rank uniformly. Ranks sum to 1. Stops when the L1
// change ||r' - r||_1 < tol or after max_iter iterations. This is NetworkX's
// pagerank() with uniform personalization and dangling weights.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "graphrun/algorithms/iteration.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/graph.hpp"
#include "graphrun/engine/spmv_format.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun {

// How each iteration uses the ranks it has just computed.
enum class PageRankMethod {
  // Every rank of iteration k+1 from the ranks of iteration k: NetworkX's
  // iteration, the same on every device and thread count up to rounding.
  jacobi,
  // CPU only. Each thread sweeps its own consecutive block of vertices in
  // order and reads the ranks its block has already updated in this sweep
  // (those of other blocks from the sweep before): a block Gauss–Seidel
  // iteration, as the GAP reference's PageRank (which reads every
  // thread's updates as they land, at the price of a result that depends
  // on timing). Same fixed point; on graphs whose ids keep neighbours near
  // each other (web crawls, roads) it reaches the tolerance in fewer
  // iterations. Deterministic for a given thread count; ranks agree with
  // Jacobi's to about tol.
  gauss_seidel,
  // Undirected graphs only (ArgumentError otherwise). Chebyshev
  // semi-iteration (Golub & Varga 1961) on the linear system r = M r + b
  // that the Jacobi iteration solves: each iteration takes the Jacobi
  // step y = M r + b and moves to ω (y − r_prev) + r_prev, with ω from the
  // Chebyshev recurrence for a spectrum in [−d, d]. An undirected graph's
  // transition matrix is similar to a symmetric one, so M's eigenvalues are
  // real and in [−d, d] (the dangling term keeps them so), and the error
  // falls by about d / (1 + √(1 − d²)) an iteration (0.557 at d = 0.85)
  // instead of d: about a third of Jacobi's iterations. The stopping rule
  // is Jacobi's: the L1 change ||y − r||_1 a Jacobi step would make, below
  // tol, and the ranks returned are that step's y, within d / (1 − d) times
  // it of the fixed point as Jacobi's are. Jacobi steps are taken while the
  // L1 change falls faster than the recurrence would make it (expanders).
  // A directed graph's eigenvalues are complex, where this recurrence
  // diverges. Deterministic for a given thread count (on the GPU, run to
  // run). On the GPU the choice of ω is made on the device, so iterations
  // still run in batches without the host.
  chebyshev,
  // chebyshev on an undirected graph, jacobi on a directed one, on either
  // device: Chebyshev's recurrence needs the real eigenvalues only an
  // undirected graph's iteration matrix is sure to have, and there it
  // reaches the tolerance in fewer iterations where Jacobi is slow (paths,
  // meshes, several components) while keeping to Jacobi's steps where
  // those converge faster.
  automatic,
};

// "auto", "jacobi", "gauss-seidel", "chebyshev": the command line's names.
const char* to_string(PageRankMethod method);

// How an iteration's SpMV reads x = r ./ w, the ranks over the out-weights.
// float32 gathers it from a float copy (written beside x as each rank is
// made): half the bytes of every scattered read, where those reads bound an
// iteration. Sums, the L1 change and the ranks stay double; the ranks then
// lie up to d / (1 - d) 2^-24 (3.4e-7 at d = 0.85, in L1) further from the
// fixed point than the tolerance alone bounds (d / (1 - d) tol), and their
// sum may be off by as much. automatic: float32 where tol >= 16 * 2^-24
// (about 9.5e-7: that bound is then at most a sixteenth of the
// tolerance's) and x is large, on the CPU past the caches with scattered
// reads (cpu::prefetch_gathers), on the GPU of at least 2^19 vertices (4 MiB
// of doubles); float64 otherwise. gauss_seidel, whose sweep reads the ranks
// it has just made, gathers in double (float32 with it: ArgumentError).
// float32 with a tol below about d 2^-24 (5e-8) may run to max_iter: the
// float copy's rounding keeps the L1 change about there.
enum class PageRankGather { automatic, float32, float64 };

// "auto", "float", "double": the command line's names.
const char* to_string(PageRankGather gather);
// The PageRankGather of one of those names; nullopt for any other.
std::optional<PageRankGather> pagerank_gather_named(std::string_view name);

struct PageRankOptions {
  double damping = 0.85;
  double tol = 1e-6;
  int max_iter = 100;
  bool use_weights = true;  // weighted graphs: transition probabilities ∝ weight
  // The SpMV format on the GPU (Device::cuda); automatic picks it from the
  // row statistics of Aᵀ. The CPU always runs its CSR kernel.
  SpmvFormat format = SpmvFormat::automatic;
  // Renumber the vertices for locality before iterating
  // (engine/vertex_order.hpp); ranks come back by input vertex all the
  // same, equal to an unreordered run's up to rounding. automatic: on the
  // GPU, the ordering choose_reorder() picks from the out-degrees (none; dbg
  // repays itself in about a default run's iterations on large skewed
  // undirected graphs, see vertex_order.cpp); on the CPU, none. An explicit
  // ordering runs on either device (on the GPU computed and applied there; on
  // the CPU the renumbered graph is built on the host). A graph with a stored ordering
  // (Graph::stored_order, from a .grb cache) is renumbered by it, without
  // computing it, where this is automatic or names the same method.
  Reorder reorder = Reorder::automatic;
  // On the GPU a callback makes every iteration wait for the host before the
  // next starts; without one, iterations are queued in batches and the
  // stopping rule runs on the device (use `progress` to watch a run).
  IterationCallback on_iteration;
  // Filled during the run when set: the iteration under way, the last L1
  // change (and, on the CPU, the share of the iteration's rows done).
  StepProgress* progress = nullptr;
  // Where the iteration starts (NetworkX's nstart): one value per vertex,
  // e.g. the ranks of an earlier run, so that a graph that changed a little
  // converges in a few iterations. Finite, non-negative, not all zero; scaled
  // to sum 1 (ArgumentError otherwise, naming the first bad vertex). Empty:
  // the uniform 1/n. Read during the call only.
  std::span<const double> start;
  // automatic: chebyshev on an undirected graph, jacobi on a directed one.
  PageRankMethod method = PageRankMethod::automatic;
  // Whether x is gathered in float (see PageRankGather).
  PageRankGather gather = PageRankGather::automatic;
};

struct PageRankResult {
  std::vector<double> rank;  // by dense vertex id
  int iterations = 0;
  double residual = 0;  // L1 change of the last iteration
  bool converged = false;
  double seconds = 0;
  // Device::cuda only: the concrete SpMV format used, and the seconds of the
  // iterations alone (seconds minus the graph upload, the format build and
  // the download of the ranks). automatic and 0 on the CPU.
  SpmvFormat format = SpmvFormat::automatic;
  double compute_seconds = 0;
  // Device::cuda only: the seconds before the first iteration (setup_seconds:
  // the adjacency onto the device, upload_seconds of it, an upload or, where
  // the loader left the graph there, a copy on the device; then the
  // out-weights, any ordering, the transpose, the format) and after the last
  // (finish_seconds: the ranks back in input order to the host, the device's
  // memory given back). 0 on the CPU.
  double setup_seconds = 0;
  double upload_seconds = 0;
  double finish_seconds = 0;
  // The vertex ordering used (never automatic) and the seconds it took to
  // compute it and renumber the graph (part of seconds, not of
  // compute_seconds).
  Reorder reorder = Reorder::none;
  bool reorder_stored = false;  // the graph's stored ordering (no time to compute it)
  double reorder_seconds = 0;
  // The method run (options.method, or what automatic picked; never
  // automatic).
  PageRankMethod method = PageRankMethod::jacobi;
  // Whether the passes gathered x from a float copy of it (PageRankGather:
  // options.gather, or what automatic chose).
  bool float_gathers = false;
};

PageRankResult pagerank(Context& ctx, const Graph& g, const PageRankOptions& options = {});

// Runs the GPU PageRank once on a small built-in graph (4,096 vertices,
// unweighted; three iterations) on device `device`, with `format`
// (automatic: in turn the formats the GPU's chooser picks for large graphs),
// `reorder` and `method` (jacobi on the graph as a directed one; chebyshev,
// or automatic, on it made undirected, whose passes are other kernels), so
// that CUDA's loading of each kernel at its first launch (lazy loading, the
// CUDA 12 default: ~2 ms of a first run's set-up and first iterations on an
// H200) is paid here instead of in a later run. Meant for a thread of its
// own while the input loads; a run beside it gives the same ranks bit for
// bit. Stops before its next run once *stop is set; returns the runs made.
// Throws what pagerank() throws (DeviceError where there is no such device;
// ArgumentError for gauss_seidel, which the GPU does not run).
int prime_pagerank_kernels(int device, SpmvFormat format = SpmvFormat::automatic,
                           Reorder reorder = Reorder::automatic,
                           const std::atomic<bool>* stop = nullptr,
                           PageRankMethod method = PageRankMethod::jacobi);

}  // namespace graphrun
