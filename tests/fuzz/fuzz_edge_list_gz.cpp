// libFuzzer target: gzip-compressed edge lists. The first byte picks what is
// done with the rest, R:
//   0  R compressed whole: must read exactly as R does uncompressed (unless
//      R itself begins with the gzip magic: then it is never read as text)
//   1  R compressed, then cut short: must be an InputError (never a graph)
//   2  R compressed in two members (gzip -c a b style): as R uncompressed
//   3  R itself behind a gzip magic: a corrupt stream, any outcome but a crash
//   4  R compressed whole, read under LoadOptions::max_input_bytes = L (L
//      from the last byte): a SizeError for the file when the .gz is past
//      L, for the decompressed text when R is; else as R uncompressed
// The plain/compressed comparison is of the whole outcome: the same graph,
// bit for bit, or the same complaint about the same line.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "graphrun/io/load.hpp"
#include "text_input.hpp"

using namespace graphrun;
using namespace graphrun::fuzz;

namespace {

// One gzip member holding `bytes`.
std::vector<std::uint8_t> gzip(std::span<const std::uint8_t> bytes) {
  z_stream z{};
  fuzz_check(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK,
             "deflateInit2");
  std::vector<std::uint8_t> out(deflateBound(&z, static_cast<uLong>(bytes.size())) + 32);
  z.next_in = const_cast<Bytef*>(bytes.data());
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  fuzz_check(deflate(&z, Z_FINISH) == Z_STREAM_END, "deflate");
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

Graph read(const std::string& path, std::size_t max_input_bytes = 0) {
  io::LoadOptions o;
  o.threads = 1;
  o.max_input_bytes = max_input_bytes;
  return io::read_edge_list(path, o);
}

std::string read_outcome(const std::string& path) {
  return outcome([&] { read(path); });
}

// Whether text begins with the gzip magic: every file is sniffed by its first
// bytes (the reader's own rule), so such "plain" text is read as a (corrupt)
// gzip stream, and there is no plain outcome for its compressed form to match.
bool has_gzip_magic(std::span<const std::uint8_t> text) { return io::detail::is_gzip(text); }

void same_as_plain(std::span<const std::uint8_t> rest, const std::vector<std::uint8_t>& gz) {
  Scratch& s = Scratch::get();
  if (has_gzip_magic(rest)) {
    read_outcome(s.write("in.txt.gz", gz));  // any outcome but a crash
    return;
  }
  const std::string plain = s.write("in.txt", rest);
  const std::string packed = s.write("in.txt.gz", gz);
  Graph a, b;
  const std::string oa = outcome([&] { a = read(plain); });
  const std::string ob = outcome([&] { b = read(packed); });
  fuzz_check(oa == ob, "gzip changed the outcome");
  if (oa.empty()) fuzz_check(same_graph(a, b), "gzip changed the graph");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::uint8_t> rest(data + 1, size - 1);
  switch (data[0] % 5) {
    case 0:
      same_as_plain(rest, gzip(rest));
      break;
    case 1: {
      std::vector<std::uint8_t> gz = gzip(rest);
      // Cut anywhere short of the end (the position from the data's length
      // and last byte, so the fuzzer can steer it).
      const std::size_t keep = (rest.size() * 131 + data[size - 1]) % gz.size();
      gz.resize(keep);
      const std::string path = Scratch::get().write("cut.txt.gz", gz);
      const std::string o = read_outcome(path);
      fuzz_check(o.rfind("input: ", 0) == 0, "a truncated .gz was not an input error");
      break;
    }
    case 2: {
      const std::size_t half = rest.size() / 2;
      std::vector<std::uint8_t> gz = gzip(rest.first(half));
      const std::vector<std::uint8_t> second = gzip(rest.subspan(half));
      gz.insert(gz.end(), second.begin(), second.end());
      same_as_plain(rest, gz);
      break;
    }
    case 4: {
      const std::size_t limit = 1 + data[size - 1] * 4;  // 1 .. 1021 bytes
      const std::vector<std::uint8_t> gz = gzip(rest);
      const std::string path = Scratch::get().write("limit.txt.gz", gz);
      Graph g;
      const std::string o = outcome([&] { g = read(path, limit); });
      // The limit holds for the file as stored, then for its text.
      const char* past = gz.size() > limit     ? "the file is larger"
                         : rest.size() > limit ? "the decompressed text is larger"
                                               : nullptr;
      if (past) {
        fuzz_check(o.rfind("size: ", 0) == 0 && o.find(past) != std::string::npos,
                   "input past the limit was not the size error for it");
      } else if (!has_gzip_magic(rest)) {
        Graph plain;
        const std::string op =
            outcome([&] { plain = read(Scratch::get().write("limit.txt", rest)); });
        fuzz_check(o == op, "a limit the input is within changed the outcome");
        if (o.empty()) fuzz_check(same_graph(g, plain), "a limit changed the graph");
      }
      break;
    }
    default: {
      std::vector<std::uint8_t> bytes = {0x1f, 0x8b, 0x08};
      bytes.insert(bytes.end(), rest.begin(), rest.end());
      read_outcome(Scratch::get().write("raw.txt.gz", bytes));
    }
  }
  return 0;
}
