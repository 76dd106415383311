#include "memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/types.hpp"

namespace graphrun::scale {

std::uint64_t host_peak_bytes() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return static_cast<std::uint64_t>(u.ru_maxrss) * 1024;  // Linux: kilobytes
}

std::optional<std::uint64_t> host_available_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (f >> key >> kb) {
    std::getline(f, unit);
    if (key == "MemAvailable:") return kb * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return static_cast<std::uint64_t>(pages) * page;
  return std::nullopt;
}

namespace {

using u64 = std::uint64_t;

u64 mul(u64 a, u64 b) { return checked_mul(a, b, "scale check: memory estimate"); }
u64 add(u64 a, u64 b) { return checked_add(a, b, "scale check: memory estimate"); }

u64 csr_bytes(u64 n, u64 nnz) { return add(mul(n + 1, sizeof(offset_t)), mul(nnz, 4)); }

}  // namespace

u64 host_bytes_needed(u64 n, u64 nnz, Device device) {
  // A and Aᵀ, and the transpose's per-thread counts: within col_idx's size,
  // or one thread's n offsets (Csr::transpose).
  u64 bytes = add(mul(csr_bytes(n, nnz), 2), std::max(mul(nnz, 4), mul(n, 8)));
  // Vertex vectors: on the CPU PageRank's five doubles (r, x, x_next, y,
  // 1/outw) and BFS's level, visited and frontiers; on the GPU the row_ptr
  // read back for the row statistics and the levels; on both, two rank
  // vectors and the one-step check's start. The checks add nothing per vertex.
  const u64 per_vertex = (device == Device::cpu ? 5 * 8 + 4 + 1 + 2 * 4 : 8 + 4) + 3 * 8;
  return add(bytes, mul(n, per_vertex));
}

u64 device_bytes_needed(u64 n, u64 nnz) {
  const u64 format = add(mul(nnz, 4), mul(n, 8));  // HYB: ELL slots + COO tail
  // PageRank: Aᵀ, its format, A's row_ptr for the out-degrees, and r, r',
  // x, y (or x'), 1/outw, and a start while the ranks are set up.
  const u64 pagerank = add(add(csr_bytes(n, nnz), format), mul(n, 8 + 6 * 8));
  // BFS: A, Aᵀ and its format (pull steps), level, visited, two queues, the
  // push scan's degrees and offsets, two dense frontiers.
  const u64 bfs = add(add(mul(csr_bytes(n, nnz), 2), format), mul(n, 4 + 1 + 2 * 4 + 2 * 8 + 2));
  return std::max(pagerank, bfs);
}

void DeviceMemory::sample() {
  if (!enabled_) return;
  std::size_t free_b = 0, total_b = 0;
  std::string error;  // unreadable (no CUDA backend, no device): no sample
  if (!device_memory_totals(free_b, total_b, error)) return;
  const u64 used = total_b - free_b;
  peak_ = std::max(peak_.value_or(0), used);
}

std::string gib(u64 bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return buf;
}

}  // namespace graphrun::scale
