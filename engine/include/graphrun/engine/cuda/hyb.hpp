// HYB (Bell & Garland, SC'09) on the device: an ELL part of width K holding
// each row's first K entries, and a COO part (sorted by row, col) holding the
// rest. Regular rows stream through the coalesced ELL part; the few long rows
// spill into COO instead of padding every row to their length.
//
// K = hyb_ell_width(stats) (engine/formats/hyb.hpp), the host format's rule,
// so that host and device HYB agree: Bell & Garland's largest K such that at
// least max(4096, n_rows / 3) rows have K or more entries (K = 0 allowed:
// everything in COO), read off the RowStats log2 histogram (a power of two).
// The view is the host's HybView with a 32-bit ELL width. Included by CUDA
// sources only.
#pragma once

#include <cuda_runtime_api.h>

#include "graphrun/engine/cuda/coo.hpp"
#include "graphrun/engine/cuda/ell.hpp"
#include "graphrun/engine/formats/hyb.hpp"
#include "graphrun/engine/row_stats.hpp"

namespace graphrun::cuda {

template <class T>
struct DeviceHyb {
  DeviceEll<T> ell;
  DeviceCoo<T> coo;
  HybView<T, vertex_t> view() const noexcept { return {ell.view(), coo.view()}; }
  std::size_t bytes() const noexcept { return ell.bytes() + coo.bytes(); }
};

template <class T>
DeviceHyb<T> build_hyb(const DeviceCsr<T>& a, const RowStats& stats, cudaStream_t stream = nullptr);

}  // namespace graphrun::cuda
