// An edge list's parsed edges to CSR on the device (device_assembly.hpp).
//
//   1. the ids: every endpoint radix-sorted, then unique: the table of input
//      ids, ascending, whose index is the dense id;
//   2. the endpoints mapped by binary search in that table;
//   3. the entries laid out in input order (with `mirror`, edge e's reverse
//      right after it, a self loop's reverse marked as padding), keyed by
//      (row, col) and stably radix-sorted: equal keys stay in input order;
//   4. the first entry of each run of equal keys merges its run serially,
//      left to right, as the host does; row lengths by counting, row
//      pointers by a scan.
//
// Ids that all fit in 32 bits (the usual file) travel and sort as 32-bit
// values. The upload goes through pinned buffers (device_staging.hpp). Every
// step is a CUB primitive or a flat pass; the host waits for the sizes it
// must allocate by (the id count, the entry count).
#include <algorithm>
#include <bit>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <future>

#include "assemble_edges.hpp"
#include "device_staging.hpp"
#include "format_util.cuh"
#include "graphrun/engine/cuda/step_trace.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_assembly.hpp"
#include "graphrun/engine/device_csr.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/first_at_least.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

namespace {

using cuda::detail::blocks_for;
using cuda::detail::build_block;
using cuda::detail::check_launch;
using cuda::detail::read_back;

constexpr int kPasses = 4;  // grid-stride loops: a few blocks' worth per SM, not one per item

unsigned grid_for(offset_t items) {
  return std::min<unsigned>(blocks_for(items), 65535u * kPasses);
}

template <class Id>
__device__ vertex_t dense_id(const Id* __restrict__ ids, vertex_t n, Id id) {
  return first_at_least(ids, vertex_t{0}, n, id);
}

// Edge e's entry (and, mirrored, its reverse) keyed row << bits | col; a
// self loop's reverse gets `padding`, which sorts after every real key.
template <class Id>
__global__ void entry_keys(offset_t m, const Id* __restrict__ src, const Id* __restrict__ dst,
                           const Id* __restrict__ ids, vertex_t n, int bits, bool mirror,
                           std::uint64_t padding, const double* __restrict__ weight,
                           std::uint64_t* __restrict__ key, double* __restrict__ value) {
  for (offset_t e = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; e < m;
       e += offset_t{gridDim.x} * blockDim.x) {
    const std::uint64_t r = static_cast<std::uint64_t>(dense_id(ids, n, src[e]));
    const std::uint64_t c = static_cast<std::uint64_t>(dense_id(ids, n, dst[e]));
    const offset_t k = mirror ? 2 * e : e;
    key[k] = r << bits | c;
    if (weight) value[k] = weight[e];
    if (mirror) {
      key[k + 1] = r == c ? padding : c << bits | r;
      if (weight) value[k + 1] = weight[e];
    }
  }
}

// head[i] = 1 when entry i starts a run of equal keys (padding excluded);
// head[count] = 0, for the scan's total.
__global__ void run_heads(offset_t count, const std::uint64_t* __restrict__ key,
                          std::uint64_t padding, offset_t* __restrict__ head) {
  for (offset_t i = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; i <= count;
       i += offset_t{gridDim.x} * blockDim.x)
    head[i] = i < count && key[i] != padding && (i == 0 || key[i] != key[i - 1]) ? 1 : 0;
}

// Each run's first entry writes the run's column and merged value at its
// output position and counts its row.
__global__ void merge_runs(offset_t count, const std::uint64_t* __restrict__ key,
                           const double* __restrict__ value, const offset_t* __restrict__ head,
                           const offset_t* __restrict__ at, int bits, Duplicates dup,
                           vertex_t* __restrict__ col, double* __restrict__ out_value,
                           offset_t* __restrict__ row_count, unsigned long long* self_loops) {
  const std::uint64_t col_mask = (std::uint64_t{1} << bits) - 1;
  for (offset_t i = blockIdx.x * offset_t{blockDim.x} + threadIdx.x; i < count;
       i += offset_t{gridDim.x} * blockDim.x) {
    if (!head[i]) continue;
    const std::uint64_t k = key[i];
    const offset_t out = at[i];
    col[out] = static_cast<vertex_t>(k & col_mask);
    atomicAdd(reinterpret_cast<unsigned long long*>(row_count + (k >> bits)), 1ull);
    if ((k >> bits) == (k & col_mask)) atomicAdd(self_loops, 1ull);
    if (!value) continue;
    double acc = value[i];
    for (offset_t j = i + 1; j < count && key[j] == k; ++j) {
      const double v = value[j];
      acc = dup == Duplicates::sum   ? acc + v
            : dup == Duplicates::max ? (acc < v ? v : acc)
            : dup == Duplicates::min ? (v < acc ? v : acc)
                                     : v;
    }
    out_value[out] = acc;
  }
}

// The parts' `field` arrays, one span each.
template <class T>
std::vector<std::span<const T>> spans_of(std::span<const IdEdges> parts,
                                         std::span<const T> IdEdges::*field) {
  std::vector<std::span<const T>> out;
  out.reserve(parts.size());
  for (const IdEdges& p : parts) out.push_back(p.*field);
  return out;
}

// The host copy of a CSR on the device, through the pinned buffers. `col`
// and `val` may come allocated already (zeroed by another thread while the
// device worked); they are sized here.
Csr<double> download_csr(const DeviceCsr<double>& a, std::vector<vertex_t> col = {},
                         std::vector<double> val = {}) {
  const cudaStream_t stream = nullptr;
  std::vector<offset_t> row_ptr(a.row_ptr().size());
  detail::stage_from_device(a.row_ptr().data(), row_ptr.size(), row_ptr.data(), stream);
  col.resize(a.col_idx().size());
  detail::stage_from_device(a.col_idx().data(), col.size(), col.data(), stream);
  val.resize(a.values().size());
  detail::stage_from_device(a.values().data(), val.size(), val.data(), stream);
  return Csr<double>(a.n_rows(), a.n_cols(), std::move(row_ptr), std::move(col), std::move(val));
}

// Steps 1-4 with input ids of type Id: 32 bits when every id fits, which
// halves the upload and the id sort's passes.
template <class Id>
AssembledCsr assemble(std::span<const IdEdges> parts, bool ids32, offset_t m, bool mirror,
                      bool valued, Duplicates dup, const std::string& source, bool keep) {
  const cudaStream_t stream = nullptr;
  detail::HostLanding host(mirror ? 2 * m : m, valued, keep);
  const Stopwatch t_upload;
  // GRAPHRUN_TRACE: the steps below, each waited for.
  cuda::StepTrace trace("edge list assembly");

  DeviceArray<Id> src(static_cast<std::size_t>(m)), dst(static_cast<std::size_t>(m));
  if (ids32) {
    detail::stage_to_device<std::uint32_t, Id>(spans_of(parts, &IdEdges::src32), src.data(),
                                               stream);
    detail::stage_to_device<std::uint32_t, Id>(spans_of(parts, &IdEdges::dst32), dst.data(),
                                               stream);
  } else {
    detail::stage_to_device<std::uint64_t, Id>(spans_of(parts, &IdEdges::src), src.data(), stream);
    detail::stage_to_device<std::uint64_t, Id>(spans_of(parts, &IdEdges::dst), dst.data(), stream);
  }
  DeviceArray<double> weight(valued ? static_cast<std::size_t>(m) : 0);
  if (valued)
    detail::stage_to_device<double, double>(spans_of(parts, &IdEdges::weight), weight.data(),
                                            stream);
  const double seconds_upload = t_upload.seconds();
  trace.step("upload");
  AssembledCsr out = detail::assemble_edges(std::move(src), std::move(dst), std::move(weight), m,
                                            mirror, dup, source, keep, host, trace);
  out.seconds_upload = seconds_upload;
  return out;
}

}  // namespace

namespace detail {

HostLanding::HostLanding(offset_t count, bool valued, bool keep) {
  const std::launch when = keep ? std::launch::deferred : std::launch::async;
  col =
      std::async(when, [count] { return std::vector<vertex_t>(static_cast<std::size_t>(count)); });
  val = std::async(when, [count, valued] {
    return std::vector<double>(valued ? static_cast<std::size_t>(count) : 0);
  });
}

template <class Id>
AssembledCsr assemble_edges(DeviceArray<Id> src, DeviceArray<Id> dst, DeviceArray<double> weight,
                            offset_t m, bool mirror, Duplicates dup, const std::string& source,
                            bool keep, HostLanding& host, cuda::StepTrace& trace) {
  AssembledCsr out;
  const cudaStream_t stream = nullptr;
  const bool valued = weight.size() != 0;
  const offset_t count = mirror ? 2 * m : m;  // entries before merging

  // 1. The ids.
  DeviceArray<Id> ids;
  vertex_t n = 0;
  {
    const offset_t ends = 2 * m;
    DeviceArray<Id> all(static_cast<std::size_t>(ends)), sorted(static_cast<std::size_t>(ends));
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpyAsync(all.data(), src.data(), m * sizeof(Id), cudaMemcpyDeviceToDevice, stream));
    GRAPHRUN_CUDA_CHECK(cudaMemcpyAsync(all.data() + m, dst.data(), m * sizeof(Id),
                                        cudaMemcpyDeviceToDevice, stream));
    // Only the bits the largest id has: fewer radix passes.
    DeviceArray<Id> largest(1);
    std::size_t bytes = 0;
    GRAPHRUN_CUDA_CHECK(
        cub::DeviceReduce::Max(nullptr, bytes, all.data(), largest.data(), ends, stream));
    {
      DeviceBuffer tmp(bytes);
      GRAPHRUN_CUDA_CHECK(
          cub::DeviceReduce::Max(tmp.data(), bytes, all.data(), largest.data(), ends, stream));
    }
    const int id_bits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(
                                        read_back(largest.data(), stream)))));
    bytes = 0;
    GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, all.data(), sorted.data(),
                                                       ends, 0, id_bits, stream));
    {
      DeviceBuffer tmp(bytes);
      GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(tmp.data(), bytes, all.data(),
                                                         sorted.data(), ends, 0, id_bits, stream));
    }
    DeviceArray<offset_t> distinct(1);
    bytes = 0;
    GRAPHRUN_CUDA_CHECK(cub::DeviceSelect::Unique(nullptr, bytes, sorted.data(), all.data(),
                                                  distinct.data(), ends, stream));
    {
      DeviceBuffer tmp(bytes);
      GRAPHRUN_CUDA_CHECK(cub::DeviceSelect::Unique(tmp.data(), bytes, sorted.data(), all.data(),
                                                    distinct.data(), ends, stream));
    }
    const offset_t count = read_back(distinct.data(), stream);
    if (count > offset_t{0x7fffffff})
      throw SizeError(source + ": " + std::to_string(count) +
                      " distinct vertex ids; graphrun holds at most 2^31 - 1 vertices");
    n = static_cast<vertex_t>(count);
    ids = DeviceArray<Id>(static_cast<std::size_t>(n));
    GRAPHRUN_CUDA_CHECK(
        cudaMemcpyAsync(ids.data(), all.data(), n * sizeof(Id), cudaMemcpyDeviceToDevice, stream));
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));  // `all` and `sorted` die here
  }
  trace.step("ids sorted and numbered");

  // 2-3. The entries, keyed and sorted.
  const int bits = std::max(1, static_cast<int>(std::bit_width(static_cast<std::uint32_t>(n))));
  const std::uint64_t padding = std::uint64_t(n) << bits;  // row n: after every real row
  DeviceArray<std::uint64_t> key(static_cast<std::size_t>(count));
  DeviceArray<double> value(valued ? static_cast<std::size_t>(count) : 0);
  entry_keys<Id><<<grid_for(m), build_block, 0, stream>>>(
      m, src.data(), dst.data(), ids.data(), n, bits, mirror, padding,
      valued ? weight.data() : nullptr, key.data(), valued ? value.data() : nullptr);
  check_launch();
  GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  src = {};
  dst = {};
  weight = {};
  trace.step("entries keyed");
  const int key_bits = 2 * bits;
  {
    DeviceArray<std::uint64_t> sorted_key(static_cast<std::size_t>(count));
    DeviceArray<double> sorted_value(value.size());
    std::size_t bytes = 0;
    if (valued) {
      GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
          nullptr, bytes, key.data(), sorted_key.data(), value.data(), sorted_value.data(), count,
          0, key_bits, stream));
      DeviceBuffer tmp(bytes);
      GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
          tmp.data(), bytes, key.data(), sorted_key.data(), value.data(), sorted_value.data(),
          count, 0, key_bits, stream));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    } else {
      GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(
          nullptr, bytes, key.data(), sorted_key.data(), count, 0, key_bits, stream));
      DeviceBuffer tmp(bytes);
      GRAPHRUN_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(
          tmp.data(), bytes, key.data(), sorted_key.data(), count, 0, key_bits, stream));
      GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    key = std::move(sorted_key);
    value = std::move(sorted_value);
  }
  trace.step("entries sorted");

  // 4. Runs merged, rows counted.
  DeviceArray<offset_t> head(static_cast<std::size_t>(count) + 1),
      at(static_cast<std::size_t>(count) + 1);
  run_heads<<<grid_for(count + 1), build_block, 0, stream>>>(count, key.data(), padding,
                                                             head.data());
  check_launch();
  cuda::detail::exclusive_sum(head.data(), at.data(), count + 1, stream);
  const offset_t nnz = read_back(at.data() + count, stream);
  DeviceArray<vertex_t> col(static_cast<std::size_t>(nnz));
  DeviceArray<double> merged(valued ? static_cast<std::size_t>(nnz) : 0);
  DeviceArray<offset_t> row_count(static_cast<std::size_t>(n) + 1),
      row_ptr(static_cast<std::size_t>(n) + 1);
  DeviceArray<unsigned long long> self_loops(1);
  GRAPHRUN_CUDA_CHECK(
      cudaMemsetAsync(row_count.data(), 0, row_count.size() * sizeof(offset_t), stream));
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(self_loops.data(), 0, sizeof(unsigned long long), stream));
  merge_runs<<<grid_for(count), build_block, 0, stream>>>(
      count, key.data(), valued ? value.data() : nullptr, head.data(), at.data(), bits, dup,
      col.data(), valued ? merged.data() : nullptr, row_count.data(), self_loops.data());
  check_launch();
  cuda::detail::exclusive_sum(row_count.data(), row_ptr.data(), offset_t{n} + 1, stream);
  out.self_loops = static_cast<offset_t>(read_back(self_loops.data(), stream));
  trace.step("runs merged, rows counted");

  const Stopwatch t_download;
  out.ids.resize(ids.size());
  detail::stage_from_device(ids.data(), ids.size(), out.ids.data(), stream);
  out.n = n;
  out.nnz = nnz;
  DeviceCsr<double> a(n, n, std::move(row_ptr), std::move(col), std::move(merged));
  if (keep) {
    // The adjacency stays here; its host copy waits until someone asks.
    auto device = std::make_shared<const DeviceAdjacency>(DeviceAdjacency{std::move(a)});
    out.fetch = [device] { return download_csr(device->csr); };
    out.device = std::move(device);
  } else {
    out.adj = download_csr(a, host.col.get(), host.val.get());
  }
  out.seconds_download = t_download.seconds();
  trace.step(keep ? "ids back" : "ids and adjacency back");
  return out;
}

template AssembledCsr assemble_edges(DeviceArray<std::uint32_t>, DeviceArray<std::uint32_t>,
                                     DeviceArray<double>, offset_t, bool, Duplicates,
                                     const std::string&, bool, HostLanding&, cuda::StepTrace&);
template AssembledCsr assemble_edges(DeviceArray<std::uint64_t>, DeviceArray<std::uint64_t>,
                                     DeviceArray<double>, offset_t, bool, Duplicates,
                                     const std::string&, bool, HostLanding&, cuda::StepTrace&);

}  // namespace detail

AssembledCsr assemble_csr_on_device(std::span<const IdEdges> parts, bool mirror, bool valued,
                                    Duplicates dup, const std::string& source,
                                    bool keep_on_device) {
  // 32-bit ids where no part holds 64-bit ones.
  const bool ids32 = std::all_of(parts.begin(), parts.end(),
                                 [](const IdEdges& p) { return p.src.empty() && p.dst.empty(); });
  offset_t m = 0;
  for (const IdEdges& p : parts) {
    const std::size_t count = ids32 ? p.src32.size() : p.src.size();
    if ((ids32 ? p.dst32.size() : p.dst.size()) != count || (valued && p.weight.size() != count) ||
        (!ids32 && !(p.src32.empty() && p.dst32.empty())))
      throw ArgumentError(
          "assemble_csr_on_device: a part's arrays differ in length, or parts mix 32- and 64-bit "
          "ids");
    m += static_cast<offset_t>(count);
  }
  if (m == 0) return {};
  std::uint64_t largest = 0;
  for (const IdEdges& p : parts) largest = std::max(largest, p.max_id);
  return largest <= 0xffffffffu
             ? assemble<std::uint32_t>(parts, ids32, m, mirror, valued, dup, source, keep_on_device)
             : assemble<std::uint64_t>(parts, ids32, m, mirror, valued, dup, source,
                                       keep_on_device);
}

}  // namespace graphrun
