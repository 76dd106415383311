// C = A ⊕.⊗ B on the GPU, the host side of the hash-based multi-phase
// algorithm. The pieces:
//
//   spgemm_config.cuh     the tuning: groups, table and block sizes
//   spgemm_grouping.cuh   row analysis and grouping kernels
//   spgemm_kernels.cuh    hash-table kernels (symbolic, numeric)
//   spgemm_dense.cuh      bitmap kernels (symbolic, numeric)
//   spgemm_launch.cuh     one launch per group, side by side (spgemm_streams.cuh)
//   spgemm_workspace.cuh  pool buffers; spgemm_host.cuh: chunks, waits, timers
//
//   1. analysis   IP(i) per row (64-bit) and its group from min(IP(i), n_cols),
//                 one warp per row; rows listed group by group by a
//                 counting sort (count, then scatter)
//   2. symbolic   distinct columns per row (hash tables or a bitmap), one
//                 launch per group; an exclusive scan (CUB) gives C's row
//                 pointers, and C is allocated exactly
//   3. numeric    rows regrouped by nnz(C(i,:)); hash insertion with
//                 accumulation, each shared-memory row sorted in its block
//                 and written to C; bitmap rows written to C in column order
//   4. sort       rows with tables in global memory (only where n_cols is too
//                 large for a bitmap) staged and sorted by a CUB segmented sort
//
// The host waits twice per call (the group sizes after 1, nnz(C) and the
// numeric groups after 2), more only when the workspace has to be split
// into row chunks.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/engine/types.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"
#include "spgemm_config.cuh"
#include "spgemm_grouping.cuh"
#include "spgemm_host.cuh"
#include "spgemm_kernels.cuh"
#include "spgemm_launch.cuh"
#include "spgemm_semiring.cuh"
#include "spgemm_workspace.cuh"

namespace graphrun::cuda {

namespace spgemm_detail {
namespace {

using SymSlotsIter =
    thrust::transform_iterator<SymbolicGlobalSlots, thrust::counting_iterator<std::int64_t>>;
using NumSlotsIter =
    thrust::transform_iterator<NumericGlobalSlots, thrust::counting_iterator<std::int64_t>>;
using ListedNnzIter =
    thrust::transform_iterator<ListedRowNnz, thrust::counting_iterator<std::int64_t>>;

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm_impl(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                              const SpgemmOptions& options, SpgemmStats* stats,
                                              cudaStream_t stream) {
  using V = typename S::value_type;
  static_assert(std::is_same_v<V, typename DeviceSemiring<S>::value_type>);
  if (a.n_cols() != b.n_rows())
    throw ArgumentError("spgemm: A has " + std::to_string(a.n_cols()) + " columns but B has " +
                        std::to_string(b.n_rows()) + " rows");
  const vertex_t m = a.n_rows(), n = b.n_cols();
  auto check_rows = [](const auto& x, const char* name) {
    if (x.n_rows() > 0 && x.row_ptr().size() != static_cast<std::size_t>(x.n_rows()) + 1)
      throw ArgumentError(std::string("spgemm: ") + name + " has no row pointers for its rows");
  };
  check_rows(a, "A");
  check_rows(b, "B");

  SpgemmStats st;
  PhaseTimer timer(stats != nullptr, stream);
  const int t_start = timer.mark();
  // C's arrays come from the pool too, in the order of `stream`.
  DeviceArray<offset_t> c_ptr(static_cast<std::size_t>(m) + 1, stream);
  if (m == 0 || n == 0 || a.nnz() == 0 || b.nnz() == 0) {
    GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(c_ptr.data(), 0, c_ptr.size() * sizeof(offset_t), stream));
    if (stats) *stats = st;
    return DeviceCsr<V>(m, n, std::move(c_ptr), DeviceArray<vertex_t>(), DeviceArray<V>());
  }

  const CsrView<T> av = a.view(), bv = b.view();
  cudaMemPool_t pool = warm_pool();
  const std::size_t mz = static_cast<std::size_t>(m);

  // ---- the fixed workspace: O(m) arrays and CUB's temporary storage ----
  Tuning tuning;
  tuning.dense = options.dense_rows && n <= SpgemmPolicy::dense_max_cols;
  if (options.dense_words_per_entry > 0)
    tuning.dense_words_per_entry = options.dense_words_per_entry;
  if (options.dense_shared_max_products_per_entry > 0)
    tuning.dense_shared_max_products_per_entry = options.dense_shared_max_products_per_entry;
  if (options.warp_max_ip > 0) tuning.warp_max_ip = options.warp_max_ip;
  std::size_t cub_bytes = 0;
  {
    std::size_t q = 0;
    const SymSlotsIter sym_it(thrust::make_counting_iterator<std::int64_t>(0),
                              SymbolicGlobalSlots{nullptr, n, m, tuning});
    const NumSlotsIter num_it(thrust::make_counting_iterator<std::int64_t>(0),
                              NumericGlobalSlots{nullptr, nullptr, m, n, tuning});
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, sym_it, static_cast<std::int64_t*>(nullptr),
                                            m + 1, stream),
              "cub::DeviceScan::ExclusiveSum");
    cub_bytes = std::max(cub_bytes, q);
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, num_it, static_cast<std::int64_t*>(nullptr),
                                            m + 1, stream),
              "cub::DeviceScan::ExclusiveSum");
    cub_bytes = std::max(cub_bytes, q);
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, static_cast<offset_t*>(nullptr),
                                            static_cast<offset_t*>(nullptr), m + 1, stream),
              "cub::DeviceScan::ExclusiveSum");
    cub_bytes = std::max(cub_bytes, q);
    const ListedNnzIter listed_it(thrust::make_counting_iterator<std::int64_t>(0),
                                  ListedRowNnz{nullptr, 0, nullptr});
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, listed_it,
                                            static_cast<std::int64_t*>(nullptr), m + 1, stream),
              "cub::DeviceScan::ExclusiveSum");
    cub_bytes = std::max(cub_bytes, q);
  }
  struct Fixed {
    unsigned long long* ip;
    std::uint8_t* keys;
    vertex_t* sorted_rows;
    offset_t* row_nnz;
    std::int64_t* sym_off;
    std::int64_t* num_off;
    std::int64_t* stage_off;
    unsigned long long* scalars;  // ScalarsAt::size
    void* cub_temp;
  };
  auto lay_fixed = [&](Carver& c) {
    Fixed f;
    f.ip = c.take<unsigned long long>(mz);
    f.keys = c.take<std::uint8_t>(mz);
    f.sorted_rows = c.take<vertex_t>(mz);
    f.row_nnz = c.take<offset_t>(mz + 1);
    f.sym_off = c.take<std::int64_t>(mz + 1);
    f.num_off = c.take<std::int64_t>(mz + 1);
    f.stage_off = c.take<std::int64_t>(mz + 1);
    f.scalars = c.take<unsigned long long>(ScalarsAt::size);
    f.cub_temp = c.take<unsigned char>(cub_bytes);
    return f;
  };
  Carver measure;
  lay_fixed(measure);
  PoolBuffer fixed_buf(measure.bytes(), stream, "the row workspace");
  Carver place(fixed_buf.data());
  const Fixed f = lay_fixed(place);
  std::size_t largest_ws = fixed_buf.bytes();

  auto clear_scalars = [&] {
    GRAPHRUN_CUDA_CHECK(
        cudaMemsetAsync(f.scalars, 0, ScalarsAt::zeroed * sizeof(unsigned long long), stream));
  };
  // Lists rows [r0, r1) group by group in f.sorted_rows (keys already in f.keys).
  auto scatter_rows = [&](vertex_t r0, vertex_t r1) {
    group_scatter_kernel<<<static_cast<unsigned>((std::int64_t{r1} - r0 + 255) / 256), 256, 0,
                           stream>>>(r0, r1, f.keys, f.scalars, f.sorted_rows);
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  };
  // Groups rows [r0, r1) by key_of; the group sizes and the global group's
  // totals land in f.scalars, with up to four other scalars gathered.
  auto group_rows = [&](auto key_of, vertex_t r0, vertex_t r1,
                        std::initializer_list<const void*> gather = {}) {
    clear_scalars();
    Gather g{};
    for (const void* p : gather) g.src[g.n++] = static_cast<const unsigned long long*>(p);
    group_count_kernel<<<grid_for(r1 - r0, 256, 4096), 256, 0, stream>>>(r0, r1, key_of, f.keys,
                                                                         f.scalars, g);
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
    scatter_rows(r0, r1);
  };
  // Brings the scalars back in one copy, then waits: the only places where
  // the host waits for the device.
  struct Fetched {
    Groups groups;
    std::int64_t global_slots = 0, global_nnz = 0, total_ip = 0;
    std::array<std::int64_t, 4> extra{};
  };
  auto fetch = [&]() {
    std::array<unsigned long long, ScalarsAt::size> pageable{};
    unsigned long long* h = pinned_scalars();
    if (!h) h = pageable.data();
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(h, f.scalars, ScalarsAt::size * sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, stream));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    Fetched r;
    for (int i = 0; i < kMaxGroups; ++i) {
      r.groups.count[i] = static_cast<std::int64_t>(h[ScalarsAt::count + i]);
      r.groups.max_bound[i] = static_cast<std::int64_t>(h[ScalarsAt::max_bound + i]);
    }
    r.global_slots = static_cast<std::int64_t>(h[ScalarsAt::global_slots]);
    r.global_nnz = static_cast<std::int64_t>(h[ScalarsAt::global_nnz]);
    r.total_ip = static_cast<std::int64_t>(h[ScalarsAt::total_ip]);
    for (int i = 0; i < 4; ++i) r.extra[i] = static_cast<std::int64_t>(h[ScalarsAt::gather + i]);
    return r;
  };

  // ---- 1. analysis ----
  const SymbolicKey sym_key{f.ip, n, tuning};
  clear_scalars();
  analysis_kernel<<<grid_for(std::int64_t{m} * 32, 256, 8192), 256, 0, stream>>>(
      av.row_ptr, av.col_idx, m, bv.row_ptr, sym_key, f.ip, f.keys, f.row_nnz, f.scalars);
  GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  scatter_rows(0, m);
  const int t_analysis = timer.mark();
  const Fetched sym_fetched = fetch();
  const Groups& sym_groups = sym_fetched.groups;
  const std::int64_t sym_slots = sym_fetched.global_slots;
  st.intermediate_products = sym_fetched.total_ip;
  st.global_rows = sym_groups.count[kGlobalGroup];
  if (sym_slots > 0) {
    // Where each global-memory row's table starts.
    const SymSlotsIter sym_it(thrust::make_counting_iterator<std::int64_t>(0),
                              SymbolicGlobalSlots{f.ip, n, m, tuning});
    std::size_t q = cub_bytes;
    cub_check(cub::DeviceScan::ExclusiveSum(f.cub_temp, q, sym_it, f.sym_off, m + 1, stream),
              "cub::DeviceScan::ExclusiveSum");
  }

  // The caller's limit, or any value when a device memory cap is set: then
  // the budget is always asked for, as the cap may be far below free memory.
  const std::size_t limit = device_memory_cap() != 0 && options.workspace_limit_bytes == 0
                                ? std::numeric_limits<std::size_t>::max()
                                : options.workspace_limit_bytes;
  // Bytes the chunked part (tables, staging) may take now, after `reserve`
  // bytes of other workspace: free memory less a margin for the driver,
  // within the cap's headroom, and at most the caller's limit.
  auto budget_now = [&](std::size_t reserve) {
    const std::size_t margin = (std::size_t{64} << 20) + reserve;
    const std::size_t avail = device_memory_free();
    std::size_t usable = avail > margin ? avail - margin : 0;
    const std::size_t headroom = device_memory_headroom();
    usable = std::min(usable, headroom > reserve ? headroom - reserve : 0);
    return limit ? std::min(limit, usable) : usable;
  };

  // ---- 2. symbolic ----
  SymbolicArgs sym{av.row_ptr, av.col_idx, bv.row_ptr, bv.col_idx, f.ip, n,        nullptr,
                   0,          0,          nullptr,    f.sym_off,  0,    f.row_nnz};
  {
    const std::size_t table_bytes =
        checked_mul<std::size_t>(static_cast<std::size_t>(sym_slots), 4, "spgemm symbolic tables");
    const bool ask =
        table_bytes > kQueryAbove || (limit && table_bytes > limit) || device_memory_cap() != 0;
    const std::size_t budget = ask ? budget_now(0) : table_bytes;
    std::vector<std::pair<vertex_t, vertex_t>> chunks{{0, m}};
    std::vector<std::int64_t> off;
    std::size_t buf_bytes = table_bytes;
    if (table_bytes > budget) {
      off = download(f.sym_off, mz + 1, stream);
      for (auto& o : off) o *= 4;
      chunks = plan_chunks(off, budget, "symbolic hash table");
      buf_bytes = 0;
      for (auto [r0, r1] : chunks) buf_bytes = std::max<std::size_t>(buf_bytes, off[r1] - off[r0]);
    }
    PoolBuffer tables(buf_bytes, stream, "the symbolic hash tables");
    largest_ws = std::max(largest_ws, buf_bytes);
    sym.tables = static_cast<int*>(tables.data());
    st.symbolic_chunks = static_cast<int>(chunks.size());
    for (auto [r0, r1] : chunks) {
      Groups groups = sym_groups;
      if (chunks.size() > 1) {
        group_rows(sym_key, r0, r1);
        groups = fetch().groups;
        sym.table_base = off[r0] / 4;
      }
      launch_symbolic(std::make_integer_sequence<int, SpgemmPolicy::bins>{},
                      std::make_integer_sequence<int, SpgemmPolicy::dense_bins>{}, sym, groups,
                      f.sorted_rows, stream);
    }
  }
  {
    std::size_t q = cub_bytes;
    cub_check(cub::DeviceScan::ExclusiveSum(f.cub_temp, q, f.row_nnz, c_ptr.data(), m + 1, stream),
              "cub::DeviceScan::ExclusiveSum");
  }
  const int t_symbolic = timer.mark();

  // ---- 3. numeric grouping, C's allocation ----
  const NumericKey num_key{f.ip, c_ptr.data(), n, tuning};
  group_rows(num_key, 0, m, {c_ptr.data() + m});
  const Fetched num_fetched = fetch();
  const Groups& num_groups = num_fetched.groups;
  const std::int64_t nnz_c = num_fetched.extra[0], num_slots = num_fetched.global_slots,
                     global_nnz = num_fetched.global_nnz;
  st.nnz_c = nnz_c;
  if (num_slots > 0) {
    const NumSlotsIter num_it(thrust::make_counting_iterator<std::int64_t>(0),
                              NumericGlobalSlots{f.ip, c_ptr.data(), m, n, tuning});
    std::size_t q = cub_bytes;
    cub_check(cub::DeviceScan::ExclusiveSum(f.cub_temp, q, num_it, f.num_off, m + 1, stream),
              "cub::DeviceScan::ExclusiveSum");
  }

  constexpr std::size_t entry_bytes = sizeof(vertex_t) + sizeof(V);
  auto allocate_c = [&]() {
    const std::size_t need = checked_mul<std::size_t>(static_cast<std::size_t>(nnz_c), entry_bytes,
                                                      "spgemm: bytes of C");
    try {
      return std::pair{DeviceArray<vertex_t>(static_cast<std::size_t>(nnz_c), stream),
                       DeviceArray<V>(static_cast<std::size_t>(nnz_c), stream)};
    } catch (const DeviceError&) {
      // The pool may hold what the symbolic phase freed: give it back, retry.
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
      GRAPHRUN_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
      try {
        return std::pair{DeviceArray<vertex_t>(static_cast<std::size_t>(nnz_c), stream),
                         DeviceArray<V>(static_cast<std::size_t>(nnz_c), stream)};
      } catch (const DeviceError& e) {
        throw DeviceMemoryError("spgemm: C has " + std::to_string(nnz_c) + " entries and needs " +
                                std::to_string(need) + " bytes of device memory; " +
                                std::to_string(device_memory_available()) +
                                " bytes are available (" + e.what() + ")");
      }
    }
  };
  auto [c_col, c_val] = allocate_c();

  // ---- 4. numeric and sort, by row chunks that fit ----
  // Shared-memory rows are sorted in their kernel and written to C; rows
  // with global tables are staged, sorted by a CUB segmented sort (double
  // buffered: two staging areas) and scattered to C.
  auto seg_sort_bytes = [&](std::int64_t items, std::int64_t segments) {
    std::size_t q = 0;
    cub::DoubleBuffer<vertex_t> dk(nullptr, nullptr);
    cub::DoubleBuffer<V> dv(nullptr, nullptr);
    cub_check(cub::DeviceSegmentedSort::SortPairs(
                  nullptr, q, dk, dv, items, segments, static_cast<const std::int64_t*>(nullptr),
                  static_cast<const std::int64_t*>(nullptr), stream),
              "cub::DeviceSegmentedSort::SortPairs");
    return q;
  };
  // Per chunk: two staging areas for its global rows, then their tables.
  auto chunk_layout = [&](Carver& c, std::int64_t stage_nnz, std::int64_t chunk_slots) {
    struct {
      vertex_t* col[2];
      V* val[2];
      int* keys;
      V* vals;
    } l;
    for (int i = 0; i < 2; ++i) {
      l.col[i] = c.take<vertex_t>(static_cast<std::size_t>(stage_nnz));
      l.val[i] = c.take<V>(static_cast<std::size_t>(stage_nnz));
    }
    l.keys = c.take<int>(static_cast<std::size_t>(chunk_slots));
    l.vals = c.take<V>(static_cast<std::size_t>(chunk_slots));
    return l;
  };
  constexpr std::size_t kPad = 7 * 256;  // alignment of the carved arrays
  const std::int64_t global_rows = num_groups.count[kGlobalGroup];
  st.dense_rows = num_groups.count[kFirstDense] + num_groups.count[kFirstDense + 1];
  std::size_t seg_bytes = global_rows ? seg_sort_bytes(global_nnz, global_rows) : 0;
  const std::size_t all_bytes = checked_mul<std::size_t>(2 * static_cast<std::size_t>(global_nnz) +
                                                             static_cast<std::size_t>(num_slots),
                                                         entry_bytes, "spgemm: numeric workspace") +
                                kPad;
  std::vector<std::pair<vertex_t, vertex_t>> chunks{{0, m}};
  std::vector<std::int64_t> c_host, slot_host;
  std::size_t chunk_bytes = all_bytes;
  if (global_rows > 0 && (all_bytes + seg_bytes > kQueryAbove || (limit && all_bytes > limit) ||
                          device_memory_cap() != 0)) {
    const std::size_t budget = budget_now(seg_bytes + kPad);
    if (all_bytes > budget) {
      // Chunks sized as if every row were staged: a bound, computed on the host.
      c_host = download(c_ptr.data(), mz + 1, stream);
      slot_host = download(f.num_off, mz + 1, stream);
      std::vector<std::int64_t> need(mz + 1);
      for (std::size_t r = 0; r <= mz; ++r)
        need[r] = (2 * c_host[r] + slot_host[r]) * static_cast<std::int64_t>(entry_bytes);
      seg_bytes = seg_sort_bytes(nnz_c, m);
      chunks = plan_chunks(need, budget > seg_bytes ? budget - seg_bytes : 0,
                           "numeric hash table and staging");
      chunk_bytes = 0;
      for (auto [r0, r1] : chunks)
        chunk_bytes = std::max<std::size_t>(chunk_bytes, need[r1] - need[r0] + kPad);
    }
  }
  st.chunks = static_cast<int>(chunks.size());
  PoolBuffer numeric_buf(chunk_bytes + seg_bytes + 256, stream,
                         "the numeric hash tables and staging");
  largest_ws = std::max(largest_ws, numeric_buf.bytes());
  void* seg_temp =
      static_cast<unsigned char*>(numeric_buf.data()) + chunk_bytes + 256 - (chunk_bytes % 256);

  NumericArgs<V, T> num{};
  num.a_ptr = av.row_ptr;
  num.a_col = av.col_idx;
  num.a_val = av.values;
  num.b_ptr = bv.row_ptr;
  num.b_col = bv.col_idx;
  num.b_val = bv.values;
  num.ip = f.ip;
  num.table_off = f.num_off;
  num.c_ptr = c_ptr.data();
  num.c_col = c_col.data();
  num.c_val = c_val.data();
  num.stage_off = f.stage_off;
  num.ordered = options.deterministic;
  std::vector<std::pair<int, int>> sort_marks;  // events around each chunk's sort
  for (auto [r0, r1] : chunks) {
    Groups groups = num_groups;
    std::int64_t stage_nnz = global_nnz, s_base = 0, s_end = num_slots;
    if (chunks.size() > 1) {
      group_rows(num_key, r0, r1);
      groups = fetch().groups;
      stage_nnz = c_host[r1] - c_host[r0];  // a bound
      s_base = slot_host[r0];
      s_end = slot_host[r1];
    }
    Carver carve(numeric_buf.data());
    const auto l = chunk_layout(carve, stage_nnz, s_end - s_base);
    num.table_keys = l.keys;
    num.table_vals = l.vals;
    num.table_base = s_base;
    num.stage_col = l.col[0];
    num.stage_val = l.val[0];
    // The global rows: their kernel, then their segmented sort and their
    // copy into C, all on stream s.
    const std::int64_t g_count = groups.count[kGlobalGroup];
    const vertex_t* g_rows = f.sorted_rows + groups.start(kGlobalGroup);
    auto global_chain = [&](cudaStream_t s) {
      {
        const ListedNnzIter listed_it(thrust::make_counting_iterator<std::int64_t>(0),
                                      ListedRowNnz{g_rows, g_count, c_ptr.data()});
        std::size_t q = cub_bytes;
        cub_check(
            cub::DeviceScan::ExclusiveSum(f.cub_temp, q, listed_it, f.stage_off, g_count + 1, s),
            "cub::DeviceScan::ExclusiveSum");
      }
      launch_numeric_global<S, T>(num, g_rows, g_count, s);
      std::int64_t items = global_nnz;
      if (chunks.size() > 1) items = download(f.stage_off + g_count, 1, s)[0];

      const int t_sort0 = timer.mark(s);
      cub::DoubleBuffer<vertex_t> dk(l.col[0], l.col[1]);
      cub::DoubleBuffer<V> dv(l.val[0], l.val[1]);
      std::size_t q = seg_bytes;
      cub_check(
          cub::DeviceSegmentedSort::SortPairs(seg_temp, q, dk, dv, items, g_count,
                                              static_cast<const std::int64_t*>(f.stage_off),
                                              static_cast<const std::int64_t*>(f.stage_off + 1), s),
          "cub::DeviceSegmentedSort::SortPairs");
      scatter_rows_kernel<<<grid_for(g_count, 1, 1 << 16), 256, 0, s>>>(
          g_rows, g_count, f.stage_off, dk.Current(), dv.Current(), c_ptr.data(), c_col.data(),
          c_val.data());
      GRAPHRUN_CUDA_CHECK(cudaGetLastError());
      sort_marks.emplace_back(t_sort0, timer.mark(s));
    };
    // One chunk: the chain overlaps the shared-memory groups. Several: it
    // waits for them (sizing the staged items reads a count back), as the
    // next chunk's workspace is the same memory anyway.
    const bool overlap = g_count > 0 && chunks.size() == 1;
    launch_numeric_shared<S, T>(std::make_integer_sequence<int, SpgemmPolicy::bins>{},
                                std::make_integer_sequence<int, SpgemmPolicy::dense_bins>{}, num, n,
                                tuning.dense_shared_max_products_per_entry, groups, f.sorted_rows,
                                stream, overlap, global_chain);
    if (g_count > 0 && !overlap) global_chain(stream);
  }
  const int t_end = timer.mark();
  double sort_ms = 0;
  for (auto [t0, t1] : sort_marks) sort_ms += timer.ms(t0, t1);

  if (stats) {
    st.workspace_bytes = largest_ws;
    st.analysis_ms = timer.ms(t_start, t_analysis);
    st.symbolic_ms = timer.ms(t_analysis, t_symbolic);
    st.sort_ms = sort_ms;
    st.numeric_ms = timer.ms(t_symbolic, t_end) - sort_ms;
    st.total_ms = st.analysis_ms + st.symbolic_ms + st.numeric_ms + st.sort_ms;
    *stats = st;
  }
  return DeviceCsr<V>(m, n, std::move(c_ptr), std::move(c_col), std::move(c_val));
}

}  // namespace
}  // namespace spgemm_detail

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                         SpgemmStats* stats, cudaStream_t stream) {
  return spgemm_detail::spgemm_impl<S, T>(a, b, SpgemmOptions{}, stats, stream);
}

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                         const SpgemmOptions& options, SpgemmStats* stats,
                                         cudaStream_t stream) {
  return spgemm_detail::spgemm_impl<S, T>(a, b, options, stats, stream);
}

#define GRAPHRUN_SPGEMM_INSTANTIATE(S, T)                                                  \
  template DeviceCsr<S::value_type> spgemm<S, T>(const DeviceCsr<T>&, const DeviceCsr<T>&, \
                                                 SpgemmStats*, cudaStream_t);              \
  template DeviceCsr<S::value_type> spgemm<S, T>(                                          \
      const DeviceCsr<T>&, const DeviceCsr<T>&, const SpgemmOptions&, SpgemmStats*, cudaStream_t);

GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_INSTANTIATE)
#undef GRAPHRUN_SPGEMM_INSTANTIATE

}  // namespace graphrun::cuda
