// The GPU versions of the algorithms, declared in every build. A CUDA build
// defines them in src/cuda/*.cu; a build without CUDA links
// src/no_gpu/gpu_backend_absent.cpp instead, whose definitions refuse with
// a DeviceError. CMake picks the one (algorithms/CMakeLists.txt), so the
// algorithms choose their backend with a plain `if` on ctx.device() and no
// preprocessor test. Each is called after the options are validated and
// computes the same function as the CPU version, on ctx.device_id().
#pragma once

#include <cstdint>

#include "graphrun/algorithms/bfs.hpp"
#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"

namespace graphrun::detail {

// Pull-style power iteration over Aᵀ in double precision throughout; see
// cuda/pagerank.cu.
PageRankResult pagerank_cuda(Context& ctx, const Graph& g, const PageRankOptions& options);

// Direction-optimizing BFS: queue-based push and masked OrAnd pull; see cuda/bfs.cu.
BfsResult bfs_cuda(Context& ctx, const Graph& g, vertex_t source, const BfsOptions& options);

// Markov clustering with the whole loop on the device; see cuda/mcl.cu.
MclResult mcl_cuda(Context& ctx, const Graph& g, const MclOptions& options);

// The device half of contract(): the two products of C = (S·A)·Sᵀ on the
// GPU. contract() builds S and Sᵀ on the host, checks the labels, and
// removes C's loops afterwards; see cuda/contract.cu.
struct ContractProducts {
  Csr<double> quotient;        // (S·A)·Sᵀ, loops included, in host memory
  std::int64_t products = 0;   // intermediate products of both SpGEMMs
  double compute_seconds = 0;  // the two SpGEMMs on the device alone
};

// a: the adjacency, read as a pattern (entries 1) unless `weighted`;
// s: S (n_labels × n); st: Sᵀ (n × n_labels). Runs on ctx.device_id().
ContractProducts contract_products_cuda(Context& ctx, const Csr<double>& a, bool weighted,
                                        const Csr<double>& s, const Csr<double>& st);

}  // namespace graphrun::detail
