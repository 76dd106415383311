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
//      new, in vertex order) sorted stably by community; a thread per
//      community applies its run in order, as the CPU's serial loop does.
// The group's decisions all read the state before the group, as on the CPU.
// After a sweep, Q: the inner weight of each vertex (a thread per vertex, in
// storage order), the block sums of louvain_sum_block vertices (a thread
// per block), the blocks added on the host in order.
// The arithmetic is written with the _rn intrinsics where a product meets a
// sum, so that nvcc does not fuse them into an FMA the CPU does not do.
#include <cooperative_groups.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <vector>

#include "cuda_backend.hpp"
#include "device_util.cuh"
#include "edge_keys.cuh"
#include "graphrun/engine/device_array.hpp"

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
  const offset_t* at;  // the members' runs of sorted keys: at[i] .. at[i + 1]
  const Key* keys;
  const double* weight;  // the sorted keys' weights
  const double* k;
  const double* tot;
  const vertex_t* size;
  const vertex_t* community;
  Key community_mask;
  double two_m, gamma;
  vertex_t* target;
  std::uint8_t* moves;
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
    const offset_t begin = d.at[i], end = d.at[i + 1];
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
      d.moves[i] = to != own;
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

void launch_decide(int tile, vertex_t count, const Decide& d) {
  const auto grid = [&](int t) { return grid_for(count, block_size / t); };
  switch (tile) {
    case 1:
      decide<1><<<grid(1), block_size>>>(d);
      break;
    case 2:
      decide<2><<<grid(2), block_size>>>(d);
      break;
    case 4:
      decide<4><<<grid(4), block_size>>>(d);
      break;
    case 8:
      decide<8><<<grid(8), block_size>>>(d);
      break;
    case 16:
      decide<16><<<grid(16), block_size>>>(d);
      break;
    default:
      decide<32><<<grid(32), block_size>>>(d);
      break;
  }
  check_launch();
}

// Two events per moved member j (its place in the group: moved[j]), in
// member order: leaving its community, joining the new one.
__global__ void move_events(const std::uint32_t* moved, vertex_t n_moved, const vertex_t* members,
                            const vertex_t* target, const vertex_t* community, Key* keys,
                            std::uint32_t* events) {
  for (vertex_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n_moved;
       j += gridDim.x * blockDim.x) {
    const std::uint32_t i = moved[j];
    keys[2 * j] = static_cast<Key>(static_cast<std::uint32_t>(community[members[i]]));
    keys[2 * j + 1] = static_cast<Key>(static_cast<std::uint32_t>(target[i]));
    events[2 * j] = 2 * static_cast<std::uint32_t>(j);
    events[2 * j + 1] = 2 * static_cast<std::uint32_t>(j) + 1;
  }
}

// A thread per community run of the sorted events: its total, changed in
// vertex order.
__global__ void apply_totals(const Key* keys, const std::uint32_t* events, vertex_t n_events,
                             const std::uint32_t* moved, const vertex_t* members, const double* k,
                             double* tot) {
  for (vertex_t p = blockIdx.x * blockDim.x + threadIdx.x; p < n_events;
       p += gridDim.x * blockDim.x) {
    if (p > 0 && keys[p - 1] == keys[p]) continue;
    const auto c = static_cast<vertex_t>(keys[p]);
    double t = tot[c];
    for (vertex_t q = p; q < n_events && keys[q] == keys[p]; ++q) {
      const std::uint32_t event = events[q];
      const double kv = k[members[moved[event / 2]]];
      t = event % 2 == 0 ? __dsub_rn(t, kv) : __dadd_rn(t, kv);
    }
    tot[c] = t;
  }
}

__global__ void apply_moves(const std::uint32_t* moved, vertex_t n_moved, const vertex_t* members,
                            const vertex_t* target, vertex_t* community, vertex_t* size) {
  for (vertex_t j = blockIdx.x * blockDim.x + threadIdx.x; j < n_moved;
       j += gridDim.x * blockDim.x) {
    const std::uint32_t i = moved[j];
    const vertex_t v = members[i];
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

struct Group {
  vertex_t first = 0, count = 0;    // its members: members[first .. first + count)
  DeviceArray<offset_t> at;         // count + 1: where each member's edges start
  DeviceArray<vertex_t> neighbour;  // its members' edges
  DeviceArray<double> weight;
  DeviceArray<std::uint32_t> owner;
  offset_t m = 0;
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

  // The start, on the host as the CPU makes it (the same sums in order).
  const LouvainStart start = louvain_start(level, options.seed);
  const std::vector<std::vector<vertex_t>>& group_members = start.group;
  std::vector<vertex_t> members;
  members.reserve(size_n);
  std::vector<Group> groups(louvain_batches);
  for (int g = 0; g < louvain_batches; ++g) {
    groups[g].first = static_cast<vertex_t>(members.size());
    groups[g].count = static_cast<vertex_t>(group_members[g].size());
    members.insert(members.end(), group_members[g].begin(), group_members[g].end());
  }

  const DeviceCsr<double> w = upload(level.w, true);
  const offset_t* row_ptr = w.row_ptr().data();
  const vertex_t* col_idx = w.col_idx().data();
  const double* values = w.values().data();
  const DeviceArray<double> d_k{level.k};
  DeviceArray<double> d_tot{std::span<const double>(start.tot)};
  DeviceArray<vertex_t> d_size{std::span<const vertex_t>(start.size)};
  DeviceArray<vertex_t> d_community{std::span<const vertex_t>(start.community)};
  const DeviceArray<vertex_t> d_members{std::span<const vertex_t>(members)};
  CubScratch scratch;

  // Each group's edge list, once.
  offset_t most_edges = 0;
  vertex_t most_members = 0;
  for (Group& grp : groups) {
    if (grp.count == 0) continue;
    const vertex_t* mem = d_members.data() + grp.first;
    const unsigned grid = grid_for(grp.count, block_size);
    grp.at = DeviceArray<offset_t>(static_cast<std::size_t>(grp.count) + 1);
    GRAPHRUN_CUDA_CHECK(cudaMemset(grp.at.data(), 0, grp.at.size() * sizeof(offset_t)));
    member_lengths<<<grid, block_size>>>(mem, grp.count, row_ptr, col_idx, grp.at.data());
    check_launch();
    scratch.run([&](void* p, std::size_t& bytes) {
      return cub::DeviceScan::ExclusiveSum(p, bytes, grp.at.data(), grp.at.data(), grp.count + 1);
    });
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpy(&grp.m, grp.at.data() + grp.count, sizeof(offset_t), cudaMemcpyDeviceToHost));
    if (grp.m > static_cast<offset_t>(UINT32_MAX))
      throw DeviceError("louvain: a group of " + std::to_string(grp.m) +
                        " edges is beyond the GPU version's 2^32 per group");
    grp.neighbour = DeviceArray<vertex_t>(static_cast<std::size_t>(grp.m));
    grp.weight = DeviceArray<double>(static_cast<std::size_t>(grp.m));
    grp.owner = DeviceArray<std::uint32_t>(static_cast<std::size_t>(grp.m));
    member_entries<<<grid, block_size>>>(mem, grp.count, row_ptr, col_idx, values, grp.at.data(),
                                         grp.neighbour.data(), grp.weight.data(), grp.owner.data());
    check_launch();
    most_edges = std::max(most_edges, grp.m);
    most_members = std::max(most_members, grp.count);
  }

  const int community_bits = bits_for(static_cast<std::uint64_t>(n - 1));
  const int key_bits = community_bits + bits_for(static_cast<std::uint64_t>(most_members));
  const Key community_mask = (Key{1} << community_bits) - 1;
  const auto edges_size = static_cast<std::size_t>(most_edges);
  DeviceArray<Key> keys(edges_size), sorted_keys(edges_size);
  DeviceArray<double> sorted_weight(edges_size);
  const auto members_size = static_cast<std::size_t>(most_members);
  DeviceArray<vertex_t> target(members_size);
  DeviceArray<std::uint8_t> moves(members_size);
  DeviceArray<std::uint32_t> moved(members_size);
  DeviceArray<Key> event_keys(2 * members_size), sorted_event_keys(2 * members_size);
  DeviceArray<std::uint32_t> events(2 * members_size), sorted_events(2 * members_size);
  DeviceArray<int> n_moved(1);
  Pinned<int> host_moved(1);

  const vertex_t blocks = (n + louvain_sum_block - 1) / louvain_sum_block;
  DeviceArray<double> inner(size_n), in_sum(static_cast<std::size_t>(blocks)),
      out_sum(static_cast<std::size_t>(blocks));
  auto modularity = [&] {
    inner_weights<<<grid_for(n, block_size), block_size>>>(row_ptr, col_idx, values,
                                                           d_community.data(), n, inner.data());
    check_launch();
    block_sums<<<grid_for(blocks, block_size), block_size>>>(inner.data(), d_tot.data(), n, two_m,
                                                             gamma, in_sum.data(), out_sum.data());
    check_launch();
    double q = 0;
    for (double x : in_sum.download()) q += x;
    for (double x : out_sum.download()) q -= x;
    return q;
  };

  double q = modularity();
  for (;;) {
    offset_t moved_in_sweep = 0;
    for (Group& grp : groups) {
      if (grp.m == 0) continue;  // members with no edges but loops stay
      const vertex_t* mem = d_members.data() + grp.first;
      make_keys<<<grid_for(grp.m, block_size), block_size>>>(grp.neighbour.data(), grp.owner.data(),
                                                             grp.m, d_community.data(),
                                                             community_bits, keys.data());
      check_launch();
      scratch.run([&](void* p, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(p, bytes, keys.data(), sorted_keys.data(),
                                               grp.weight.data(), sorted_weight.data(), grp.m, 0,
                                               key_bits);
      });
      launch_decide(tile_for(static_cast<double>(grp.m) / grp.count), grp.count,
                    {.members = mem,
                     .count = grp.count,
                     .at = grp.at.data(),
                     .keys = sorted_keys.data(),
                     .weight = sorted_weight.data(),
                     .k = d_k.data(),
                     .tot = d_tot.data(),
                     .size = d_size.data(),
                     .community = d_community.data(),
                     .community_mask = community_mask,
                     .two_m = two_m,
                     .gamma = gamma,
                     .target = target.data(),
                     .moves = moves.data()});
      scratch.run([&](void* p, std::size_t& bytes) {
        return cub::DeviceSelect::Flagged(p, bytes, thrust::counting_iterator<std::uint32_t>(0),
                                          moves.data(), moved.data(), n_moved.data(), grp.count);
      });
      GRAPHRUN_CUDA_CHECK(
          cudaMemcpy(host_moved.data(), n_moved.data(), sizeof(int), cudaMemcpyDeviceToHost));
      const vertex_t count = host_moved[0];
      if (count == 0) continue;
      const unsigned move_grid = grid_for(count, block_size);
      move_events<<<move_grid, block_size>>>(moved.data(), count, mem, target.data(),
                                             d_community.data(), event_keys.data(), events.data());
      check_launch();
      scratch.run([&](void* p, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortPairs(p, bytes, event_keys.data(),
                                               sorted_event_keys.data(), events.data(),
                                               sorted_events.data(), 2 * count, 0, community_bits);
      });
      apply_totals<<<grid_for(2 * count, block_size), block_size>>>(
          sorted_event_keys.data(), sorted_events.data(), 2 * count, moved.data(), mem, d_k.data(),
          d_tot.data());
      check_launch();
      apply_moves<<<move_grid, block_size>>>(moved.data(), count, mem, target.data(),
                                             d_community.data(), d_size.data());
      check_launch();
      moved_in_sweep += count;
    }
    ++r.sweeps;
    r.moves += moved_in_sweep;
    const double next = modularity();
    const double gained = next - q;
    q = next;
    if (moved_in_sweep == 0 || gained < options.tolerance) break;
  }
  r.modularity = q;
  r.community = d_community.download();
  return r;
}

}  // namespace graphrun::detail
