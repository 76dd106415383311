// The GPU half of estimate_spgemm: what spgemm_impl (kernels/cuda/spgemm.cu)
// and the dispatch of kernels/spgemm.hpp allocate on the device, replayed on
// the host from the row products. Host code, built in every build: a product
// can be sized for a GPU on a machine that has none.
//
// The row groups come from the GPU's own tuning (kernels/cuda/spgemm_config.cuh,
// whose functions are __host__ __device__ and need no CUDA here), so a change
// of the bins changes the estimate with it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "spgemm_estimate_phases.hpp"

// spgemm_config.cuh marks its functions __host__ __device__; in plain C++
// (no CUDA header in this file) those words mean nothing and are defined away.
#if !defined(__host__) && !defined(__device__)
#define GRAPHRUN_ESTIMATE_HOST_DEVICE_DEFINED
#define __host__
#define __device__
#endif
#include "../cuda/spgemm_config.cuh"
#if defined(GRAPHRUN_ESTIMATE_HOST_DEVICE_DEFINED)
#undef __host__
#undef __device__
#undef GRAPHRUN_ESTIMATE_HOST_DEVICE_DEFINED
#endif

namespace graphrun::spgemm_estimate_detail {

namespace {

using namespace cuda::spgemm_detail;

constexpr std::string_view kWhat = "spgemm: device bytes of A*B";

std::size_t add(std::size_t x, std::size_t y) { return checked_add(x, y, kWhat); }
std::size_t mul(std::size_t x, std::size_t y) { return checked_mul(x, y, kWhat); }

// spgemm_workspace.cuh Carver: arrays one after another, each 256-aligned.
class Layout {
 public:
  void take(std::size_t bytes) { bytes_ = add((bytes_ + 255) / 256 * 256, bytes); }
  std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_ = 0;
};

// spgemm_grouping.cuh ScalarsAt::size: count, max_bound and cursor per
// group, global slots, global nnz, Σ IP, and four gathered scalars.
constexpr std::size_t kScalars = 3 * kMaxGroups + 3 + 4;

// spgemm.cu: alignment padding of the numeric chunk (kPad) and of the
// segmented sort's scratch behind it.
constexpr std::size_t kPad = 7 * 256;
constexpr std::size_t kSortAlign = 256;

// CUB sizes its scratch itself, which the host cannot ask without a device.
// Over-estimates from CUB's layout: a scan keeps a 16-byte tile state per
// tile of at least 128 items, and 32 padding tiles (64 here); a segmented
// sort over caller-owned double buffers keeps two 4-byte index lists per
// segment, the three-way partition's tile states and five 256-aligned slots.
// On an H200 they exceeded CUB's own figures by a few hundred bytes for
// 3000 rows (tests/cuda/spgemm_estimate_test.cpp checks the margin).
std::size_t cub_scan_bytes(std::size_t items) { return 16 * ((items + 127) / 128 + 64) + 256; }
// (With cub::DoubleBuffer the sort makes no copy of the keys or values.)
std::size_t cub_segmented_sort_bytes(std::size_t segments) {
  return add(mul(segments, 8), cub_scan_bytes(segments) + 5 * 256);
}

// DeviceCsr's upload (engine/device_csr.hpp): row pointers, columns, values when present.
std::size_t uploaded_bytes(const SpgemmOperand& x) { return csr_bytes(x); }

}  // namespace

void estimate_cuda(const SpgemmOperand& a, const SpgemmOperand& b,
                   const std::vector<std::int64_t>& ip, std::size_t c_value_bytes,
                   SpgemmEstimate& e) {
  SpgemmMemoryEstimate& mem = e.memory;
  const vertex_t m = a.n_rows, n = b.n_cols;
  const auto mz = static_cast<std::size_t>(m);
  // The dispatch uploads A and B separately, even when B is A.
  mem.inputs = add(uploaded_bytes(a), uploaded_bytes(b));
  // C's row pointers, taken first and held to the end.
  const std::size_t c_ptr = (mz + 1) * sizeof(offset_t);
  const std::size_t entry = sizeof(vertex_t) + c_value_bytes;
  const std::size_t c_entries = mul(static_cast<std::size_t>(e.nnz_c_bound), entry);
  mem.output = add(c_ptr, c_entries);
  if (m == 0 || n == 0 || a.nnz == 0 || b.nnz == 0) {
    // spgemm_impl returns an empty C before any workspace.
    mem.output = c_ptr;
    mem.peak = mem.least = add(mem.inputs, c_ptr);
    return;
  }

  // "the fixed workspace": held from the analysis to the end of the call.
  Layout fixed;
  fixed.take(mz * sizeof(unsigned long long));                              // ip
  fixed.take(mz);                                                           // keys (a byte per row)
  fixed.take(mz * sizeof(vertex_t));                                        // sorted_rows
  fixed.take((mz + 1) * sizeof(offset_t));                                  // row_nnz
  for (int i = 0; i < 3; ++i) fixed.take((mz + 1) * sizeof(std::int64_t));  // sym, num, stage_off
  fixed.take(kScalars * sizeof(unsigned long long));                        // scalars
  fixed.take(cub_scan_bytes(mz + 1));                                       // cub_temp
  mem.analysis = fixed.bytes();

  // SpgemmOptions{} as the dispatch passes it: bitmap rows allowed when B
  // is narrow enough.
  Tuning tuning;
  tuning.dense = n <= SpgemmPolicy::dense_max_cols;

  // Symbolic: a 4-byte key per slot for each row of the global group (the
  // group depends on IP alone: exact). Numeric: rows grouped by nnz(C(i,:)),
  // taken at its bound; a global row has a table of keys and values and
  // two staging copies of its entries. The chunked layout budgets every
  // row's two staging copies, global or not.
  std::size_t sym_slots = 0, sym_row_max = 0, num_slots = 0, global_nnz = 0, chunk_row_max = 0;
  for (vertex_t i = 0; i < m; ++i) {
    const std::int64_t p = ip[i];
    if (p == 0) continue;
    if (symbolic_group(p, n, tuning) == kGlobalGroup) {
      ++e.gpu_symbolic_global_rows;
      const auto slots = static_cast<std::size_t>(table_slots(symbolic_bound(p, n)));
      sym_slots = add(sym_slots, slots);
      sym_row_max = std::max(sym_row_max, slots * 4);
    }
    const std::int64_t bound = symbolic_bound(p, n);
    std::size_t row_slots = 0;
    if (numeric_group(bound, p, n, tuning) == kGlobalGroup) {
      ++e.gpu_numeric_global_rows;
      row_slots = static_cast<std::size_t>(table_slots(bound));
      num_slots = add(num_slots, row_slots);
      global_nnz = add(global_nnz, static_cast<std::size_t>(bound));
    }
    chunk_row_max =
        std::max(chunk_row_max, mul(2 * static_cast<std::size_t>(bound) + row_slots, entry));
  }
  mem.symbolic = mul(sym_slots, 4);

  // "the numeric hash tables and staging": one buffer of the tables, two
  // staging areas and the segmented sort's scratch, always at least the
  // padding.
  const auto global_rows = static_cast<std::size_t>(e.gpu_numeric_global_rows);
  const std::size_t seg = global_rows ? cub_segmented_sort_bytes(global_rows) : 0;
  mem.numeric = add(add(mul(add(mul(2, global_nnz), num_slots), entry), kPad), seg + kSortAlign);

  // Held throughout: the inputs, C's row pointers and the fixed workspace.
  // The symbolic tables are freed before C's entries and the numeric buffer
  // are taken (stream-ordered, so the pool reuses them).
  const std::size_t held = add(add(mem.inputs, c_ptr), mem.analysis);
  mem.peak = add(held, std::max(mem.symbolic, add(c_entries, mem.numeric)));

  // Chunked to one row each: the largest row's symbolic table; the largest
  // row's numeric share, with the sort's scratch sized for all of C's rows
  // as the chunked path sizes it.
  const std::size_t sym_least = std::min(mem.symbolic, sym_row_max);
  std::size_t num_least = mem.numeric;
  if (global_rows > 0)
    num_least = std::min(num_least,
                         add(add(chunk_row_max, kPad), cub_segmented_sort_bytes(mz) + kSortAlign));
  mem.least = add(held, std::max(sym_least, add(c_entries, num_least)));
}

}  // namespace graphrun::spgemm_estimate_detail
