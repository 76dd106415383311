// The dispatch's launches of the agents, group by group: each non-empty group
// of rows (plan/spgemm_gpu_policy.hpp) gets its agent, block size and shared
// memory, the groups side by side on side streams (spgemm_streams.cuh).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "../plan/spgemm_gpu_policy.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/types.hpp"
#include "spgemm_agent_dense.cuh"
#include "spgemm_agent_grouping.cuh"
#include "spgemm_agent_hash.cuh"
#include "spgemm_streams.cuh"

namespace graphrun::cuda::spgemm_detail {

using Counts = std::array<std::int64_t, kMaxGroups>;

// Largest dynamic shared memory a block may opt in to, less room for the
// kernels' static shared memory (at most a few hundred bytes).
inline int shared_limit() {
  int device = 0, optin = 0;
  GRAPHRUN_CUDA_CHECK(cudaGetDevice(&device));
  GRAPHRUN_CUDA_CHECK(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return optin - 4096;
}

// Launches kernel k with `smem` bytes of dynamic shared memory, opting in
// where that and the kernel's static shared memory may pass the default
// 48 KB.
template <class Kernel, class... Args>
inline void launch(Kernel* k, std::int64_t blocks, int threads, std::size_t smem,
                   cudaStream_t stream, Args... args) {
  if (smem > (std::size_t{44} << 10))  // 48 KB less the static shared memory
    GRAPHRUN_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)));
  k<<<static_cast<unsigned>(blocks), threads, smem, stream>>>(args...);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
}

// The group sizes and largest bounds of one grouping (the scalars' first part).
struct Groups {
  Counts count{};
  Counts max_bound{};
  std::int64_t start(int g) const {  // where group g's rows begin in the list
    std::int64_t s = 0;
    for (int h = 0; h < g; ++h) s += count[h];
    return s;
  }
};

inline int nonempty_groups(const Groups& groups, int last) {
  int n = 0;
  for (int g = 0; g <= last; ++g) n += groups.count[g] > 0;
  return n;
}

// The kernel arguments for group g: its rows of `sorted_rows`.
template <class Args>
Args rows_of(Args args, const Groups& groups, int g, const vertex_t* sorted_rows) {
  args.rows = sorted_rows + groups.start(g);
  args.n_rows = groups.count[g];
  return args;
}

// Launches the symbolic kernel of every non-empty group, each over its rows
// of `sorted_rows`.
template <int... G, int... D>
inline void launch_symbolic(std::integer_sequence<int, G...>, std::integer_sequence<int, D...>,
                            SymbolicArgs args, const Groups& groups, const vertex_t* sorted_rows,
                            cudaStream_t main) {
  // The global-memory group first, on a stream of its own: a few long rows.
  const std::int64_t n_global = groups.count[kGlobalGroup];
  Fan fan(main, nonempty_groups(groups, kGlobalGroup - 1), n_global > 0);
  if (n_global > 0) {
    constexpr int block = SpgemmPolicy::global_block;
    launch(symbolic_kernel<block, block, true>, n_global, block, counter_bytes(1), fan.apart(),
           rows_of(args, groups, kGlobalGroup, sorted_rows));
  }
  auto hash = [&]<int I>(std::integral_constant<int, I>) {
    constexpr Bin bin = SpgemmPolicy::symbolic(I);
    const std::int64_t n = groups.count[I];
    if (n == 0) return;
    constexpr int rows = bin.block / bin.team;
    SymbolicArgs a = rows_of(args, groups, I, sorted_rows);
    a.slots = bin.slots;
    launch(symbolic_kernel<bin.block, bin.team, false>, (n + rows - 1) / rows, bin.block,
           counter_bytes(rows) + std::size_t{4} * rows * bin.slots, fan.next(), a);
  };
  auto dense = [&]<int I>(std::integral_constant<int, I>) {
    constexpr int block = SpgemmPolicy::dense(I).block;
    const std::int64_t n = groups.count[kFirstDense + I];
    if (n == 0) return;
    launch(dense_symbolic_kernel<block>, n, block, dense_symbolic_bytes(args.n_cols), fan.next(),
           rows_of(args, groups, kFirstDense + I, sorted_rows));
  };
  // The groups of longer rows first, so that their tails start early.
  (dense(std::integral_constant<int, sizeof...(D) - 1 - D>{}), ...);
  (hash(std::integral_constant<int, sizeof...(G) - 1 - G>{}), ...);
  fan.join();
}

// Launches the numeric kernel of every non-empty shared-memory and bitmap
// group (the global-memory group is the caller's). With `apart`, first
// calls global_chain(stream) with a stream of its own, so that the caller's
// global rows overlap the groups.
template <class S, class T, int... G, int... D, class GlobalChain>
inline void launch_numeric_shared(std::integer_sequence<int, G...>,
                                  std::integer_sequence<int, D...>,
                                  NumericArgs<typename S::value_type, T> args, vertex_t n_cols,
                                  int shared_max_products_per_entry, const Groups& groups,
                                  const vertex_t* sorted_rows, cudaStream_t main, bool apart,
                                  GlobalChain&& global_chain) {
  using V = typename S::value_type;
  Fan fan(main, nonempty_groups(groups, kGlobalGroup - 1), apart);
  if (apart) global_chain(fan.apart());
  auto hash = [&]<int I>(std::integral_constant<int, I>) {
    constexpr Bin bin = SpgemmPolicy::numeric(I);
    const std::int64_t n = groups.count[I];
    if (n == 0) return;
    constexpr int rows = bin.block / bin.team;
    auto a = rows_of(args, groups, I, sorted_rows);
    a.slots = bin.slots;
    launch(numeric_kernel<S, T, bin.block, bin.team, false>, (n + rows - 1) / rows, bin.block,
           counter_bytes(rows) + (4 + sizeof(V)) * rows * bin.slots, fan.next(), a);
  };
  auto dense = [&]<int I>(std::integral_constant<int, I>) {
    constexpr int block = SpgemmPolicy::dense(I).block;
    const std::int64_t n = groups.count[kFirstDense + I];
    if (n == 0) return;
    // Values in shared memory for rows up to the group's longest, as far as
    // the bitmap leaves room; longer rows accumulate in C.
    const std::int64_t room =
        (shared_limit() - static_cast<std::int64_t>(dense_numeric_bytes<V>(n_cols, 0))) /
        static_cast<std::int64_t>(sizeof(V));
    const auto value_slots = static_cast<int>(std::clamp<std::int64_t>(
        groups.max_bound[kFirstDense + I], 0, std::max<std::int64_t>(room, 0)));
    launch(dense_numeric_kernel<S, T, block>, n, block, dense_numeric_bytes<V>(n_cols, value_slots),
           fan.next(), rows_of(args, groups, kFirstDense + I, sorted_rows), n_cols, value_slots,
           shared_max_products_per_entry);
  };
  // The groups of longer rows first, so that their tails start early.
  (dense(std::integral_constant<int, sizeof...(D) - 1 - D>{}), ...);
  (hash(std::integral_constant<int, sizeof...(G) - 1 - G>{}), ...);
  fan.join();
}

template <class S, class T>
inline void launch_numeric_global(NumericArgs<typename S::value_type, T> args, const vertex_t* rows,
                                  std::int64_t n, cudaStream_t stream) {
  constexpr int block = SpgemmPolicy::global_block;
  args.rows = rows;
  args.n_rows = n;
  launch(numeric_kernel<S, T, block, block, true>, n, block, counter_bytes(1), stream, args);
}

}  // namespace graphrun::cuda::spgemm_detail
