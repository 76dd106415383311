// The dispatch's launches of the agents, group by group: each non-empty group
// of rows (plan/spgemm_gpu_policy.hpp) gets its agent, block size and shared
// memory, the groups side by side on side streams (spgemm_streams.cuh).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string>
#include <utility>

#include "../plan/spgemm_gpu_policy.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/env_flag.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"
#include "spgemm_agent_dense.cuh"
#include "spgemm_agent_esc.cuh"
#include "spgemm_agent_grouping.cuh"
#include "spgemm_agent_hash.cuh"
#include "spgemm_agent_spa.cuh"
#include "spgemm_streams.cuh"

namespace graphrun::cuda::spgemm_detail {

using Counts = std::array<std::int64_t, kMaxGroups>;

// Dynamic shared memory of a windowed bitmap block in the numeric phase:
// half of an H200 SM's 228 KB, less the static shared memory of two blocks.
inline constexpr std::int64_t kWindowSharedBytes = 110 << 10;

// B's entries a lane loads ahead with SpgemmOptions::batch_b_loads
// (walk_b_row): four keep the 1,024-thread bitmap block within its 64
// registers a thread.
inline constexpr int kBatchedBLoads = 4;

// Largest dynamic shared memory a block may opt in to, less room for the
// kernels' static shared memory (at most a few hundred bytes).
inline int shared_limit() {
  int device = 0, optin = 0;
  GRAPHRUN_CUDA_CHECK(cudaGetDevice(&device));
  GRAPHRUN_CUDA_CHECK(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  return optin - 4096;
}

// GRAPHRUN_SPGEMM_PROFILE=1 in the environment: every group kernel runs
// alone (the device synchronized before and after it) and its time goes to
// stderr with the group's name, blocks and shared memory. For finding which
// group a product's time goes to, where no profiler is at hand; the groups
// then no longer overlap, so the call's own total grows.
inline bool profile_groups() {
  static const bool on = env_flag("GRAPHRUN_SPGEMM_PROFILE");
  return on;
}

// Launches kernel k with `smem` bytes of dynamic shared memory, opting in
// where that and the kernel's static shared memory may pass the default
// 48 KB.
template <class Kernel, class... Args>
inline void launch_named(const char* what, Kernel* k, std::int64_t blocks, dim3 threads,
                         std::size_t smem, cudaStream_t stream, Args... args) {
  if (smem > (std::size_t{44} << 10))  // 48 KB less the static shared memory
    GRAPHRUN_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem)));
  const bool timed = profile_groups();
  std::chrono::steady_clock::time_point t0;
  if (timed) {
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
    t0 = std::chrono::steady_clock::now();
  }
  k<<<static_cast<unsigned>(blocks), threads, smem, stream>>>(args...);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  if (timed) {
    GRAPHRUN_CUDA_CHECK(cudaDeviceSynchronize());
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "spgemm %-22s %9lld blocks of %4d, %6zu B shared: %9.3f ms\n", what,
                 static_cast<long long>(blocks), static_cast<int>(threads.x * threads.y), smem, ms);
  }
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

// The hash bins' names in a profile.
inline constexpr const char* kSymbolicNames[] = {"symbolic team 8", "symbolic warp",
                                                 "symbolic block 256", "symbolic block 512",
                                                 "symbolic block 1024"};
inline constexpr const char* kNumericNames[] = {"numeric team 8", "numeric warp",
                                                "numeric block 256", "numeric block 512",
                                                "numeric block 1024"};
inline constexpr const char* kEscNames[] = {"sorted 128",  "sorted 256",  "sorted 512",
                                            "sorted 1024", "sorted 2048", "sorted 4096",
                                            "sorted 8192"};
inline constexpr const char* kDirectNames[] = {"direct team 8", "direct warp", "direct block 256",
                                               "direct block 512", "direct block 1024"};
static_assert(std::size(kSymbolicNames) == SpgemmPolicy::bins &&
              std::size(kNumericNames) == SpgemmPolicy::bins &&
              std::size(kEscNames) == SpgemmPolicy::esc_bins &&
              std::size(kDirectNames) == SpgemmPolicy::bins);

// How the bitmap groups cut B's n_cols columns (spgemm_agent_dense.cuh):
// one window where a bitmap of them fits in shared memory, else windows of
// SpgemmPolicy::window_cols. `chain`: a word per row of the call (m of
// them), each bitmap group taking its rows' words at its place in the list.
inline DenseWindows dense_windows(vertex_t n_cols, unsigned long long* chain) {
  if (n_cols <= SpgemmPolicy::dense_max_cols) return {1, n_cols, nullptr};
  return {static_cast<int>(column_windows(n_cols)),
          static_cast<vertex_t>(SpgemmPolicy::window_cols), chain};
}

// The launch of bitmap group g (n rows) on `stream`: a block per window of
// each row, its chain words cleared first.
inline std::int64_t dense_blocks(DenseWindows& dw, const Groups& groups, int g,
                                 cudaStream_t stream) {
  const std::int64_t n = groups.count[g];
  if (dw.count > 1) {
    dw.chain += groups.start(g);
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(dw.chain, 0, static_cast<std::size_t>(n) * 8, stream));
  }
  const std::int64_t blocks = n * dw.count;
  if (blocks > std::int64_t{0x7fffffff})
    throw SizeError("spgemm: " + std::to_string(n) + " bitmap rows of " + std::to_string(dw.count) +
                    " column windows are more blocks than a grid holds");
  return blocks;
}

// Launches the symbolic kernel of every non-empty group, each over its rows
// of `sorted_rows`.
template <int... G, int... D>
inline void launch_symbolic(std::integer_sequence<int, G...>, std::integer_sequence<int, D...>,
                            SymbolicArgs args, const Groups& groups, const vertex_t* sorted_rows,
                            unsigned long long* chain, cudaStream_t main) {
  // The global-memory group first, on a stream of its own: a few long rows.
  const std::int64_t n_global = groups.count[kGlobalGroup];
  Fan fan(main, nonempty_groups(groups, kGlobalGroup - 1), n_global > 0);
  if (n_global > 0) {
    constexpr int block = SpgemmPolicy::global_block;
    launch_named("symbolic global", symbolic_kernel<block, block, true>, n_global, block,
                 counter_bytes(1), fan.apart(), rows_of(args, groups, kGlobalGroup, sorted_rows));
  }
  auto hash = [&]<int I>(std::integral_constant<int, I>) {
    constexpr Bin bin = SpgemmPolicy::symbolic(I);
    const std::int64_t n = groups.count[I];
    if (n == 0) return;
    constexpr int rows = bin.block / bin.team;
    SymbolicArgs a = rows_of(args, groups, I, sorted_rows);
    a.slots = bin.slots;
    launch_named(kSymbolicNames[I], symbolic_kernel<bin.block, bin.team, false>,
                 (n + rows - 1) / rows, bin.block,
                 counter_bytes(rows) + std::size_t{4} * rows * bin.slots, fan.next(), a);
  };
  auto dense = [&]<int I>(std::integral_constant<int, I>) {
    constexpr int block = SpgemmPolicy::dense(I).block;
    if (groups.count[kFirstDense + I] == 0) return;
    DenseWindows dw = dense_windows(args.n_cols, chain);
    const cudaStream_t s = fan.next();
    const std::int64_t blocks = dense_blocks(dw, groups, kFirstDense + I, s);
    launch_named(dw.count > 1 ? "symbolic windows" : "symbolic bitmap",
                 dense_symbolic_kernel<block>, blocks, block, dense_symbolic_bytes(dw.width), s,
                 rows_of(args, groups, kFirstDense + I, sorted_rows), dw);
  };
  // The groups of longer rows first, so that their tails start early.
  (dense(std::integral_constant<int, sizeof...(D) - 1 - D>{}), ...);
  (hash(std::integral_constant<int, sizeof...(G) - 1 - G>{}), ...);
  fan.join();
}

// Launches numeric hash bin I on `stream` over the rows of `group` (bin I
// itself, or its direct twin before the symbolic phase: DIRECT).
template <class S, class T, int I, bool DIRECT>
inline void launch_numeric_bin(const char* name, NumericArgs<typename S::value_type, T> args,
                               const Groups& groups, int group, const vertex_t* sorted_rows,
                               cudaStream_t stream) {
  constexpr Bin bin = SpgemmPolicy::numeric(I);
  constexpr int rows = bin.block / bin.team;
  const std::int64_t n = groups.count[group];
  auto a = rows_of(args, groups, group, sorted_rows);
  a.slots = bin.slots;
  launch_named(name, numeric_kernel<S, T, bin.block, bin.team, false, DIRECT>,
               (n + rows - 1) / rows, bin.block,
               counter_bytes(rows) + (4 + sizeof(typename S::value_type)) * rows * bin.slots,
               stream, a);
}

// Launches the numeric kernel of bitmap bin I on `stream` over the rows of
// `group` (bin I itself, or its staged twin before the symbolic phase:
// STAGED, one window, the rows written to their staging).
template <class S, class T, int I, bool STAGED>
inline void launch_dense_numeric(NumericArgs<typename S::value_type, T> args, vertex_t n_cols,
                                 int shared_max_products_per_entry, const Groups& groups, int group,
                                 const vertex_t* sorted_rows, unsigned long long* chain,
                                 cudaStream_t stream) {
  using V = typename S::value_type;
  constexpr int block = SpgemmPolicy::dense(I).block;
  DenseWindows dw = dense_windows(n_cols, chain);
  if (STAGED && dw.count > 1)
    throw Error("spgemm: a staged bitmap row of " + std::to_string(dw.count) +
                " windows (staged rows have one)");
  const std::int64_t blocks = dense_blocks(dw, groups, group, stream);
  // Values in shared memory for rows (windows) up to the group's longest,
  // as far as the bitmap leaves room; longer ones accumulate in C (or, with
  // fixed-point sums, in chunks of the room).
  // Windows keep to half an SM's shared memory, so that two blocks share it.
  const std::int64_t limit = dw.count > 1
                                 ? std::min<std::int64_t>(shared_limit(), kWindowSharedBytes)
                                 : std::int64_t{shared_limit()};
  const std::int64_t room =
      (limit - static_cast<std::int64_t>(dense_numeric_bytes<V>(dw.width, 0))) /
      static_cast<std::int64_t>(sizeof(V));
  const auto value_slots = static_cast<int>(
      std::clamp<std::int64_t>(std::min<std::int64_t>(groups.max_bound[group], dw.width), 0,
                               std::max<std::int64_t>(room, 0)));
  auto launch = [&](auto kernel, const char* name) {
    launch_named(name, kernel, blocks, block, dense_numeric_bytes<V>(dw.width, value_slots), stream,
                 rows_of(args, groups, group, sorted_rows), n_cols, value_slots,
                 shared_max_products_per_entry, dw);
  };
  if constexpr (kFixedSums<S>) {
    if (args.unit_sums) {
      const char* name = STAGED         ? "staged bitmap, fixed"
                         : dw.count > 1 ? "numeric windows, fixed"
                                        : "numeric bitmap, fixed";
      if (args.batch_b_loads)
        launch(dense_numeric_kernel<S, T, block, true, STAGED, kBatchedBLoads>, name);
      else
        launch(dense_numeric_kernel<S, T, block, true, STAGED>, name);
      return;
    }
  }
  launch(dense_numeric_kernel<S, T, block, false, STAGED>, STAGED         ? "staged bitmap"
                                                           : dw.count > 1 ? "numeric windows"
                                                                          : "numeric bitmap");
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
                                  const vertex_t* sorted_rows, unsigned long long* chain,
                                  cudaStream_t main, bool apart, GlobalChain&& global_chain) {
  using V = typename S::value_type;
  Fan fan(main, nonempty_groups(groups, kGlobalGroup - 1), apart);
  if (apart) global_chain(fan.apart());
  auto hash = [&]<int I>(std::integral_constant<int, I>) {
    if (groups.count[I] == 0) return;
    launch_numeric_bin<S, T, I, false>(kNumericNames[I], args, groups, I, sorted_rows, fan.next());
  };
  auto dense = [&]<int I>(std::integral_constant<int, I>) {
    if (groups.count[kFirstDense + I] == 0) return;
    launch_dense_numeric<S, T, I, false>(args, n_cols, shared_max_products_per_entry, groups,
                                         kFirstDense + I, sorted_rows, chain, fan.next());
  };
  // The groups of longer rows first, so that their tails start early.
  (dense(std::integral_constant<int, sizeof...(D) - 1 - D>{}), ...);
  (hash(std::integral_constant<int, sizeof...(G) - 1 - G>{}), ...);
  fan.join();
}

// The SPA's windows of B's n_cols columns (spgemm_agent_spa.cuh): as few as
// hold them within a block's shared memory, of equal widths (multiples of
// 128 columns, so that each window's bits fill whole 16-byte words).
inline SpaWindows spa_windows(vertex_t n_cols) {
  const std::int64_t limit = shared_limit();
  std::int64_t most = limit * 8 / 65 / 128 * 128;  // 8 bytes and a bit a column
  while (most > 128 && static_cast<std::int64_t>(spa_bytes(most)) > limit) most -= 128;
  if (most < 128 || static_cast<std::int64_t>(spa_bytes(most)) > limit)
    return {std::numeric_limits<int>::max(), 0};  // no window fits: never taken
  const std::int64_t count = (std::int64_t{n_cols} + most - 1) / most;
  const std::int64_t width = ((n_cols + count - 1) / count + 127) / 128 * 128;
  return {static_cast<int>(count), static_cast<vertex_t>(width)};
}

// Launches the SPA kernel on `stream` over the rows of `group`, a block a row.
template <class S, class T>
inline void launch_spa(NumericArgs<typename S::value_type, T> args, const SpaWindows& sw,
                       const Groups& groups, int group, const vertex_t* sorted_rows,
                       cudaStream_t stream) {
  constexpr int block = SpgemmPolicy::dense(kSpaGroup - kFirstStagedDense).block;
  launch_named("staged SPA, fixed", spa_numeric_kernel<S, T, block, kBatchedBLoads>,
               groups.count[group], block, spa_bytes(sw.width), stream,
               rows_of(args, groups, group, sorted_rows), sw);
}

// Launches the staged rows' kernels, the groups side by side: the
// expand-sort-compress kernel of every non-empty sorted bin (a block per
// row), the direct numeric kernel of every non-empty direct bin and the
// bitmap numeric kernel of every non-empty staged bitmap bin; the last
// bitmap bin's rows by the SPA kernel instead where `spa` has its splits.
template <class S, class T, int... E, int... G, int... D>
inline void launch_staged(std::integer_sequence<int, E...>, std::integer_sequence<int, G...>,
                          std::integer_sequence<int, D...>, EscArgs<typename S::value_type, T> esc,
                          NumericArgs<typename S::value_type, T> direct,
                          int shared_max_products_per_entry, const Groups& groups,
                          const vertex_t* sorted_rows, const SpaWindows& spa, cudaStream_t main) {
  using V = typename S::value_type;
  int nonempty = 0;
  for (int g = kFirstStaged; g < kMaxGroups; ++g) nonempty += groups.count[g] > 0;
  Fan fan(main, nonempty);
  auto sorted = [&]<int I>(std::integral_constant<int, I>) {
    constexpr EscBin b = esc_bin(I);
    const std::int64_t n = groups.count[kFirstEsc + I];
    if (n == 0) return;
    constexpr int items = b.cap / b.block;
    launch_named(kEscNames[I], esc_kernel<S, T, b.block, items, b.rows, b.min_blocks>,
                 (n + b.rows - 1) / b.rows, dim3(b.block, b.rows),
                 sizeof(EscShared<V, b.block, items>) * b.rows, fan.next(),
                 rows_of(esc, groups, kFirstEsc + I, sorted_rows));
  };
  auto hash = [&]<int I>(std::integral_constant<int, I>) {
    if (groups.count[kFirstDirect + I] == 0) return;
    launch_numeric_bin<S, T, I, true>(kDirectNames[I], direct, groups, kFirstDirect + I,
                                      sorted_rows, fan.next());
  };
  auto dense = [&]<int I>(std::integral_constant<int, I>) {
    if (groups.count[kFirstStagedDense + I] == 0) return;
    if constexpr (kFixedSums<S> && kFirstStagedDense + I == kSpaGroup) {
      if (spa.splits) {
        launch_spa<S, T>(direct, spa, groups, kSpaGroup, sorted_rows, fan.next());
        return;
      }
    }
    launch_dense_numeric<S, T, I, true>(direct, direct.n_cols, shared_max_products_per_entry,
                                        groups, kFirstStagedDense + I, sorted_rows, nullptr,
                                        fan.next());
  };
  // The longest rows first, so that their tails start early.
  (dense(std::integral_constant<int, sizeof...(D) - 1 - D>{}), ...);
  (hash(std::integral_constant<int, sizeof...(G) - 1 - G>{}), ...);
  (sorted(std::integral_constant<int, sizeof...(E) - 1 - E>{}), ...);
  fan.join();
}

template <class S, class T>
inline void launch_numeric_global(NumericArgs<typename S::value_type, T> args, const vertex_t* rows,
                                  std::int64_t n, cudaStream_t stream) {
  constexpr int block = SpgemmPolicy::global_block;
  args.rows = rows;
  args.n_rows = n;
  launch_named("numeric global", numeric_kernel<S, T, block, block, true>, n, block,
               counter_bytes(1), stream, args);
}

}  // namespace graphrun::cuda::spgemm_detail
