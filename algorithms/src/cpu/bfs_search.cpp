// Breadth-first search on the CPU (the driver is bfs.cpp), over the
// frontier operator of the kernels (graphrun/kernels/cpu/frontier.hpp):
// push steps advance a vertex queue, claiming unvisited targets; pull steps
// let every unvisited vertex find its first in-neighbour in the frontier
// bitmap. The books are bfs_levels.hpp's, shared with the GPU's loop.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "../bfs_levels.hpp"
#include "cpu_backend.hpp"
#include "graphrun/engine/host_trace.hpp"
#include "graphrun/engine/prefault.hpp"
#include "graphrun/engine/stopwatch.hpp"
#include "graphrun/kernels/cpu/frontier.hpp"
#include "graphrun/kernels/frontier.hpp"

namespace graphrun::detail {

namespace {

class CpuBfs {
 public:
  CpuBfs(const Context& ctx, const Graph& g, const BfsOptions& o)
      : g_(g), o_(o), a_(g.adj().view()), n_(g.n_vertices()), threads_(ctx.threads()) {}

  BfsResult run(vertex_t source) {
    const Stopwatch t0;
    HostTrace trace("bfs");  // GRAPHRUN_TRACE: the set-up and each step
    BfsResult res;
    // Faulted in on every core first (prefault.hpp): at 16 threads a
    // search of a few hundred thousand vertices takes about a millisecond.
    res.level = prefaulted_vector<std::int32_t>(static_cast<std::size_t>(n_), -1);
    trace.step("levels allocated");
    if (o_.parents) res.parent = prefaulted_vector<vertex_t>(static_cast<std::size_t>(n_), -1);

    res.level[source] = 0;
    if (o_.parents) res.parent[source] = source;
    // Room for every vertex (each is claimed once): no step grows a queue.
    queue_.reserve(static_cast<std::size_t>(n_));
    next_queue_.reserve(static_cast<std::size_t>(n_));
    queue_.clear();
    queue_.push_back(source);
    bool dense = false;  // frontier representation: queue_ (push) or front_ (pull)
    BfsLevels levels(o_, a_, source, res);
    const IterationReport report(o_.on_iteration, o_.progress, t0);
    trace.step("set up");

    for (std::int32_t depth = 1; levels.more(); ++depth) {
      // Choose the direction of this step.
      const bool pull_step = levels.pull_next();
      if (pull_step && !dense) {
        to_dense(res.level.data(), depth - 1);
        dense = true;
      } else if (!pull_step && dense) {
        cpu::bitmap_to_queue(front_.data(), n_, queue_, threads_);
        dense = false;
      }
      FrontierCounts c = dense ? pull(res, depth) : push(res, depth);
      c.pulled = dense;
      if (HostTrace::enabled())
        trace.step(("level " + std::to_string(depth) + (dense ? " pull" : " push")).c_str());
      levels.step(c, depth, res);
      if (!levels.report(report, res)) break;
    }
    res.seconds = t0.seconds();
    return res;
  }

 private:
  // Top-down step over queue_: claim unvisited out-neighbours. Unvisited is
  // level -1, for the pull's filter too: no separate visited bytes (one
  // random write fewer per vertex claimed; the GPU's pull SpMV keeps them as
  // its mask).
  FrontierCounts push(BfsResult& res, std::int32_t depth) {
    const ClaimUnvisited claim{res.level.data(), o_.parents ? res.parent.data() : nullptr, nullptr,
                               depth};
    const FrontierCounts c = cpu::advance_push(a_, queue_, next_queue_, claim, threads_);
    queue_.swap(next_queue_);
    return c;
  }

  // Bottom-up step: every unvisited vertex looks for an in-neighbour in
  // front_ (packed, a bit per vertex: its random lookups stay in cache);
  // next_ becomes the new frontier. Only v's thread writes v's state: no
  // atomics.
  FrontierCounts pull(BfsResult& res, std::int32_t depth) {
    std::int32_t* level = res.level.data();
    vertex_t* parent = o_.parents ? res.parent.data() : nullptr;
    const auto reach = [level, parent, depth](vertex_t u, vertex_t v) {
      level[v] = depth;
      if (parent) parent[v] = u;
      return true;
    };
    const FrontierCounts c =
        cpu::advance_pull(transpose(), a_.row_ptr, LevelIs{level, -1}, PackedBitsSet{front_.data()},
                          reach, next_.data(), threads_);
    front_.swap(next_);
    return c;
  }

  const CsrView<double>& transpose() {
    // BFS follows structure: a pattern view, so a stored zero weight still
    // counts as an edge (as in push steps) and no values are read.
    if (at_.row_ptr == nullptr) {
      at_ = g_.transpose().view();
      at_.values = nullptr;
    }
    return at_;
  }

  // front_ = the queue's vertices, which are those of level `last`. A
  // frontier of many vertices is read off the levels instead: every
  // vertex's level compared, each thread writing whole words, where the
  // queue's vertices set random bits of shared words by atomic ors, which
  // on a small graph are a few cache lines fought over by every thread
  // (Cornell5, 18,660 vertices, a frontier of 7,845: 57 us of a 0.44 ms
  // search on 2 threads).
  void to_dense(const std::int32_t* level, std::int32_t last) {
    if (front_.size() != packed_words(n_)) {
      front_.resize(packed_words(n_));
      next_.resize(packed_words(n_));
    }
    if (queue_.size() >= static_cast<std::size_t>(n_) / dense_share)
      cpu::equal_to_bitmap(level, last, front_.data(), n_, threads_);
    else
      cpu::queue_to_bitmap(queue_, front_.data(), n_, threads_);
    queue_.clear();
  }
  // A queue of at least 1/dense_share of the vertices is made a bitmap from
  // the levels: a pass over them costs about what the atomic ors of that
  // many random vertices do.
  static constexpr vertex_t dense_share = 32;

  const Graph& g_;
  const BfsOptions& o_;
  CsrView<double> a_;
  CsrView<double> at_{};
  vertex_t n_;
  int threads_;
  cpu::VertexQueue queue_, next_queue_;
  std::vector<std::uint64_t> front_, next_;  // packed bitmaps
};

}  // namespace

BfsResult CpuSteps::bfs(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options) {
  return CpuBfs(ctx, g, options).run(source);
}

}  // namespace graphrun::detail
