// The SpMV formats graphrun has (the table: spmv_format_table.hpp, with each
// format's name and help) and the automatic choice among them from row
// statistics.
//
// choose_spmv_format() maps RowStats to one of them for a device; the rule and
// the measurements behind it are in engine/src/spmv_format_choice.cpp and
// docs/performance.md.
#pragma once

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format_table.hpp"

namespace graphrun {

// How a matrix's rows lie, as far as the choice goes: as loaded, or
// renumbered by degree (a symmetric matrix under dbg, degree or hubsort:
// rows of like length side by side).
enum class RowOrder { as_loaded, by_degree };

// The format to use for a matrix with these row statistics on `device`
// (never SpmvFormat::automatic; only formats whose table row lets `auto`
// pick them on that device).
SpmvFormat choose_spmv_format(const RowStats& stats, Device device,
                              RowOrder rows = RowOrder::as_loaded);

}  // namespace graphrun
