// An edge list's text parsed on the device (device_assembly.hpp,
// assemble_edge_text_on_device).
//
// The text is cut into slices of kSliceBytes; a thread owns the lines that
// start in its slice (a line starts at byte 0 or one past a '\n') and parses
// them to their ends, past its slice where a line runs on. Two passes over
// the same lines: the first counts each thread's edges and finds the
// largest id and any line the grammar refuses; a block's counts are summed,
// the blocks' sums scanned; the second pass parses again and writes each
// edge at its thread's offset (a block scan of the first pass's counts),
// so the edges land in file order, as the host parse leaves them. The
// grammar (edge_text_grammar.hpp) is the host parser's for two columns,
// character for character; any refusal sends the whole file back to the
// host parser, which owns the error messages, so the device never has to
// say which line was wrong.
//
// A thread reads its bytes through one cached 8-byte word (TextReader):
// consecutive bytes, one load per 8, and a warp's 32 slices of 64 bytes
// share 2 KB of L1. The second pass parses again rather than keep each
// line's start from the first, which would write 8 bytes a line.
#include <algorithm>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/functional>
#include <span>
#include <type_traits>
#include <vector>

#include "../edge_text_grammar.hpp"
#include "assemble_edges.hpp"
#include "device_staging.hpp"
#include "format_util.cuh"
#include "graphrun/engine/device_assembly.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

namespace graphrun {

namespace {

using cuda::detail::check_launch;
using cuda::detail::read_back;
using namespace edge_text;

constexpr int kParseBlock = 256;

__device__ void slice_of(std::size_t size, std::size_t& a, std::size_t& b) {
  const std::size_t t = blockIdx.x * std::size_t{kParseBlock} + threadIdx.x;
  a = t * kSliceBytes < size ? t * kSliceBytes : size;
  b = a + kSliceBytes < size ? a + kSliceBytes : size;
}

// Pass 1: each thread's edge count, each block's sum, the largest id, and
// whether any line was refused.
__global__ void __launch_bounds__(kParseBlock)
    count_edges(const unsigned long long* __restrict__ words, std::size_t size,
                unsigned char* __restrict__ per_thread, offset_t* __restrict__ per_block,
                unsigned long long* largest, unsigned* refused) {
  std::size_t a = 0, b = 0;
  slice_of(size, a, b);
  TextReader r(words);
  unsigned count = 0;
  unsigned long long big = 0;
  bool bad = false;
  for (std::size_t p = first_line_start(r, a, b); p < b;) {
    unsigned long long u = 0, v = 0;
    const Line line = parse_line(r, p, u, v);
    if (line == Line::refused) {
      bad = true;
      break;
    }
    if (line == Line::edge) {
      ++count;
      big = max(big, max(u, v));
    }
  }
  per_thread[blockIdx.x * std::size_t{kParseBlock} + threadIdx.x] =
      static_cast<unsigned char>(count);
  using Sum = cub::BlockReduce<unsigned, kParseBlock>;
  using Max = cub::BlockReduce<unsigned long long, kParseBlock>;
  __shared__ union {
    typename Sum::TempStorage sum;
    typename Max::TempStorage max;
  } tmp;
  const unsigned block_count = Sum(tmp.sum).Sum(count);
  __syncthreads();
  const unsigned long long block_big = Max(tmp.max).Reduce(big, ::cuda::maximum<>{});
  const int any_bad = __syncthreads_or(bad);
  if (threadIdx.x == 0) {
    per_block[blockIdx.x] = block_count;
    if (block_big != 0) atomicMax(largest, block_big);
    if (any_bad) atomicOr(refused, 1u);
  }
}

// Pass 2: the edges written at their places in file order, from `base` on.
template <class Id>
__global__ void __launch_bounds__(kParseBlock)
    write_edges(const unsigned long long* __restrict__ words, std::size_t size,
                const unsigned char* __restrict__ per_thread, const offset_t* __restrict__ block_at,
                offset_t base, Id* __restrict__ src, Id* __restrict__ dst) {
  using Scan = cub::BlockScan<unsigned, kParseBlock>;
  __shared__ typename Scan::TempStorage tmp;
  unsigned before = 0;
  Scan(tmp).ExclusiveSum(unsigned{per_thread[blockIdx.x * std::size_t{kParseBlock} + threadIdx.x]},
                         before);
  offset_t at = base + block_at[blockIdx.x] + before;
  std::size_t a = 0, b = 0;
  slice_of(size, a, b);
  TextReader r(words);
  for (std::size_t p = first_line_start(r, a, b); p < b;) {
    unsigned long long u = 0, v = 0;
    if (parse_line(r, p, u, v) == Line::edge) {
      src[at] = static_cast<Id>(u);
      dst[at] = static_cast<Id>(v);
      ++at;
    }
  }
}

// What pass 1 leaves for pass 2: the text and the counts (m = 0: no text).
struct Counted {
  DeviceArray<unsigned long long> words;
  std::size_t size = 0;
  unsigned blocks = 0;
  DeviceArray<unsigned char> per_thread;
  DeviceArray<offset_t> block_at;
  offset_t m = 0;
};

// The host's edges, then pass 2 writing the text's after them, with ids of
// type Id; the assembly follows. The text is freed once its edges are out.
template <class Id>
AssembledCsr parsed_edges(std::span<const IdEdges> parts, bool ids32, offset_t m_host, Counted c,
                          bool mirror, const std::string& source, bool keep, cuda::StepTrace& trace,
                          const Stopwatch& t_upload) {
  const cudaStream_t stream = nullptr;
  const offset_t m = m_host + c.m;
  detail::HostLanding host(mirror ? 2 * m : m, false, keep);
  DeviceArray<Id> src(static_cast<std::size_t>(m)), dst(static_cast<std::size_t>(m));
  if (m_host > 0) {
    const auto stage = [&](auto field, Id* out) {
      using T = typename std::remove_cvref_t<decltype(IdEdges{}.*field)>::value_type;
      std::vector<std::span<const T>> spans;
      for (const IdEdges& p : parts) spans.push_back(p.*field);
      detail::stage_to_device<T, Id>(spans, out, stream);
    };
    if (ids32) {
      stage(&IdEdges::src32, src.data());
      stage(&IdEdges::dst32, dst.data());
    } else {
      stage(&IdEdges::src, src.data());
      stage(&IdEdges::dst, dst.data());
    }
  }
  const double seconds_upload = t_upload.seconds();
  if (c.m > 0) {
    write_edges<Id><<<c.blocks, kParseBlock, 0, stream>>>(c.words.data(), c.size,
                                                          c.per_thread.data(), c.block_at.data(),
                                                          m_host, src.data(), dst.data());
    check_launch();
    GRAPHRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  c = Counted{};
  trace.step("edges written");
  AssembledCsr out = detail::assemble_edges(std::move(src), std::move(dst), DeviceArray<double>{},
                                            m, mirror, Duplicates::sum, source, keep, host, trace);
  out.seconds_upload = seconds_upload;
  return out;
}

// Pass 1 over `text` (whole lines): the counts, the largest id, and whether
// a line was refused.
Counted count_text(std::span<const char> text, unsigned long long& largest_id, bool& refused) {
  const cudaStream_t stream = nullptr;
  Counted c;
  refused = false;
  largest_id = 0;
  if (text.empty()) return c;
  const std::size_t size = text.size();
  const std::size_t slices = (size + kSliceBytes - 1) / kSliceBytes;
  const std::size_t blocks = (slices + kParseBlock - 1) / kParseBlock;
  if (blocks > 0x7fffffffu) throw SizeError("too large a text to parse on the device");
  // The text and a word of line ends past it (what a reader may touch
  // beyond the final '\n' while it looks for a "\r\n").
  c.words = DeviceArray<unsigned long long>((size + 7) / 8 + 1);
  auto* bytes = reinterpret_cast<unsigned char*>(c.words.data());
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(bytes + size, '\n', c.words.size() * 8 - size, stream));
  const std::span<const unsigned char> whole(reinterpret_cast<const unsigned char*>(text.data()),
                                             size);
  detail::stage_to_device<unsigned char, unsigned char>(
      std::span<const std::span<const unsigned char>>(&whole, 1), bytes, stream);

  c.size = size;
  c.blocks = static_cast<unsigned>(blocks);
  c.per_thread = DeviceArray<unsigned char>(blocks * kParseBlock);
  DeviceArray<offset_t> per_block(blocks + 1);
  c.block_at = DeviceArray<offset_t>(blocks + 1);
  DeviceArray<unsigned long long> largest(1);
  DeviceArray<unsigned> bad(1);
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(largest.data(), 0, sizeof(unsigned long long), stream));
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(bad.data(), 0, sizeof(unsigned), stream));
  GRAPHRUN_CUDA_CHECK(cudaMemsetAsync(per_block.data() + blocks, 0, sizeof(offset_t), stream));
  count_edges<<<c.blocks, kParseBlock, 0, stream>>>(c.words.data(), size, c.per_thread.data(),
                                                    per_block.data(), largest.data(), bad.data());
  check_launch();
  cuda::detail::exclusive_sum(per_block.data(), c.block_at.data(),
                              static_cast<offset_t>(blocks) + 1, stream);
  c.m = read_back(c.block_at.data() + blocks, stream);
  refused = read_back(bad.data(), stream) != 0;
  largest_id = read_back(largest.data(), stream);
  return c;
}

}  // namespace

std::optional<AssembledCsr> assemble_edge_text_on_device(std::span<const IdEdges> parsed,
                                                         std::span<const char> text, bool mirror,
                                                         const std::string& source,
                                                         bool keep_on_device) {
  if (!text.empty() && text.back() != '\n')
    throw ArgumentError("assemble_edge_text_on_device: the text must end in '\\n'");
  const bool ids32 = std::all_of(parsed.begin(), parsed.end(),
                                 [](const IdEdges& p) { return p.src.empty() && p.dst.empty(); });
  offset_t m_host = 0;
  unsigned long long largest = 0;
  for (const IdEdges& p : parsed) {
    const std::size_t count = ids32 ? p.src32.size() : p.src.size();
    if ((ids32 ? p.dst32.size() : p.dst.size()) != count || !p.weight.empty() ||
        (!ids32 && !(p.src32.empty() && p.dst32.empty())))
      throw ArgumentError(
          "assemble_edge_text_on_device: a part's arrays differ in length, carry weights, or "
          "parts mix 32- and 64-bit ids");
    m_host += static_cast<offset_t>(count);
    largest = std::max<unsigned long long>(largest, p.max_id);
  }
  const Stopwatch t_upload;
  cuda::StepTrace trace("edge list text");
  unsigned long long largest_in_text = 0;
  bool refused = false;
  Counted c = count_text(text, largest_in_text, refused);
  trace.step("text up, edges counted");
  if (refused || m_host + c.m == 0) return std::nullopt;
  largest = std::max(largest, largest_in_text);
  return largest <= 0xffffffffu
             ? parsed_edges<std::uint32_t>(parsed, ids32, m_host, std::move(c), mirror, source,
                                           keep_on_device, trace, t_upload)
             : parsed_edges<std::uint64_t>(parsed, ids32, m_host, std::move(c), mirror, source,
                                           keep_on_device, trace, t_upload);
}

}  // namespace graphrun
