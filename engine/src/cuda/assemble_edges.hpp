// Steps 1-4 of device_assembly.cu (ids numbered, endpoints mapped, entries
// sorted, runs merged) from edges already on the device (internal to
// engine/): shared by the assembly of a host parse's edges
// (assemble_csr_on_device) and by the edge-list text parsed on the device
// (device_edge_text.cu), so that the two give the same graph.
#pragma once

#include <cstdint>
#include <future>
#include <string>
#include <vector>

#include "graphrun/engine/cuda/step_trace.hpp"
#include "graphrun/engine/device_array.hpp"
#include "graphrun/engine/device_assembly.hpp"

namespace graphrun::detail {

// The host arrays the columns and values come back to, allocated (and
// zeroed: std::vector) by other threads while the device works, for as many
// entries as there can be (`count`): zeroing 0.5 GB of fresh memory takes a
// host thread 0.1-0.2 s, which would otherwise add to the download. Nothing
// is allocated where the adjacency stays on the device (`keep`).
struct HostLanding {
  HostLanding(offset_t count, bool valued, bool keep);
  std::future<std::vector<vertex_t>> col;
  std::future<std::vector<double>> val;
};

// The graph of the m edges src[e] -> dst[e] (input ids, input order) with
// weight[e] (empty: unweighted), as assemble_csr_on_device makes it; the
// arrays are freed as soon as they are read. `trace` times the steps.
template <class Id>
AssembledCsr assemble_edges(DeviceArray<Id> src, DeviceArray<Id> dst, DeviceArray<double> weight,
                            offset_t m, bool mirror, Duplicates dup, const std::string& source,
                            bool keep, HostLanding& host, cuda::StepTrace& trace);

extern template AssembledCsr assemble_edges(DeviceArray<std::uint32_t>, DeviceArray<std::uint32_t>,
                                            DeviceArray<double>, offset_t, bool, Duplicates,
                                            const std::string&, bool, HostLanding&,
                                            cuda::StepTrace&);
extern template AssembledCsr assemble_edges(DeviceArray<std::uint64_t>, DeviceArray<std::uint64_t>,
                                            DeviceArray<double>, offset_t, bool, Duplicates,
                                            const std::string&, bool, HostLanding&,
                                            cuda::StepTrace&);

}  // namespace graphrun::detail
