// The undirected simple graph of a graph, built on the device by radix sorts
// of 64-bit edge keys (hi: tail, lo: head), for the GPU algorithms defined on
// it (triangles, core numbers); no host round trip of the entries.
//   undirected_edges: every edge once, as a (min, max) key, sorted, no
//     loops: an undirected graph's entries u < v are that already, in
//     order; a directed graph's entries u != v are folded, sorted and made
//     unique;
//   undirected_view: the same edges both ways as a pattern CSR, rows sorted.
// Included by the .cu files under algorithms/src/cuda only.
#pragma once

#include <cstdint>

#include "graphrun/engine/cuda_check.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::detail {

using EdgeKey = unsigned long long;

__host__ __device__ inline EdgeKey edge_key(vertex_t tail, vertex_t head) {
  return (static_cast<EdgeKey>(static_cast<std::uint32_t>(tail)) << 32) |
         static_cast<std::uint32_t>(head);
}
__device__ inline vertex_t key_tail(EdgeKey k) { return static_cast<vertex_t>(k >> 32); }
__device__ inline vertex_t key_head(EdgeKey k) { return static_cast<vertex_t>(k & 0xffffffffULL); }

// Scratch for CUB device calls, grown as needed and kept across them: run()
// makes the call twice, first for its scratch size (CUB's protocol).
class CubScratch {
 public:
  template <class Call>
  void run(Call&& call) {
    std::size_t bytes = 0;
    GRAPHRUN_CUDA_CHECK(call(nullptr, bytes));
    if (bytes > buffer_.bytes()) buffer_ = DeviceBuffer(bytes);
    GRAPHRUN_CUDA_CHECK(call(buffer_.data(), bytes));
  }

 private:
  DeviceBuffer buffer_;
};

// One CUB call with scratch of its own.
template <class Call>
void with_scratch(Call&& call) {
  CubScratch().run(call);
}

// The radix sorts' key width: 32 bits of tail above the bits of n.
int edge_key_bits(vertex_t n);

// col_idx[e] = the head of keys[e], e < count: the columns of a CSR whose
// entries are the sorted keys.
void key_heads(const EdgeKey* keys, offset_t count, vertex_t* col_idx);

struct UndirectedEdges {
  DeviceArray<EdgeKey> keys;  // the first m are the edges
  offset_t m = 0;
};

// Of the adjacency `a` (on the device) of a graph directed or not.
UndirectedEdges undirected_edges(const DeviceCsr<double>& a, bool directed);

DeviceCsr<double> undirected_view(const DeviceCsr<double>& a, bool directed);

}  // namespace graphrun::detail
