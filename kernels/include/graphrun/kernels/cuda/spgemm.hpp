// SpGEMM on the GPU: C = A ⊕.⊗ B by the hash-based multi-phase algorithm
// (row analysis, grouping by intermediate products, symbolic, numeric, sort).
//
//   DeviceCsr<double> a(host_a), b(host_b);
//   cuda::SpgemmStats stats;
//   DeviceCsr<double> c = cuda::spgemm<PlusTimes<double>>(a, b, &stats);
//
// Rows whose hash tables fit in shared memory are sorted inside their block;
// rows accumulated in a bitmap of the columns (over windows of 2^18 columns,
// a block each, where B is wider than one bitmap) come out sorted; rows with
// hash tables in global memory (past the shared bins when B has more than
// 2^24 columns, or bitmaps are turned off) are staged and sorted by a CUB segmented sort
// (SpgemmStats::sort_ms is that sort alone; it runs beside the shared-memory
// rows, and numeric_ms is the numeric phase's time less sort_ms).
//
// C has sorted, unique columns per row; its structure is the structural
// product (a stored zero still contributes). Inputs are device-resident; the
// result is too, complete in the order of `stream`. A pattern input (no
// values) stands for all-ones entries. Values are summed in no fixed order
// (atomics), so floating-point sums may differ in the last bits run to run,
// unless SpgemmOptions::deterministic is set.
// The kernels of different row groups run side by side on side streams of
// the calling thread, joined back into `stream` before the call returns.
//
// Memory: the working arrays come from the device's stream-ordered pool
// (cudaMallocAsync on the default pool, whose release threshold is raised so
// that repeated calls reuse it). C's arrays come from that pool too, on
// `stream`, and are freed on it: the stream must outlive C. When the hash tables
// and staging buffers of all rows do not fit in the device's free memory, or
// in SpgemmOptions::workspace_limit_bytes, rows are processed in chunks. A
// product that cannot be done at all (one row's table, or C, larger than the
// memory there is) throws DeviceError with the bytes needed and available,
// never a wrong or empty C.
//
// Instantiated over GRAPHRUN_SPGEMM_COMBOS (combos.hpp): PlusTimes and
// MinPlus over float and double (value type == matrix type), and
// PlusTimes<double> over float matrices (float inputs, products and sums in
// double, a double C); kernels/cuda/spgemm_semiring.cuh says what another
// semiring needs.
//
// Declared in every build, with no CUDA header: a CUDA build defines these
// in kernels/cuda/spgemm.cu; a build without CUDA has no DeviceCsr to call
// the device-resident form with, and links kernels/no_gpu/spgemm_absent.cpp,
// whose spgemm_host refuses with a DeviceError.
#pragma once

#include <cstddef>
#include <cstdint>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/kernels/spgemm_stats.hpp"

struct CUstream_st;  // cudaStream_t, without the CUDA headers

namespace graphrun {

template <class T>
class DeviceCsr;  // engine/device_csr.hpp, in CUDA builds

namespace cuda {

struct SpgemmOptions {
  // Most bytes the chunked part of the workspace (hash tables in global
  // memory, staging of C's rows before their sort) may take; 0 = what the
  // device has free. Small values force chunking (tests do this).
  std::size_t workspace_limit_bytes = 0;
  // Rows whose bound on distinct columns is a sizeable share of B's columns
  // accumulate in a bitmap of those columns rather than a hash table (when
  // B has at most 2^19 columns); where B is wider, rows past the shared-memory
  // tables take a bitmap per window of 2^18 columns (up to 64 windows)
  // rather than a table in global memory. false keeps every row in hash
  // tables; tests use it to reach the global-memory tables with small matrices.
  bool dense_rows = true;
  // Sums in a fixed order: each C(i,j) adds its products in ascending k, as
  // a sequential Gustavson loop does, so C is bit-identical run to run
  // (otherwise atomics add in whatever order the threads arrive, and a
  // floating-point sum may differ in its last bits). Costs idle lanes where
  // B's rows are short; docs/reliability.md measures it. (--deterministic)
  bool deterministic = false;
  // The caller's promise, for (+, ×) on double only, that every product and
  // every entry of C lies in [0, 2): a stochastic matrix squared, as MCL's
  // expansion is. Bitmap rows then sum in shared memory in 64-bit fixed
  // point (units of 2^-63, two native 32-bit atomics a product) instead of
  // double atomics, which sm_90 has in global memory only: each sum exact,
  // so independent of the order of the products, and within 2^-63 a product
  // of the double sum (a window of more entries than the shared values
  // hold, in chunks of them). Values outside the range give wrong sums.
  bool unit_sums = false;
  // Overrides of tuning constants of kernels/plan/spgemm_gpu_policy.hpp, for
  // sweeps (graphrun bench spgemm --tune); 0 keeps the default there.
  int dense_words_per_entry =
      0;  // a bitmap row: words of the bitmap per entry of its bound, at most
  int dense_shared_max_products_per_entry = 0;  // a bitmap row past this accumulates in C
  std::int64_t warp_max_ip = 0;                 // most products of a row a warp takes
  std::int64_t sort_min_ip = 0;            // rows of more products than this may be sorted (16) ...
  std::int64_t sort_max_ip = 0;            // ... up to this many (8,192, the most) ...
  std::int64_t sort_cols_per_product = 0;  // ... where B has this many columns a product (64)
  // Short rows (sort_min_ip < IP ≤ sort_max_ip) in one pass by
  // expand-sort-compress, skipping the symbolic phase, when the staging of
  // their products fits; false keeps every row in the two hash phases.
  bool sort_rows = true;
  // The other rows of the shared-memory hash tables whose bound on distinct
  // columns is at most direct_max_bound (8,192, the most; 0 keeps it) skip
  // the symbolic phase too: a table sized by the bound, the row staged. When
  // the staging does not fit, or direct_rows is false, they take both phases.
  std::int64_t direct_max_bound = 0;
  // ... and, when not 0, only where B has this many columns per entry of the
  // bound (for sweeps; 0: any B).
  std::int64_t direct_cols_per_bound = 0;
  bool direct_rows = true;
  // Bitmap rows (B of at most 2^19 columns) skip the symbolic phase as well:
  // the numeric phase's bitmap counts the row anyway, so the row is computed
  // into a staging the size of its bound (min(IP, B's columns)) and copied
  // into C afterwards. Saves a walk of the products where bitmap rows hold
  // most of them (MCL's expansion, tens of products an entry) at the cost of
  // the staging and one copy of those rows; off by default, where most
  // products have few products an entry and the copy would cost more. When
  // the staging does not fit, the rows take both phases.
  bool stage_bitmap_rows = false;
  // A block that walks one row hands A's entries to its sub-teams of a
  // whole warp as each finishes the last (a counter in shared memory),
  // rather than every n-th entry to each, so that the block does not wait at
  // its barriers for the sub-team whose B rows happened to be longest.
  // MCL's expansions 4-6% faster on an H100 (soc-Epinions1,
  // cit-HepPh); contractions, whose sub-teams are narrower, unchanged.
  bool balance_entries = true;
  // Bitmap rows summed in fixed point (unit_sums: MCL's expansion) load
  // four of B's entries ahead of their use in each walk, so that a lane has
  // four loads in flight rather than one: Nsight Compute put 62% of the
  // larger bitmap bin's stalls on those loads. MCL's expansions 20-30%
  // faster on an H100 (soc-Epinions1, cit-HepPh), the same clusters.
  bool batch_b_loads = true;
  // The longest staged bitmap rows summed in fixed point (MCL's expansion)
  // walk their products once rather than twice: a row's block holds a dense
  // accumulator of a window of about 28,000 of B's columns in shared memory
  // and takes the windows in turn (spgemm_agent_spa.cuh). The same bits as
  // the bitmap rows; MCL's expansions 27-45% faster on an H100 (cit-HepPh,
  // soc-Epinions1, soc-Slashdot0902).
  bool spa_windows = true;
  // ... where B's columns take at most this many windows: past it, each row
  // walking A's entries once per window costs more than the walk it saves.
  // web-NotreDame's 325,729 columns make 12 windows, and its expansions take
  // 46% less time with the SPA than with bitmap rows (H100).
  int spa_max_windows = 16;
  // Where B may hold one entry a row (nnz(B) equals its rows: Sᵀ of a
  // contraction), the analysis gives a row of A to a lane (rows of more than
  // 32 entries to the whole warp, one after another) rather than every row
  // to a warp: R-MAT 20's (S·A)·Sᵀ 31 -> 7 us on an H100.
  bool lane_analysis = true;
  // Where the longest row computed before the symbolic phase (sorted, direct,
  // staged bitmap) has a bound of 4,096 or more, those rows go into C by
  // slots of their staging, a tile to a block, rather than a row to a warp,
  // which left the longest row to one warp: R-MAT 20's S·A 84 -> 44 us.
  bool copy_by_slots = true;
};

using SpgemmStats = graphrun::SpgemmStats;  // one struct for both backends

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                         SpgemmStats* stats = nullptr,
                                         CUstream_st* stream = nullptr);

template <class S, class T>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<T>& a, const DeviceCsr<T>& b,
                                         const SpgemmOptions& options, SpgemmStats* stats = nullptr,
                                         CUstream_st* stream = nullptr);

// C = A ⊕.⊗ B for host matrices: A and B uploaded (each once, even when B
// is A), the product on the device on the default stream, C downloaded.
// The form the dispatch of kernels/spgemm.hpp calls; in a build without
// CUDA, a DeviceError.
template <class S, class T>
Csr<typename S::value_type> spgemm_host(const CsrView<T>& a, const CsrView<T>& b,
                                        const SpgemmOptions& options, SpgemmStats* stats);

}  // namespace cuda
}  // namespace graphrun
