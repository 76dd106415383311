// Breadth-first search on the GPU, direction-optimizing (Beamer, Asanović,
// Patterson, SC'12) with the same direction rule as bfs.cpp, so levels are
// the CPU's and the push/pull step counts match it. The steps are the
// frontier operator's (graphrun/kernels/cuda/frontier.hpp, .cuh) with BFS's
// apply, ClaimUnvisited.
//
//   push (top-down): the frontier is a vertex queue; cuda::advance_push lays
//     its out-edges end to end by an exclusive scan of the queue's degrees
//     (CUB), and one thread per edge finds its source by binary search in
//     the scan (edge-balanced, as Gunrock's load-balanced advance), then
//     claims the target with a compare-and-swap on its level; winners append
//     themselves to the next queue (one atomic per warp) and set their parent.
//   pull (bottom-up): the frontier is a byte vector; every unvisited vertex
//     looks through its in-edges (Aᵀ) for the first frontier vertex and
//     stops there: a thread per row for its first in-edges, then, for the
//     rows longer still, chunks walked by warps over the grid (bfs_pull.cuh),
//     recording levels, parents and the next frontier's counts as it goes.
//     With a --format asked for, the step is that format's masked SpMV over
//     OrAnd (cuda::SpmvOperator, whole rows read), then one pass records the
//     new levels, counts the new frontier and clears the rows the mask
//     skipped; with parents, it scans a newly reached vertex's in-edges up
//     to the first frontier vertex.
//
// The graph is uploaded once: A (pattern) for push and Aᵀ (pattern) for
// pull, which for an undirected graph is A itself; Aᵀ and its SpMV format
// are prepared on the first pull step.
//
// Levels stay on the device. A road network or a mesh has hundreds to
// thousands of levels of a few thousand edges each; a launch sequence and a
// read-back per level would cost ~35 µs where the level's work takes a few.
// So one persistent cooperative kernel (level_loop_kernel) runs level after
// level, separated by grid-wide barriers, through the operator's device
// pieces: a push level (frontier::push_chunks) deals the queue to the blocks
// in even chunks and expands each chunk edge-balanced by a block scan of its
// degrees; a pull level (frontier::pull_vertices, the loop of
// cuda::advance_pull) has a thread per unvisited vertex look for an
// in-neighbour at the previous depth (the frontier is then a queue again: no
// bitmaps to convert). Both reach vertices through frontier::reach, the
// inner step of the one-level push. The counters of every level land in a ring,
// and every block evaluates the direction rule on them (bfs_direction.hpp,
// the host's arithmetic), so all leave the loop together: when a push
// frontier holds a vertex of high degree (the whole-GPU edge-balanced push
// spreads it better), when a pull step comes on a graph with high in-degrees
// (the SpMV operator's formats balance those), when the search ends or the
// ring is full. The host then replays the ring's counters, so results and
// step counts are those of one level at a time. Steps outside the loop read
// back the counters the rule needs, from pinned memory, per level; so does
// every level when an on_iteration callback must see it.
#include <cooperative_groups.h>

#include <optional>

#include "../bfs_levels.hpp"
#include "bfs_pull.cuh"
#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cuda/frontier.cuh"
#include "graphrun/kernels/cuda/frontier.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::detail {

namespace {

namespace cg = cooperative_groups;

constexpr int kBlock = cuda::frontier::kBlock;

// What one step found, accumulated on the device (pulled: 1 for a pull step
// of the device-side loop).
using StepStats = FrontierCounts;

// The device-side level loop leaves to the host a push step whose frontier
// has a vertex of more out-edges than this (one block would expand that row
// alone), and every pull step on a graph with a vertex of more in-edges (a
// thread per vertex scans them).
constexpr unsigned long long kLoopMaxDegree = 4096;
// Levels per launch of the device-side loop (the counters' ring holds one
// more: the frontier it starts from).
constexpr int kLoopLevels = 1024;

using cuda::frontier::add_block;
using cuda::frontier::max_block;

// After the masked pull SpMV: record the vertices it reached.
__global__ void __launch_bounds__(kBlock)
    pull_collect(vertex_t n, std::int32_t depth, const std::uint8_t* __restrict__ front,
                 std::uint8_t* __restrict__ next, std::uint8_t* __restrict__ visited,
                 std::int32_t* __restrict__ level, vertex_t* __restrict__ parent,
                 const offset_t* __restrict__ a_row_ptr, const offset_t* __restrict__ at_row_ptr,
                 const vertex_t* __restrict__ at_col_idx, StepStats* stats) {
  unsigned long long count = 0, new_edges = 0, scanned = 0, max_degree = 0;
  for (offset_t i = blockIdx.x * kBlock + threadIdx.x; i < n; i += offset_t{gridDim.x} * kBlock) {
    const auto v = static_cast<vertex_t>(i);
    if (visited[v]) {
      next[v] = 0;  // a row the mask skipped still holds an old frontier mark
      continue;
    }
    scanned += frontier_row_length(at_row_ptr, v);
    if (next[v] == 0) continue;
    visited[v] = 1;
    level[v] = depth;
    ++count;
    const auto degree = static_cast<unsigned long long>(frontier_row_length(a_row_ptr, v));
    new_edges += degree;
    max_degree = max(max_degree, degree);
    if (parent) {
      // The SpMV proved a frontier in-neighbour exists: find the first (the
      // pull's inner loop).
      first_in_frontier(at_col_idx, at_row_ptr[v], at_row_ptr[v + 1], BitmapSet{front},
                        [&](vertex_t u, offset_t) { parent[v] = u; });
    }
  }
  add_block(count, &stats->vertices);
  add_block(new_edges, &stats->edges);
  add_block(scanned, &stats->scanned);
  max_block(max_degree, &stats->max_degree);
}

// The source is at level 0, its own parent, visited, and the whole queue:
// one launch instead of four synchronous copies.
__global__ void start_search(vertex_t source, std::int32_t* level, vertex_t* parent,
                             std::uint8_t* visited, vertex_t* queue) {
  level[source] = 0;
  if (parent) parent[source] = source;
  visited[source] = 1;
  queue[0] = source;
}

// The device-side level loop's arguments. ring[0] holds the counters of the
// frontier it starts from (in queue[0]); level k of the loop expands
// queue[k % 2] into queue[(k + 1) % 2] and accumulates into ring[k + 1],
// zeroed beforehand. m_u, prev_n_f and pulled are the direction rule's state
// at the start, as the host holds it.
struct LevelLoop {
  const offset_t* row_ptr;  // A: out-edges, for push steps and degrees
  const vertex_t* col_idx;
  const offset_t* at_row_ptr;  // Aᵀ: in-edges, for pull steps; nullptr: no pull
  const vertex_t* at_col_idx;  // steps on the device
  vertex_t n;
  std::int32_t* level;
  vertex_t* parent;  // nullptr: no parents
  std::uint8_t* visited;
  vertex_t* queue[2];
  StepStats* ring;
  int* levels_run;  // out: levels done
  std::int32_t first_depth;
  offset_t m_u;
  offset_t prev_n_f;
  bool pulled;
  BfsDirection direction;
};

// Levels until one must go to the host (a pull step where the graph has no
// device pull: in-degrees too high for a thread per vertex; a push step whose
// frontier holds a vertex of degree > kLoopMaxDegree), the search ends or
// kLoopLevels are done. A cooperative launch: every block reaches every
// grid.sync(), and all blocks take the same decisions from the same
// counters, evaluating the host's direction rule.
__global__ void __launch_bounds__(kBlock) level_loop_kernel(LevelLoop p) {
  const cg::grid_group grid = cg::this_grid();
  offset_t m_u = p.m_u, prev_n_f = p.prev_n_f;
  bool pulled = p.pulled;
  int k = 0;
  for (; k < kLoopLevels; ++k) {
    // Written by atomics before the last grid.sync(): read past the L1.
    const auto n_f = static_cast<offset_t>(__ldcg(&p.ring[k].vertices));
    const auto m_f = static_cast<offset_t>(__ldcg(&p.ring[k].edges));
    const unsigned long long max_degree = __ldcg(&p.ring[k].max_degree);
    if (n_f == 0 || m_f == 0) break;
    const bool pull = p.direction.pull(pulled, n_f, m_f, m_u, prev_n_f);
    if (pull ? p.at_row_ptr == nullptr : max_degree > kLoopMaxDegree) break;
    if (!pull && !pulled) m_u -= m_f;  // as the host's BfsLevels::step
    prev_n_f = n_f;
    pulled = pull;

    StepStats* stats = &p.ring[k + 1];
    const cuda::frontier::Next next{p.row_ptr, p.queue[(k + 1) & 1], stats};
    const std::int32_t depth = p.first_depth + k;
    const ClaimUnvisited claim{p.level, p.parent, p.visited, depth};
    cuda::frontier::Tally t;
    if (pull)
      // The frontier is the vertices at depth - 1: no bitmap to build. Only
      // v's thread writes level[v]; others may be setting level[u] to depth
      // meanwhile, which is not depth - 1 either way.
      cuda::frontier::pull_vertices(p.n, p.at_row_ptr, p.at_col_idx, LevelIs{p.level, -1},
                                    LevelIs{p.level, depth - 1}, claim, next, t);
    else
      cuda::frontier::push_chunks(n_f, p.queue[k & 1], p.row_ptr, p.col_idx, claim, next, t);
    add_block(t.edges, &stats->edges);
    max_block(t.max_degree, &stats->max_degree);
    if (pull) {
      add_block(t.scanned, &stats->scanned);
      if (blockIdx.x == 0 && threadIdx.x == 0) stats->pulled = 1;
    }
    grid.sync();
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) *p.levels_run = k;
}

// The search's device state; one object per bfs() call.
class GpuBfs {
 public:
  GpuBfs(const Graph& g, const BfsOptions& o)
      : g_(g),
        o_(o),
        n_(g.n_vertices()),
        a_(upload(g.adj(), false)),
        level_(n_),
        parent_(o.parents ? n_ : 0),
        visited_(n_),
        queue_(n_),
        next_queue_(n_),
        push_scratch_(n_),
        stats_(1),
        ring_(std::size_t{kLoopLevels} + 1),
        host_ring_(std::size_t{kLoopLevels} + 1),
        levels_run_(1),
        host_levels_run_(1) {}

  BfsResult run(vertex_t source, const Stopwatch& t0) {
    BfsResult res;
    const Stopwatch t_compute;
    double setup = 0;  // seconds of the compute phase spent preparing the pull side
    // level = parent = -1 (all bytes 0xff), visited = 0.
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(level_.data(), 0xff, sizeof(std::int32_t) * n_));
    if (o_.parents)
      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(parent_.data(), 0xff, sizeof(vertex_t) * n_));
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(visited_.data(), 0, n_));
    start_search<<<1, 1>>>(source, level_.data(), o_.parents ? parent_.data() : nullptr,
                           visited_.data(), queue_.data());
    check_launch();

    bool dense = false;  // the frontier's form: front_ (after a host pull step) or queue_
    BfsLevels r(o_, g_.adj().view(), source, res);
    const IterationReport report(o_.on_iteration, o_.progress, t0);

    // The device-side loop runs what it can unless every level must be
    // reported to the caller.
    const bool device_loop = !o_.on_iteration;
    std::int32_t depth = 1;
    while (r.more()) {
      const bool pull_step = r.pull_next();
      if (device_loop) {
        if (pull_step && !device_pull_) {
          const Stopwatch t_setup;
          prepare_device_pull();
          setup += t_setup.seconds();
        }
        if (pull_step ? *device_pull_
                      : static_cast<unsigned long long>(r.max_degree) <= kLoopMaxDegree) {
          if (dense) {
            to_queue();
            dense = false;
          }
          const int ran = level_loop(depth, r, res);
          if (ran > 0) {
            depth += ran;
            r.report(report, res);  // no callback here: it would have made device_loop false
            continue;
          }
        }
      }
      if (pull_step && !dense) {
        const Stopwatch t_setup;
        prepare_pull();
        setup += t_setup.seconds();
        to_dense(static_cast<vertex_t>(r.n_f));
        dense = true;
      } else if (!pull_step && dense) {
        to_queue();
        dense = false;
      }

      GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(stats_.data(), 0, sizeof(StepStats)));
      if (dense && tiered_)
        tiered_pull(depth);
      else if (dense)
        pull(depth);
      else
        push(static_cast<vertex_t>(r.n_f), r.m_f, depth);
      GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_ring_.data(), stats_.data(), sizeof(StepStats),
                                          cudaMemcpyDeviceToHost));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
      StepStats s = host_ring_[0];
      s.pulled = dense;
      r.step(s, depth, res);
      if (!dense) std::swap(queue_, next_queue_);
      ++depth;
      if (!r.report(report, res)) break;
    }
    res.compute_seconds = t_compute.seconds() - setup;
    // Without an SpMV operator, pull steps ran a thread per row (the
    // device-side loop's, or the tiered pull's, whose long rows go on in
    // chunks over the grid).
    res.format = pull_op_             ? pull_op_->format()
                 : res.pull_steps > 0 ? SpmvFormat::csr_thread
                                      : SpmvFormat::automatic;
    res.level = level_.download();
    if (o_.parents) res.parent = parent_.download();
    return res;
  }

 private:
  // Whether pull steps can run in the device-side loop (a thread per vertex
  // scans its in-edges: the csr-thread SpMV's layout), so only where no
  // vertex has more than
  // kLoopMaxDegree of them (roads, meshes; not a power-law graph's hubs,
  // which the SpMV operator's formats balance).
  void prepare_device_pull() {
    if (g_.directed() && at_.n_rows() == 0 && n_ > 0) at_ = device_transpose(a_);
    // The loop's pull is a thread per row of Aᵀ: csr-thread, which a caller
    // may have asked for; another format asked for runs on the host's steps.
    device_pull_ =
        (o_.format == SpmvFormat::automatic || o_.format == SpmvFormat::csr_thread) &&
        static_cast<unsigned long long>(analyze(transpose()).max_length) <= kLoopMaxDegree;
  }

  // Levels on the device (level_loop) from the queued frontier, at `depth`;
  // then the same bookkeeping as a step at a time, from the counters' ring.
  // Returns the levels done.
  int level_loop(std::int32_t depth, BfsLevels& r, BfsResult& res) {
    if (loop_blocks_ == 0)
      loop_blocks_ =
          cooperative_blocks(reinterpret_cast<const void*>(level_loop_kernel), kBlock, "bfs");
    StepStats start{};
    start.vertices = static_cast<unsigned long long>(r.n_f);
    start.edges = static_cast<unsigned long long>(r.m_f);
    start.max_degree = static_cast<unsigned long long>(r.max_degree);
    host_ring_[0] = start;
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(ring_.data(), host_ring_.data(), sizeof(StepStats),
                                        cudaMemcpyHostToDevice));
    GRAPHRUN_CUDA_CHECK(
        cudaMemsetAsync(ring_.data() + 1, 0, sizeof(StepStats) * std::size_t{kLoopLevels}));
    const bool with_pull = device_pull_.value_or(false);
    LevelLoop p{a_.row_ptr().data(),
                a_.col_idx().data(),
                with_pull ? transpose().row_ptr().data() : nullptr,
                with_pull ? transpose().col_idx().data() : nullptr,
                n_,
                level_.data(),
                o_.parents ? parent_.data() : nullptr,
                visited_.data(),
                {queue_.data(), next_queue_.data()},
                ring_.data(),
                levels_run_.data(),
                depth,
                r.m_u,
                r.prev_n_f,
                r.pulled,
                r.direction()};
    void* args[] = {&p};
    GRAPHRUN_CUDA_CHECK(
        cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(level_loop_kernel),
                                    dim3(loop_blocks_), dim3(kBlock), args, 0, nullptr));
    check_launch();
    // The whole ring (41 KB) with the count: one wait instead of two.
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_levels_run_.data(), levels_run_.data(), sizeof(int),
                                        cudaMemcpyDeviceToHost));
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(host_ring_.data(), ring_.data(),
                                        sizeof(StepStats) * (std::size_t{kLoopLevels} + 1),
                                        cudaMemcpyDeviceToHost));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    const int ran = host_levels_run_[0];
    for (int k = 0; k < ran; ++k) r.step(host_ring_[std::size_t(k) + 1], depth + k, res);
    if (ran % 2 == 1) std::swap(queue_, next_queue_);
    return ran;
  }

  void push(vertex_t nq, offset_t total, std::int32_t depth) {
    cuda::advance_push(a_, queue_.data(), nq, total,
                       ClaimUnvisited{level_.data(), o_.parents ? parent_.data() : nullptr,
                                      visited_.data(), depth},
                       next_queue_.data(), stats_.data(), push_scratch_);
  }

  void pull(std::int32_t depth) {
    pull_op_->apply<OrAnd>(front_.data(), next_.data(), Mask{visited_.data(), true});
    const DeviceCsr<double>& at = transpose();
    pull_collect<<<grid_for(n_, kBlock), kBlock>>>(
        n_, depth, front_.data(), next_.data(), visited_.data(), level_.data(),
        o_.parents ? parent_.data() : nullptr, a_.row_ptr().data(), at.row_ptr().data(),
        at.col_idx().data(), stats_.data());
    check_launch();
    std::swap(front_, next_);
  }

  // The tiered pull: the rows of Aᵀ from the frontier bytes front_ into
  // next_, each stopping at its first hit.
  void tiered_pull(std::int32_t depth) {
    const DeviceCsr<double>& at = transpose();
    bfs_pull::Step s{};
    s.n = n_;
    s.depth = depth;
    s.front = front_.data();
    s.next = next_.data();
    s.visited = visited_.data();
    s.level = level_.data();
    s.parent = o_.parents ? parent_.data() : nullptr;
    s.a_row_ptr = a_.row_ptr().data();
    s.at_row_ptr = at.row_ptr().data();
    s.at_col_idx = at.col_idx().data();
    s.counts = stats_.data();
    tiered_->run(s);
    std::swap(front_, next_);
  }

  // Aᵀ, the pull's kernel and the dense frontier vectors, on first use.
  // Automatic (and csr-thread) pull steps outside the device-side loop run
  // the tiered pull (bfs_pull.cuh), whose rows stop at their first frontier
  // in-neighbour; a format asked for runs the SpMV operator's masked
  // product, which reads whole rows.
  void prepare_pull() {
    if (pull_op_ || tiered_) return;
    // Built on the device from A, already there: no host transpose, no upload.
    if (g_.directed() && at_.n_rows() == 0 && n_ > 0) at_ = device_transpose(a_);
    if (o_.format == SpmvFormat::automatic || o_.format == SpmvFormat::csr_thread)
      tiered_.emplace(n_, transpose().nnz());
    else
      // Its x is the frontier, a byte a vertex (SELL sizes its column parts
      // by the gathers).
      pull_op_.emplace(transpose(), o_.format, 0, DeviceArray<vertex_t>{}, RowOrder::as_loaded,
                       cuda::SpmvLayoutHints{static_cast<int>(sizeof(OrAnd::value_type))});
    front_ = DeviceArray<std::uint8_t>(n_);
    next_ = DeviceArray<std::uint8_t>(n_);
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(next_.data(), 0, n_));
  }

  const DeviceCsr<double>& transpose() const { return g_.directed() ? at_ : a_; }

  void to_dense(vertex_t nq) { cuda::queue_to_bitmap(queue_.data(), nq, front_.data(), n_); }

  void to_queue() {
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(stats_.data(), 0, sizeof(StepStats)));
    cuda::bitmap_to_queue(front_.data(), n_, queue_.data(), &stats_.data()->vertices);
  }

  const Graph& g_;
  const BfsOptions& o_;
  vertex_t n_;
  DeviceCsr<double> a_, at_;
  DeviceArray<std::int32_t> level_;
  DeviceArray<vertex_t> parent_;
  DeviceArray<std::uint8_t> visited_;
  DeviceArray<vertex_t> queue_, next_queue_;
  cuda::PushScratch push_scratch_;
  DeviceArray<StepStats> stats_;
  // The device-side loop's counters, one per level; host_ring_[0] also
  // takes the counters of a step outside the loop.
  DeviceArray<StepStats> ring_;
  Pinned<StepStats> host_ring_;
  DeviceArray<int> levels_run_;
  Pinned<int> host_levels_run_;
  unsigned loop_blocks_ = 0;
  std::optional<bool> device_pull_;  // pull steps in the device-side loop; decided on first need
  std::optional<cuda::SpmvOperator<double>> pull_op_;
  std::optional<bfs_pull::TieredPull> tiered_;
  DeviceArray<std::uint8_t> front_, next_;
};

}  // namespace

BfsResult CudaSteps::bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options) {
  const Stopwatch t0;
  use_device(ctx, "bfs");
  GpuBfs search(g, options);
  BfsResult res = search.run(source, t0);
  res.seconds = t0.seconds();
  return res;
}

}  // namespace graphrun::detail
