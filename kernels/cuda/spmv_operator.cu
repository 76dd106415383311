// cuda::SpmvOperator: derives the format once (on the device), then each
// apply() is one or two kernel launches on the caller's stream. What a format
// builds and launches is its detail::SpmvKernel (spmv_launch.cuh), reached
// through the format table's visit_spmv_format.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/kernels/cuda/spmv.hpp"
#include "spmv_launch.cuh"

namespace graphrun::cuda {

namespace detail {

// What the formats of the table derive: alternative i is the State of the
// format whose SpmvFormat value is i (0, automatic: nothing built).
#define GRAPHRUN_SPMV_FORMAT_STATE(id, name, picked, help) \
  , typename SpmvKernel<SpmvFormat::id>::template State<T>
template <class T>
using FormatState = std::variant<std::monostate GRAPHRUN_SPMV_FORMATS(GRAPHRUN_SPMV_FORMAT_STATE)>;
#undef GRAPHRUN_SPMV_FORMAT_STATE

template <SpmvFormat F>
constexpr std::size_t state_index = static_cast<std::size_t>(F);

}  // namespace detail

template <class T>
struct SpmvOperator<T>::Impl {
  const DeviceCsr<T>* a = nullptr;
  SpmvFormat format = SpmvFormat::csr_warp;
  detail::FormatState<T> state;
  // Per-block carries of the tiled kernels (COO, HYB's COO part, merge-path).
  offset_t carry_blocks = 0;
  DeviceArray<vertex_t> carry_row;
  DeviceArray<std::uint64_t> carry_val;

  void build(SpmvFormat f, const RowStats& stats, detail::BuildHints& hints) {
    visit_spmv_format(f, [&](auto c) {
      constexpr SpmvFormat F = decltype(c)::value;
      using Kernel = detail::SpmvKernel<F>;
      const auto& s =
          state.template emplace<detail::state_index<F>>(Kernel::build(*a, stats, hints));
      carry_blocks = Kernel::carry_blocks(s);
    });
    carry_row = DeviceArray<vertex_t>(static_cast<std::size_t>(carry_blocks));
    carry_val = DeviceArray<std::uint64_t>(static_cast<std::size_t>(carry_blocks));
    format = f;
  }

  detail::Carries carries() const {
    return {const_cast<vertex_t*>(carry_row.data()), const_cast<std::uint64_t*>(carry_val.data())};
  }

  int threads_per_row() const {
    return visit_spmv_format(format, [&](auto c) {
      constexpr SpmvFormat F = decltype(c)::value;
      return detail::SpmvKernel<F>::threads_per_row(std::get<detail::state_index<F>>(state));
    });
  }

  int column_parts() const {
    return visit_spmv_format(format, [&](auto c) {
      constexpr SpmvFormat F = decltype(c)::value;
      return detail::SpmvKernel<F>::column_parts(std::get<detail::state_index<F>>(state));
    });
  }

  std::size_t bytes() const {
    const std::size_t derived = std::visit(
        [](const auto& s) -> std::size_t {
          if constexpr (std::is_same_v<std::decay_t<decltype(s)>, std::monostate>)
            return 0;
          else
            return s.bytes();
        },
        state);
    return derived + carry_row.size() * sizeof(vertex_t) + carry_val.size() * sizeof(std::uint64_t);
  }
};

template <class T>
SpmvOperator<T>::SpmvOperator(const DeviceCsr<T>& a, SpmvFormat format, int threads_per_row,
                              DeviceArray<vertex_t> row_of_entry, RowOrder rows,
                              SpmvLayoutHints layout)
    : impl_(std::make_unique<Impl>()) {
  if (threads_per_row != 0 && (threads_per_row < 2 || threads_per_row > 32 ||
                               !std::has_single_bit(unsigned(threads_per_row))))
    throw ArgumentError("SpmvOperator: threads per row must be 2, 4, 8, 16 or 32");
  if (row_of_entry.size() > 0 && row_of_entry.size() != static_cast<std::size_t>(a.nnz()))
    throw ArgumentError("SpmvOperator: " + std::to_string(row_of_entry.size()) +
                        " entry rows given for a matrix of " + std::to_string(a.nnz()) +
                        " entries");
  if (layout.gather_bytes < 0 || layout.column_parts < 0)
    throw ArgumentError("SpmvOperator: negative gather bytes or column parts");
  impl_->a = &a;
  // Row statistics on the device: only the figures come back.
  const RowStats stats = analyze(a);
  detail::BuildHints hints{threads_per_row, std::move(row_of_entry), layout.gather_bytes,
                           layout.column_parts};
  if (format != SpmvFormat::automatic) {
    impl_->build(format, stats, hints);
    return;
  }
  hints.threads_per_row = 0;  // automatic: each format's own rule
  try {
    impl_->build(choose_spmv_format(stats, Device::cuda, rows), stats, hints);
  } catch (const FormatError&) {
    impl_->build(SpmvFormat::csr_warp, stats, hints);  // the format refused this matrix
  } catch (const DeviceMemoryError&) {
    // The derived format does not fit beside the matrix (the device, or
    // --max-device-memory): CSR runs from the matrix alone. An explicit
    // format is held to, and its error reaches the caller.
    impl_->build(SpmvFormat::csr_warp, stats, hints);
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
  return impl_->threads_per_row();
}

template <class T>
int SpmvOperator<T>::column_parts() const noexcept {
  return impl_->column_parts();
}

template <class T>
template <class S, class X>
void SpmvOperator<T>::apply(const X* x, typename S::value_type* y, Mask mask,
                            cudaStream_t stream) const {
  const Impl& m = *impl_;
  const CsrView<T> a = m.a->view();
  visit_spmv_format(m.format, [&](auto c) {
    constexpr SpmvFormat F = decltype(c)::value;
    detail::SpmvKernel<F>::template apply<S, T, X>(std::get<detail::state_index<F>>(m.state), a, x,
                                                   y, mask, m.carries(), stream);
  });
}

template class SpmvOperator<float>;
template class SpmvOperator<double>;

#define GRAPHRUN_INSTANTIATE_GATHER(S, T, XT)                                           \
  template void SpmvOperator<T>::apply<S, XT>(const XT*, typename S::value_type*, Mask, \
                                              cudaStream_t) const;
#define GRAPHRUN_INSTANTIATE(S, T) GRAPHRUN_INSTANTIATE_GATHER(S, T, typename S::value_type)
GRAPHRUN_CUDA_SPMV_COMBOS(GRAPHRUN_INSTANTIATE)
GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(GRAPHRUN_INSTANTIATE_GATHER)
#undef GRAPHRUN_INSTANTIATE
#undef GRAPHRUN_INSTANTIATE_GATHER

}  // namespace graphrun::cuda
