// One seam per backend. Each algorithm has one driver (pagerank.cpp,
// mcl.cpp, bfs.cpp, contract.cpp) that owns what every device shares: the
// options and their checks, the iteration and its stopping rule, the
// callback contract of iteration.hpp, and the result. A backend supplies
// the steps that run on its device through the interfaces below, as
// Gunrock's enactor separates the loop from the operators and LAGraph
// writes an algorithm once over GraphBLAS calls.
//
// backend_for() is the one place a Context's device picks a backend. The
// CPU backend is cpu/backend.cpp; the CUDA backend is cuda/backend.cu, or in
// a build without CUDA no_gpu/backend_absent.cpp, which has none (CMake
// links one or the other). Another kind of device (MPI ranks, say) is a
// class deriving from Backend and one line in backend_for().
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "graphrun/algorithms/betweenness.hpp"
#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/algorithms/components.hpp"
#include "graphrun/algorithms/kcore.hpp"
#include "graphrun/algorithms/louvain.hpp"
#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/algorithms/sssp.hpp"
#include "graphrun/algorithms/triangles.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/engine/vertex_order.hpp"

namespace graphrun::detail {

// ---- PageRank -------------------------------------------------------------

// The most iterations a driver queues before it reads their L1 changes.
inline constexpr int max_pagerank_batch = 32;

// PageRankGather::automatic: the smallest tolerance at which x is gathered
// in float, and the GPU's smallest graph for it (pagerank.hpp).
inline constexpr double float_gather_min_tol = 16.0 / (1 << 24);
inline constexpr vertex_t gpu_float_gather_min_vertices = vertex_t{1} << 19;

// Whether an iteration gathers x in float (PageRankGather): asked for, or
// automatic where x is `large` (each device's own test) and tol allows it.
inline bool gathers_in_float(const PageRankOptions& o, bool large) {
  return o.gather == PageRankGather::float32 ||
         (o.gather == PageRankGather::automatic && large && o.tol >= float_gather_min_tol);
}

// The vertex ordering a PageRank run renumbers by: the one stored with the
// graph (a .grb cache written by `graphrun convert --reorder`) where the
// options ask for automatic or for that very method, else the one asked
// for, or for automatic what `automatic_pick()` returns (each device's own
// choice, asked only then). `stored` is set when the stored ordering is
// the one to use.
struct PageRankOrdering {
  Reorder how = Reorder::none;
  const std::vector<vertex_t>* stored = nullptr;
};
template <class Pick>
PageRankOrdering pagerank_ordering(const Graph& g, Reorder asked, Pick&& automatic_pick) {
  if (const Graph::StoredOrder* s = g.stored_order();
      s && (asked == Reorder::automatic || asked == s->method))
    return {s->method, &s->order};
  return {asked == Reorder::automatic ? automatic_pick() : asked, nullptr};
}

// What the driver has settled before a backend prepares the graph.
struct PageRankSetup {
  const PageRankOptions& options;
  bool weighted = false;   // out-weights are the edge weights (else out-degrees)
  double start_scale = 0;  // 1 / Σ options.start; 0 for the uniform start
};

// PageRank's steps on one device, for one graph of n >= 1 vertices, made
// with the graph prepared (out-weights, transpose, SpMV format, ordering)
// and the start ranks in place.
class PageRankSteps {
 public:
  virtual ~PageRankSteps() = default;
  // How many iterations the driver may queue before it reads their L1
  // changes: 1 where the host waits for each anyway (the CPU); more where
  // the device runs them back to back and skips those past convergence on
  // its own (the GPU's stopping rule).
  virtual int max_batch() const noexcept = 0;
  // Runs iterations first .. first + residuals.size() - 1 and writes each
  // one's L1 change to `residuals`. Passes after one whose change is below
  // options.tol may be skipped: the driver reads no residual past it.
  virtual void iterate(int first, std::span<double> residuals) = 0;
  // The ranks after iteration `last` (0: the start), by input vertex.
  virtual std::vector<double> ranks(int last) = 0;
};

// ---- Markov clustering ----------------------------------------------------

// What one MCL iteration did.
struct MclStep {
  float chaos = 0;            // largest column chaos of the new iterand
  std::int64_t products = 0;  // intermediate products of the expansion
  std::int64_t nnz = 0;       // stored entries of the new iterand
  int blocks = 1;             // column blocks the expansion ran in
  // Seconds of expansion and of pruning with inflation; a backend that does
  // both in one pass books it all as expansion (MclPhaseSeconds says so).
  double expansion_seconds = 0;
  double pruning_seconds = 0;
};

// MCL's steps on one device, made with the start matrix in place.
class MclSteps {
 public:
  virtual ~MclSteps() = default;
  virtual std::int64_t nnz() const = 0;  // of the iterand now
  // M <- inflate(prune(M·M)), with `inflation` as mcl keeps it (a double
  // read from a float, raised after iteration 40). `progress`, when set,
  // gets the share of the columns done.
  virtual MclStep iterate(double inflation, StepProgress* progress) = 0;
  // The iterand, on the host, for reading the clusters off.
  virtual Csr<float> limit() = 0;
};

// The MCL driver's loop (mcl.cpp) over a backend's steps; t0 started before
// the steps were made, whose making is the setup phase. cuda::mcl runs it
// over steps with a chosen expansion. `order`: the steps cluster g renumbered
// by it (MclOptions::reorder; order[new] = old), whose limit is numbered back
// before it is read off.
MclResult drive_mcl(const Graph& g, const MclOptions& options, MclSteps& steps, const Stopwatch& t0,
                    std::span<const vertex_t> order = {});

// ---- Contraction ----------------------------------------------------------

// The two products of C = (S·A)·Sᵀ on one device. contract() builds S and
// Sᵀ, checks the labels and removes C's loops.
struct ContractProducts {
  Csr<double> quotient;        // (S·A)·Sᵀ, loops included, in host memory
  std::int64_t products = 0;   // intermediate products of both SpGEMMs
  double compute_seconds = 0;  // the two products alone, without transfers
};

// ---- Connected components ------------------------------------------------

// A backend's components: label[v] names v's component by one of its
// vertices, the same for all of them (any one: the driver renames each
// component after its smallest vertex).
struct ComponentLabels {
  std::vector<vertex_t> label;
  bool smallest = false;  // each label is already its component's smallest vertex
  // A method of one pass: the driver calls on_iteration once, after it.
  // Iterative ones (the GPU's strong components) call it themselves.
  bool one_pass = true;
  int iterations = 1;
  bool complete = true;        // false when on_iteration stopped the run
  double compute_seconds = 0;  // the device's computation alone; 0 on the CPU
};

// ---- Single-source shortest paths ----------------------------------------

// What the driver has settled before a backend searches.
struct SsspSetup {
  const SsspOptions& options;
  double delta = 0;  // the bucket width (delta-stepping), > 0
};

// A backend's search. negative_edge >= 0: the position in adj() of an edge
// of negative weight the search met (the smallest such position it saw),
// and the distances are then meaningless.
struct SsspDistances {
  std::vector<double> distance;
  int iterations = 0;
  offset_t relaxations = 0;
  offset_t negative_edge = -1;
  bool complete = true;
  double compute_seconds = 0;  // the device's computation alone; 0 on the CPU
};

// ---- Triangles --------------------------------------------------------------

// What a backend counts; the driver derives the coefficients.
struct TriangleCounts {
  std::uint64_t total = 0;
  std::vector<std::uint64_t> per_vertex;  // when asked
  std::vector<vertex_t> degree;           // always
  std::uint64_t edges = 0;                // entries of the oriented L
  double compute_seconds = 0;             // the device's computation alone; 0 on the CPU
};

// ---- Betweenness ----------------------------------------------------------

// Brandes' sums over the sources a backend searched (unscaled: each
// ordered pair counted once per source).
struct BetweennessSums {
  std::vector<double> sum;
  int sources_done = 0;
  bool complete = true;
  double compute_seconds = 0;  // the device's computation alone; 0 on the CPU
};

// ---- Louvain ---------------------------------------------------------------

// One level's graph: W symmetric (a loop W(c, c) is the inner weight of
// what c stands for), k its row sums, two_m their total.
struct LouvainLevel {
  const Csr<double>& w;
  std::span<const double> k;
  double two_m;
  // Where the moves start: empty, every vertex alone; else a community id
  // in 0..n-1 per vertex (the refinement of a finished partition).
  std::span<const vertex_t> start = {};
};

// The rules both backends follow step for step, so that they reach the
// same communities and the same bits (louvain_test, cuda/louvain_test):
//   - a sweep visits the vertices in louvain_batches groups, vertex v in
//     group louvain_group(v, seed), each group in vertex order;
//   - a level's Q is summed over blocks of louvain_sum_block vertices: per
//     block, in vertex order, Σ inner(v) / 2m and Σ γ (tot_v / 2m)²; then
//     the blocks' first sums in order, less their second sums in order.
constexpr int louvain_batches = 16;
constexpr vertex_t louvain_sum_block = 1024;

// SplitMix64's finaliser: a well-mixed hash.
constexpr std::uint64_t louvain_mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

constexpr int louvain_group(vertex_t v, std::uint64_t seed) {
  return static_cast<int>(louvain_mix(static_cast<std::uint64_t>(v) ^ louvain_mix(seed)) %
                          louvain_batches);
}

// What local moving did: community[v] of every vertex of the level (a
// vertex id of the level: the community's first label), sweeps, moves, and
// the level's modularity after it.
struct LouvainMoves {
  std::vector<vertex_t> community;
  int sweeps = 0;
  offset_t moves = 0;
  double modularity = 0;
};

// Where local moving starts, the same on every backend: each vertex's
// community (level.start, or alone), the communities' total degrees (summed
// in vertex order) and sizes, and the members of each of the
// louvain_batches groups in vertex order.
struct LouvainStart {
  std::vector<vertex_t> community, size;
  std::vector<double> tot;
  std::vector<std::vector<vertex_t>> group;
};

inline LouvainStart louvain_start(const LouvainLevel& level, std::uint64_t seed) {
  const vertex_t n = level.w.n_rows();
  const auto size_n = static_cast<std::size_t>(n);
  LouvainStart s{std::vector<vertex_t>(size_n), std::vector<vertex_t>(size_n, 0),
                 std::vector<double>(size_n, 0.0),
                 std::vector<std::vector<vertex_t>>(louvain_batches)};
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t c = level.start.empty() ? v : level.start[v];
    s.community[v] = c;
    s.tot[c] += level.k[v];
    ++s.size[c];
    s.group[louvain_group(v, seed)].push_back(v);
  }
  return s;
}

// ---- The seam -------------------------------------------------------------

class Backend {
 public:
  virtual ~Backend() = default;

  // Prepares g for PageRank and fills result.format, .reorder and
  // .reorder_seconds.
  virtual std::unique_ptr<PageRankSteps> pagerank(Context& ctx, const Graph& g,
                                                  const PageRankSetup& setup,
                                                  PageRankResult& result) const = 0;

  // The start matrix of g (mcl_parts.hpp) on the device.
  virtual std::unique_ptr<MclSteps> mcl(Context& ctx, const Graph& g,
                                        const MclOptions& options) const = 0;

  // BFS keeps its level loop in the backend: the GPU runs levels back to
  // back on the device with no host round trip. Both loops keep their
  // books with bfs_levels.hpp and report each level through it, so the
  // counts, the direction rule and the callback contract are written once.
  virtual BfsResult bfs(Context& ctx, const Graph& g, vertex_t source,
                        const BfsOptions& options) const = 0;

  // Weak or strong components (options.strong) of a graph of n >= 1
  // vertices.
  virtual ComponentLabels components(Context& ctx, const Graph& g,
                                     const ComponentsOptions& options) const = 0;

  // Distances from `source` (in range) over g's out-edges, weights from
  // adj()'s values (1 where it is a pattern). The backend calls
  // setup.options.on_iteration itself.
  virtual SsspDistances sssp(Context& ctx, const Graph& g, vertex_t source,
                             const SsspSetup& setup) const = 0;

  // Core numbers of g's undirected view (n >= 1): fills core, iterations,
  // rounds and complete; the driver the rest.
  virtual KcoreResult core_numbers(Context& ctx, const Graph& g,
                                   const KcoreOptions& options) const = 0;

  // Brandes from each of `sources` (valid, distinct), in order; calls
  // options.on_iteration after each.
  virtual BetweennessSums betweenness(Context& ctx, const Graph& g,
                                      std::span<const vertex_t> sources,
                                      const BetweennessOptions& options) const = 0;

  // Louvain's local moving on one level (from singletons, or level.start).
  virtual LouvainMoves louvain_moves(Context& ctx, const LouvainLevel& level,
                                     const LouvainOptions& options) const = 0;

  // Triangles of g's undirected view (n >= 1).
  virtual TriangleCounts triangles(Context& ctx, const Graph& g,
                                   const TriangleOptions& options) const = 0;

  // A read as a pattern (entries 1) unless g is weighted; s: S (n_labels ×
  // n); st: Sᵀ.
  virtual ContractProducts contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                             const Csr<double>& st) const = 0;
};

// The steps a backend defines, as static functions of its steps class
// (CpuSteps in cpu/, CudaSteps in cuda/), each declaring them with
//   struct CpuSteps { GRAPHRUN_BACKEND_STEPS };
// so that the list, like the interface above, is written once.
#define GRAPHRUN_BACKEND_STEPS                                                                    \
  static std::unique_ptr<PageRankSteps> pagerank(                                                 \
      Context& ctx, const Graph& g, const PageRankSetup& setup, PageRankResult& result);          \
  static std::unique_ptr<MclSteps> mcl(Context& ctx, const Graph& g, const MclOptions& options);  \
  static BfsResult bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options); \
  static ComponentLabels components(Context& ctx, const Graph& g,                                 \
                                    const ComponentsOptions& options);                            \
  static SsspDistances sssp(Context& ctx, const Graph& g, vertex_t source,                        \
                            const SsspSetup& setup);                                              \
  static KcoreResult core_numbers(Context& ctx, const Graph& g, const KcoreOptions& options);     \
  static TriangleCounts triangles(Context& ctx, const Graph& g, const TriangleOptions& options);  \
  static LouvainMoves louvain_moves(Context& ctx, const LouvainLevel& level,                      \
                                    const LouvainOptions& options);                               \
  static BetweennessSums betweenness(Context& ctx, const Graph& g,                                \
                                     std::span<const vertex_t> sources,                           \
                                     const BetweennessOptions& options);                          \
  static ContractProducts contract_products(Context& ctx, const Graph& g, const Csr<double>& s,   \
                                            const Csr<double>& st);

// A Backend whose steps are the static functions of Impl (CpuSteps in
// cpu/, CudaSteps in cuda/): one forwarding class for every backend.
template <class Impl>
class BackendOf final : public Backend {
 public:
  std::unique_ptr<PageRankSteps> pagerank(Context& ctx, const Graph& g, const PageRankSetup& setup,
                                          PageRankResult& result) const override {
    return Impl::pagerank(ctx, g, setup, result);
  }
  std::unique_ptr<MclSteps> mcl(Context& ctx, const Graph& g,
                                const MclOptions& options) const override {
    return Impl::mcl(ctx, g, options);
  }
  BfsResult bfs(Context& ctx, const Graph& g, vertex_t source,
                const BfsOptions& options) const override {
    return Impl::bfs(ctx, g, source, options);
  }
  ComponentLabels components(Context& ctx, const Graph& g,
                             const ComponentsOptions& options) const override {
    return Impl::components(ctx, g, options);
  }
  SsspDistances sssp(Context& ctx, const Graph& g, vertex_t source,
                     const SsspSetup& setup) const override {
    return Impl::sssp(ctx, g, source, setup);
  }
  KcoreResult core_numbers(Context& ctx, const Graph& g,
                           const KcoreOptions& options) const override {
    return Impl::core_numbers(ctx, g, options);
  }
  TriangleCounts triangles(Context& ctx, const Graph& g,
                           const TriangleOptions& options) const override {
    return Impl::triangles(ctx, g, options);
  }
  LouvainMoves louvain_moves(Context& ctx, const LouvainLevel& level,
                             const LouvainOptions& options) const override {
    return Impl::louvain_moves(ctx, level, options);
  }
  BetweennessSums betweenness(Context& ctx, const Graph& g, std::span<const vertex_t> sources,
                              const BetweennessOptions& options) const override {
    return Impl::betweenness(ctx, g, sources, options);
  }
  ContractProducts contract_products(Context& ctx, const Graph& g, const Csr<double>& s,
                                     const Csr<double>& st) const override {
    return Impl::contract_products(ctx, g, s, st);
  }
};

// The backend of ctx.device(); DeviceError naming `algorithm` where this
// build has none for it.
const Backend& backend_for(const Context& ctx, const char* algorithm);

const Backend& cpu_backend() noexcept;
// nullptr in a build without the CUDA backend.
const Backend* cuda_backend() noexcept;

}  // namespace graphrun::detail
