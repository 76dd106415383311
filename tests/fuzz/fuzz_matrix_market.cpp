// libFuzzer target: Matrix Market coordinate files, read as a graph and as a
// plain matrix. What must hold:
//  - the readers never fail other than with InputError / SizeError;
//  - tiny parse chunks change nothing (graph bit for bit, or the same
//    complaint about the same line);
//  - a matrix written by write_matrix_market reads back bit for bit;
//  - a graph read back from the binary cache is the graph written.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"

using namespace graphrun;
using namespace graphrun::fuzz;

namespace {

bool same_matrix(const Csr<double>& a, const Csr<double>& b) {
  if (a.n_rows() != b.n_rows() || a.n_cols() != b.n_cols() || a.row_ptr() != b.row_ptr() ||
      a.col_idx() != b.col_idx() || a.values().size() != b.values().size())
    return false;
  for (std::size_t k = 0; k < a.values().size(); ++k)
    if (std::bit_cast<std::uint64_t>(a.values()[k]) != std::bit_cast<std::uint64_t>(b.values()[k]))
      return false;
  return true;
}

// Whether the size line (the first line neither blank nor a comment) declares more
// than 2^22 rows or columns with entries enough that the matrix is stored
// densely by row: then it takes 8 bytes of row pointers per row however few
// entries the file really has, as it must, and a 60-byte file may rightly ask
// for gigabytes. Found by this target (libFuzzer's out-of-memory limit, at
// 810890573 and 2127647534 rows); such inputs are left out rather than
// reported. A hypersparse declaration (more than 4 rows per entry, 8 counting
// a symmetric file's mirror entries; see read_matrix_market_graph) is read
// in memory proportional to its entries, and is fuzzed.
bool declares_huge_matrix(const std::uint8_t* data, std::size_t size) {
  std::size_t i = 0;
  while (i < size) {
    const std::size_t start = i;
    while (i < size && data[i] != '\n') ++i;
    std::size_t first = start;  // blank lines are skipped too
    while (first < i && (data[first] == ' ' || data[first] == '\t' || data[first] == '\r')) ++first;
    const bool skip = first == i || data[first] == '%';
    ++i;
    if (skip) continue;
    // The three numbers of the size line, saturated at 2^62.
    constexpr std::uint64_t cap = std::uint64_t{1} << 62;
    std::uint64_t field[3] = {0, 0, 0};
    std::size_t p = start;
    for (std::uint64_t& v : field) {
      while (p < i - 1 && (data[p] == ' ' || data[p] == '\t')) ++p;
      if (p < i - 1 && data[p] == '+') ++p;  // a sign the reader may accept
      for (; p < i - 1 && data[p] >= '0' && data[p] <= '9'; ++p)
        v = v >= cap / 10 ? cap : v * 10 + (data[p] - '0');
    }
    // The graph view has max(rows, cols) vertices; the matrix view, rows.
    constexpr std::uint64_t big = std::uint64_t{1} << 22;
    const auto dense = [&](std::uint64_t n) { return n > big && n / 8 <= field[2]; };
    return dense(std::max(field[0], field[1])) || dense(field[0]);
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (declares_huge_matrix(data, size)) return 0;
  Scratch& s = Scratch::get();
  const std::string path = s.write("in.mtx", {data, size});

  io::LoadOptions serial;
  serial.threads = 1;
  Graph whole;
  const std::string first = outcome([&] { whole = io::read_matrix_market_graph(path, serial); });
  io::LoadOptions chunked = serial;
  chunked.chunk_bytes = 1 + size % 7;
  Graph pieces;
  const std::string second = outcome([&] { pieces = io::read_matrix_market_graph(path, chunked); });
  fuzz_check(first == second, "tiny parse chunks changed the outcome");
  if (first.empty()) {
    fuzz_check(same_graph(whole, pieces), "tiny parse chunks changed the graph");
    const std::string cache = s.path("round-trip.grb");
    io::write_cache(cache, whole);
    fuzz_check(same_graph(io::read_cache(cache), whole), "the cache did not give back the graph");
  }

  Csr<double> m;
  if (reads([&] { m = io::read_matrix_market(path); })) {
    const std::string out = s.path("round-trip.mtx");
    io::write_matrix_market(out, m);
    fuzz_check(same_matrix(io::read_matrix_market(out), m),
               "write_matrix_market did not read back bit for bit");
  }
  return 0;
}
