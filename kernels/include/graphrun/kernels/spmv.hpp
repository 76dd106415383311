// SpMV: y = A ⊕.⊗ x over a semiring, with an optional mask (GraphBLAS style).
//
//   y(i) = S::add over k of S::mul(entry(A(i,k)), x(k)),  from S::zero()
//
// for every row i that `mask` allows; other rows of y are left untouched.
// Matrix entries are converted to S::value_type by semiring_entry<S>
// (OrAnd: any non-zero is true); a pattern matrix (values == nullptr) has
// all-one entries. A semiring with is_terminal() may stop a row early.
//
//   Context ctx(Device::cpu, 2);
//   std::vector<double> x(a.n_cols(), 1.0), y(a.n_rows());
//   spmv<PlusTimes<double>>(ctx, a.view(), x.data(), y.data());          // y = A·1
//   spmv<OrAnd>(ctx, at.view(), frontier, next, Mask{visited, true});    // BFS pull
//   spmv<PlusTimes<double>>(ctx, SpmvFormat::merge_path, a.view(), x.data(), y.data());
//   const Ell<double> e = Ell<double>::from_csr(a);                      // build once,
//   spmv<PlusTimes<double>>(ctx, e.view(), x.data(), y.data());          // apply often
//
// Layering (as CUB): these entry points pick the backend from ctx.device()
// and the kernel from the format; backends live in
// graphrun/kernels/<backend>/spmv_<format>.hpp. x and y live where the
// context runs (host memory for Device::cpu). On the GPU, SpMV goes through
// cuda::SpmvOperator (graphrun/kernels/cuda/spmv.hpp), which keeps the
// matrix and its derived format in device memory; the entry points here
// take host matrices and throw DeviceError for Device::cuda.
//
// What each format runs on the CPU (its cpu::SpmvKernel, cpu/spmv_kernel.hpp):
//   csr-thread, csr-warp   the OpenMP CSR kernel (cpu/spmv_csr.hpp): the
//                          GPU's thread- and warp-per-row split is one
//                          thing on a CPU
//   merge-path             the OpenMP merge-path kernel (cpu/spmv_merge_path.hpp)
//   coo, ell, hyb, jds,    their serial references (cpu/spmv_layouts.hpp):
//   sell
//                          layouts made for GPU coalescing, kept on the CPU
//                          to verify and compare, not to be fast
//   automatic              the CPU rule of choose_spmv_format() for
//                          ctx.threads(): merge-path when one row is
//                          longer than a thread's share of the work
//                          (merge_path_pays_on_cpu), else CSR
// Given a CsrView and a format, coo/ell/hyb/jds/sell are built from the CSR on
// every call (ELL and SELL may refuse with FormatError), and automatic reads the row
// statistics on every call (one pass over row_ptr); to iterate, choose the
// format once (choose_spmv_format) and build it once, then pass its view.
#pragma once

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/formats/merge_path.hpp"  // merge_path_pays_on_cpu
#include "graphrun/engine/row_stats.hpp"
#include "graphrun/engine/spmv_format.hpp"
// The kernels of every format of the table (each defines its cpu::SpmvKernel).
#include "graphrun/kernels/cpu/spmv_csr.hpp"
#include "graphrun/kernels/cpu/spmv_kernel.hpp"
#include "graphrun/kernels/cpu/spmv_layouts.hpp"
#include "graphrun/kernels/cpu/spmv_merge_path.hpp"
#include "graphrun/kernels/mask.hpp"

namespace graphrun {

namespace detail {
[[noreturn]] inline void spmv_needs_cpu() {
  throw DeviceError(
      "spmv: these entry points take host matrices; on the GPU use cuda::SpmvOperator");
}
}  // namespace detail

// CSR on the CPU: the OpenMP CSR kernel.
template <class S, class T>
void spmv(Context& ctx, const CsrView<T>& a, const typename S::value_type* x,
          typename S::value_type* y, Mask mask = {}) {
  if (ctx.device() != Device::cpu) detail::spmv_needs_cpu();
  cpu::spmv_csr<S>(a, x, y, mask, ctx.threads());
}

// CSR in the given format (see the table above): cpu::SpmvKernel<format>::run.
template <class S, class T>
void spmv(Context& ctx, SpmvFormat format, const CsrView<T>& a, const typename S::value_type* x,
          typename S::value_type* y, Mask mask = {}) {
  if (ctx.device() != Device::cpu) detail::spmv_needs_cpu();
  if (format == SpmvFormat::automatic) {
    // choose_spmv_format's CPU rule, for this context's thread count.
    format = merge_path_pays_on_cpu(analyze(a), ctx.threads()) ? SpmvFormat::merge_path
                                                               : SpmvFormat::csr_warp;
  }
  visit_spmv_format(format, [&](auto f) {
    cpu::SpmvKernel<decltype(f)::value>::template run<S>(a, x, y, mask, ctx.threads());
  });
}

// A layout already built (references on the CPU; merge-path parallel): the
// view of a format of the table, cpu::SpmvKernel<View::format>::apply.
template <class S, class View>
requires requires { View::format; }
void spmv(Context& ctx, const View& a, const typename S::value_type* x, typename S::value_type* y,
          Mask mask = {}) {
  if (ctx.device() != Device::cpu) detail::spmv_needs_cpu();
  cpu::SpmvKernel<View::format>::template apply<S>(a, x, y, mask, ctx.threads());
}

}  // namespace graphrun
