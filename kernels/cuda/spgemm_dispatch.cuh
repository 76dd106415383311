// The dispatch layer of the GPU SpGEMM: one call's state and its steps, in
// the order spgemm.cu runs them. The dispatch owns everything but the
// per-row work: it takes the buffers the plan sizes
// (plan/spgemm_gpu_plan.hpp), asks CUB for its scratch, waits for the
// scalars the agents leave, cuts rows into chunks where the workspace does
// not fit, and launches the agents group by group (spgemm_launch.cuh). The
// agents (spgemm_agent_*.cuh) compute rows and nothing else.
//
// The host waits twice per call (the group sizes after the analysis, nnz(C)
// and the numeric groups after the symbolic phase), more only when the
// workspace has to be split into row chunks.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../plan/spgemm_gpu_plan.hpp"
#include "../plan/spgemm_gpu_policy.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"
#include "spgemm_agent_esc.cuh"
#include "spgemm_agent_grouping.cuh"
#include "spgemm_agent_hash.cuh"
#include "spgemm_agent_sort.cuh"
#include "spgemm_host.cuh"
#include "spgemm_launch.cuh"
#include "spgemm_semiring.cuh"
#include "spgemm_workspace.cuh"

namespace graphrun::cuda::spgemm_detail {

using SymSlotsIter =
    thrust::transform_iterator<SymbolicGlobalSlots, thrust::counting_iterator<std::int64_t>>;
using NumSlotsIter =
    thrust::transform_iterator<NumericGlobalSlots, thrust::counting_iterator<std::int64_t>>;
using ListedNnzIter =
    thrust::transform_iterator<ListedRowNnz, thrust::counting_iterator<std::int64_t>>;
using StagedIter =
    thrust::transform_iterator<StagedEntries, thrust::counting_iterator<std::int64_t>>;

// A·B needs A's columns to match B's rows, and row pointers for every row.
template <class T>
void check_operands(const DeviceCsr<T>& a, const DeviceCsr<T>& b) {
  if (a.n_cols() != b.n_rows())
    throw ArgumentError("spgemm: A has " + std::to_string(a.n_cols()) + " columns but B has " +
                        std::to_string(b.n_rows()) + " rows");
  auto check_rows = [](const auto& x, const char* name) {
    if (x.n_rows() > 0 && x.row_ptr().size() != static_cast<std::size_t>(x.n_rows()) + 1)
      throw ArgumentError(std::string("spgemm: ") + name + " has no row pointers for its rows");
  };
  check_rows(a, "A");
  check_rows(b, "B");
}

// The pointers into the row workspace, at the plan's offsets.
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

  static Fixed at_offsets(void* base, const FixedLayout& l) {
    return {at<unsigned long long>(base, l.ip),  at<std::uint8_t>(base, l.keys),
            at<vertex_t>(base, l.sorted_rows),   at<offset_t>(base, l.row_nnz),
            at<std::int64_t>(base, l.sym_off),   at<std::int64_t>(base, l.num_off),
            at<std::int64_t>(base, l.stage_off), at<unsigned long long>(base, l.scalars),
            at<unsigned char>(base, l.cub_temp)};
  }
};

// What the host reads back after a grouping, in one copy.
struct Fetched {
  Groups groups;
  std::int64_t global_slots = 0, global_nnz = 0, total_ip = 0, staged = 0;
  std::array<std::int64_t, 4> extra{};
};

template <class S, class T>
class SpgemmDispatch {
 public:
  using V = typename S::value_type;
  static_assert(std::is_same_v<V, typename DeviceSemiring<S>::value_type>);

  // Takes C's row pointers first, from the pool in the order of `stream`.
  SpgemmDispatch(const DeviceCsr<T>& a, const DeviceCsr<T>& b, const SpgemmOptions& options,
                 bool timed, cudaStream_t stream)
      : a_(a),
        b_(b),
        options_(options),
        stream_(stream),
        m_(a.n_rows()),
        n_(b.n_cols()),
        mz_(static_cast<std::size_t>(m_)),
        timer_(timed, stream),
        t_start_(timer_.mark()),
        c_ptr_(mz_ + 1, stream) {}

  // A product with nothing to compute: C is all empty rows.
  bool trivial() const { return m_ == 0 || n_ == 0 || a_.nnz() == 0 || b_.nnz() == 0; }
  DeviceCsr<V> empty(SpgemmStats* stats) {
    GRAPHRUN_CUDA_CHECK(
        cudaMemsetAsync(c_ptr_.data(), 0, c_ptr_.size() * sizeof(offset_t), stream_));
    if (stats) *stats = st_;
    return DeviceCsr<V>(m_, n_, std::move(c_ptr_), DeviceArray<vertex_t>(), DeviceArray<V>());
  }

  // The plan's first part: the tuning, CUB's scratch for every scan of the
  // call, and the row workspace (O(m) arrays) laid out by the plan.
  void allocate_workspace() {
    pool_ = warm_pool();
    tuning_ = tuning_for(options_, n_);
    cub_bytes_ = scan_scratch_bytes();
    const FixedLayout layout = fixed_layout(mz_, cub_bytes_);
    fixed_buf_.emplace(layout.bytes, stream_, "the row workspace");
    f_ = Fixed::at_offsets(fixed_buf_->data(), layout);
    largest_ws_ = fixed_buf_->bytes();
    // The caller's limit, or any value when a device memory cap is set: then
    // the budget is always asked for, as the cap may be far below free memory.
    limit_ = device_memory_cap() != 0 && options_.workspace_limit_bytes == 0
                 ? std::numeric_limits<std::size_t>::max()
                 : options_.workspace_limit_bytes;
  }

  // 1. IP per row and its symbolic group, the rows listed group by group;
  // then where each global-memory row's symbolic table starts.
  //
  // Rows sent to expand-sort-compress, direct hash tables or staged bitmaps
  // stage their entries (their bounds' worth); where that staging would take
  // more than the caller's limit or a quarter of the memory free, the
  // analysis runs again without staged bitmap rows (the longest bounds),
  // then without direct rows (a direct row stages its bound, a sorted row
  // at most its products, so the direct rows are the larger share and the
  // smaller loss), and once more with every row in the two hash phases.
  void analyse() {
    Fetched sym_fetched = analysis_pass();
    if (sym_fetched.staged > 0 && !staging_fits(sym_fetched.staged) && tuning_.staged_dense) {
      tuning_.staged_dense = false;
      sym_fetched = analysis_pass();
    }
    if (sym_fetched.staged > 0 && !staging_fits(sym_fetched.staged) &&
        tuning_.direct_max_bound > 0) {
      tuning_.direct_max_bound = 0;
      sym_fetched = analysis_pass();
    }
    if (sym_fetched.staged > 0 && !staging_fits(sym_fetched.staged)) {
      tuning_.sort_max_ip = 0;
      sym_fetched = analysis_pass();
    }
    staged_ = sym_fetched.staged;
    t_analysis_ = timer_.mark();
    sym_groups_ = sym_fetched.groups;
    sym_slots_ = sym_fetched.global_slots;
    st_.intermediate_products = sym_fetched.total_ip;
    st_.global_rows = sym_groups_.count[kGlobalGroup];
    if (sym_slots_ > 0) {
      const SymSlotsIter sym_it(thrust::make_counting_iterator<std::int64_t>(0),
                                SymbolicGlobalSlots{f_.ip, n_, m_, tuning_});
      std::size_t q = cub_bytes_;
      cub_check(cub::DeviceScan::ExclusiveSum(f_.cub_temp, q, sym_it, f_.sym_off, m_ + 1, stream_),
                "cub::DeviceScan::ExclusiveSum");
    }
  }

  // 2a. The staged rows, by expand-sort-compress and by direct hash tables,
  // into their staging: their nnz(C(i,:)) lands in row_nnz before the
  // symbolic phase's scan.
  void stage_rows() {
    if (staged_ == 0) return;
    const Staging l = staging(staged_);
    staged_buf_.emplace(l.bytes, stream_, "the staging of the rows done before the symbolic phase");
    largest_ws_ = std::max(largest_ws_, staged_buf_->bytes());
    void* base = staged_buf_->data();
    stage_off_ = at<std::int64_t>(base, 0);
    stage_col_ = at<vertex_t>(base, l.col_at);
    stage_val_ = at<V>(base, l.val_at);
    {
      const StagedIter it(thrust::make_counting_iterator<std::int64_t>(0),
                          StagedEntries{f_.ip, f_.keys, m_, n_});
      std::size_t q = cub_bytes_;
      cub_check(cub::DeviceScan::ExclusiveSum(f_.cub_temp, q, it, stage_off_, m_ + 1, stream_),
                "cub::DeviceScan::ExclusiveSum");
    }
    // The last column's bits (esc_kernel tells padding apart by position).
    const int key_bits = std::bit_width(static_cast<std::uint32_t>(n_ - 1));
    const EscArgs<V, T> esc{operands(), n_,         key_bits,   stage_off_,
                            stage_col_, stage_val_, f_.row_nnz, b_not_unit()};
    NumericArgs<V, T> direct{};
    static_cast<ProductRows<T>&>(direct) = operands();
    direct.stage_off = stage_off_;
    direct.stage_col = stage_col_;
    direct.stage_val = stage_val_;
    direct.row_nnz = f_.row_nnz;
    direct.n_cols = n_;
    direct.ordered = options_.deterministic;
    direct.unit_sums = options_.unit_sums;
    direct.balanced = options_.balance_entries;
    direct.batch_b_loads = options_.batch_b_loads;
    const SpaWindows spa = spa_plan();
    launch_staged<S, T>(std::make_integer_sequence<int, SpgemmPolicy::esc_bins>{},
                        std::make_integer_sequence<int, SpgemmPolicy::bins>{},
                        std::make_integer_sequence<int, SpgemmPolicy::dense_bins>{}, esc, direct,
                        tuning_.dense_shared_max_products_per_entry, sym_groups_, f_.sorted_rows,
                        spa, stream_);
    splits_buf_.reset();
    st_.sorted_rows = st_.direct_rows = 0;
    for (int e = 0; e < SpgemmPolicy::esc_bins; ++e)
      st_.sorted_rows += sym_groups_.count[kFirstEsc + e];
    for (int d = 0; d < SpgemmPolicy::bins; ++d)
      st_.direct_rows += sym_groups_.count[kFirstDirect + d];
    st_.staged_bitmap_rows = 0;
    for (int d = 0; d < SpgemmPolicy::dense_bins; ++d)
      st_.staged_bitmap_rows += sym_groups_.count[kFirstStagedDense + d];
    st_.spa_rows = spa.splits ? sym_groups_.count[kSpaGroup] : 0;
  }

  // 2b. nnz(C(i,:)) per row, group by group, in the symbolic tables the plan
  // sizes (by row chunks when they do not fit); the tables are freed, and
  // an exclusive scan gives C's row pointers.
  void symbolic() {
    const CsrView<T> av = a_.view(), bv = b_.view();
    SymbolicArgs sym{av.row_ptr, av.col_idx,
                     bv.row_ptr, bv.col_idx,
                     f_.ip,      n_,
                     nullptr,    0,
                     0,          nullptr,
                     f_.sym_off, 0,
                     f_.row_nnz, options_.balance_entries};
    {
      const std::size_t table_bytes = symbolic_tables_bytes(sym_slots_);
      const bool ask =
          table_bytes > kQueryAbove || (limit_ && table_bytes > limit_) || device_memory_cap() != 0;
      const std::size_t budget = ask ? budget_now(0) : table_bytes;
      std::vector<std::pair<vertex_t, vertex_t>> chunks{{0, m_}};
      std::vector<std::int64_t> off;
      std::size_t buf_bytes = table_bytes;
      if (table_bytes > budget) {
        off = download(f_.sym_off, mz_ + 1, stream_);
        for (auto& o : off) o = static_cast<std::int64_t>(symbolic_tables_bytes(o));
        chunks = plan_chunks(off, budget, "symbolic hash table");
        buf_bytes = 0;
        for (auto [r0, r1] : chunks)
          buf_bytes = std::max<std::size_t>(buf_bytes, off[r1] - off[r0]);
      }
      PoolBuffer tables(buf_bytes, stream_, "the symbolic hash tables");
      largest_ws_ = std::max(largest_ws_, buf_bytes);
      sym.tables = static_cast<int*>(tables.data());
      st_.symbolic_chunks = static_cast<int>(chunks.size());
      for (auto [r0, r1] : chunks) {
        Groups groups = sym_groups_;
        if (chunks.size() > 1) {
          group_rows(sym_key_, r0, r1);
          groups = fetch().groups;
          sym.table_base = off[r0] / static_cast<std::int64_t>(kSymbolicSlotBytes);
        }
        launch_symbolic(std::make_integer_sequence<int, SpgemmPolicy::bins>{},
                        std::make_integer_sequence<int, SpgemmPolicy::dense_bins>{}, sym, groups,
                        f_.sorted_rows, window_chain(), stream_);
      }
    }
    {
      std::size_t q = cub_bytes_;
      cub_check(
          cub::DeviceScan::ExclusiveSum(f_.cub_temp, q, f_.row_nnz, c_ptr_.data(), m_ + 1, stream_),
          "cub::DeviceScan::ExclusiveSum");
    }
    t_symbolic_ = timer_.mark();
  }

  // 3. The rows regrouped by nnz(C(i,:)) for the numeric phase; nnz(C) and
  // the numeric global rows' totals come back with the group sizes. Then
  // where each global row's numeric table starts.
  void group_numeric() {
    num_key_ = NumericKey{SymbolicKey{f_.ip, a_.view().row_ptr, n_, tuning_}, c_ptr_.data()};
    group_rows(num_key_, 0, m_, {c_ptr_.data() + m_});
    const Fetched num_fetched = fetch();
    num_groups_ = num_fetched.groups;
    nnz_c_ = num_fetched.extra[0];
    num_slots_ = num_fetched.global_slots;
    global_nnz_ = num_fetched.global_nnz;
    st_.nnz_c = nnz_c_;
    if (num_slots_ > 0) {
      const NumSlotsIter num_it(thrust::make_counting_iterator<std::int64_t>(0),
                                NumericGlobalSlots{f_.ip, c_ptr_.data(), m_, n_, tuning_});
      std::size_t q = cub_bytes_;
      cub_check(cub::DeviceScan::ExclusiveSum(f_.cub_temp, q, num_it, f_.num_off, m_ + 1, stream_),
                "cub::DeviceScan::ExclusiveSum");
    }
  }

  // C's columns and values, exactly nnz(C) of each.
  void allocate_c() {
    auto [col, val] = allocate_entries();
    c_col_ = std::move(col);
    c_val_ = std::move(val);
  }

  // 4. The numeric phase and the sort, by row chunks that fit. Shared-memory
  // rows are sorted in their agent and written to C; rows with global tables
  // are staged, sorted by a CUB segmented sort (double buffered: two staging
  // areas) and copied into C.
  void numeric_and_sort() {
    const std::int64_t global_rows = num_groups_.count[kGlobalGroup];
    st_.dense_rows = st_.staged_bitmap_rows;  // the bitmap rows of both phases
    for (int d = 0; d < SpgemmPolicy::dense_bins; ++d)
      st_.dense_rows += num_groups_.count[kFirstDense + d];
    std::size_t seg_bytes = global_rows ? sort_scratch_bytes(global_nnz_, global_rows) : 0;
    const std::size_t all_bytes =
        numeric_tables_bytes(global_nnz_, num_slots_, sizeof(V)) + kChunkPad;
    std::vector<std::pair<vertex_t, vertex_t>> chunks{{0, m_}};
    std::vector<std::int64_t> c_host, slot_host;
    std::size_t chunk_bytes = all_bytes;
    if (global_rows > 0 && (all_bytes + seg_bytes > kQueryAbove || (limit_ && all_bytes > limit_) ||
                            device_memory_cap() != 0)) {
      const std::size_t budget = budget_now(seg_bytes + kChunkPad);
      if (all_bytes > budget) {
        // Chunks sized as if every row were staged: a bound, computed on the host.
        c_host = download(c_ptr_.data(), mz_ + 1, stream_);
        slot_host = download(f_.num_off, mz_ + 1, stream_);
        std::vector<std::int64_t> need(mz_ + 1);
        for (std::size_t r = 0; r <= mz_; ++r)
          need[r] =
              static_cast<std::int64_t>(numeric_tables_bytes(c_host[r], slot_host[r], sizeof(V)));
        seg_bytes = sort_scratch_bytes(nnz_c_, m_);
        chunks = plan_chunks(need, budget > seg_bytes ? budget - seg_bytes : 0,
                             "numeric hash table and staging");
        chunk_bytes = 0;
        for (auto [r0, r1] : chunks)
          chunk_bytes = std::max<std::size_t>(chunk_bytes, need[r1] - need[r0] + kChunkPad);
      }
    }
    st_.chunks = static_cast<int>(chunks.size());
    numeric_buf_.emplace(numeric_buffer_bytes(chunk_bytes, seg_bytes), stream_,
                         "the numeric hash tables and staging");
    largest_ws_ = std::max(largest_ws_, numeric_buf_->bytes());
    void* seg_temp = at<unsigned char>(numeric_buf_->data(), sort_scratch_offset(chunk_bytes));

    NumericArgs<V, T> num{};
    static_cast<ProductRows<T>&>(num) = operands();
    num.table_off = f_.num_off;
    num.c_ptr = c_ptr_.data();
    num.c_col = c_col_.data();
    num.c_val = c_val_.data();
    num.stage_off = f_.stage_off;
    num.ordered = options_.deterministic;
    num.unit_sums = options_.unit_sums;
    num.balanced = options_.balance_entries;
    num.batch_b_loads = options_.batch_b_loads;
    for (auto [r0, r1] : chunks) {
      Groups groups = num_groups_;
      std::int64_t stage_nnz = global_nnz_, s_base = 0, s_end = num_slots_;
      if (chunks.size() > 1) {
        group_rows(num_key_, r0, r1);
        groups = fetch().groups;
        stage_nnz = c_host[r1] - c_host[r0];  // a bound
        s_base = slot_host[r0];
        s_end = slot_host[r1];
      }
      void* base = numeric_buf_->data();
      const ChunkLayout l = chunk_layout(stage_nnz, s_end - s_base, sizeof(V));
      vertex_t* stage_col[2] = {at<vertex_t>(base, l.stage_col[0]),
                                at<vertex_t>(base, l.stage_col[1])};
      V* stage_val[2] = {at<V>(base, l.stage_val[0]), at<V>(base, l.stage_val[1])};
      num.table_keys = at<int>(base, l.table_keys);
      num.table_vals = at<V>(base, l.table_vals);
      num.table_base = s_base;
      num.stage_col = stage_col[0];
      num.stage_val = stage_val[0];
      // The global rows: their agent, then their segmented sort and their
      // copy into C, all on stream s.
      const std::int64_t g_count = groups.count[kGlobalGroup];
      const vertex_t* g_rows = f_.sorted_rows + groups.start(kGlobalGroup);
      auto global_chain = [&](cudaStream_t s) {
        {
          const ListedNnzIter listed_it(thrust::make_counting_iterator<std::int64_t>(0),
                                        ListedRowNnz{g_rows, g_count, c_ptr_.data()});
          std::size_t q = cub_bytes_;
          cub_check(cub::DeviceScan::ExclusiveSum(f_.cub_temp, q, listed_it, f_.stage_off,
                                                  g_count + 1, s),
                    "cub::DeviceScan::ExclusiveSum");
        }
        launch_numeric_global<S, T>(num, g_rows, g_count, s);
        std::int64_t items = global_nnz_;
        if (chunks.size() > 1) items = download(f_.stage_off + g_count, 1, s)[0];

        const int t_sort0 = timer_.mark(s);
        cub::DoubleBuffer<vertex_t> dk(stage_col[0], stage_col[1]);
        cub::DoubleBuffer<V> dv(stage_val[0], stage_val[1]);
        std::size_t q = seg_bytes;
        cub_check(
            cub::DeviceSegmentedSort::SortPairs(
                seg_temp, q, dk, dv, items, g_count, static_cast<const std::int64_t*>(f_.stage_off),
                static_cast<const std::int64_t*>(f_.stage_off + 1), s),
            "cub::DeviceSegmentedSort::SortPairs");
        scatter_rows_kernel<<<grid_for(g_count, 1, 1 << 16), 256, 0, s>>>(
            g_rows, g_count, f_.stage_off, dk.Current(), dv.Current(), c_ptr_.data(), c_col_.data(),
            c_val_.data());
        GRAPHRUN_CUDA_CHECK(cudaGetLastError());
        sort_marks_.emplace_back(t_sort0, timer_.mark(s));
      };
      // One chunk: the chain overlaps the shared-memory groups. Several: it
      // waits for them (sizing the staged items reads a count back), as the
      // next chunk's workspace is the same memory anyway.
      const bool overlap = g_count > 0 && chunks.size() == 1;
      launch_numeric_shared<S, T>(std::make_integer_sequence<int, SpgemmPolicy::bins>{},
                                  std::make_integer_sequence<int, SpgemmPolicy::dense_bins>{}, num,
                                  n_, tuning_.dense_shared_max_products_per_entry, groups,
                                  f_.sorted_rows, window_chain(), stream_, overlap, global_chain);
      if (g_count > 0 && !overlap) global_chain(stream_);
    }
    if (staged_buf_) {
      if (copy_by_slots())
        staged_copy_kernel<V>
            <<<grid_for(staged_, kStagedCopyTile, 8192), kStagedCopyBlock, 0, stream_>>>(
                m_, stage_off_, stage_col_, stage_val_, c_ptr_.data(), c_col_.data(),
                c_val_.data());
      else
        staged_copy_rows_kernel<V><<<grid_for(std::int64_t{m_} * 32, 256, 8192), 256, 0, stream_>>>(
            m_, stage_off_, stage_col_, stage_val_, c_ptr_.data(), c_col_.data(), c_val_.data());
      GRAPHRUN_CUDA_CHECK(cudaGetLastError());
      staged_buf_.reset();
    }
    t_end_ = timer_.mark();
  }

  // SpgemmOptions::spa_windows: the SPA's windows and B's rows cut at them,
  // where the last staged bitmap bin has rows summed in fixed point (not in
  // a fixed order: the SPA's order is its own) and B's columns take at most
  // spa_max_windows windows. Where even the cuts (a few words per row of B)
  // do not fit, the rows stay bitmaps.
  SpaWindows spa_plan() {
    if (!kFixedSums<S> || !options_.spa_windows || !options_.unit_sums || options_.deterministic ||
        sym_groups_.count[kSpaGroup] == 0)
      return {};
    SpaWindows sw = spa_windows(n_);
    if (sw.count > options_.spa_max_windows) return {};
    const std::int64_t n_b = b_.n_rows();
    const std::int64_t entries = (std::int64_t{sw.count} + 1) * n_b;
    try {
      splits_buf_.emplace(static_cast<std::size_t>(entries) * sizeof(offset_t), stream_,
                          "B's rows cut at the sparse accumulator's windows");
    } catch (const DeviceMemoryError&) {
      return {};
    }
    largest_ws_ = std::max(largest_ws_, splits_buf_->bytes());
    auto* splits = static_cast<offset_t*>(splits_buf_->data());
    const CsrView<T> bv = b_.view();
    window_splits_kernel<<<grid_for(entries, 256, 8192), 256, 0, stream_>>>(
        bv.row_ptr, bv.col_idx, static_cast<vertex_t>(n_b), sw.count, sw.width, splits);
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
    sw.splits = splits;
    sw.n_b_rows = static_cast<vertex_t>(n_b);
    return sw;
  }

  // The chain words of windowed bitmap rows, a word per row: the global
  // rows' staging offsets, unused when rows are windowed (tuning_.windowed
  // sends every row past the shared bins to a bitmap, so there are no
  // global rows to stage).
  unsigned long long* window_chain() const {
    static_assert(sizeof(*f_.stage_off) == sizeof(unsigned long long));
    return reinterpret_cast<unsigned long long*>(f_.stage_off);
  }

  // C, and the figures of the call when asked for.
  DeviceCsr<V> finish(SpgemmStats* stats) {
    double sort_ms = 0;
    for (auto [t0, t1] : sort_marks_) sort_ms += timer_.ms(t0, t1);
    if (stats) {
      st_.workspace_bytes = largest_ws_;
      st_.analysis_ms = timer_.ms(t_start_, t_analysis_);
      st_.symbolic_ms = timer_.ms(t_analysis_, t_symbolic_);
      st_.sort_ms = sort_ms;
      st_.numeric_ms = timer_.ms(t_symbolic_, t_end_) - sort_ms;
      st_.total_ms = st_.analysis_ms + st_.symbolic_ms + st_.numeric_ms + st_.sort_ms;
      *stats = st_;
    }
    return DeviceCsr<V>(m_, n_, std::move(c_ptr_), std::move(c_col_), std::move(c_val_));
  }

 private:
  // A's and B's arrays with IP, as every product agent reads them; the
  // rows are each launch's own (spgemm_launch.cuh, rows_of).
  ProductRows<T> operands() const {
    const CsrView<T> av = a_.view(), bv = b_.view();
    return {av.row_ptr, av.col_idx, av.values, bv.row_ptr, bv.col_idx,
            bv.values,  f_.ip,      nullptr,   0};
  }

  // IP per row and its symbolic (or sorted) group, the rows listed group by
  // group; the scalars brought back.
  Fetched analysis_pass() {
    const CsrView<T> av = a_.view(), bv = b_.view();
    sym_key_ = SymbolicKey{f_.ip, av.row_ptr, n_, tuning_};
    clear_scalars();
    // Where B may hold one entry a row, a check, and the analysis reads
    // A's row lengths alone if it does.
    const unsigned long long* b_not_unit = this->b_not_unit();
    if (b_not_unit) {
      unit_rows_check_kernel<<<grid_for(b_.n_rows(), 256, 4096), 256, 0, stream_>>>(
          bv.row_ptr, b_.n_rows(), f_.scalars + ScalarsAt::b_not_unit);
      GRAPHRUN_CUDA_CHECK(cudaGetLastError());
    }
    // A row to a lane where B may hold one entry a row (the IP of a row is
    // then its length, no walk at all); elsewhere a row to a warp, which
    // keeps the long rows of a skewed A apart (see analysis_kernel).
    if (options_.lane_analysis && b_not_unit != nullptr)
      analysis_kernel<<<grid_for(m_, 256, 8192), 256, 0, stream_>>>(
          av.row_ptr, av.col_idx, m_, bv.row_ptr, b_not_unit, sym_key_, f_.ip, f_.keys, f_.row_nnz,
          f_.scalars);
    else
      analysis_warp_kernel<<<grid_for(std::int64_t{m_} * 32, 256, 8192), 256, 0, stream_>>>(
          av.row_ptr, av.col_idx, m_, bv.row_ptr, b_not_unit, sym_key_, f_.ip, f_.keys, f_.row_nnz,
          f_.scalars);
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
    scatter_rows(0, m_);
    return fetch();
  }

  // Staged rows into C by slots (staged_copy_kernel) where the longest of
  // them would keep a warp copying long after the rest (see there); a row
  // to a warp otherwise, which wastes no thread on a bound's unused slots.
  bool copy_by_slots() const {
    if (!options_.copy_by_slots) return false;
    std::int64_t longest = 0;
    for (int g = kFirstStaged; g < kMaxGroups; ++g)
      if (sym_groups_.count[g] > 0) longest = std::max(longest, sym_groups_.max_bound[g]);
    return longest >= kSlotCopyMinBound;
  }

  // unit_rows_check_kernel's verdict (zero: every row of B holds one entry),
  // where B can have one entry a row at all: nnz(B) equal to its rows;
  // nullptr elsewhere, and then no check runs.
  const unsigned long long* b_not_unit() const {
    return b_.nnz() == static_cast<std::int64_t>(b_.n_rows()) ? f_.scalars + ScalarsAt::b_not_unit
                                                              : nullptr;
  }

  // The staged rows' staging (offsets, columns, values) fits: within the
  // caller's limit and a quarter of what may be taken now, leaving the rest
  // for C and the hash phases' tables.
  bool staging_fits(std::int64_t entries) const {
    const std::size_t bytes = staging(entries).bytes;
    if (limit_ && bytes > limit_) return false;
    return bytes <= budget_now(0) / 4;
  }

  // The staging's layout: the offsets (m + 1), then the columns and the
  // values of `entries` entries, each array aligned.
  struct Staging {
    std::size_t col_at, val_at, bytes;
  };
  Staging staging(std::int64_t entries) const {
    auto aligned = [](std::size_t at) {
      return (at + kArrayAlign - 1) / kArrayAlign * kArrayAlign;
    };
    const auto n = static_cast<std::size_t>(entries);
    const std::size_t col_at = aligned((mz_ + 1) * sizeof(std::int64_t));
    const std::size_t val_at = aligned(col_at + n * sizeof(vertex_t));
    return {col_at, val_at, val_at + n * sizeof(V)};
  }

  // A failed allocation gives the pool back what the symbolic phase freed
  // and tries once more.
  std::pair<DeviceArray<vertex_t>, DeviceArray<V>> allocate_entries() {
    const std::size_t need = c_entries_bytes(nnz_c_, sizeof(V));
    try {
      return std::pair{DeviceArray<vertex_t>(static_cast<std::size_t>(nnz_c_), stream_),
                       DeviceArray<V>(static_cast<std::size_t>(nnz_c_), stream_)};
    } catch (const DeviceError&) {
      // The pool may hold what the symbolic phase freed: give it back, retry.
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
      GRAPHRUN_CUDA_CHECK(cudaMemPoolTrimTo(pool_, 0));
      try {
        return std::pair{DeviceArray<vertex_t>(static_cast<std::size_t>(nnz_c_), stream_),
                         DeviceArray<V>(static_cast<std::size_t>(nnz_c_), stream_)};
      } catch (const DeviceError& e) {
        throw DeviceMemoryError("spgemm: C has " + std::to_string(nnz_c_) + " entries and needs " +
                                std::to_string(need) + " bytes of device memory; " +
                                std::to_string(device_memory_available()) +
                                " bytes are available (" + e.what() + ")");
      }
    }
  }

  // The most scratch any scan of the call takes (they share f_.cub_temp).
  std::size_t scan_scratch_bytes() const {
    std::size_t bytes = 0, q = 0;
    const SymSlotsIter sym_it(thrust::make_counting_iterator<std::int64_t>(0),
                              SymbolicGlobalSlots{nullptr, n_, m_, tuning_});
    const NumSlotsIter num_it(thrust::make_counting_iterator<std::int64_t>(0),
                              NumericGlobalSlots{nullptr, nullptr, m_, n_, tuning_});
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, sym_it, static_cast<std::int64_t*>(nullptr),
                                            m_ + 1, stream_),
              "cub::DeviceScan::ExclusiveSum");
    bytes = std::max(bytes, q);
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, num_it, static_cast<std::int64_t*>(nullptr),
                                            m_ + 1, stream_),
              "cub::DeviceScan::ExclusiveSum");
    bytes = std::max(bytes, q);
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, static_cast<offset_t*>(nullptr),
                                            static_cast<offset_t*>(nullptr), m_ + 1, stream_),
              "cub::DeviceScan::ExclusiveSum");
    bytes = std::max(bytes, q);
    const ListedNnzIter listed_it(thrust::make_counting_iterator<std::int64_t>(0),
                                  ListedRowNnz{nullptr, 0, nullptr});
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, listed_it,
                                            static_cast<std::int64_t*>(nullptr), m_ + 1, stream_),
              "cub::DeviceScan::ExclusiveSum");
    bytes = std::max(bytes, q);
    const StagedIter staged_it(thrust::make_counting_iterator<std::int64_t>(0),
                               StagedEntries{nullptr, nullptr, m_, n_});
    cub_check(cub::DeviceScan::ExclusiveSum(nullptr, q, staged_it,
                                            static_cast<std::int64_t*>(nullptr), m_ + 1, stream_),
              "cub::DeviceScan::ExclusiveSum");
    bytes = std::max(bytes, q);
    return bytes;
  }

  // The segmented sort's scratch for `items` entries in `segments` rows.
  std::size_t sort_scratch_bytes(std::int64_t items, std::int64_t segments) const {
    std::size_t q = 0;
    cub::DoubleBuffer<vertex_t> dk(nullptr, nullptr);
    cub::DoubleBuffer<V> dv(nullptr, nullptr);
    cub_check(cub::DeviceSegmentedSort::SortPairs(
                  nullptr, q, dk, dv, items, segments, static_cast<const std::int64_t*>(nullptr),
                  static_cast<const std::int64_t*>(nullptr), stream_),
              "cub::DeviceSegmentedSort::SortPairs");
    return q;
  }

  // Bytes the chunked part (tables, staging) may take now, after `reserve`
  // bytes of other workspace: free memory less a margin for the driver,
  // within the cap's headroom, and at most the caller's limit.
  std::size_t budget_now(std::size_t reserve) const {
    const std::size_t margin = (std::size_t{64} << 20) + reserve;
    const std::size_t avail = device_memory_free();
    std::size_t usable = avail > margin ? avail - margin : 0;
    const std::size_t headroom = device_memory_headroom();
    usable = std::min(usable, headroom > reserve ? headroom - reserve : 0);
    return limit_ ? std::min(limit_, usable) : usable;
  }

  void clear_scalars() {
    GRAPHRUN_CUDA_CHECK(
        cudaMemsetAsync(f_.scalars, 0, ScalarsAt::zeroed * sizeof(unsigned long long), stream_));
  }

  // Lists rows [r0, r1) group by group in f_.sorted_rows (keys already in f_.keys).
  void scatter_rows(vertex_t r0, vertex_t r1) {
    group_scatter_kernel<<<static_cast<unsigned>((std::int64_t{r1} - r0 + 255) / 256), 256, 0,
                           stream_>>>(r0, r1, f_.keys, f_.scalars, f_.sorted_rows);
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
  }

  // Groups rows [r0, r1) by key_of; the group sizes and the global group's
  // totals land in f_.scalars, with up to four other scalars gathered.
  template <class KeyOf>
  void group_rows(KeyOf key_of, vertex_t r0, vertex_t r1,
                  std::initializer_list<const void*> gather = {}) {
    clear_scalars();
    Gather g{};
    for (const void* p : gather) g.src[g.n++] = static_cast<const unsigned long long*>(p);
    group_count_kernel<<<grid_for(r1 - r0, 256, 4096), 256, 0, stream_>>>(r0, r1, key_of, f_.keys,
                                                                          f_.scalars, g);
    GRAPHRUN_CUDA_CHECK(cudaGetLastError());
    scatter_rows(r0, r1);
  }

  // Brings the scalars back in one copy, then waits: the only places where
  // the host waits for the device.
  Fetched fetch() {
    std::array<unsigned long long, ScalarsAt::size> pageable{};
    unsigned long long* h = pinned_scalars();
    if (!h) h = pageable.data();
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(h, f_.scalars, ScalarsAt::size * sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, stream_));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
    Fetched r;
    for (int i = 0; i < kMaxGroups; ++i) {
      r.groups.count[i] = static_cast<std::int64_t>(h[ScalarsAt::count + i]);
      r.groups.max_bound[i] = static_cast<std::int64_t>(h[ScalarsAt::max_bound + i]);
    }
    r.global_slots = static_cast<std::int64_t>(h[ScalarsAt::global_slots]);
    r.global_nnz = static_cast<std::int64_t>(h[ScalarsAt::global_nnz]);
    r.total_ip = static_cast<std::int64_t>(h[ScalarsAt::total_ip]);
    r.staged = static_cast<std::int64_t>(h[ScalarsAt::staged]);
    for (int i = 0; i < 4; ++i) r.extra[i] = static_cast<std::int64_t>(h[ScalarsAt::gather + i]);
    return r;
  }

  const DeviceCsr<T>& a_;
  const DeviceCsr<T>& b_;
  const SpgemmOptions& options_;
  cudaStream_t stream_;
  const vertex_t m_, n_;
  const std::size_t mz_;

  SpgemmStats st_;
  PhaseTimer timer_;
  int t_start_ = -1, t_analysis_ = -1, t_symbolic_ = -1, t_end_ = -1;
  std::vector<std::pair<int, int>> sort_marks_;  // events around each chunk's sort

  // C, from the pool in the order of stream_.
  DeviceArray<offset_t> c_ptr_;
  DeviceArray<vertex_t> c_col_;
  DeviceArray<V> c_val_;

  cudaMemPool_t pool_ = nullptr;
  Tuning tuning_;
  std::size_t cub_bytes_ = 0;
  std::optional<PoolBuffer> fixed_buf_;  // the row workspace, held to the end
  Fixed f_{};
  std::size_t largest_ws_ = 0;
  std::size_t limit_ = 0;

  SymbolicKey sym_key_{};
  Groups sym_groups_;
  std::int64_t sym_slots_ = 0;

  NumericKey num_key_{};
  Groups num_groups_;
  std::int64_t nnz_c_ = 0, num_slots_ = 0, global_nnz_ = 0;
  std::optional<PoolBuffer> numeric_buf_;  // tables, staging and sort scratch

  // The staged rows' staging, from their kernels to their copy into C.
  std::int64_t staged_ = 0;
  std::optional<PoolBuffer> staged_buf_;
  std::optional<PoolBuffer> splits_buf_;  // spa_plan's, for the staged rows' kernels
  std::int64_t* stage_off_ = nullptr;
  vertex_t* stage_col_ = nullptr;
  V* stage_val_ = nullptr;
};

}  // namespace graphrun::cuda::spgemm_detail
