// ELL and HYB from CSR on the device. A thread per row writes its slots
// j * n_rows + i, so for each j a warp's writes are contiguous.
#include <algorithm>
#include <string>

#include "format_util.cuh"
#include "graphrun/engine/cuda/ell.hpp"
#include "graphrun/engine/cuda/hyb.hpp"

namespace graphrun::cuda {

namespace {

template <class T>
__global__ void fill_ell(const offset_t* __restrict__ row_ptr, const vertex_t* __restrict__ col_idx,
                         const T* __restrict__ values, vertex_t n_rows, vertex_t width,
                         vertex_t* __restrict__ col_out, T* __restrict__ val_out) {
  const offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (t >= n_rows) return;
  const auto i = static_cast<vertex_t>(t);
  const offset_t begin = row_ptr[i];
  const offset_t len = row_ptr[i + 1] - begin;
  const vertex_t stored = static_cast<vertex_t>(len < width ? len : width);
  for (vertex_t j = 0; j < width; ++j) {
    const std::size_t slot = std::size_t(j) * std::size_t(n_rows) + std::size_t(i);
    const bool real = j < stored;
    col_out[slot] = real ? col_idx[begin + j] : vertex_t{-1};
    if (val_out) val_out[slot] = real ? values[begin + j] : T(0);
  }
}

}  // namespace

template <class T>
DeviceEll<T> build_ell_part(const DeviceCsr<T>& a, vertex_t width, cudaStream_t stream) {
  DeviceEll<T> e;
  e.n_rows = a.n_rows();
  e.n_cols = a.n_cols();
  e.width = width;
  const offset_t slots = checked_mul<offset_t>(width, a.n_rows(), "ELL width * rows");
  e.col_idx = DeviceArray<vertex_t>(static_cast<std::size_t>(slots));
  if (!a.is_pattern()) e.values = DeviceArray<T>(static_cast<std::size_t>(slots));
  if (slots > 0) {
    fill_ell<<<detail::blocks_for(a.n_rows()), detail::build_block, 0, stream>>>(
        a.row_ptr().data(), a.col_idx().data(), a.is_pattern() ? nullptr : a.values().data(),
        a.n_rows(), width, e.col_idx.data(), a.is_pattern() ? nullptr : e.values.data());
    detail::check_launch();
  }
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return e;
}

template <class T>
DeviceEll<T> build_ell(const DeviceCsr<T>& a, const RowStats& stats, cudaStream_t stream) {
  const auto width = checked_cast<vertex_t>(stats.max_length, "ELL width");
  const offset_t slots = checked_mul<offset_t>(width, a.n_rows(), "ELL width * rows");
  const double limit = ell_max_fill * static_cast<double>(std::max<offset_t>(a.nnz(), 1));
  if (static_cast<double>(slots) > limit)
    throw FormatError("ELL refuses this matrix: its longest row (" + std::to_string(width) +
                      " entries) pads " + std::to_string(a.n_rows()) + " rows to " +
                      std::to_string(slots) + " slots for " + std::to_string(a.nnz()) +
                      " entries, past the limit of " + std::to_string(int(ell_max_fill)) +
                      " slots per entry");
  return build_ell_part(a, width, stream);
}

template <class T>
DeviceHyb<T> build_hyb(const DeviceCsr<T>& a, const RowStats& stats, cudaStream_t stream) {
  const auto k = checked_cast<vertex_t>(hyb_ell_width(stats), "HYB ELL width");
  DeviceHyb<T> h;
  h.ell = build_ell_part(a, k, stream);
  h.coo = coo_tail(a, k, stream);
  return h;
}

template DeviceEll<float> build_ell_part(const DeviceCsr<float>&, vertex_t, cudaStream_t);
template DeviceEll<double> build_ell_part(const DeviceCsr<double>&, vertex_t, cudaStream_t);
template DeviceEll<float> build_ell(const DeviceCsr<float>&, const RowStats&, cudaStream_t);
template DeviceEll<double> build_ell(const DeviceCsr<double>&, const RowStats&, cudaStream_t);
template DeviceHyb<float> build_hyb(const DeviceCsr<float>&, const RowStats&, cudaStream_t);
template DeviceHyb<double> build_hyb(const DeviceCsr<double>&, const RowStats&, cudaStream_t);

}  // namespace graphrun::cuda
