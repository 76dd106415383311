// The SpMV formats and kernels graphrun has, and the automatic choice among
// them from row statistics.
//
//   coo          one (row, col, value) per entry, sorted by row
//   csr-thread   CSR, one thread per row (GPU); the CPU CSR kernel on the CPU
//   csr-warp     CSR, a (sub-)warp per row (GPU); the CPU CSR kernel on the CPU
//   ell          ELLPACK: column-major, every row padded to the longest
//   hyb          ELL up to a width K, the rest of each row as COO
//   jds          jagged diagonals: rows sorted by length
//   merge-path   CSR split into equal shares of rows + entries (Merrill & Garland)
//
// choose_spmv_format() maps RowStats to one of them for a device; the rule and
// the measurements behind it are in docs/performance.md.
#pragma once

#include <span>
#include <string_view>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/row_stats.hpp"

namespace graphrun {

enum class SpmvFormat { automatic, coo, csr_thread, csr_warp, ell, hyb, jds, merge_path };

// "auto" | "coo" | "csr-thread" | "csr-warp" | "ell" | "hyb" | "jds" | "merge-path";
// anything else is an ArgumentError listing the names.
SpmvFormat parse_spmv_format(std::string_view name);
std::string_view to_string(SpmvFormat f);

// Every concrete format (automatic excluded), in the order above.
std::span<const SpmvFormat> all_spmv_formats();

// The format to use for a matrix with these row statistics on `device`
// (never SpmvFormat::automatic).
SpmvFormat choose_spmv_format(const RowStats& stats, Device device);

}  // namespace graphrun
