// The plan of the GPU SpGEMM: the bytes of every device buffer one call
// takes, as plain host functions of the product's shape and the row totals
// the phases count, and the row chunks when the chunked buffers do not fit.
//
// The dispatch (kernels/cuda/spgemm_dispatch.cuh) allocates by these
// functions and lays its arrays out at their offsets; the memory estimate
// (spgemm_estimate_gpu.cpp) adds up the same functions from the row totals
// it counts on the host. One sizing code for both, so the estimate cannot
// drift from what the call allocates. Plain C++, built in every build: a
// product can be sized for a GPU on a machine without one.
//
// What is not computed here is the scratch CUB sizes for itself (a scan's
// tile states, a segmented sort's segment lists): the dispatch asks CUB,
// and the estimate takes the bounds below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "graphrun/engine/types.hpp"
#include "spgemm_gpu_policy.hpp"

namespace graphrun::cuda {
struct SpgemmOptions;
}

namespace graphrun::cuda::spgemm_detail {

// The tuning a call runs with: SpgemmOptions' overrides over the policy's
// defaults, bitmap rows only where B's columns allow them.
Tuning tuning_for(const SpgemmOptions& options, vertex_t n_cols);

// ---- the scalars the host waits for -----------------------------------------

// One device array of unsigned 64-bit scalars, filled by the grouping kernels
// and brought back by one copy: per group its rows and the largest bound,
// the cursors the scatter kernel advances, the global-memory group's table
// slots and entries, Σ IP, and a gather area for anything else.
struct ScalarsAt {
  static constexpr int count = 0;
  static constexpr int max_bound = count + kMaxGroups;
  static constexpr int cursor = max_bound + kMaxGroups;
  static constexpr int global_slots = cursor + kMaxGroups;
  static constexpr int global_nnz = global_slots + 1;
  static constexpr int total_ip = global_nnz + 1;
  // Σ of the staged rows' bounds (expand-sort-compress and direct rows):
  // the entries their staging holds.
  static constexpr int staged = total_ip + 1;
  // Not 0 when some row of B holds other than exactly one entry (the
  // analysis's shortcut, spgemm_agent_grouping.cuh).
  static constexpr int b_not_unit = staged + 1;
  static constexpr int zeroed = b_not_unit + 1;  // [0, zeroed) is cleared before a grouping
  static constexpr int gather = zeroed;
  static constexpr int size = gather + 4;
};

// ---- the row workspace: O(m) arrays, held for the whole call ----------------

// Arrays are laid out one after another in one pool buffer, each 256-byte
// aligned (CUB's and the coalescing's preference).
inline constexpr std::size_t kArrayAlign = 256;

// Byte offsets of the row workspace's arrays in its buffer, and its size.
struct FixedLayout {
  std::size_t ip;           // IP(i), 8 bytes a row
  std::size_t keys;         // the row's group, a byte a row
  std::size_t sorted_rows;  // rows listed group by group
  std::size_t row_nnz;      // nnz(C(i,:)), m + 1
  std::size_t sym_off;      // where each global row's symbolic table starts, m + 1
  std::size_t num_off;      // the same for the numeric tables, m + 1
  std::size_t stage_off;    // where each staged row starts, m + 1
  std::size_t scalars;      // ScalarsAt::size
  std::size_t cub_temp;     // `cub_bytes`: the largest scan's scratch
  std::size_t bytes;        // the whole buffer
};
FixedLayout fixed_layout(std::size_t m, std::size_t cub_bytes);

// ---- C ---------------------------------------------------------------------

std::size_t c_row_ptr_bytes(std::size_t m);
// A column and a value of C (also what one staged entry takes).
std::size_t c_entry_bytes(std::size_t value_bytes);
// C's columns and values for nnz entries; SizeError past size_t.
std::size_t c_entries_bytes(std::int64_t nnz, std::size_t value_bytes);

// ---- the symbolic phase's global hash tables ----------------------------------

inline constexpr std::size_t kSymbolicSlotBytes = sizeof(int);  // a key
std::size_t symbolic_tables_bytes(std::int64_t slots);

// ---- the numeric phase's global hash tables and staging ------------------------

// Tables of `slots` keys and values and two staging copies of `staged`
// entries (the segmented sort's double buffer), unpadded: per row, the
// prefix the chunks are cut along; in total, the unchunked size.
std::size_t numeric_tables_bytes(std::int64_t staged, std::int64_t slots, std::size_t value_bytes);
// Padding of a chunk for the alignment of its five arrays.
inline constexpr std::size_t kChunkPad = 7 * 256;
// The numeric buffer: a chunk's tables and staging (padded), then the
// segmented sort's scratch at the next 256-byte boundary.
std::size_t numeric_buffer_bytes(std::size_t chunk_bytes, std::size_t sort_bytes);
std::size_t sort_scratch_offset(std::size_t chunk_bytes);

// Byte offsets of one chunk's arrays in the numeric buffer.
struct ChunkLayout {
  std::size_t stage_col[2];
  std::size_t stage_val[2];
  std::size_t table_keys;
  std::size_t table_vals;
  std::size_t bytes;
};
ChunkLayout chunk_layout(std::int64_t staged, std::int64_t slots, std::size_t value_bytes);

// ---- chunks ------------------------------------------------------------------

// Workspace below this size is taken without asking how much memory is free
// (cudaMemGetInfo costs more than a small product); a failed allocation still
// ends in a DeviceError naming the bytes.
inline constexpr std::size_t kQueryAbove = std::size_t{256} << 20;

// Row chunks [r0, r1) over a prefix of per-row bytes: greedy, each at most
// `budget`. A single row over budget makes the product impossible
// (DeviceMemoryError naming the row and `what`).
std::vector<std::pair<vertex_t, vertex_t>> plan_chunks(
    const std::vector<std::int64_t>& prefix_bytes, std::size_t budget, const char* what);

// ---- a whole call ------------------------------------------------------------

// The totals the phases count, which the buffers are sized by: after the
// analysis, the symbolic global rows' table slots; after the symbolic
// phase, nnz(C) and the numeric global rows, their slots and entries.
struct RowTotals {
  std::int64_t symbolic_global_slots = 0;
  std::int64_t nnz_c = 0;
  std::int64_t numeric_global_rows = 0;
  std::int64_t numeric_global_slots = 0;
  std::int64_t numeric_global_nnz = 0;
};

// Bytes of each device buffer of a call that is not chunked, in the order
// the dispatch takes them (the symbolic tables are freed before C's entries
// and the numeric buffer are taken).
struct Buffers {
  std::size_t c_row_ptr = 0;
  std::size_t fixed = 0;      // the row workspace
  std::size_t symbolic = 0;   // the symbolic phase's global tables
  std::size_t c_entries = 0;  // C's columns and values
  std::size_t numeric = 0;    // the numeric tables, staging and sort scratch
};

// `cub_bytes`: the scans' scratch (fixed_layout); `sort_bytes`: the
// segmented sort's over the numeric global rows (0 when there are none).
Buffers plan_buffers(vertex_t m, std::size_t value_bytes, const RowTotals& totals,
                     std::size_t cub_bytes, std::size_t sort_bytes);

// CUB's scratch as the estimate bounds it, since the host cannot ask CUB
// without a device. From CUB's layout: a scan keeps a 16-byte tile state per
// tile of at least 128 items, and 32 padding tiles (64 here); a segmented
// sort over caller-owned double buffers keeps two 4-byte index lists per
// segment, the three-way partition's tile states and five 256-aligned slots
// (and makes no copy of the keys or values). On an H200 they exceeded CUB's
// own figures by a few hundred bytes for 3000 rows
// (tests/cuda/spgemm_estimate_test.cpp checks the margin).
std::size_t cub_scan_bytes_bound(std::size_t items);
std::size_t cub_segmented_sort_bytes_bound(std::size_t segments);

}  // namespace graphrun::cuda::spgemm_detail
