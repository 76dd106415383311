// `graphrun spgemm --estimate`: the table of what a product will cost
// (kernels/spgemm_estimate.hpp), and the memory of the device it is
// compared with. The figures and the limits are kept apart from the
// printing so that another limit (a cap on device memory) is one more entry.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "graphrun/engine/context.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/kernels/spgemm_estimate.hpp"

namespace graphrun::cli {

// Memory the peak is compared with: the device's free or total memory, a cap.
struct MemoryLimit {
  std::string name;  // "free GPU memory", "physical memory", ...
  std::size_t bytes = 0;
};

// The limits of `device` here: the GPU's free and total memory
// (cudaMemGetInfo), or the machine's physical memory for the CPU. Empty when
// there is nothing to ask, with the reason in `why_none`.
std::vector<MemoryLimit> device_memory_limits(Device device, std::string& why_none);

struct EstimateReport {
  std::string a_name, b_name;  // file names as given (B's with " (transposed)")
  const Csr<double>* a = nullptr;
  const Csr<double>* b = nullptr;
  Device device = Device::cpu;
  int threads = 1;
  SpgemmEstimate estimate;
  std::vector<MemoryLimit> limits;
  std::string why_no_limits;  // when `limits` is empty
};

// The table on stdout.
void print_estimate(const EstimateReport& r);

}  // namespace graphrun::cli
