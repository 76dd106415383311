// The GPU halves of the experiments: each side runs on the same
// device-resident inputs, graphrun's SpGEMM on one and cuSPARSE's on the
// other, everything else shared. Declared in every build; defined by
// gpu_runs.cu, or without CUDA by no_gpu/gpu_runs_absent.cpp (CMake picks
// one), which refuses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::cli::experiment {

struct ContractionTiming {
  double ours_ms = 0, anchor_ms = 0;  // medians of C = (S·A)·Sᵀ, inputs on the device
  std::int64_t products = 0;          // intermediate products of both SpGEMMs
  std::int64_t nnz_ours = 0, nnz_anchor = 0;
  double max_relative_difference = 0;  // of C's values, where both C agree in structure
  std::string anchor_error;            // cuSPARSE failed (then its fields are 0)
  // graphrun's phases (analysis, symbolic, numeric, sort; ms) of S·A and of
  // (S·A)·Sᵀ, from one warm call with events between them (not a timed run),
  // and the rows of each product whose tables lived in global memory.
  double phase_ms[2][4] = {};
  std::int64_t global_rows[2] = {};
  std::int64_t sorted_rows[2] = {};  // rows by expand-sort-compress
  std::int64_t direct_rows[2] = {};  // rows by one hash pass (no symbolic phase)
};

// Times C = (S·A)·Sᵀ on the GPU both ways (reps runs each after a warm-up,
// alternating), with A, S and Sᵀ uploaded once, and compares the two C.
// `tune`: KEY=N overrides of graphrun's SpGEMM options (bench spgemm --tune).
ContractionTiming time_contraction_cuda(const Csr<double>& a, const Csr<double>& s, int reps,
                                        const std::vector<std::string>& tune = {});

// graphrun's MCL on the GPU twice: expansion by graphrun's SpGEMM (with
// `tune`'s overrides of its options, as for the contraction), then by
// cuSPARSE's.
struct MclPair {
  MclResult ours, anchor;
  std::string anchor_error;  // cuSPARSE failed (out of resources, 32-bit indices)
};
MclPair mcl_both_cuda(Context& ctx, const Graph& g, const MclOptions& options,
                      const std::vector<std::string>& tune = {});

}  // namespace graphrun::cli::experiment
