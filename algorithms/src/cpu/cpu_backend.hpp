// The CPU backend's steps, one file each (pagerank_steps.cpp,
// mcl_steps.cpp, bfs_search.cpp, contract_products.cpp); backend.cpp puts
// them behind the Backend interface. OpenMP on ctx.threads() threads.
#pragma once

#include <memory>

#include "../backend.hpp"

namespace graphrun::detail {

struct CpuSteps {
  GRAPHRUN_BACKEND_STEPS
};

}  // namespace graphrun::detail
