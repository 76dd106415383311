// The SpMV kernel launchers behind cuda::SpmvOperator::apply, one family per
// file (spmv_csr.cu, spmv_coo.cu, spmv_ell.cu, spmv_jds.cu,
// spmv_merge_path.cu), each compiled once for the semiring / value type
// pairs of GRAPHRUN_CUDA_SPMV_COMBOS. All launch on `stream` and return
// without waiting.
#pragma once

#include <cuda_runtime_api.h>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/cuda/coo.hpp"
#include "graphrun/engine/cuda/ell.hpp"
#include "graphrun/engine/cuda/jds.hpp"
#include "graphrun/engine/cuda/merge_path.hpp"
#include "graphrun/engine/semiring.hpp"
#include "graphrun/kernels/combos.hpp"
#include "graphrun/kernels/mask.hpp"

namespace graphrun::cuda::detail {

// Merge-path and COO tiles: threads per block and items per thread.
inline constexpr int tile_block = 256;
inline constexpr int tile_items_per_thread = 4;
inline constexpr int tile_items = tile_block * tile_items_per_thread;

// Scratch for rows split between blocks: a row id (-1: none) and a partial
// value per block; values are stored in 8 bytes whatever the semiring.
struct Carries {
  vertex_t* row = nullptr;
  void* value = nullptr;
};

// CSR, `width` threads per row (1: thread per row; 2..32, a power of two:
// a sub-warp per row).
template <class S, class T>
void launch_csr(const CsrView<T>& a, int width, const typename S::value_type* x,
                typename S::value_type* y, Mask mask, cudaStream_t stream);

// COO: a segmented reduction by row over tiles of entries. `accumulate`:
// y(i) = y(i) ⊕ (row i's entries) and rows without entries untouched (HYB's
// COO part after its ELL part); otherwise y(i) = row i's sum, S::zero() for
// rows without entries. `carries` holds coo_blocks(nnz) slots.
template <class S, class T>
void launch_coo(const CooView<T>& a, bool accumulate, const typename S::value_type* x,
                typename S::value_type* y, Mask mask, Carries carries, cudaStream_t stream);
offset_t coo_blocks(offset_t nnz);

// ELL, a thread per row; writes every row the mask allows.
template <class S, class T>
void launch_ell(const EllView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                Mask mask, cudaStream_t stream);

// JDS, a thread per permuted row.
template <class S, class T>
void launch_jds(const JdsView<T>& a, const typename S::value_type* x, typename S::value_type* y,
                Mask mask, cudaStream_t stream);

// Merge-path CSR over a partition of tile_items items per share; `carries`
// holds part.shares slots.
template <class S, class T>
void launch_merge_path(const CsrView<T>& a, const MergePathView& part,
                       const typename S::value_type* x, typename S::value_type* y, Mask mask,
                       Carries carries, cudaStream_t stream);

}  // namespace graphrun::cuda::detail
