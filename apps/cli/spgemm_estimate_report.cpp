// The table of `graphrun spgemm --estimate` and the device memory it is
// compared with.
#include "spgemm_estimate_report.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "common.hpp"
#include "graphrun/engine/context.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_memory.hpp"

namespace graphrun::cli {

namespace {

std::string human(std::size_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? format("%zu B", bytes) : format("%.1f %s", v, units[u]);
}

void line(const char* key, const std::string& value) {
  std::printf("%-23s %s\n", (std::string(key) + ":").c_str(), value.c_str());
}

// "  label       12345  (12.1 KiB)  note": exact bytes for scripts, units for people.
void bytes_line(const char* label, std::size_t bytes, const char* note) {
  std::printf("  %-20s %16zu  %-11s %s\n", label, bytes, ("(" + human(bytes) + ")").c_str(), note);
}

std::string matrix_text(const std::string& name, const Csr<double>& m) {
  return format("%s, %dx%d, %lld nnz%s", name.c_str(), m.n_rows(), m.n_cols(),
                static_cast<long long>(m.nnz()), m.values().empty() ? " (pattern)" : "");
}

std::string verdict(const SpgemmMemoryEstimate& mem, std::size_t limit, Device device) {
  if (mem.peak <= limit) return "the peak fits";
  if (device == Device::cuda && mem.least <= limit)
    return "the peak does not fit; the product runs with its hash tables in chunks (least " +
           human(mem.least) + ")";
  return format("does not fit: %s more needed", human(mem.least - limit).c_str());
}

}  // namespace

std::vector<MemoryLimit> device_memory_limits(Device device, std::string& why_none) {
  std::vector<MemoryLimit> limits;
  if (device == Device::cpu) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0)
      limits.push_back(
          {"physical memory", static_cast<std::size_t>(pages) * static_cast<std::size_t>(page)});
    else
      why_none = "the machine's memory is unknown";
    return limits;
  }
  // The cap applies whether or not a GPU is here to compare with.
  if (device_memory_cap() != 0) limits.push_back({"--max-device-memory", device_memory_cap()});
  if (!cuda_backend_built()) {
    why_none = "this build has no CUDA backend, so no GPU is present to compare with";
    return limits;
  }
  if (cuda_device_count() == 0) {
    if (limits.empty()) why_none = "no GPU is present (no CUDA device or no driver)";
    return limits;
  }
  std::size_t free_b = 0, total_b = 0;
  std::string error;
  if (!device_memory_totals(free_b, total_b, error)) {
    why_none = "the GPU's memory cannot be read (" + error + ")";
    return limits;
  }
  limits.push_back({"free GPU memory", free_b});
  limits.push_back({"total GPU memory", total_b});
  return limits;
}

void print_estimate(const EstimateReport& r) {
  const SpgemmEstimate& e = r.estimate;
  const SpgemmMemoryEstimate& mem = e.memory;
  const bool cpu = r.device == Device::cpu;
  line("A", matrix_text(r.a_name, *r.a));
  line("B", matrix_text(r.b_name, *r.b));
  line("C",
       format("%dx%d, not computed (counted from the row pointers)", r.a->n_rows(), r.b->n_cols()));
  line("intermediate products",
       format("%lld (exact; 2 flops each)", static_cast<long long>(e.intermediate_products)));
  line("largest row products", format("%lld (exact)", static_cast<long long>(e.max_row_products)));
  line("rows with products",
       format("%lld of %d", static_cast<long long>(e.product_rows), r.a->n_rows()));
  line("nnz(C) at most",
       format("%lld (sum over rows of min(products, %d columns of B); C may have fewer)",
              static_cast<long long>(e.nnz_c_bound), r.b->n_cols()));
  if (cpu) {
    line("device", format("cpu, %d threads", r.threads));
    line("row kinds", format("%lld empty, %lld copy, %lld hash, %lld dense; %lld row tasks",
                             static_cast<long long>(e.cpu_rows_per_kind[0]),
                             static_cast<long long>(e.cpu_rows_per_kind[1]),
                             static_cast<long long>(e.cpu_rows_per_kind[2]),
                             static_cast<long long>(e.cpu_rows_per_kind[3]),
                             static_cast<long long>(e.cpu_tasks)));
  } else {
    line("device", "cuda");
    line("global-memory rows", format("%lld symbolic (exact), at most %lld numeric",
                                      static_cast<long long>(e.gpu_symbolic_global_rows),
                                      static_cast<long long>(e.gpu_numeric_global_rows)));
  }
  std::printf("%-23s %16s\n", cpu ? "memory (host):" : "memory (device):", "bytes");
  bytes_line("inputs", mem.inputs,
             cpu ? "A and B as read (B = A counted once)" : "A and B uploaded");
  bytes_line("row analysis", mem.analysis,
             cpu ? "IP and kind per row, tasks, B's row bitmaps"
                 : "IP, group and offsets per row, CUB scratch (held to the end)");
  bytes_line("symbolic phase", mem.symbolic,
             cpu ? "per-thread hash keys and bitmaps" : "global hash tables (exact)");
  bytes_line("numeric phase", mem.numeric,
             cpu ? "per-thread hash values and dense accumulators"
                 : "global hash tables and staging, at the nnz bound");
  bytes_line("output C", mem.output, "row pointers, columns and values at the nnz bound");
  bytes_line("peak", mem.peak,
             cpu ? "held at once: all of the above (nothing is freed before C is done)"
                 : "held at once (symbolic tables are freed before C is allocated)");
  if (!cpu) bytes_line("least", mem.least, "with the hash tables in one-row chunks");
  if (r.limits.empty()) line(cpu ? "machine memory" : "device memory", r.why_no_limits);
  for (const MemoryLimit& l : r.limits)
    line(l.name.c_str(), format("%zu (%s): %s", l.bytes, human(l.bytes).c_str(),
                                verdict(mem, l.bytes, r.device).c_str()));
  check_stdout();
}

}  // namespace graphrun::cli
