// What one SpGEMM call did and how long each phase took. Both backends fill
// this one struct (cuda::SpgemmStats names it too); a field a backend has no
// use for keeps its default.
#pragma once

#include <cstddef>
#include <cstdint>

namespace graphrun {

struct SpgemmStats {
  std::int64_t intermediate_products = 0;  // Σ_i IP(i); 2 flops each for GFLOP/s
  std::int64_t max_row_products = 0;       // max_i IP(i) (CPU)
  std::int64_t nnz_c = 0;
  // CPU: rows per kind (empty, copy, hash, dense; see cpu::SpgemmRowKind).
  std::int64_t rows_per_group[4] = {0, 0, 0, 0};
  // CPU spgemm_rows: dense rows expanded strip by strip (SpgemmTuning::strip_cols).
  std::int64_t strip_rows = 0;
  int strips = 0;           // CPU spgemm_rows: how many vertical strips B was cut into for them
  int tasks = 0;            // CPU: row tasks handed to the threads
  int chunks = 1;           // GPU: row chunks of the numeric phase
  int symbolic_chunks = 1;  // GPU: row chunks of the symbolic phase
  std::int64_t global_rows = 0;         // GPU: rows whose symbolic table lives in global memory
  std::int64_t dense_rows = 0;          // GPU: rows of C accumulated in a bitmap (numeric phase)
  std::int64_t sorted_rows = 0;         // GPU: rows by expand-sort-compress (no hash phases)
  std::int64_t direct_rows = 0;         // GPU: rows by one hash pass, no symbolic phase
  std::int64_t staged_bitmap_rows = 0;  // GPU: of dense_rows, those with no symbolic phase
  std::int64_t spa_rows = 0;            // GPU: of staged_bitmap_rows, those by the SPA
  std::size_t workspace_bytes = 0;      // GPU: largest pool allocation of the call
  // Phases, ms. CPU: rows are sorted inside numeric_ms and sort_ms stays 0.
  // GPU: sort_ms is the segmented sort of the rows with global-memory tables
  // (it runs beside the shared-memory rows; numeric_ms is the numeric phase
  // less sort_ms).
  double analysis_ms = 0, symbolic_ms = 0, numeric_ms = 0, sort_ms = 0;
  double total_ms = 0;  // the whole call
};

}  // namespace graphrun
