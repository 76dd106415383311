// The (semiring, entry type) pairs graphrun compiles, in one place. Every
// explicit instantiation (CPU and CUDA) and every "is this pair built?"
// check is generated from these lists, so that the backends and the
// dispatch cannot drift apart. Adding a pair is one line here.
//
// Each list is an X-macro: X(Semiring, entry type), the semiring's own value
// type being what the result holds.
#pragma once

#include "graphrun/engine/semiring.hpp"

// SpGEMM, C = A ⊕.⊗ B, on both backends. PlusTimes<double> over float is
// MCL's expansion: float iterands summed in double, as mcl computes it.
// (MaxTimes is left out: its zero is 0, the identity of max only on
// non-negative values, and the CPU kernel starts some sums from zero and
// others from the first product.)
#define GRAPHRUN_SPGEMM_COMBOS(X) \
  X(PlusTimes<double>, double)    \
  X(PlusTimes<double>, float)     \
  X(PlusTimes<float>, float)      \
  X(MinPlus<double>, double)      \
  X(MinPlus<float>, float)

// SpMV on the CPU (every format): y = A ⊕.⊗ x, x and y in the semiring's
// value type, A's entries converted as they are read.
#define GRAPHRUN_SPMV_COMBOS(X) \
  X(PlusTimes<double>, double)  \
  X(PlusTimes<double>, float)   \
  X(PlusTimes<float>, float)    \
  X(PlusTimes<float>, double)   \
  X(MinPlus<double>, double)    \
  X(MinPlus<double>, float)     \
  X(MaxTimes<double>, double)   \
  X(MaxTimes<double>, float)    \
  X(OrAnd, double)              \
  X(OrAnd, float)

// One CPU SpMV function over a view, instantiated for (S, T); an
// instantiation file reads
//   #define GRAPHRUN_SPMV_ELL(S, T) GRAPHRUN_SPMV_INSTANCE(spmv_reference, EllView, S, T)
//   GRAPHRUN_SPMV_COMBOS(GRAPHRUN_SPMV_ELL)
// and the parallel kernels add their thread count: ..., S, T, int).
// GRAPHRUN_SPMV_EXTERN declares the same instantiation in the header.
#define GRAPHRUN_SPMV_INSTANCE(FN, VIEW, S, T, ...)                                              \
  template void FN<S, T>(const VIEW<T>&, const typename S::value_type*, typename S::value_type*, \
                         Mask __VA_OPT__(, ) __VA_ARGS__);
#define GRAPHRUN_SPMV_EXTERN(FN, VIEW, S, T, ...) \
  extern GRAPHRUN_SPMV_INSTANCE(FN, VIEW, S, T __VA_OPT__(, ) __VA_ARGS__)

// SpMV on the GPU (every format): the device kernels read the matrix in the
// type the vectors have, so each semiring pairs with its own value type
// (OrAnd, whose values are bytes, with either matrix type).
#define GRAPHRUN_CUDA_SPMV_COMBOS(X) \
  X(PlusTimes<float>, float)         \
  X(MinPlus<float>, float)           \
  X(MaxTimes<float>, float)          \
  X(OrAnd, float)                    \
  X(PlusTimes<double>, double)       \
  X(MinPlus<double>, double)         \
  X(MaxTimes<double>, double)        \
  X(OrAnd, double)

// SpMV on the GPU with x in a narrower type than the semiring's, widened as
// it is gathered: X(semiring, entry type, x's type). PageRank's float
// gathers (algorithms/pagerank.hpp, PageRankOptions::gather).
#define GRAPHRUN_CUDA_SPMV_GATHER_COMBOS(X) X(PlusTimes<double>, double, float)

namespace graphrun {

// spgemm_compiled<S, T>: whether GRAPHRUN_SPGEMM_COMBOS holds (S, T).
template <class S, class T>
inline constexpr bool spgemm_compiled = false;
#define GRAPHRUN_SPGEMM_COMPILED(S, T) \
  template <>                          \
  inline constexpr bool spgemm_compiled<S, T> = true;
GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_COMPILED)
#undef GRAPHRUN_SPGEMM_COMPILED

// The pairs of GRAPHRUN_SPGEMM_COMBOS as text, for error messages.
#define GRAPHRUN_SPGEMM_COMBO_NAME(S, T) " " #S " over " #T ";"
inline constexpr const char* spgemm_combos_text =
    GRAPHRUN_SPGEMM_COMBOS(GRAPHRUN_SPGEMM_COMBO_NAME);
#undef GRAPHRUN_SPGEMM_COMBO_NAME

}  // namespace graphrun
