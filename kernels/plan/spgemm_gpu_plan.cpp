// The GPU SpGEMM's buffer sizes and row chunks (spgemm_gpu_plan.hpp). Each
// function is the one place its formula is written: the CUDA dispatch
// allocates by it and the estimate counts by it.
#include "spgemm_gpu_plan.hpp"

#include <algorithm>
#include <string>

#include "graphrun/engine/error.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

namespace graphrun::cuda::spgemm_detail {

Tuning tuning_for(const SpgemmOptions& options, vertex_t n_cols) {
  Tuning tuning;
  tuning.dense = options.dense_rows && n_cols <= SpgemmPolicy::dense_max_cols;
  tuning.windowed = options.dense_rows && n_cols > SpgemmPolicy::dense_max_cols &&
                    column_windows(n_cols) <= SpgemmPolicy::max_windows;
  if (options.dense_words_per_entry > 0)
    tuning.dense_words_per_entry = options.dense_words_per_entry;
  if (options.dense_shared_max_products_per_entry > 0)
    tuning.dense_shared_max_products_per_entry = options.dense_shared_max_products_per_entry;
  if (options.warp_max_ip > 0) tuning.warp_max_ip = options.warp_max_ip;
  if (options.sort_min_ip > 0) tuning.sort_min_ip = options.sort_min_ip;
  if (options.sort_max_ip > 0)
    tuning.sort_max_ip = std::min<std::int64_t>(options.sort_max_ip, kSortMaxIpLimit);
  if (options.sort_cols_per_product > 0)
    tuning.sort_cols_per_product =
        std::min<std::int64_t>(options.sort_cols_per_product, std::int64_t{1} << 31);
  if (!options.sort_rows) tuning.sort_max_ip = 0;
  if (options.direct_max_bound > 0)
    tuning.direct_max_bound =
        std::min<std::int64_t>(options.direct_max_bound, SpgemmPolicy::direct_max_bound);
  if (!options.direct_rows) tuning.direct_max_bound = 0;
  if (options.direct_cols_per_bound > 0)
    tuning.direct_cols_per_bound =
        std::min<std::int64_t>(options.direct_cols_per_bound, std::int64_t{1} << 31);
  tuning.staged_dense = options.stage_bitmap_rows && tuning.dense;
  return tuning;
}

namespace {

// Lays arrays out one after another, each kArrayAlign-aligned: returns where
// the next array of `bytes` starts, and moves the end past it.
std::size_t take(std::size_t& end, std::size_t bytes) {
  const std::size_t at = (end + kArrayAlign - 1) / kArrayAlign * kArrayAlign;
  end = at + bytes;
  return at;
}

}  // namespace

FixedLayout fixed_layout(std::size_t m, std::size_t cub_bytes) {
  FixedLayout l{};
  std::size_t end = 0;
  l.ip = take(end, m * sizeof(unsigned long long));
  l.keys = take(end, m * sizeof(std::uint8_t));
  l.sorted_rows = take(end, m * sizeof(vertex_t));
  l.row_nnz = take(end, (m + 1) * sizeof(offset_t));
  l.sym_off = take(end, (m + 1) * sizeof(std::int64_t));
  l.num_off = take(end, (m + 1) * sizeof(std::int64_t));
  l.stage_off = take(end, (m + 1) * sizeof(std::int64_t));
  l.scalars = take(end, ScalarsAt::size * sizeof(unsigned long long));
  l.cub_temp = take(end, cub_bytes);
  l.bytes = end;
  return l;
}

std::size_t c_row_ptr_bytes(std::size_t m) { return (m + 1) * sizeof(offset_t); }

std::size_t c_entry_bytes(std::size_t value_bytes) { return sizeof(vertex_t) + value_bytes; }

std::size_t c_entries_bytes(std::int64_t nnz, std::size_t value_bytes) {
  return checked_mul<std::size_t>(static_cast<std::size_t>(nnz), c_entry_bytes(value_bytes),
                                  "spgemm: bytes of C");
}

std::size_t symbolic_tables_bytes(std::int64_t slots) {
  return checked_mul<std::size_t>(static_cast<std::size_t>(slots), kSymbolicSlotBytes,
                                  "spgemm symbolic tables");
}

std::size_t numeric_tables_bytes(std::int64_t staged, std::int64_t slots, std::size_t value_bytes) {
  return checked_mul<std::size_t>(
      2 * static_cast<std::size_t>(staged) + static_cast<std::size_t>(slots),
      c_entry_bytes(value_bytes), "spgemm: numeric workspace");
}

std::size_t numeric_buffer_bytes(std::size_t chunk_bytes, std::size_t sort_bytes) {
  return chunk_bytes + sort_bytes + 256;
}

std::size_t sort_scratch_offset(std::size_t chunk_bytes) {
  return chunk_bytes + 256 - (chunk_bytes % 256);
}

// Two staging areas (columns and values each) for the chunk's global rows,
// then their tables' keys and values.
ChunkLayout chunk_layout(std::int64_t staged, std::int64_t slots, std::size_t value_bytes) {
  ChunkLayout l{};
  std::size_t end = 0;
  const auto s = static_cast<std::size_t>(staged), t = static_cast<std::size_t>(slots);
  for (int i = 0; i < 2; ++i) {
    l.stage_col[i] = take(end, s * sizeof(vertex_t));
    l.stage_val[i] = take(end, s * value_bytes);
  }
  l.table_keys = take(end, t * sizeof(int));
  l.table_vals = take(end, t * value_bytes);
  l.bytes = end;
  return l;
}

std::vector<std::pair<vertex_t, vertex_t>> plan_chunks(
    const std::vector<std::int64_t>& prefix_bytes, std::size_t budget, const char* what) {
  std::vector<std::pair<vertex_t, vertex_t>> chunks;
  const auto m = static_cast<vertex_t>(prefix_bytes.size() - 1);
  vertex_t r0 = 0;
  while (r0 < m) {
    const std::int64_t limit = prefix_bytes[r0] + static_cast<std::int64_t>(budget);
    // Last r1 with prefix[r1] <= limit.
    const auto it = std::upper_bound(prefix_bytes.begin() + r0, prefix_bytes.end(), limit);
    auto r1 = static_cast<vertex_t>((it - prefix_bytes.begin()) - 1);
    if (r1 == r0) {
      throw DeviceMemoryError("spgemm: row " + std::to_string(r0) + " of C needs " +
                              std::to_string(prefix_bytes[r0 + 1] - prefix_bytes[r0]) +
                              " bytes of " + what + "; " + std::to_string(budget) +
                              " bytes are available (free device memory or the workspace limit)");
    }
    chunks.emplace_back(r0, r1);
    r0 = r1;
  }
  return chunks;
}

Buffers plan_buffers(vertex_t m, std::size_t value_bytes, const RowTotals& totals,
                     std::size_t cub_bytes, std::size_t sort_bytes) {
  const auto mz = static_cast<std::size_t>(m);
  Buffers b;
  b.c_row_ptr = c_row_ptr_bytes(mz);
  b.fixed = fixed_layout(mz, cub_bytes).bytes;
  b.symbolic = symbolic_tables_bytes(totals.symbolic_global_slots);
  b.c_entries = c_entries_bytes(totals.nnz_c, value_bytes);
  b.numeric = numeric_buffer_bytes(
      numeric_tables_bytes(totals.numeric_global_nnz, totals.numeric_global_slots, value_bytes) +
          kChunkPad,
      sort_bytes);
  return b;
}

std::size_t cub_scan_bytes_bound(std::size_t items) {
  return 16 * ((items + 127) / 128 + 64) + 256;
}

std::size_t cub_segmented_sort_bytes_bound(std::size_t segments) {
  return checked_add(checked_mul<std::size_t>(segments, 8, "spgemm: device bytes of A*B"),
                     cub_scan_bytes_bound(segments) + 5 * 256, "spgemm: device bytes of A*B");
}

}  // namespace graphrun::cuda::spgemm_detail
