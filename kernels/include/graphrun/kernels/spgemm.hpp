// SpGEMM: C = A ⊕.⊗ B over a semiring, for sparse A and B (GraphBLAS mxm).
//
//   C(i,j) = S::add over k of S::mul(A(i,k), B(k,j))
//
// stored wherever some k links i to j (the structure of the product, even
// where the sum happens to be S::zero()); columns sorted and unique per row;
// C always has values (a pattern input counts as all ones).
//
//   Context ctx(Device::cpu, 2);
//   SpgemmStats stats;
//   Csr<double> c = spgemm<PlusTimes<double>>(ctx, a.view(), a.view(), &stats);   // A·A
//   Csr<double> d = spgemm<MinPlus<double>>(ctx, a.view(), b.view());             // shortest 2-hop
//
// Layering (as spmv.hpp): this entry point checks the shapes and picks the
// backend from ctx.device(). CPU: cpu/spgemm.hpp (hash-based, multi-phase,
// OpenMP). CUDA: cuda::spgemm_host (cuda/spgemm.hpp) uploads the inputs,
// computes C on the device and downloads it; it is declared in every build
// and refuses where the build has no CUDA backend, so this header needs no
// preprocessor test. The GPU kernels are compiled for the combinations of
// GRAPHRUN_SPGEMM_COMBOS (combos.hpp). a and b live in host memory.
#pragma once

#include <string>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/cpu/spgemm.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

namespace graphrun {

template <class S, class T>
Csr<typename S::value_type> spgemm(Context& ctx, const CsrView<T>& a, const CsrView<T>& b,
                                   SpgemmStats* stats = nullptr) {
  check_spgemm_shapes(a.n_rows, a.n_cols, b.n_rows, b.n_cols);
  switch (ctx.device()) {
    case Device::cpu:
      return cpu::spgemm<S>(a, b, ctx.threads(), stats);
    case Device::cuda:
      break;
  }
  if constexpr (spgemm_compiled<S, T>) {
    cuda::SpgemmOptions options;
    options.deterministic = ctx.deterministic();
    return cuda::spgemm_host<S, T>(a, b, options, stats);
  } else {
    if (!cuda_backend_built())
      throw DeviceError("spgemm: this build has no CUDA backend; use the CPU");
    throw DeviceError(std::string("spgemm: this semiring and entry type are not built; the "
                                  "library has") +
                      spgemm_combos_text);
  }
}

}  // namespace graphrun
