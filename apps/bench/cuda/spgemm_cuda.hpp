// The GPU half of `graphrun bench spgemm`: our cuda::spgemm beside cuSPARSE's
// cusparseSpGEMM, one table row per graph of `inputs`. Declared in every
// build; defined by spgemm_cuda.cu, or without CUDA by
// no_gpu/gpu_halves_absent.cpp (CMake picks one), which refuses.
#pragma once

#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "graphrun/kernels/cuda/spgemm.hpp"

namespace graphrun::cli::bench {

// C = A*A (or A*Aᵀ with transpose_b) for every graph of `inputs` (its reps,
// csv and graphs). `tune`: KEY=N overrides of the GPU SpGEMM's tuning
// constants (dense-words, dense-shared-products, warp-max-ip), checked here.
void run_spgemm_cuda(const BenchOptions& inputs, bool transpose_b, bool deterministic,
                     const std::vector<std::string>& tune);

// `base` with `tune`'s KEY=N overrides (--tune of bench spgemm, experiment
// contraction and experiment mcl); an ArgumentError names a bad one.
// unit-sums only where `stochastic` (MCL's expansion: fixed-point sums are
// right only for a stochastic matrix squared). Defined in CUDA builds only.
cuda::SpgemmOptions parse_spgemm_tune(const std::vector<std::string>& tune,
                                      cuda::SpgemmOptions base = {}, bool stochastic = false);

// --tune's help: the keys and their defaults.
inline constexpr const char* kSpgemmTuneHelp =
    "GPU only, for sweeps: override a tuning constant of the GPU SpGEMM\n"
    "(kernels/plan/spgemm_gpu_policy.hpp). dense-words=N: a row takes a bitmap of\n"
    "B's columns when the bitmap has at most N words per entry of its bound\n"
    "(default 2); dense-shared-products=N: a bitmap row of more than N products\n"
    "per entry accumulates in C rather than shared memory (16; not with\n"
    "unit-sums); warp-max-ip=N: the most products of a row that one warp takes\n"
    "(1024); sort-min-ip=N and sort-max-ip=N: rows of more than sort-min-ip (16)\n"
    "and at most sort-max-ip (8192, the most) products, where B has at least\n"
    "sort-cols-per-product (64) columns per product, are computed by\n"
    "expand-sort-compress, skipping the symbolic phase (sort-max-ip=1: none are);\n"
    "direct-max-bound=N: the other rows of the shared hash tables whose bound on\n"
    "distinct columns is at most N (8192, the most) skip it too, their numeric\n"
    "tables sized by the bound (direct-max-bound=0: none do);\n"
    "direct-cols-per-bound=N: only where B has N columns per entry of the bound\n"
    "(default: any B); unit-sums=0|1 (experiment mcl only, default 1): bitmap\n"
    "rows sum in 64-bit fixed point in shared memory, which a stochastic matrix\n"
    "squared allows; stage-bitmap=0|1 (default 1 in experiment mcl, 0\n"
    "elsewhere): bitmap rows skip the symbolic phase as well, computed into a\n"
    "staging the size of their bound and copied into C; balance-entries=0|1\n"
    "(default 1): a block walking one row hands A's entries to its sub-teams\n"
    "of a warp as each finishes (0: every n-th entry to each); batch-b-loads=0|1\n"
    "(default 1): bitmap rows summed in fixed point (unit-sums) load four of\n"
    "B's entries ahead of their use; spa=0|1 (default 1): the longest staged\n"
    "bitmap rows summed in fixed point walk their products once, into a dense\n"
    "accumulator per window of ~28,000 of B's columns in shared memory;\n"
    "spa-max-windows=N (default 16): the SPA only where B's columns make at\n"
    "most N windows (past it the rows stay bitmaps); lane-analysis=0|1 (default\n"
    "1): where nnz(B) equals B's rows, the analysis sums a row of A in one lane\n"
    "(rows past 32 entries in the whole warp), 0: every row in a warp;\n"
    "copy-by-slots=0|1 (default 1): where the longest row computed before the\n"
    "symbolic phase has a bound of 4,096 or more, those rows go into C a tile\n"
    "of staging slots to a block, 0: always a row to a warp";

}  // namespace graphrun::cli::bench
