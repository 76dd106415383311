// choose_spmv_format: a provisional rule until the measurements are in.
#include "graphrun/engine/spmv_format.hpp"

namespace graphrun {

SpmvFormat choose_spmv_format(const RowStats& stats, Device device) {
  // Skewed rows unbalance a row-per-thread split; merge-path is balanced by
  // construction.
  const bool skewed = stats.cv > 2.0 || stats.max_length > 64 * (stats.mean + 1);
  if (device == Device::cpu) return skewed ? SpmvFormat::merge_path : SpmvFormat::csr_warp;
  return skewed ? SpmvFormat::merge_path : SpmvFormat::csr_warp;
}

}  // namespace graphrun
