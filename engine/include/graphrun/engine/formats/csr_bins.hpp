// csr-bins: CSR with its rows binned by length, for the GPU (the "adaptive
// CSR" of Ashari et al., "Fast sparse matrix-vector multiplication on GPUs
// for graph applications", SC'14). The matrix stays CSR; the format adds
// only a list of the rows grouped by bin, so that each bin's rows run with
// as many threads as their length wants:
//
//   bin 0        rows of 0 or 1 entries        a thread per row
//   bin b, 1..4  rows of 2^(b-1)+1 .. 2^b      2^b threads per row
//   bin 5        rows of 17 .. long_row        a warp per row
//   bin 6        rows past long_row            a block per row
//
// One width for the whole matrix (csr-warp) leaves most lanes idle on a
// graph's many short rows or walks its hubs' rows a few lanes at a time;
// merge-path balances them but pays a search, a staging pass and a block
// scan per tile. Here no lane holds more than twice its row's length in
// idle slots, and nothing but the row list is read besides CSR.
#pragma once

#include "graphrun/engine/host_device.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun {

inline constexpr int csr_bin_count = 7;
// Past this many entries a row takes a whole block: a warp would walk it in
// more than 64 steps a lane.
inline constexpr offset_t csr_bins_long_row = 2048;

// The bin of a row of `len` entries (the table above).
GRAPHRUN_HD inline int csr_bin(offset_t len) {
  if (len > csr_bins_long_row) return 6;
  if (len > 16) return 5;
  int b = 0;
  while ((offset_t{1} << b) < len) ++b;
  return b;
}

// Threads per row of bin b below 6: 1, 2, 4, 8, 16, 32.
GRAPHRUN_HD constexpr int csr_bin_width(int b) { return 1 << b; }

}  // namespace graphrun
