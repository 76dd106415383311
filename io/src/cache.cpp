// graphrun's binary CSR cache (.grb): the arrays exactly as held in memory,
// so a load is a few large freads plus a checksum.
//
//   offset  size  field
//        0     8  magic "GRAPHRUN"
//        8     4  format version (1)
//       12     4  flags: 1 directed, 2 weighted, 4 pattern (no values array)
//       16     8  n       vertices
//       24     8  nnz     stored entries
//       32     8  n_ids   n, or 0 when the ids are 0 .. n-1
//       40     4  crc32 of the payload
//       44     4  crc32 of bytes 0..43 (the header above)
//       48    16  reserved, zero
//       64        payload: row_ptr (n+1 x int64), col_idx (nnz x int32),
//                 values (nnz x double, unless pattern), ids (n_ids x uint64)
//
// All little-endian. Every structural fact is checked on load (sizes against
// the file size, both checksums, then the Csr and Graph constructors'
// validation), so a damaged cache is an InputError, never a crash.

#include <sys/stat.h>
#include <zlib.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <memory>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"

namespace graphrun::io {

static_assert(std::endian::native == std::endian::little,
              "the .grb cache stores little-endian arrays as they are in memory");

namespace {

constexpr char magic[8] = {'G', 'R', 'A', 'P', 'H', 'R', 'U', 'N'};
constexpr std::uint32_t version = 1;
constexpr std::uint32_t flag_directed = 1, flag_weighted = 2, flag_pattern = 4;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t flags;
  std::int64_t n;
  std::int64_t nnz;
  std::uint64_t n_ids;
  std::uint32_t payload_crc;
  std::uint32_t header_crc;
  std::uint8_t reserved[16];
};
static_assert(sizeof(Header) == 64);
constexpr std::size_t header_crc_bytes = offsetof(Header, header_crc);

std::uint32_t crc(std::uint32_t c, const void* p, std::size_t bytes) {
  return static_cast<std::uint32_t>(
      crc32_z(c, static_cast<const Bytef*>(p), static_cast<z_size_t>(bytes)));
}

template <class T>
std::uint32_t crc(std::uint32_t c, const std::vector<T>& v) {
  return crc(c, v.data(), v.size() * sizeof(T));
}

template <class T>
void write_array(std::FILE* f, const std::vector<T>& v) {
  if (!v.empty()) std::fwrite(v.data(), sizeof(T), v.size(), f);
}

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

}  // namespace

void write_cache(const std::string& path, const Graph& g) {
  const Csr<double>& a = g.adj();
  Header h{};
  std::memcpy(h.magic, magic, sizeof magic);
  h.version = version;
  h.flags = (g.directed() ? flag_directed : 0) | (g.weighted() ? flag_weighted : 0) |
            (a.is_pattern() ? flag_pattern : 0);
  h.n = a.n_rows();
  h.nnz = a.nnz();
  h.n_ids = g.input_ids().size();
  std::uint32_t c = crc(0, a.row_ptr());
  c = crc(c, a.col_idx());
  c = crc(c, a.values());
  c = crc(c, g.input_ids());
  h.payload_crc = c;
  h.header_crc = crc(0, &h, header_crc_bytes);

  OutputFile out(path);
  std::fwrite(&h, sizeof h, 1, out.stream());
  write_array(out.stream(), a.row_ptr());
  write_array(out.stream(), a.col_idx());
  write_array(out.stream(), a.values());
  write_array(out.stream(), g.input_ids());
  out.commit();  // checks for write errors
}

Graph read_cache(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fileno(f.get()), &st) != 0 || !S_ISREG(st.st_mode))
    throw InputError(path, "a graphrun cache must be a regular file");
  const auto file_size = static_cast<std::uint64_t>(st.st_size);

  Header h{};
  if (std::fread(&h, sizeof h, 1, f.get()) != 1 || std::memcmp(h.magic, magic, sizeof magic) != 0)
    throw InputError(path, "not a graphrun cache (no GRAPHRUN magic)");
  if (h.version != version)
    throw InputError(path, "graphrun cache format version " + std::to_string(h.version) +
                               ", this build reads version " + std::to_string(version));
  if (crc(0, &h, header_crc_bytes) != h.header_crc)
    throw InputError(path, "corrupt graphrun cache (header checksum mismatch)");
  const bool pattern = h.flags & flag_pattern;
  if ((h.flags & ~(flag_directed | flag_weighted | flag_pattern)) != 0 || h.n < 0 ||
      h.n > max_vertices || h.nnz < 0 || (h.n_ids != 0 && h.n_ids != std::uint64_t(h.n)))
    throw InputError(path, "corrupt graphrun cache (impossible header fields)");

  // The file must hold exactly the arrays the header announces.
  const auto n = static_cast<std::uint64_t>(h.n), nnz = static_cast<std::uint64_t>(h.nnz);
  std::uint64_t expect = sizeof(Header);
  expect = checked_add(expect, checked_mul<std::uint64_t>(n + 1, 8, "cache size"), "cache size");
  expect = checked_add(expect, checked_mul<std::uint64_t>(nnz, 4, "cache size"), "cache size");
  if (!pattern)
    expect = checked_add(expect, checked_mul<std::uint64_t>(nnz, 8, "cache size"), "cache size");
  expect = checked_add(expect, checked_mul<std::uint64_t>(h.n_ids, 8, "cache size"), "cache size");
  if (file_size != expect)
    throw InputError(path, std::string(file_size < expect ? "truncated" : "oversized") +
                               " graphrun cache: " + std::to_string(file_size) +
                               " bytes, the header describes " + std::to_string(expect));

  std::vector<offset_t> row_ptr(n + 1);
  std::vector<vertex_t> col_idx(nnz);
  std::vector<double> values(pattern ? 0 : nnz);
  std::vector<std::uint64_t> ids(h.n_ids);
  auto read = [&](auto& v) {
    if (!v.empty() && std::fread(v.data(), sizeof(v[0]), v.size(), f.get()) != v.size())
      throw InputError(path, "truncated graphrun cache (read error)");
  };
  read(row_ptr);
  read(col_idx);
  read(values);
  read(ids);
  std::uint32_t c = crc(0, row_ptr);
  c = crc(c, col_idx);
  c = crc(c, values);
  c = crc(c, ids);
  if (c != h.payload_crc) throw InputError(path, "corrupt graphrun cache (checksum mismatch)");

  try {
    Csr<double> adj(static_cast<vertex_t>(h.n), static_cast<vertex_t>(h.n), std::move(row_ptr),
                    std::move(col_idx), std::move(values));
    return Graph(std::move(adj), std::move(ids), h.flags & flag_directed, h.flags & flag_weighted);
  } catch (const ArgumentError& e) {
    throw InputError(path, std::string("corrupt graphrun cache: ") + e.what());
  }
}

}  // namespace graphrun::io
