// libFuzzer target: SNAP edge lists and ABC text (plain; gzip when the bytes
// start with its magic). What must hold:
//  - the reader never fails other than with InputError / SizeError;
//  - cutting the text into tiny parse chunks changes nothing: the same
//    graph, bit for bit, or the same complaint about the same line;
//  - a graph read back from the binary cache is the graph written;
//  - --undirected gives a symmetric adjacency.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"

using namespace graphrun;
using namespace graphrun::fuzz;

namespace {

void check_cache_round_trip(const Graph& g) {
  const std::string path = Scratch::get().path("round-trip.grb");
  io::write_cache(path, g);
  fuzz_check(same_graph(io::read_cache(path), g), "the cache did not give back the graph");
}

bool symmetric(const Graph& g) {
  const Csr<double>& a = g.adj();
  const Csr<double>& t = g.transpose();
  return a.row_ptr() == t.row_ptr() && a.col_idx() == t.col_idx() && a.values() == t.values();
}

// One reader (read_edge_list or read_abc) through all the checks.
template <class Read>
void check_reader(Read read, const std::string& path, std::size_t size) {
  io::LoadOptions serial;
  serial.threads = 1;
  Graph whole;
  const std::string first = outcome([&] { whole = read(path, serial); });

  io::LoadOptions chunked = serial;
  chunked.chunk_bytes = 1 + size % 7;
  Graph pieces;
  const std::string second = outcome([&] { pieces = read(path, chunked); });
  fuzz_check(first == second, "tiny parse chunks changed the outcome");
  if (!first.empty()) return;
  fuzz_check(same_graph(whole, pieces), "tiny parse chunks changed the graph");
  check_cache_round_trip(whole);

  io::LoadOptions undirected = serial;
  undirected.undirected = true;
  Graph u;
  if (reads([&] { u = read(path, undirected); })) {
    fuzz_check(!u.directed() && symmetric(u), "--undirected gave an asymmetric adjacency");
    fuzz_check(u.n_vertices() == whole.n_vertices(), "--undirected changed the vertex count");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = Scratch::get().write("in.txt", {data, size});
  check_reader(
      [](const std::string& p, const io::LoadOptions& o) { return io::read_edge_list(p, o); }, path,
      size);
  check_reader([](const std::string& p, const io::LoadOptions& o) { return io::read_abc(p, o); },
               path, size);
  return 0;
}
