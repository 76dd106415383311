// cpu::SpmvKernel<F>: what the CPU runs for the SpMV format F, one
// specialization per row of the format table (engine/spmv_format_table.hpp),
// each beside its kernel (cpu/spmv_csr.hpp, spmv_merge_path.hpp, and
// spmv_layouts.hpp for the references of coo, ell, hyb and jds).
// graphrun/kernels/spmv.hpp dispatches to them through visit_spmv_format, so
// no switch over formats is written by hand. A specialization has
//
//   template <class S, class T>
//   static void run(const CsrView<T>& a, const V* x, V* y, Mask mask, int threads);
//       y = A ⊕.⊗ x from the CSR: builds the format's layout from `a` when it
//       has one (on every call), then applies it
//   template <class S, class T>
//   static void apply(const LayoutView& a, const V* x, V* y, Mask mask, int threads);
//       the same over a layout already built (its view, whose `format` is F)
//
// with V = S::value_type; `threads` bounds the OpenMP threads (the serial
// references ignore it).
#pragma once

#include "graphrun/engine/spmv_format_table.hpp"

namespace graphrun::cpu {

template <SpmvFormat F>
struct SpmvKernel;

}  // namespace graphrun::cpu
