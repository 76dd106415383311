// libFuzzer target: Matrix Market coordinate files, read as a graph and as a
// plain matrix. What must hold:
//  - the readers never fail other than with InputError / SizeError;
//  - tiny parse chunks change nothing (graph bit for bit, or the same
//    complaint about the same line);
//  - a matrix written by write_matrix_market reads back bit for bit;
//  - a graph read back from the binary cache is the graph written.
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
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
