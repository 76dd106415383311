// Louvain's local moving on the GPU (louvain.hpp): the CPU's sweeps
// (cpu/louvain.cpp) step for step, so that both reach the same
// communities and the same bits (backend.hpp states the shared rules).
//
// Once per level: the members of the 16 groups, and for each group the list
// of its members' edges (loops left out; neighbour and weight), member by
// member in storage order. Per group of a sweep:
//   1. keys: every edge (v, u) of the group gets (v's place in the group,
//      community of u); a stable radix sort (CUB) carries the weights along
//      and puts each member's edges together, grouped by community, each
//      group of edges still in storage order;
//   2. decide: a tile of lanes per member (1 to 32, from the group's mean
//      row length) walks its sorted edges; the lane that meets the start of
//      a run adds the run up alone, in order, so that w(v, c) is the CPU's
//      sum to the bit. Each lane keeps its best community by the CPU's rule
//      (the largest gain; the lowest id among equals; two singletons join
//      only towards the lower id), and the tile reduces the lanes' bests by
//      the same total order, then keeps the own community unless another is
//      strictly better;
//   3. apply: the moves' events (-k_v from the old community, +k_v to the
//      new, in vertex order; members that stay sort after every community)
//      sorted stably by community; a thread per community applies its run
//      in order, as the CPU's serial loop does.
// The group's decisions all read the state before the group, as on the CPU.
// After a sweep, Q: the inner weight of each vertex (a thread per vertex, in
// storage order), the block sums of louvain_sum_block vertices (a thread
// per block), the blocks added in order by one thread, as the CPU adds them.
// Every size in a sweep is known before it starts, so the sweep is captured
// once per level as a CUDA graph: one launch and one read-back (Q and the
// moves) a sweep. With a read-back per group (the moves' count, which sized
// the events' sort) a sweep cost ~5 ms on an H200 whatever the level's size.
// The arithmetic is written with the _rn intrinsics where a product meets a
// sum, so that nvcc does not fuse them into an FMA the CPU does not do.
#include <cooperative_groups.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "edge_keys.cuh"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/host_trace.hpp"

namespace graphrun::detail {

namespace {

namespace cg = cooperative_groups;

constexpr int block_size = 256;

using Key = unsigned long long;

// The lengths of the members' rows without their loops.
__global__ void member_lengths(const vertex_t* members, vertex_t count, const offset_t* row_ptr,
                               const vertex_t* col_idx, offset_t* length) {
  for (vertex_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const vertex_t v = members[i];
    offset_t len = 0;
    for (offset_t e = row_ptr[v]; e < row_ptr[v + 1]; ++e) len += col_idx[e] != v;
    length[i] = len;
  }
}

// The group's edge list: neighbour[j] and weight[j] of the edge, owner[j]
// the member's place in the group.
__global__ void member_entries(const vertex_t* members, vertex_t count, const offset_t* row_ptr,
                               const vertex_t* col_idx, const double* values, const offset_t* at,
                               vertex_t* neighbour, double* weight, std::uint32_t* owner) {
  for (vertex_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const vertex_t v = members[i];
    offset_t j = at[i];
    for (offset_t e = row_ptr[v]; e < row_ptr[v + 1]; ++e)
      if (col_idx[e] != v) {
        neighbour[j] = col_idx[e];
        weight[j] = values[e];
        owner[j] = static_cast<std::uint32_t>(i);
        ++j;
      }
  }
}

__global__ void make_keys(const vertex_t* neighbour, const std::uint32_t* owner, offset_t m,
                          const vertex_t* community, int community_bits, Key* keys) {
  for (offset_t j = blockIdx.x * static_cast<offset_t>(blockDim.x) + threadIdx.x; j < m;
       j += static_cast<offset_t>(gridDim.x) * blockDim.x)
    keys[j] = (static_cast<Key>(owner[j]) << community_bits) |
              static_cast<Key>(static_cast<std::uint32_t>(community[neighbour[j]]));
}

struct Decide {
  const vertex_t* members;
  vertex_t count;
  // The members' runs of sorted keys: at[i] - base .. at[i + 1] - base.
  const offset_t* at;
  offset_t base;
  const Key* keys;
  const double* weight;  // the sorted keys' weights
  const double* k;
  const double* tot;
  const vertex_t* size;
  const vertex_t* community;
  Key community_mask;
  double two_m, gamma;
  vertex_t* target;
};

// A lane's best community so far: the larger gain wins, the lower id among
// equal gains (best < 0: none yet). A total order, so the tile's reduction
// picks what the CPU's walk in community order picks.
struct Best {
  double gain;
  vertex_t community;
};

__device__ Best better(Best a, Best b) {
  if (a.community < 0) return b;
  if (b.community < 0) return a;
  if (b.gain > a.gain || (b.gain == a.gain && b.community < a.community)) return b;
  return a;
}

template <int Tile>
__global__ void decide(Decide d) {
  const auto tile = cg::tiled_partition<Tile>(cg::this_thread_block());
  const vertex_t tiles = gridDim.x * (blockDim.x / Tile);
  for (vertex_t i = blockIdx.x * (blockDim.x / Tile) + threadIdx.x / Tile; i < d.count;
       i += tiles) {
    const vertex_t v = d.members[i];
    const vertex_t own = d.community[v];
    const double kv = d.k[v];
    const double gamma_kv = __dmul_rn(d.gamma, kv);
    const bool alone = d.size[own] == 1;
    const offset_t begin = d.at[i] - d.base, end = d.at[i + 1] - d.base;
    double w_own = 0;
    bool has_own = false;
    Best best{0, -1};
    for (offset_t p = begin + tile.thread_rank(); p < end; p += Tile) {
      const auto c = static_cast<vertex_t>(d.keys[p] & d.community_mask);
      if (p > begin && static_cast<vertex_t>(d.keys[p - 1] & d.community_mask) == c) continue;
      double w = 0;
      offset_t q = p;
      do {
        w = __dadd_rn(w, d.weight[q]);
        ++q;
      } while (q < end && static_cast<vertex_t>(d.keys[q] & d.community_mask) == c);
      if (c == own) {
        w_own = w;
        has_own = true;
        continue;
      }
      if (alone && d.size[c] == 1 && c > own) continue;
      best = better(best, {__dsub_rn(w, __ddiv_rn(__dmul_rn(gamma_kv, d.tot[c]), d.two_m)), c});
    }
    // The own community's sum from the lane that met it (at most one).
    const unsigned holder = tile.ballot(has_own);
    if (holder != 0) w_own = tile.shfl(w_own, __ffs(holder) - 1);
    for (int offset = Tile / 2; offset > 0; offset /= 2)
      best =
          better(best, {tile.shfl_down(best.gain, offset), tile.shfl_down(best.community, offset)});
    if (tile.thread_rank() == 0) {
      const double own_gain =
          __dsub_rn(w_own, __ddiv_rn(__dmul_rn(gamma_kv, __dsub_rn(d.tot[own], kv)), d.two_m));
      const vertex_t to = best.community >= 0 && best.gain > own_gain ? best.community : own;
      d.target[i] = to;
    }
  }
}

// The tile for a group whose members have `mean` edges each: about one lane
// per edge, at most a warp.
int tile_for(double mean) {
  int tile = 1;
  while (tile < 32 && tile < mean) tile *= 2;
  return tile;
}

void launch_decide(int tile, vertex_t count, const Decide& d, cudaStream_t stream) {
  const auto grid = [&](int t) { return grid_for(count, block_size / t); };
  switch (tile) {
    case 1:
      decide<1><<<grid(1), block_size, 0, stream>>>(d);
      break;
    case 2:
      decide<2><<<grid(2), block_size, 0, stream>>>(d);
      break;
    case 4:
      decide<4><<<grid(4), block_size, 0, stream>>>(d);
      break;
    case 8:
      decide<8><<<grid(8), block_size, 0, stream>>>(d);
      break;
    case 16:
      decide<16><<<grid(16), block_size, 0, stream>>>(d);
      break;
    default:
      decide<32><<<grid(32), block_size, 0, stream>>>(d);
      break;
  }
  check_launch();
}

// Two events per member i of the group (events 2i and 2i + 1, in member
// order): leaving its community, joining the new one; a member that stays
// gets the key `stays`, above every community, so that its events sort
// last and are passed over. Keeping every member's place (no compaction)
// leaves the sizes fixed, so that a sweep needs no count read back; the
// moves are counted on the device for the sweep's end.
__global__ void move_events(const vertex_t* members, vertex_t count, const vertex_t* target,
                            const vertex_t* community, Key stays, Key* keys, std::uint32_t* events,
                            unsigned long long* moved) {
  const vertex_t stride = gridDim.x * blockDim.x;
  // Whole warps walk the loop together, so that the ballot below counts.
  const vertex_t rounds = (count + stride - 1) / stride;
  for (vertex_t r = 0; r < rounds; ++r) {
    const vertex_t i = r * stride + blockIdx.x * blockDim.x + threadIdx.x;
    bool moves = false;
    if (i < count) {
      const vertex_t from = community[members[i]];
      moves = target[i] != from;
      keys[2 * i] = moves ? static_cast<Key>(static_cast<std::uint32_t>(from)) : stays;
      keys[2 * i + 1] = moves ? static_cast<Key>(static_cast<std::uint32_t>(target[i])) : stays;
      events[2 * i] = 2 * static_cast<std::uint32_t>(i);
      events[2 * i + 1] = 2 * static_cast<std::uint32_t>(i) + 1;
    }
    const unsigned ballot = __ballot_sync(0xffffffffu, moves);
    if (threadIdx.x % 32 == 0 && ballot != 0) atomicAdd(moved, __popc(ballot));
  }
}

// A thread per community run of the sorted events: its total, changed in
// vertex order.
__global__ void apply_totals(const Key* keys, const std::uint32_t* events, vertex_t n_events,
                             Key stays, const vertex_t* members, const double* k, double* tot) {
  for (vertex_t p = blockIdx.x * blockDim.x + threadIdx.x; p < n_events;
       p += gridDim.x * blockDim.x) {
    if (keys[p] == stays || (p > 0 && keys[p - 1] == keys[p])) continue;
    const auto c = static_cast<vertex_t>(keys[p]);
    double t = tot[c];
    for (vertex_t q = p; q < n_events && keys[q] == keys[p]; ++q) {
      const std::uint32_t event = events[q];
      const double kv = k[members[event / 2]];
      t = event % 2 == 0 ? __dsub_rn(t, kv) : __dadd_rn(t, kv);
    }
    tot[c] = t;
  }
}

__global__ void apply_moves(const vertex_t* members, vertex_t count, const vertex_t* target,
                            vertex_t* community, vertex_t* size) {
  for (vertex_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const vertex_t v = members[i];
    if (target[i] == community[v]) continue;
    atomicSub(size + community[v], 1);
    atomicAdd(size + target[i], 1);
    community[v] = target[i];
  }
}

// inner[v]: the weight of v's edges inside its community, in storage order.
__global__ void inner_weights(const offset_t* row_ptr, const vertex_t* col_idx,
                              const double* values, const vertex_t* community, vertex_t n,
                              double* inner) {
  for (vertex_t v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    double x = 0;
    for (offset_t e = row_ptr[v]; e < row_ptr[v + 1]; ++e)
      if (community[col_idx[e]] == community[v]) x = __dadd_rn(x, values[e]);
    inner[v] = x;
  }
}

__global__ void block_sums(const double* inner, const double* tot, vertex_t n, double two_m,
                           double gamma, double* in_sum, double* out_sum) {
  const vertex_t blocks = (n + louvain_sum_block - 1) / louvain_sum_block;
  for (vertex_t b = blockIdx.x * blockDim.x + threadIdx.x; b < blocks;
       b += gridDim.x * blockDim.x) {
    double in = 0, out = 0;
    const vertex_t last = min(n, (b + 1) * louvain_sum_block);
    for (vertex_t v = b * louvain_sum_block; v < last; ++v) {
      in = __dadd_rn(in, __ddiv_rn(inner[v], two_m));
      const double share = __ddiv_rn(tot[v], two_m);
      out = __dadd_rn(out, __dmul_rn(__dmul_rn(gamma, share), share));
    }
    in_sum[b] = in;
    out_sum[b] = out;
  }
}

// bounds[g] = at[firsts[g]]: where each group's edges start.
__global__ void gather_offsets(const offset_t* at, const vertex_t* firsts, int count,
                               offset_t* bounds) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < count) bounds[g] = at[firsts[g]];
}

// Q from the block sums, added in block order as the CPU adds them, and
// the sweep's result for the host in one piece.
struct SweepResult {
  double q;
  unsigned long long moved;
};

__global__ void sum_blocks(const double* in_sum, const double* out_sum, vertex_t blocks,
                           SweepResult* result) {
  double q = 0;
  for (vertex_t b = 0; b < blocks; ++b) q = __dadd_rn(q, in_sum[b]);
  for (vertex_t b = 0; b < blocks; ++b) q = __dsub_rn(q, out_sum[b]);
  result->q = q;
}

// A group of a sweep: its members are members[first .. first + count),
// their edges entries[base .. base + m) of the level's edge list.
struct Group {
  vertex_t first = 0, count = 0;
  offset_t base = 0, m = 0;
};

// A stream, and the sweep captured on it as a CUDA graph: one launch and one
// read-back a sweep, where the sweep's 16 groups would otherwise cost ~100
// launches and a round trip each.
class SweepGraph {
 public:
  SweepGraph() { GRAPHRUN_CUDA_CHECK(cudaStreamCreate(&stream_)); }
  ~SweepGraph() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
    cudaStreamDestroy(stream_);
  }
  SweepGraph(const SweepGraph&) = delete;
  SweepGraph& operator=(const SweepGraph&) = delete;

  cudaStream_t stream() const noexcept { return stream_; }

  // Records what enqueue(stream) puts on the stream.
  template <class Enqueue>
  void capture(Enqueue&& enqueue) {
    GRAPHRUN_CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue(stream_);
    } catch (...) {
      cudaGraph_t partial = nullptr;
      cudaStreamEndCapture(stream_, &partial);
      if (partial != nullptr) cudaGraphDestroy(partial);
      throw;
    }
    GRAPHRUN_CUDA_CHECK(cudaStreamEndCapture(stream_, &graph_));
    GRAPHRUN_CUDA_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }

  void launch_and_wait() {
    GRAPHRUN_CUDA_CHECK(cudaGraphLaunch(exec_, stream_));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

 private:
  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

int bits_for(std::uint64_t x) { return std::max(1, static_cast<int>(std::bit_width(x))); }

}  // namespace

LouvainMoves CudaSteps::louvain_moves(Context& ctx, const LouvainLevel& level,
                                      const LouvainOptions& options) {
  use_device(ctx, "louvain");
  const vertex_t n = level.w.n_rows();
  const auto size_n = static_cast<std::size_t>(n);
  const double two_m = level.two_m, gamma = options.resolution;
  LouvainMoves r;
  if (n == 0) return r;
  HostTrace trace("louvain gpu");  // GRAPHRUN_TRACE: the level's set-up and its sweeps

  // The start, on the host as the CPU makes it (the same sums in order).
  const LouvainStart start = louvain_start(level, options.seed);
  std::vector<vertex_t> members;
  members.reserve(size_n);
  std::vector<Group> groups(louvain_batches);
  std::vector<vertex_t> firsts(louvain_batches + 1);
  for (int g = 0; g < louvain_batches; ++g) {
    groups[g].first = firsts[g] = static_cast<vertex_t>(members.size());
    groups[g].count = static_cast<vertex_t>(start.group[g].size());
    members.insert(members.end(), start.group[g].begin(), start.group[g].end());
  }
  firsts[louvain_batches] = n;

  trace.step("start on the host");
  const DeviceCsr<double> w = upload(level.w, true);
  const offset_t* row_ptr = w.row_ptr().data();
  const vertex_t* col_idx = w.col_idx().data();
  const double* values = w.values().data();
  const DeviceArray<double> d_k{level.k};
  DeviceArray<double> d_tot{std::span<const double>(start.tot)};
  DeviceArray<vertex_t> d_size{std::span<const vertex_t>(start.size)};
  DeviceArray<vertex_t> d_community{std::span<const vertex_t>(start.community)};
  const DeviceArray<vertex_t> d_members{std::span<const vertex_t>(members)};

  // The level's edge list, once: every member's edges (loops left out) in
  // group order, member by member in storage order; at[i], where member i's
  // edges start, from one scan, and the groups' bounds in one read-back.
  DeviceArray<offset_t> at(size_n + 1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(at.data(), 0, at.size() * sizeof(offset_t)));
  member_lengths<<<grid_for(n, block_size), block_size>>>(d_members.data(), n, row_ptr, col_idx,
                                                          at.data());
  check_launch();
  with_scratch([&](void* p, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(p, bytes, at.data(), at.data(), n + 1);
  });
  {
    const DeviceArray<vertex_t> d_firsts{std::span<const vertex_t>(firsts)};
    DeviceArray<offset_t> d_bounds(firsts.size());
    gather_offsets<<<1, louvain_batches + 1>>>(at.data(), d_firsts.data(), louvain_batches + 1,
                                               d_bounds.data());
    check_launch();
    const std::vector<offset_t> bounds = d_bounds.download();
    for (int g = 0; g < louvain_batches; ++g) {
      groups[g].base = bounds[g];
      groups[g].m = bounds[g + 1] - bounds[g];
      if (groups[g].m > static_cast<offset_t>(UINT32_MAX))
        throw DeviceError("louvain: a group of " + std::to_string(groups[g].m) +
                          " edges is beyond the GPU version's 2^32 per group");
    }
  }
  const auto entries = static_cast<std::size_t>(groups.back().base + groups.back().m);
  DeviceArray<vertex_t> neighbour(entries);
  DeviceArray<double> weight(entries);
  DeviceArray<std::uint32_t> owner(entries);
  offset_t most_edges = 0;
  vertex_t most_members = 0;
  for (const Group& grp : groups) {
    if (grp.count == 0) continue;
    // owner: the member's place in its group, which keeps the sort's keys short.
    member_entries<<<grid_for(grp.count, block_size), block_size>>>(
        d_members.data() + grp.first, grp.count, row_ptr, col_idx, values, at.data() + grp.first,
        neighbour.data(), weight.data(), owner.data());
    check_launch();
    most_edges = std::max(most_edges, grp.m);
    most_members = std::max(most_members, grp.count);
  }

  trace.step("upload and edge list");
  const int community_bits = bits_for(static_cast<std::uint64_t>(n - 1));
  const int key_bits = community_bits + bits_for(static_cast<std::uint64_t>(most_members));
  const Key community_mask = (Key{1} << community_bits) - 1;
  const Key stays = Key{1} << community_bits;  // above every community
  const auto edges_size = static_cast<std::size_t>(most_edges);
  DeviceArray<Key> keys(edges_size), sorted_keys(edges_size);
  DeviceArray<double> sorted_weight(edges_size);
  const auto members_size = static_cast<std::size_t>(most_members);
  DeviceArray<vertex_t> target(members_size);
  DeviceArray<Key> event_keys(2 * members_size), sorted_event_keys(2 * members_size);
  DeviceArray<std::uint32_t> events(2 * members_size), sorted_events(2 * members_size);

  const vertex_t blocks = (n + louvain_sum_block - 1) / louvain_sum_block;
  DeviceArray<double> inner(size_n), in_sum(static_cast<std::size_t>(blocks)),
      out_sum(static_cast<std::size_t>(blocks));
  DeviceArray<SweepResult> d_result(1);
  Pinned<SweepResult> result(1);

  // The sorts' scratch, sized before the capture (no allocation inside it).
  std::size_t scratch_bytes = 0;
  for (const Group& grp : groups) {
    if (grp.m == 0) continue;
    std::size_t bytes = 0;
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.data(),
                                                        sorted_keys.data(), weight.data(),
                                                        sorted_weight.data(), grp.m, 0, key_bits));
    scratch_bytes = std::max(scratch_bytes, bytes);
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
        nullptr, bytes, event_keys.data(), sorted_event_keys.data(), events.data(),
        sorted_events.data(), 2 * grp.count, 0, community_bits + 1));
    scratch_bytes = std::max(scratch_bytes, bytes);
  }
  DeviceBuffer scratch(std::max<std::size_t>(scratch_bytes, 1));

  // Q of the communities as they stand, into d_result.
  auto modularity = [&](cudaStream_t stream) {
    inner_weights<<<grid_for(n, block_size), block_size, 0, stream>>>(
        row_ptr, col_idx, values, d_community.data(), n, inner.data());
    check_launch();
    block_sums<<<grid_for(blocks, block_size), block_size, 0, stream>>>(
        inner.data(), d_tot.data(), n, two_m, gamma, in_sum.data(), out_sum.data());
    check_launch();
    sum_blocks<<<1, 1, 0, stream>>>(in_sum.data(), out_sum.data(), blocks, d_result.data());
    check_launch();
  };

  // One sweep: the groups in order, then Q; the moves counted on the device.
  auto sweep = [&](cudaStream_t stream) {
    GRAPHRUN_CUDA_CHECK(
        cudaMemsetAsync(&d_result.data()->moved, 0, sizeof(unsigned long long), stream));
    for (const Group& grp : groups) {
      if (grp.m == 0) continue;  // members with no edges but loops stay
      const vertex_t* mem = d_members.data() + grp.first;
      make_keys<<<grid_for(grp.m, block_size), block_size, 0, stream>>>(
          neighbour.data() + grp.base, owner.data() + grp.base, grp.m, d_community.data(),
          community_bits, keys.data());
      check_launch();
      std::size_t bytes = scratch.bytes();
      GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
          scratch.data(), bytes, keys.data(), sorted_keys.data(), weight.data() + grp.base,
          sorted_weight.data(), grp.m, 0, key_bits, stream));
      launch_decide(tile_for(static_cast<double>(grp.m) / grp.count), grp.count,
                    {.members = mem,
                     .count = grp.count,
                     .at = at.data() + grp.first,
                     .base = grp.base,
                     .keys = sorted_keys.data(),
                     .weight = sorted_weight.data(),
                     .k = d_k.data(),
                     .tot = d_tot.data(),
                     .size = d_size.data(),
                     .community = d_community.data(),
                     .community_mask = community_mask,
                     .two_m = two_m,
                     .gamma = gamma,
                     .target = target.data()},
                    stream);
      const unsigned member_grid = grid_for(grp.count, block_size);
      move_events<<<member_grid, block_size, 0, stream>>>(
          mem, grp.count, target.data(), d_community.data(), stays, event_keys.data(),
          events.data(), &d_result.data()->moved);
      check_launch();
      bytes = scratch.bytes();
      GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
          scratch.data(), bytes, event_keys.data(), sorted_event_keys.data(), events.data(),
          sorted_events.data(), 2 * grp.count, 0, community_bits + 1, stream));
      apply_totals<<<grid_for(2 * grp.count, block_size), block_size, 0, stream>>>(
          sorted_event_keys.data(), sorted_events.data(), 2 * grp.count, stays, mem, d_k.data(),
          d_tot.data());
      check_launch();
      apply_moves<<<member_grid, block_size, 0, stream>>>(mem, grp.count, target.data(),
                                                          d_community.data(), d_size.data());
      check_launch();
    }
    modularity(stream);
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(result.data(), d_result.data(), sizeof(SweepResult),
                                        cudaMemcpyDeviceToHost, stream));
  };

  SweepGraph graph;
  modularity(graph.stream());
  GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(result.data(), d_result.data(), sizeof(SweepResult),
                                      cudaMemcpyDeviceToHost, graph.stream()));
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(graph.stream()));
  double q = result[0].q;
  trace.step("buffers and first Q");
  graph.capture(sweep);
  trace.step("capture");
  for (;;) {
    graph.launch_and_wait();
    const offset_t moved_in_sweep = static_cast<offset_t>(result[0].moved);
    ++r.sweeps;
    r.moves += moved_in_sweep;
    const double next = result[0].q;
    const double gained = next - q;
    q = next;
    if (moved_in_sweep == 0 || gained < options.tolerance) break;
  }
  trace.step("sweeps");
  r.modularity = q;
  r.community = d_community.download();
  return r;
}

}  // namespace graphrun::detail
