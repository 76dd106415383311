// The undirected simple graph on the device (edge_keys.cuh).
#include <algorithm>
#include <bit>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include "device_util.cuh"
#include "edge_keys.cuh"
#include "graphrun/engine/cuda/coo.hpp"

namespace graphrun::detail {

namespace {

constexpr int block_size = 256;

offset_t read_count(const DeviceArray<offset_t>& count) {
  offset_t host = 0;
  GRAPHRUN_CUDA_CHECK(cudaMemcpy(&host, count.data(), sizeof host, cudaMemcpyDeviceToHost));
  return host;
}

// Keys of the entries: (u, v) where upper_only and u < v (an undirected
// graph: each edge once, in order); else (min, max) of every u != v.
__global__ void fold_entries(CooView<double> a, bool upper_only, EdgeKey* keys,
                             unsigned char* keep) {
  for (offset_t e = blockIdx.x * static_cast<offset_t>(blockDim.x) + threadIdx.x; e < a.nnz;
       e += static_cast<offset_t>(gridDim.x) * blockDim.x) {
    const vertex_t u = a.row_idx[e], v = a.col_idx[e];
    keys[e] = u < v ? edge_key(u, v) : edge_key(v, u);
    keep[e] = upper_only ? u < v : u != v;
  }
}

// Both directions of every edge, and the row lengths.
__global__ void mirror(const EdgeKey* edges, offset_t m, EdgeKey* both, offset_t* row_length) {
  for (offset_t e = blockIdx.x * static_cast<offset_t>(blockDim.x) + threadIdx.x; e < m;
       e += static_cast<offset_t>(gridDim.x) * blockDim.x) {
    const vertex_t a = key_tail(edges[e]), b = key_head(edges[e]);
    both[2 * e] = edges[e];
    both[2 * e + 1] = edge_key(b, a);
    atomicAdd(reinterpret_cast<unsigned long long*>(row_length + a), 1ULL);
    atomicAdd(reinterpret_cast<unsigned long long*>(row_length + b), 1ULL);
  }
}

__global__ void heads(const EdgeKey* keys, offset_t count, vertex_t* col_idx) {
  for (offset_t e = blockIdx.x * static_cast<offset_t>(blockDim.x) + threadIdx.x; e < count;
       e += static_cast<offset_t>(gridDim.x) * blockDim.x)
    col_idx[e] = key_head(keys[e]);
}

}  // namespace

void key_heads(const EdgeKey* keys, offset_t count, vertex_t* col_idx) {
  if (count == 0) return;
  heads<<<grid_for(count, block_size), block_size>>>(keys, count, col_idx);
  check_launch();
}

int edge_key_bits(vertex_t n) {
  return 32 + std::max(1, static_cast<int>(std::bit_width(static_cast<unsigned>(n))));
}

UndirectedEdges undirected_edges(const DeviceCsr<double>& a, bool directed) {
  const cuda::DeviceCoo<double> coo = cuda::build_coo(a);
  const offset_t nnz = a.nnz();
  DeviceArray<EdgeKey> folded(static_cast<std::size_t>(nnz));
  DeviceArray<unsigned char> keep(static_cast<std::size_t>(nnz));
  if (nnz > 0) {
    fold_entries<<<grid_for(nnz, block_size), block_size>>>(coo.view(), !directed, folded.data(),
                                                            keep.data());
    check_launch();
  }
  UndirectedEdges r;
  r.keys = DeviceArray<EdgeKey>(static_cast<std::size_t>(nnz));
  DeviceArray<offset_t> kept(1);
  with_scratch([&](void* p, std::size_t& bytes) {
    return cub::DeviceSelect::Flagged(p, bytes, folded.data(), keep.data(), r.keys.data(),
                                      kept.data(), nnz);
  });
  r.m = read_count(kept);
  if (directed && r.m > 0) {
    // Each edge may be stored both ways: sort, then keep one of each.
    const int bits = edge_key_bits(a.n_rows());
    with_scratch([&](void* p, std::size_t& bytes) {
      return cub::DeviceRadixSort::SortKeys(p, bytes, r.keys.data(), folded.data(), r.m, 0, bits);
    });
    with_scratch([&](void* p, std::size_t& bytes) {
      return cub::DeviceSelect::Unique(p, bytes, folded.data(), r.keys.data(), kept.data(), r.m);
    });
    r.m = read_count(kept);
  }
  return r;
}

DeviceCsr<double> undirected_view(const DeviceCsr<double>& a, bool directed) {
  const vertex_t n = a.n_rows();
  const auto size = static_cast<std::size_t>(n);
  DeviceArray<offset_t> row_ptr(size + 1);
  GRAPHRUN_CUDA_CHECK(cudaMemset(row_ptr.data(), 0, (size + 1) * sizeof(offset_t)));
  DeviceArray<EdgeKey> sorted;
  offset_t entries = 0;
  {
    const UndirectedEdges edges = undirected_edges(a, directed);
    entries = 2 * edges.m;
    DeviceArray<EdgeKey> both(static_cast<std::size_t>(entries));
    sorted = DeviceArray<EdgeKey>(static_cast<std::size_t>(entries));
    if (edges.m > 0) {
      mirror<<<grid_for(edges.m, block_size), block_size>>>(edges.keys.data(), edges.m, both.data(),
                                                            row_ptr.data());
      check_launch();
      with_scratch([&](void* p, std::size_t& bytes) {
        return cub::DeviceRadixSort::SortKeys(p, bytes, both.data(), sorted.data(), entries, 0,
                                              edge_key_bits(n));
      });
    }
  }
  with_scratch([&](void* p, std::size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(p, bytes, row_ptr.data(), row_ptr.data(), n + 1);
  });
  DeviceArray<vertex_t> col_idx(static_cast<std::size_t>(entries));
  key_heads(sorted.data(), entries, col_idx.data());
  return DeviceCsr<double>(n, n, std::move(row_ptr), std::move(col_idx), DeviceArray<double>());
}

}  // namespace graphrun::detail
