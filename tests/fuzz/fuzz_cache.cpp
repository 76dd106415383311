// libFuzzer target: graphrun's binary cache (.grb). Each input is read as it
// is, and, when it starts with the magic, once more with both checksums made
// right, so that the fuzzer reaches the structural checks behind them
// (sizes, row pointers, column indices, ids, names) instead of stopping at a
// checksum mismatch. What must hold:
//  - read_cache never fails other than with InputError / SizeError;
//  - a cache that reads is a valid graph: written again and read back, it
//    gives the same graph bit for bit.
// The checksum fix follows the format (io/src/cache.cpp): the header crc32
// covers bytes 0..43, the version 2 payload crc32 everything from byte 64
// (crc32 chains, so array-by-array equals all at once when no array is
// skipped, and version 2 skips only empty ones), and that of a version 3
// cache with a stored ordering everything from byte 48 (the ordering's
// method name first).
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_support.hpp"
#include "graphrun/io/write.hpp"

using namespace graphrun;
using namespace graphrun::fuzz;

namespace {

std::uint32_t crc(const std::uint8_t* p, std::size_t n) {
  return static_cast<std::uint32_t>(crc32_z(crc32_z(0, nullptr, 0), p, n));
}

void read_and_check(const std::string& path) {
  Graph g;
  if (!reads([&] { g = io::read_cache(path); })) return;
  const std::string again = Scratch::get().path("again.grb");
  io::write_cache(again, g);
  fuzz_check(same_graph(io::read_cache(again), g), "a cache read back differs from the graph");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Scratch& s = Scratch::get();
  read_and_check(s.write("in.grb", {data, size}));
  if (size >= 64 && std::memcmp(data, "GRAPHRUN", 8) == 0) {
    std::vector<std::uint8_t> fixed(data, data + size);
    std::uint32_t version = 0, flags = 0;
    std::memcpy(&version, fixed.data() + 8, 4);
    std::memcpy(&flags, fixed.data() + 12, 4);
    const std::size_t from = version == 3 && (flags & 16) != 0 ? 48 : 64;
    const std::uint32_t payload = crc(fixed.data() + from, fixed.size() - from);
    std::memcpy(fixed.data() + 40, &payload, 4);
    const std::uint32_t header = crc(fixed.data(), 44);
    std::memcpy(fixed.data() + 44, &header, 4);
    read_and_check(s.write("fixed.grb", fixed));
  }
  return 0;
}
