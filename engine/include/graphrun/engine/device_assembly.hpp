// An edge list's parsed edges to CSR on the GPU: the id mapping and the
// assembly a loader does after parsing (io's IdMap and assemble_csr), as a
// few radix sorts on the device instead of hash-free but cache-missing
// passes on the host. The result is the same graph, array for array: dense
// ids in ascending order of input id, rows sorted, duplicates merged by
// `dup` in input order (sum left to right, max, last), and with `mirror`
// every edge but a self loop followed by its reverse.
//
// Input order is part order, then edge order within a part (a loader's
// parse chunks). Declared in every build; a build without the CUDA backend
// links a definition that throws DeviceError (callers ask cuda_device_count()
// first).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun {

// One part of the parsed edges: source and target input ids, as 64-bit
// values (src, dst) or, where a parser kept them in 32 bits, as 32-bit ones
// (src32, dst32; the other pair left empty, the same kind in every part);
// weights (empty for an unweighted list); and the largest id of the part,
// which a parser knows for free (it decides whether ids travel as 32-bit
// values).
struct IdEdges {
  std::span<const std::uint64_t> src, dst;
  std::span<const std::uint32_t> src32, dst32;
  std::span<const double> weight;
  std::uint64_t max_id = 0;
};

struct AssembledCsr {
  // n x n with nnz entries, values empty unless `valued`; left empty with
  // keep_on_device, where `fetch` makes it from `device` when asked
  // (Graph::with_deferred_adjacency).
  Csr<double> adj;
  vertex_t n = 0;
  offset_t nnz = 0;
  offset_t self_loops = 0;  // entries (i, i)
  std::function<Csr<double>()> fetch;
  std::vector<std::uint64_t> ids;  // input id of each dense id, ascending
  // Wall seconds of the copies to the device and back (the rest of the
  // call is the device's work and the host's Csr checks).
  double seconds_upload = 0;
  double seconds_download = 0;
  // With keep_on_device: the CSR left on the device (values only when
  // `valued`), for Graph::set_device_adjacency; nothing is copied back.
  std::shared_ptr<const DeviceAdjacency> device;
};

// DeviceMemoryError when the device cannot hold the work (about 60 bytes per
// edge, twice that with `mirror`): the caller can assemble on the host
// instead. SizeError naming `source` past 2^31 - 1 distinct ids.
AssembledCsr assemble_csr_on_device(std::span<const IdEdges> parts, bool mirror, bool valued,
                                    Duplicates dup, const std::string& source,
                                    bool keep_on_device = false);

// An unweighted edge list's text parsed on the device, then assembled as
// above: the same graph as a host parse of the text followed by
// assemble_csr_on_device. `parsed` holds the edges of the lines before
// `text`, parsed by the host (unweighted; empty where the device parses the
// whole file, as the loader has it do), `text` the rest. The text goes
// up as it is, a byte a character, where a host parse costs the host more
// than the copy and sends 8 bytes an edge. `text` is whole lines ending in
// '\n' (or empty); the device takes what the host parser takes for two
// columns: lines of two decimal ids (at most 64 bits) separated and
// surrounded by blanks (space, tab), ending in "\n" or "\r\n", blank lines,
// and lines whose first non-blank character is '#' or '%' (comments).
// nullopt where a line is anything else, or where there is no edge at all:
// the host parser then reads the lines and says what is wrong, with its
// line. DeviceMemoryError where the device cannot hold the text and the
// work (1 byte a character plus about 60 bytes an edge, twice that with
// `mirror`); SizeError as above.
std::optional<AssembledCsr> assemble_edge_text_on_device(std::span<const IdEdges> parsed,
                                                         std::span<const char> text, bool mirror,
                                                         const std::string& source,
                                                         bool keep_on_device = false);

}  // namespace graphrun
