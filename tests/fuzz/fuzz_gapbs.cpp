// libFuzzer target: the GAP Benchmark Suite's serialized graphs (.sg, .wsg;
// io/src/gapbs_graph.cpp). Each input is read as a .sg and as a .wsg, and
// once more each way with its header made to agree with the input's size
// (the directed flag 0 or 1, the vertex count from the header but small
// enough to fit, the edge count from what is left, the input cut to that
// size), so that the fuzzer reaches the checks of the row offsets and the
// neighbours instead of stopping at the size check. What must hold:
//  - read_gapbs_graph never fails other than with InputError / SizeError;
//  - a graph that reads is a valid graph: written as a .grb cache and read
//    back, it gives the same graph bit for bit.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_support.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"

using namespace graphrun;
using namespace graphrun::fuzz;

namespace {

void read_and_check(const std::string& path) {
  Graph g;
  if (!reads([&] { g = io::read_gapbs_graph(path); })) return;
  const std::string again = Scratch::get().path("again.grb");
  io::write_cache(again, g);
  fuzz_check(same_graph(io::read_cache(again), g), "a GAP graph read back differs");
}

// The input with its header made to agree with its size, entries of
// `entry` bytes; empty when it is too short to hold a header and offsets.
std::vector<std::uint8_t> agreeing(const std::uint8_t* data, std::size_t size, std::size_t entry) {
  constexpr std::size_t header = 17;
  if (size < header + 8) return {};
  std::vector<std::uint8_t> b(data, data + size);
  b[0] &= 1;
  const int sides = b[0] == 1 ? 2 : 1;
  const std::size_t side = (size - header) / static_cast<std::size_t>(sides);
  if (side < 8) return {};
  std::uint64_t n = 0;
  std::memcpy(&n, b.data() + 9, sizeof n);
  n %= side / 8;  // n + 1 offsets fit in a side
  const std::size_t offsets = 8 * (static_cast<std::size_t>(n) + 1);
  const std::uint64_t m = (side - offsets) / entry;
  b.resize(header + static_cast<std::size_t>(sides) * (offsets + entry * m));
  const auto sn = static_cast<std::int64_t>(n), sm = static_cast<std::int64_t>(m);
  std::memcpy(b.data() + 1, &sm, sizeof sm);
  std::memcpy(b.data() + 9, &sn, sizeof sn);
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Scratch& s = Scratch::get();
  read_and_check(s.write("in.sg", {data, size}));
  read_and_check(s.write("in.wsg", {data, size}));
  const std::vector<std::uint8_t> sg = agreeing(data, size, 4);
  if (!sg.empty()) read_and_check(s.write("fixed.sg", sg));
  const std::vector<std::uint8_t> wsg = agreeing(data, size, 8);
  if (!wsg.empty()) read_and_check(s.write("fixed.wsg", wsg));
  return 0;
}
