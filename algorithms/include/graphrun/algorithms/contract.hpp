// Graph contraction: the quotient graph of a vertex -> cluster label map,
//
//   C = S · A · Sᵀ,   S(l, v) = 1 where vertex v has label l (n_labels × n)
//
// so C(k, l) = Σ of A(u, v) over the edges u -> v with label(u) = k and
// label(v) = l: the total weight of the edges from cluster k to cluster l
// (an unweighted edge counts 1). An undirected graph stores both directions,
// so its C is symmetric and an edge inside a cluster counts twice on C(k, k).
// C(k, l) is stored wherever some edge links the two clusters, even where
// the weights sum to 0 (SpGEMM's structural product). The diagonal C(k, k)
// (edges inside a cluster) is dropped unless keep_loops.
//
//   Context ctx(Device::cpu, 2);
//   std::vector<vertex_t> labels = consecutive_labels(g.n_vertices(), 10);
//   ContractResult r = contract(ctx, g, labels, (g.n_vertices() + 9) / 10);
//   // r.quotient(k, l): weight from vertices 10k..10k+9 to 10l..10l+9
//
// Computed as two SpGEMMs over PlusTimes<double> (kernels/spgemm.hpp), on the
// CPU or, with ctx.device() == Device::cuda, on the GPU with A, S and Sᵀ
// uploaded once (CUDA builds only; DeviceError otherwise).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun {

struct ContractOptions {
  bool keep_loops = false;  // keep C(k, k), the weight of the edges inside cluster k
};

struct ContractResult {
  Csr<double> quotient;  // n_labels × n_labels, C = S·A·Sᵀ (loops removed unless keep_loops)
  std::int64_t products = 0;   // intermediate products of both SpGEMMs
  double seconds = 0;          // whole call
  double compute_seconds = 0;  // the two SpGEMMs alone (GPU: without uploads/downloads)
};

// labels[v] in [0, n_labels) for every vertex (labels.size() == n), n_labels
// >= 1; a label may be used by no vertex (an empty cluster: an empty row and
// column of C). ArgumentError otherwise.
ContractResult contract(Context& ctx, const Graph& g, std::span<const vertex_t> labels,
                        vertex_t n_labels, const ContractOptions& options = {});

// S as CSR (n_labels × n_vertices, entries 1.0): row l holds the vertices
// labelled l, in ascending order. Same checks as contract().
Csr<double> label_matrix(std::span<const vertex_t> labels, vertex_t n_labels, vertex_t n_vertices);

// Labels grouping consecutive dense ids: labels[v] = v / group_size (so
// (n_vertices + group_size - 1) / group_size labels). group_size >= 1 and
// n_vertices >= 0, ArgumentError otherwise.
std::vector<vertex_t> consecutive_labels(vertex_t n_vertices, vertex_t group_size);

}  // namespace graphrun
