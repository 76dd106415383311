// The SpMV format table: every format graphrun has, one row each. Everything
// that lists formats comes from it: the SpmvFormat enum, the names the
// command line parses and prints, the help line of each, which formats
// `auto` may pick on which device, and the dispatch of both backends (one
// switch, visit_spmv_format, over the rows).
//
// A row: X(id, name, picked, help)
//   id       the SpmvFormat enumerator; it also names the format's kernels,
//            cpu::SpmvKernel<SpmvFormat::id> (kernels/cpu/spmv_*.hpp: build
//            from CSR and apply on the CPU) and cuda::detail::SpmvKernel<
//            SpmvFormat::id> (kernels/cuda/spmv_launch.cuh: build on the
//            device and launch)
//   name     what --format takes and what summaries print
//   picked   where choose_spmv_format() may return it: never, cpu, gpu or
//            cpu_gpu (the rule itself is engine/src/spmv_format_choice.cpp)
//   help     one line for --help
//
// The layouts are engine/formats/*.hpp: one view per format, the same type on
// host and device. Adding a format: its layout header (and its builders on
// the host and the device), its kernels (both SpmvKernel specializations),
// one row here, and its tests.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "graphrun/engine/context.hpp"

// clang-format off
#define GRAPHRUN_SPMV_FORMATS(X)                                                                 \
  X(coo,        "coo",        gpu,     "one (row, col, value) per entry; GPU: a segmented "      \
                                       "reduction over tiles")                                   \
  X(csr_thread, "csr-thread", gpu,     "CSR, a thread per row on the GPU; the CPU's CSR kernel " \
                                       "on the CPU")                                             \
  X(csr_warp,   "csr-warp",   cpu_gpu, "CSR, a sub-warp of 2-32 threads per row on the GPU; "    \
                                       "the CPU's CSR kernel")                                   \
  X(csr_bins,   "csr-bins",   gpu,     "CSR, rows binned by length: 1-32 threads per row by "    \
                                       "bin, a block past 2048 entries (adaptive CSR)")          \
  X(ell,        "ell",        never,   "ELLPACK: rows padded to the longest; refused past 3 "    \
                                       "slots per entry")                                        \
  X(hyb,        "hyb",        never,   "ELL for the first K entries of every row, COO for the "  \
                                       "rest")                                                   \
  X(jds,        "jds",        never,   "jagged diagonals: rows sorted by length, stored "        \
                                       "diagonal by diagonal")                                   \
  X(merge_path, "merge-path", cpu_gpu, "CSR cut into equal shares of rows + entries; splits "    \
                                       "long rows")                                              \
  X(sell,       "sell",       gpu,     "SELL-32-sigma: slices of 32 rows padded to their "       \
                                       "longest, rows sorted by length where lengths vary, "     \
                                       "columns split into parts where x is past the L2")
// clang-format on

namespace graphrun {

// `automatic` first, then the table's rows in order: a concrete format's
// value is its position in the table plus one.
enum class SpmvFormat {
  automatic,
#define GRAPHRUN_SPMV_FORMAT_ENUMERATOR(id, name, picked, help) id,
  GRAPHRUN_SPMV_FORMATS(GRAPHRUN_SPMV_FORMAT_ENUMERATOR)
#undef GRAPHRUN_SPMV_FORMAT_ENUMERATOR
};

// Where `auto` may pick a format.
enum class SpmvPicked { never, cpu, gpu, cpu_gpu };

struct SpmvFormatRow {
  SpmvFormat format;
  std::string_view name;
  SpmvPicked picked;
  std::string_view help;
};

// Every row: `auto` first, then the concrete formats in the table's order.
std::span<const SpmvFormatRow> spmv_format_table();
const SpmvFormatRow& spmv_format_row(SpmvFormat f);

// A name of the table ("auto" included); anything else is an ArgumentError
// listing the names.
SpmvFormat parse_spmv_format(std::string_view name);
std::string_view to_string(SpmvFormat f);

// Every concrete format (automatic excluded), in the table's order.
std::span<const SpmvFormat> all_spmv_formats();

// Whether `auto` may pick `f` on `device` (its row's `picked`).
bool spmv_format_picked(SpmvFormat f, Device device);

// "auto, coo, csr-thread, ... or merge-path": the names for help and errors.
std::string spmv_format_names();

// The help of every row, one line each: two spaces, the name padded to a
// column, the help line; auto's is followed by the formats it picks from on
// each device.
std::string spmv_format_help();

// A concrete format as a compile-time constant.
template <SpmvFormat F>
using SpmvFormatConstant = std::integral_constant<SpmvFormat, F>;

namespace detail {
[[noreturn]] void spmv_format_not_concrete();
}  // namespace detail

// visit(SpmvFormatConstant<F>{}) for F == format, returning what it returns
// (the same type for every F): the one switch over formats, which the CPU
// and GPU dispatch share. `automatic` is an ArgumentError (choose a format
// first).
template <class Visit>
decltype(auto) visit_spmv_format(SpmvFormat format, Visit&& visit) {
  switch (format) {
#define GRAPHRUN_SPMV_FORMAT_CASE(id, name, picked, help) \
  case SpmvFormat::id:                                    \
    return visit(SpmvFormatConstant<SpmvFormat::id>{});
    GRAPHRUN_SPMV_FORMATS(GRAPHRUN_SPMV_FORMAT_CASE)
#undef GRAPHRUN_SPMV_FORMAT_CASE
    case SpmvFormat::automatic:
      break;
  }
  detail::spmv_format_not_concrete();
}

}  // namespace graphrun
