// The GAP Benchmark Suite's serialized graphs (.sg, and .wsg with int32
// weights), as its converter writes them (gapbs src/writer.h,
// WriteSerializedGraph), all little-endian and unpadded:
//
//   offset            size             field
//   0                 1                directed (a C++ bool: 0 or 1)
//   1                 8                m: stored edges (an undirected graph stores both ways)
//   9                 8                n: vertices
//   17                8 (n + 1)        row offsets, from 0 to m
//   17 + 8 (n + 1)    4 m | 8 m        neighbours: int32, or {int32 vertex, int32 weight}
//   then, when directed, the same two arrays again for the in-edges
//
// graphrun reads the out-edges and skips the in-edges (it builds its
// transpose when an algorithm asks). Vertices are 0 .. n-1, isolated ones
// included, and those are the ids. gapbs writes each row sorted and without
// repeats; a row that is not sorted is sorted here, and a repeat is an error.
// At scale 24 a .sg loads in seconds where the same graph as an edge list
// takes minutes to write and parse, which is why the benchmarks beside gapbs
// read it.
#include <omp.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/prefault.hpp"
#include "graphrun/engine/types.hpp"
#include "graphrun/io/load.hpp"
#include "text_input.hpp"

namespace graphrun::io {

namespace {

constexpr std::uint64_t header_bytes = 17;

std::string corrupt(const std::string& what) { return "corrupt GAP serialized graph: " + what; }

// Sorts the rows that are not sorted (with their weights), in parallel.
void sort_rows(const std::vector<offset_t>& row_ptr, std::vector<vertex_t>& col,
               std::vector<double>& val) {
  const auto n = static_cast<std::int64_t>(row_ptr.size()) - 1;
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = 0; v < n; ++v) {
    const offset_t b = row_ptr[v], e = row_ptr[v + 1];
    if (std::is_sorted(col.begin() + b, col.begin() + e)) continue;
    if (val.empty()) {
      std::sort(col.begin() + b, col.begin() + e);
      continue;
    }
    std::vector<std::pair<vertex_t, double>> row;
    row.reserve(static_cast<std::size_t>(e - b));
    for (offset_t k = b; k < e; ++k) row.emplace_back(col[k], val[k]);
    std::sort(row.begin(), row.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (offset_t k = b; k < e; ++k) std::tie(col[k], val[k]) = row[k - b];
  }
}

}  // namespace

Graph read_gapbs_graph(const std::string& path, const LoadOptions& options) {
  // .wsg in any case, as load_graph picks this reader by the name in any case.
  const bool weighted =
      path.size() >= 4 && std::equal(path.end() - 4, path.end(), ".wsg", [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == b;
      });
  const detail::BinaryFile opened = detail::open_binary_graph(path, "a GAP serialized graph",
                                                              "the graph", options.max_input_bytes);
  std::FILE* const f = opened.file.get();
  const std::uint64_t file_size = opened.size;

  unsigned char header[header_bytes];
  if (file_size < header_bytes || std::fread(header, 1, header_bytes, f) != header_bytes)
    throw InputError(path, corrupt("shorter than its 17-byte header"));
  if (header[0] > 1) throw InputError(path, corrupt("the directed flag is neither 0 nor 1"));
  const bool directed = header[0] == 1;
  std::int64_t m = 0, n = 0;
  std::memcpy(&m, header + 1, sizeof m);
  std::memcpy(&n, header + 9, sizeof n);
  if (m < 0 || n < 0 || n > max_vertices)
    throw InputError(path, corrupt(std::to_string(n) + " vertices and " + std::to_string(m) +
                                   " edges is not a graph graphrun can hold"));
  // The size the header announces, checked before anything is allocated.
  const std::uint64_t entry = weighted ? 8 : 4;
  const std::uint64_t one_side = checked_add(
      checked_mul<std::uint64_t>(static_cast<std::uint64_t>(n) + 1, 8, "graph size"),
      checked_mul<std::uint64_t>(static_cast<std::uint64_t>(m), entry, "graph size"), "graph size");
  const std::uint64_t expect = checked_add(
      header_bytes, directed ? checked_mul<std::uint64_t>(one_side, 2, "graph size") : one_side,
      "graph size");
  if (file_size != expect)
    throw InputError(path, std::string(file_size < expect ? "truncated" : "oversized") +
                               " GAP serialized graph: " + std::to_string(file_size) +
                               " bytes, the header describes " + std::to_string(expect) +
                               (weighted ? " (read as .wsg: {vertex, weight} pairs)"
                                         : " (read as .sg: int32 neighbours)"));

  const auto read = [&](void* out, std::size_t bytes, std::uint64_t at) {
    if (const int e = detail::read_at(fileno(f), out, bytes, at); e != 0)
      throw InputError(path, std::string("read error") +
                                 (e > 0 ? std::string(": ") + std::strerror(e) : std::string()));
  };
  std::vector<offset_t> row_ptr = prefaulted_vector<offset_t>(static_cast<std::size_t>(n) + 1);
  read(row_ptr.data(), row_ptr.size() * sizeof(offset_t), header_bytes);
  bool ok = row_ptr[0] == 0 && row_ptr[static_cast<std::size_t>(n)] == m;
#pragma omp parallel for schedule(static) reduction(&& : ok)
  for (std::int64_t v = 0; v < n; ++v) ok = ok && row_ptr[v] <= row_ptr[v + 1];
  if (!ok) throw InputError(path, corrupt("row offsets do not rise from 0 to the edge count"));

  const auto entries = static_cast<std::size_t>(m);
  const std::uint64_t neighbours_at = header_bytes + 8 * (static_cast<std::uint64_t>(n) + 1);
  std::vector<vertex_t> col = prefaulted_vector<vertex_t>(entries);
  std::vector<double> val;
  if (!weighted) {
    read(col.data(), entries * sizeof(vertex_t), neighbours_at);
  } else {
    std::vector<std::int32_t> pairs = prefaulted_vector<std::int32_t>(2 * entries);
    read(pairs.data(), pairs.size() * sizeof(std::int32_t), neighbours_at);
    val = prefaulted_vector<double>(entries);
#pragma omp parallel for schedule(static)
    for (std::int64_t k = 0; k < m; ++k) {
      col[k] = pairs[2 * k];
      val[k] = pairs[2 * k + 1];
    }
  }
  sort_rows(row_ptr, col, val);
  try {
    // Checks every neighbour's range and each row for repeats.
    Csr<double> adj(static_cast<vertex_t>(n), static_cast<vertex_t>(n), std::move(row_ptr),
                    std::move(col), std::move(val));
    return Graph(std::move(adj), {}, directed, weighted);
  } catch (const ArgumentError&) {
    throw InputError(path, corrupt("a neighbour outside 0 .. " + std::to_string(n - 1) +
                                   ", or a row that names a neighbour twice"));
  }
}

}  // namespace graphrun::io
