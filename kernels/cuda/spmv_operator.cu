// cuda::SpmvOperator: derives the format once (on the device), then each
// apply() is one or two kernel launches on the caller's stream.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "graphrun/engine/cuda/coo.hpp"
#include "graphrun/engine/cuda/ell.hpp"
#include "graphrun/engine/cuda/hyb.hpp"
#include "graphrun/engine/cuda/jds.hpp"
#include "graphrun/engine/cuda/merge_path.hpp"
#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"
#include "spmv_launch.cuh"

namespace graphrun::cuda {

template <class T>
struct SpmvOperator<T>::Impl {
  const DeviceCsr<T>* a = nullptr;
  SpmvFormat format = SpmvFormat::csr_warp;
  int width = 1;  // threads per row of the CSR kernels
  DeviceCoo<T> coo;
  DeviceEll<T> ell;
  DeviceHyb<T> hyb;
  DeviceJds<T> jds;
  MergePathPartition merge;
  // Per-block carries of the tiled kernels (COO, HYB's COO part, merge-path).
  offset_t carry_blocks = 0;
  DeviceArray<vertex_t> carry_row;
  DeviceArray<std::uint64_t> carry_val;

  void build(SpmvFormat f, const RowStats& stats) {
    using namespace detail;
    switch (f) {
      case SpmvFormat::coo:
        coo = build_coo(*a);
        carry_blocks = coo_blocks(coo.nnz());
        break;
      case SpmvFormat::csr_thread:
        width = 1;
        break;
      case SpmvFormat::csr_warp:
        width = warp_width(stats);
        break;
      case SpmvFormat::ell:
        ell = build_ell(*a, stats);
        break;
      case SpmvFormat::hyb:
        hyb = build_hyb(*a, stats);
        carry_blocks = coo_blocks(hyb.coo.nnz());
        break;
      case SpmvFormat::jds:
        jds = build_jds(*a);
        break;
      case SpmvFormat::merge_path:
        merge = build_merge_path(*a, offset_t{tile_items});
        carry_blocks = merge.shares;
        break;
      case SpmvFormat::automatic:
        throw ArgumentError("SpmvOperator: no concrete format");
    }
    carry_row = DeviceArray<vertex_t>(static_cast<std::size_t>(carry_blocks));
    carry_val = DeviceArray<std::uint64_t>(static_cast<std::size_t>(carry_blocks));
    format = f;
  }

  // Sub-warp width for csr-warp, from the H200 sweep of widths 2..32 in
  // `graphrun bench spmv` (docs/bench/spmv-h200.md). Small matrices are
  // latency-bound: the best width keeps about 2^19 threads busy (w16-w32 below
  // ~16K rows, w8 near 37K, w2-w4 past 100K rows). Long rows want at least
  // their mean in lanes (a row is then read in one coalesced pass).
  static int warp_width(const RowStats& s) {
    const auto rows = static_cast<std::uint64_t>(std::max<vertex_t>(s.n_rows, 1));
    const std::uint64_t busy = std::bit_floor(std::max<std::uint64_t>((1u << 19) / rows, 1));
    const auto mean = static_cast<std::uint64_t>(std::min(s.mean, 32.0) + 0.999);
    const std::uint64_t w = std::max(busy, std::bit_ceil(std::max<std::uint64_t>(mean, 1)));
    return static_cast<int>(std::clamp<std::uint64_t>(w, 2, 32));
  }

  detail::Carries carries() const {
    return {const_cast<vertex_t*>(carry_row.data()), const_cast<std::uint64_t*>(carry_val.data())};
  }

  std::size_t bytes() const {
    return coo.bytes() + ell.bytes() + hyb.bytes() + jds.bytes() + merge.bytes() +
           carry_row.size() * sizeof(vertex_t) + carry_val.size() * sizeof(std::uint64_t);
  }
};

template <class T>
SpmvOperator<T>::SpmvOperator(const DeviceCsr<T>& a, SpmvFormat format, int threads_per_row)
    : impl_(std::make_unique<Impl>()) {
  if (threads_per_row != 0 && (threads_per_row < 2 || threads_per_row > 32 ||
                               !std::has_single_bit(unsigned(threads_per_row))))
    throw ArgumentError("SpmvOperator: threads per row must be 2, 4, 8, 16 or 32");
  impl_->a = &a;
  // Row statistics on the device: only the figures come back.
  const RowStats stats = analyze(a);
  if (format != SpmvFormat::automatic) {
    impl_->build(format, stats);
    if (format == SpmvFormat::csr_warp && threads_per_row != 0) impl_->width = threads_per_row;
    return;
  }
  try {
    impl_->build(choose_spmv_format(stats, Device::cuda), stats);
  } catch (const FormatError&) {
    impl_->build(SpmvFormat::csr_warp, stats);  // the format refused this matrix
  }
}

template <class T>
SpmvOperator<T>::~SpmvOperator() = default;
template <class T>
SpmvOperator<T>::SpmvOperator(SpmvOperator&&) noexcept = default;
template <class T>
SpmvOperator<T>& SpmvOperator<T>::operator=(SpmvOperator&&) noexcept = default;

template <class T>
SpmvFormat SpmvOperator<T>::format() const noexcept {
  return impl_->format;
}

template <class T>
std::size_t SpmvOperator<T>::bytes() const noexcept {
  return impl_->bytes();
}

template <class T>
int SpmvOperator<T>::threads_per_row() const noexcept {
  return impl_->width;
}

template <class T>
template <class S>
void SpmvOperator<T>::apply(const typename S::value_type* x, typename S::value_type* y, Mask mask,
                            cudaStream_t stream) const {
  using namespace detail;
  const Impl& m = *impl_;
  const CsrView<T> a = m.a->view();
  switch (m.format) {
    case SpmvFormat::coo:
      launch_coo<S>(m.coo.view(), false, x, y, mask, m.carries(), stream);
      return;
    case SpmvFormat::csr_thread:
    case SpmvFormat::csr_warp:
      launch_csr<S>(a, m.width, x, y, mask, stream);
      return;
    case SpmvFormat::ell:
      launch_ell<S>(m.ell.view(), x, y, mask, stream);
      return;
    case SpmvFormat::hyb:
      launch_ell<S>(m.hyb.ell.view(), x, y, mask, stream);
      launch_coo<S>(m.hyb.coo.view(), true, x, y, mask, m.carries(), stream);
      return;
    case SpmvFormat::jds:
      launch_jds<S>(m.jds.view(), x, y, mask, stream);
      return;
    case SpmvFormat::merge_path:
      launch_merge_path<S>(a, m.merge.view(), x, y, mask, m.carries(), stream);
      return;
    case SpmvFormat::automatic:
      break;
  }
  throw ArgumentError("SpmvOperator::apply: no format");
}

template class SpmvOperator<float>;
template class SpmvOperator<double>;

#define GRAPHRUN_INSTANTIATE(S, T)                                                                \
  template void SpmvOperator<T>::apply<S>(const typename S::value_type*, typename S::value_type*, \
                                          Mask, cudaStream_t) const;
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
#undef GRAPHRUN_INSTANTIATE

}  // namespace graphrun::cuda
