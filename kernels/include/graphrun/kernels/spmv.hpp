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
//
// Layering (as CUB): this entry point picks the backend from ctx.device() and
// the kernel from the matrix format; backends live in
// graphrun/kernels/<backend>/spmv_<format>.hpp. Adding a format means adding
// an overload taking its view (EllView, HybView, ...) or a format argument
// chosen by choose_spmv_format(); adding a backend means a case below.
// x and y live where the context runs (host memory for Device::cpu).
#pragma once

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/kernels/cpu/spmv_csr.hpp"
#include "graphrun/kernels/mask.hpp"

namespace graphrun {

template <class S, class T>
void spmv(Context& ctx, const CsrView<T>& a, const typename S::value_type* x,
          typename S::value_type* y, Mask mask = {}) {
  switch (ctx.device()) {
    case Device::cpu:
      cpu::spmv_csr<S>(a, x, y, mask, ctx.threads());
      return;
    case Device::cuda:
      break;
  }
  throw DeviceError("spmv: no CUDA kernel yet for this semiring and format");
}

}  // namespace graphrun
