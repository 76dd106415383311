// Linked into every GPU test binary: at the end of the run, the page-locked
// host buffers graphrun keeps for the life of the process are freed, so that
// compute-sanitizer's leak check (scripts/gpu-check.sh) reports only what a
// test or the library really leaked.
#include <gtest/gtest.h>

#include "graphrun/engine/device_memory.hpp"

namespace {

class ReleasePinnedHostBuffers : public ::testing::Environment {
 public:
  void TearDown() override { graphrun::release_pinned_host_buffers(); }
};

[[maybe_unused]] const ::testing::Environment* const registered =
    ::testing::AddGlobalTestEnvironment(new ReleasePinnedHostBuffers);

}  // namespace
