// cpu::SpmvKernel for coo, ell, hyb and jds: their serial references
// (cpu/spmv_<format>.hpp). These layouts are made for the GPU's coalescing;
// the CPU keeps them to verify and compare the GPU's kernels, not to be
// fast, so a run from the CSR builds the layout on every call.
#pragma once

#include "graphrun/kernels/cpu/spmv_coo.hpp"
#include "graphrun/kernels/cpu/spmv_ell.hpp"
#include "graphrun/kernels/cpu/spmv_hyb.hpp"
#include "graphrun/kernels/cpu/spmv_jds.hpp"
#include "graphrun/kernels/cpu/spmv_kernel.hpp"

namespace graphrun::cpu {

template <template <class> class Layout>
struct SpmvReferenceKernel {
  template <class S, class T>
  static void run(const CsrView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                  Mask mask, int threads) {
    apply<S>(Layout<T>::from_csr(a).view(), x, y, mask, threads);
  }
  template <class S, class View>
  static void apply(const View& a, const typename S::value_type* x, typename S::value_type* y,
                    Mask mask, int /*threads*/) {
    spmv_reference<S>(a, x, y, mask);
  }
};

template <>
struct SpmvKernel<SpmvFormat::coo> : SpmvReferenceKernel<CooMatrix> {};
template <>
struct SpmvKernel<SpmvFormat::ell> : SpmvReferenceKernel<Ell> {
};  // FormatError past the fill limit
template <>
struct SpmvKernel<SpmvFormat::hyb> : SpmvReferenceKernel<Hyb> {};
template <>
struct SpmvKernel<SpmvFormat::jds> : SpmvReferenceKernel<Jds> {};

}  // namespace graphrun::cpu
