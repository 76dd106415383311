// The merge-path partition on the device: one thread per share boundary,
// each a binary search along its diagonal.
#include "format_util.cuh"
#include "graphrun/engine/cuda/merge_path.hpp"

namespace graphrun::cuda {

namespace {

__global__ void share_starts(const offset_t* __restrict__ row_ptr, vertex_t n_rows, offset_t nnz,
                             vertex_t shares, offset_t share_length, vertex_t* __restrict__ row,
                             offset_t* __restrict__ k) {
  const offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  if (p > shares) return;
  const offset_t total = offset_t(n_rows) + nnz;
  const offset_t diag = p * share_length < total ? p * share_length : total;
  const MergeCoord c = merge_path_search(diag, row_ptr + 1, n_rows, nnz);  // the host's search
  row[p] = c.row;
  k[p] = c.entry;
}

}  // namespace

template <class T>
DeviceMergePath build_merge_path(const DeviceCsr<T>& a, offset_t share_length,
                                 cudaStream_t stream) {
  if (share_length < 1) throw ArgumentError("merge-path: a share needs at least one item");
  DeviceMergePath m;
  const offset_t total = checked_add<offset_t>(a.n_rows(), a.nnz(), "merge-path items");
  m.shares = checked_cast<vertex_t>(total / share_length + (total % share_length != 0),
                                    "merge-path shares");
  m.share_length = share_length;
  m.start_row = DeviceArray<vertex_t>(std::size_t(m.shares) + 1);
  m.start_entry = DeviceArray<offset_t>(std::size_t(m.shares) + 1);
  share_starts<<<detail::blocks_for(offset_t(m.shares) + 1), detail::build_block, 0, stream>>>(
      a.row_ptr().data(), a.n_rows(), a.nnz(), m.shares, share_length, m.start_row.data(),
      m.start_entry.data());
  detail::check_launch();
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return m;
}

template DeviceMergePath build_merge_path(const DeviceCsr<float>&, offset_t, cudaStream_t);
template DeviceMergePath build_merge_path(const DeviceCsr<double>&, offset_t, cudaStream_t);

}  // namespace graphrun::cuda
