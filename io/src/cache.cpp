// graphrun's binary CSR cache (.grb): the arrays exactly as held in memory,
// so a load is a few large freads plus a checksum.
//
//   offset  size  field
//        0     8  magic "GRAPHRUN"
//        8     4  format version (2, or 3 for a graph with a stored vertex
//                 ordering; version 1 is still read)
//       12     4  flags: 1 directed, 2 weighted, 4 pattern (no values array),
//                 8 named (versions 2 and 3), 16 ordered (version 3 only)
//       16     8  n       vertices
//       24     8  nnz     stored entries
//       32     8  n_ids   n, or 0 when the ids are 0 .. n-1
//       40     4  crc32 of the payload
//       44     4  crc32 of bytes 0..43 (the header above)
//       48    16  ordered: the ordering's method ("rabbit", "dbg", ...),
//                 NUL-padded, under the payload's checksum; otherwise zero
//       64        payload: row_ptr (n+1 x int64), col_idx (nnz x int32),
//                 values (nnz x double, unless pattern), ids (n_ids x uint64),
//                 when ordered the ordering (n x int32, order[new] = old, see
//                 vertex_order.hpp), and when named: name offsets (n+1 x
//                 int64, from 0) and the names back to back (offsets[n]
//                 bytes); n_ids is then 0
//
// Version 2 added the names. It also fixed the payload checksum: zlib's
// crc32 returns its *initial* value when given a null buffer, which is what
// an empty vector's data() is, so version 1's chain of crcs restarted at
// every empty array (values of a pattern graph, implicit ids) and protected
// only the arrays after the last one. Version 2 skips empty arrays; version
// 1 files are still checked the way they were written. An earlier build
// refuses a version 2 file by its version instead of misreading it.
// Version 3 added the stored ordering (`graphrun convert --reorder`), and
// is written only for a graph that has one, so that a cache without one
// stays readable by a version 2 build.
//
// All little-endian. Every structural fact is checked on load (sizes against
// the file size, both checksums, then the Csr and Graph constructors'
// validation), so a damaged cache is an InputError, never a crash.

#include <omp.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/prefault.hpp"
#include "graphrun/engine/types.hpp"
#include "graphrun/engine/vertex_order.hpp"
#include "graphrun/io/write.hpp"
#include "printable.hpp"
#include "text_input.hpp"

namespace graphrun::io {

static_assert(std::endian::native == std::endian::little,
              "the .grb cache stores little-endian arrays as they are in memory");

namespace {

constexpr char magic[8] = {'G', 'R', 'A', 'P', 'H', 'R', 'U', 'N'};
constexpr std::uint32_t version_1 = 1, version_2 = 2, version_3 = 3;
constexpr std::uint32_t flag_directed = 1, flag_weighted = 2, flag_pattern = 4, flag_named = 8,
                        flag_ordered = 16;

struct Header {
  char magic[8];
  std::uint32_t version;
  std::uint32_t flags;
  std::int64_t n;
  std::int64_t nnz;
  std::uint64_t n_ids;
  std::uint32_t payload_crc;
  std::uint32_t header_crc;
  char order_method[16];
};
static_assert(sizeof(Header) == 64);
constexpr std::size_t header_crc_bytes = offsetof(Header, header_crc);

std::uint32_t crc(std::uint32_t c, const void* p, std::size_t bytes) {
  return static_cast<std::uint32_t>(
      crc32_z(c, static_cast<const Bytef*>(p), static_cast<z_size_t>(bytes)));
}

// The same CRC over a large buffer, its slices checksummed in parallel and
// joined in order by crc32_combine: zlib's crc32 runs at a few GB/s on one
// core, which made the check most of a cache load.
std::uint32_t parallel_crc(std::uint32_t c, const void* p, std::size_t bytes) {
  constexpr std::size_t min_slice = std::size_t{16} << 20;
  const auto slices = static_cast<std::int64_t>(std::clamp<std::size_t>(
      bytes / min_slice, 1, static_cast<std::size_t>(std::max(1, omp_get_max_threads()))));
  if (slices == 1) return crc(c, p, bytes);
  const auto* b = static_cast<const unsigned char*>(p);
  std::vector<std::uint32_t> part(static_cast<std::size_t>(slices));
  std::vector<std::size_t> length(static_cast<std::size_t>(slices));
#pragma omp parallel for schedule(static, 1) num_threads(static_cast <int>(slices))
  for (std::int64_t i = 0; i < slices; ++i) {
    const std::size_t from = split_point(bytes, slices, i);
    const std::size_t to = split_point(bytes, slices, i + 1);
    part[i] = crc(0, b + from, to - from);
    length[i] = to - from;
  }
  for (std::int64_t i = 0; i < slices; ++i)
    c = static_cast<std::uint32_t>(crc32_combine(c, part[i], static_cast<z_off_t>(length[i])));
  return c;
}

// The payload checksum, array by array (see the top of the file).
class PayloadCrc {
 public:
  explicit PayloadCrc(std::uint32_t file_version) : v1_(file_version == version_1) {}
  void add(const void* p, std::size_t bytes) {
    if (bytes > 0 || v1_) c_ = parallel_crc(c_, p, bytes);
  }
  template <class T>
  void add(const std::vector<T>& v) {
    add(v.data(), v.size() * sizeof(T));
  }
  std::uint32_t value() const noexcept { return c_; }

 private:
  bool v1_;
  std::uint32_t c_ = 0;
};

template <class T>
void write_array(std::FILE* f, const std::vector<T>& v) {
  if (!v.empty()) std::fwrite(v.data(), sizeof(T), v.size(), f);
}

// What to say of names that are not unique: the first one given twice,
// read again from the file (`at` is where the names start). Only for the
// error: the names' bytes are let go before the graph is built.
std::string repeated_name(std::FILE* f, std::uint64_t at, const std::vector<offset_t>& start,
                          std::size_t n) {
  std::string bytes(static_cast<std::size_t>(start[n]), '\0');
  if (::fseeko(f, static_cast<off_t>(at), SEEK_SET) == 0 &&
      std::fread(bytes.data(), 1, bytes.size(), f) == bytes.size()) {
    std::unordered_set<std::string_view> seen;
    for (std::size_t v = 0; v < n; ++v) {
      const std::string_view s = std::string_view(bytes).substr(
          static_cast<std::size_t>(start[v]), static_cast<std::size_t>(start[v + 1] - start[v]));
      if (!seen.insert(s).second)
        return "vertex name " + detail::quote_input(s) + " is given twice";
    }
  }
  return "vertex names are not unique";
}

}  // namespace

std::optional<CacheHeader> read_cache_header(const std::string& path) noexcept {
  // A regular file only: opening a FIFO would wait for a writer, and reading
  // a pipe would take its first bytes from the load that follows.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const std::unique_ptr<std::FILE, detail::FileCloser> f(std::fopen(path.c_str(), "rb"));
  Header h{};
  if (!f || std::fread(&h, sizeof h, 1, f.get()) != 1 ||
      std::memcmp(h.magic, magic, sizeof magic) != 0 || h.version < version_1 ||
      h.version > version_3 || crc(0, &h, header_crc_bytes) != h.header_crc || h.n < 0 || h.nnz < 0)
    return std::nullopt;
  return CacheHeader{h.n, h.nnz, (h.flags & flag_directed) != 0};
}

void write_cache(const std::string& path, const Graph& g) {
  const Csr<double>& a = g.adj();
  Header h{};
  std::memcpy(h.magic, magic, sizeof magic);
  const bool named = g.has_names();
  const Graph::StoredOrder* ordered = g.stored_order();
  const std::string_view method_name = ordered ? to_string(ordered->method) : "";
  static_assert(sizeof h.order_method == 16);  // every ordering's name fits, NUL-terminated
  h.version = ordered ? version_3 : version_2;
  h.flags = (g.directed() ? flag_directed : 0) | (g.weighted() ? flag_weighted : 0) |
            (a.is_pattern() ? flag_pattern : 0) | (named ? flag_named : 0) |
            (ordered ? flag_ordered : 0);
  if (ordered) std::memcpy(h.order_method, method_name.data(), method_name.size());
  static const std::vector<vertex_t> no_order;
  const std::vector<vertex_t>& order = ordered ? ordered->order : no_order;
  h.n = a.n_rows();
  h.nnz = a.nnz();
  h.n_ids = g.input_ids().size();
  std::vector<offset_t> name_start;
  if (named) {
    name_start.reserve(static_cast<std::size_t>(g.n_vertices()) + 1);
    name_start.push_back(0);
    for (vertex_t v = 0; v < g.n_vertices(); ++v)
      name_start.push_back(name_start.back() + static_cast<offset_t>(g.name(v).size()));
  }
  PayloadCrc c(h.version);
  if (ordered) c.add(h.order_method, sizeof h.order_method);
  c.add(a.row_ptr());
  c.add(a.col_idx());
  c.add(a.values());
  c.add(g.input_ids());
  c.add(order);
  c.add(name_start);
  for (vertex_t v = 0; named && v < g.n_vertices(); ++v) c.add(g.name(v).data(), g.name(v).size());
  h.payload_crc = c.value();
  h.header_crc = crc(0, &h, header_crc_bytes);

  OutputFile out(path);
  std::fwrite(&h, sizeof h, 1, out.stream());
  write_array(out.stream(), a.row_ptr());
  write_array(out.stream(), a.col_idx());
  write_array(out.stream(), a.values());
  write_array(out.stream(), g.input_ids());
  write_array(out.stream(), order);
  write_array(out.stream(), name_start);
  for (vertex_t v = 0; named && v < g.n_vertices(); ++v)
    std::fwrite(g.name(v).data(), 1, g.name(v).size(), out.stream());
  out.commit();  // checks for write errors
}

Graph read_cache(const std::string& path, std::size_t max_bytes) {
  detail::BinaryFile opened =
      detail::open_binary_graph(path, "a graphrun cache", "the cache", max_bytes);
  const std::unique_ptr<std::FILE, detail::FileCloser>& f = opened.file;
  const std::uint64_t file_size = opened.size;

  Header h{};
  if (std::fread(&h, sizeof h, 1, f.get()) != 1 || std::memcmp(h.magic, magic, sizeof magic) != 0)
    throw InputError(path, "not a graphrun cache (no GRAPHRUN magic)");
  if (h.version < version_1 || h.version > version_3)
    throw InputError(path, "graphrun cache format version " + std::to_string(h.version) +
                               ", this build reads versions " + std::to_string(version_1) + " to " +
                               std::to_string(version_3));
  if (crc(0, &h, header_crc_bytes) != h.header_crc)
    throw InputError(path, "corrupt graphrun cache (header checksum mismatch)");
  const bool pattern = h.flags & flag_pattern;
  const bool named = h.flags & flag_named;
  const bool ordered = h.flags & flag_ordered;
  const std::uint32_t known = flag_directed | flag_weighted | flag_pattern |
                              (h.version == version_1 ? 0 : flag_named) |
                              (h.version == version_3 ? flag_ordered : 0);
  if ((h.flags & ~known) != 0 || h.n < 0 || h.n > max_vertices || h.nnz < 0 ||
      (h.n_ids != 0 && h.n_ids != std::uint64_t(h.n)) || (named && h.n_ids != 0))
    throw InputError(path, "corrupt graphrun cache (impossible header fields)");

  // The file must hold exactly the arrays the header announces.
  const auto n = static_cast<std::uint64_t>(h.n), nnz = static_cast<std::uint64_t>(h.nnz);
  std::uint64_t expect = sizeof(Header);
  expect = checked_add(expect, checked_mul<std::uint64_t>(n + 1, 8, "cache size"), "cache size");
  expect = checked_add(expect, checked_mul<std::uint64_t>(nnz, 4, "cache size"), "cache size");
  if (!pattern)
    expect = checked_add(expect, checked_mul<std::uint64_t>(nnz, 8, "cache size"), "cache size");
  expect = checked_add(expect, checked_mul<std::uint64_t>(h.n_ids, 8, "cache size"), "cache size");
  if (ordered)
    expect = checked_add(expect, checked_mul<std::uint64_t>(n, 4, "cache size"), "cache size");
  // The names' bytes are announced by the last name offset, read below;
  // here the file must hold at least the offsets.
  if (named)
    expect = checked_add(expect, checked_mul<std::uint64_t>(n + 1, 8, "cache size"), "cache size");
  if (named ? file_size < expect : file_size != expect)
    throw InputError(path, std::string(file_size < expect ? "truncated" : "oversized") +
                               " graphrun cache: " + std::to_string(file_size) +
                               " bytes, the header describes " + std::to_string(expect));

  std::vector<offset_t> row_ptr = prefaulted_vector<offset_t>(n + 1);
  std::vector<vertex_t> col_idx = prefaulted_vector<vertex_t>(nnz);
  std::vector<double> values = prefaulted_vector<double>(pattern ? 0 : nnz);
  std::vector<std::uint64_t> ids = prefaulted_vector<std::uint64_t>(h.n_ids);
  std::vector<vertex_t> order(ordered ? n : 0);
  // The arrays follow the header back to back; each is read in parallel
  // slices at its offset, into memory faulted in on every core
  // (prefault.hpp: the faults were a third of the load).
  std::uint64_t at = sizeof(Header);
  auto read = [&](auto& v) {
    const std::size_t bytes = v.size() * sizeof(v[0]);
    if (bytes == 0) return;
    if (const int e = detail::read_at(fileno(f.get()), v.data(), bytes, at); e != 0)
      throw InputError(path, std::string("truncated graphrun cache (read error") +
                                 (e > 0 ? std::string(": ") + std::strerror(e) : std::string()) +
                                 ")");
    at += bytes;
  };
  read(row_ptr);
  read(col_idx);
  read(values);
  read(ids);
  read(order);
  std::vector<offset_t> name_start(named ? n + 1 : 0);
  std::string name_bytes;
  read(name_start);
  if (named) {
    // Offsets from 0, never decreasing, ending exactly at the end of the file.
    const std::uint64_t left = file_size - expect;
    bool ok = name_start[0] == 0;
    for (std::size_t v = 0; ok && v < n; ++v) ok = name_start[v] <= name_start[v + 1];
    if (!ok) throw InputError(path, "corrupt graphrun cache (name offsets out of order)");
    if (static_cast<std::uint64_t>(name_start[n]) != left)
      throw InputError(path,
                       std::string(left < static_cast<std::uint64_t>(name_start[n]) ? "truncated"
                                                                                    : "oversized") +
                           " graphrun cache: " + std::to_string(left) +
                           " bytes of vertex names, the offsets describe " +
                           std::to_string(name_start[n]));
    name_bytes.resize(static_cast<std::size_t>(left));
    read(name_bytes);
  }
  PayloadCrc c(h.version);
  if (ordered) c.add(h.order_method, sizeof h.order_method);
  c.add(row_ptr);
  c.add(col_idx);
  c.add(values);
  c.add(ids);
  if (ordered) c.add(order);  // never for version 1, whose chain an empty array restarts
  if (named) {
    c.add(name_start);
    c.add(name_bytes.data(), name_bytes.size());
  }
  if (c.value() != h.payload_crc)
    throw InputError(path, "corrupt graphrun cache (checksum mismatch)");

  // The ordering's method: a name this build knows, NUL-terminated.
  Reorder method = Reorder::none;
  if (ordered) {
    const char* end = std::find(h.order_method, h.order_method + sizeof h.order_method, '\0');
    const std::string name(h.order_method, static_cast<std::size_t>(end - h.order_method));
    bool known_method = end != h.order_method + sizeof h.order_method;
    try {
      method = parse_reorder(name);
      known_method = known_method && method != Reorder::none && method != Reorder::automatic;
    } catch (const ArgumentError&) {
      known_method = false;
    }
    if (!known_method)
      throw InputError(path, "graphrun cache with a vertex ordering of unknown method " +
                                 detail::quote_input(name) + " (written by a newer build?)");
  }

  try {
    Csr<double> adj(static_cast<vertex_t>(h.n), static_cast<vertex_t>(h.n), std::move(row_ptr),
                    std::move(col_idx), std::move(values));
    if (!named) {
      Graph g(std::move(adj), std::move(ids), h.flags & flag_directed, h.flags & flag_weighted);
      if (ordered) g.set_stored_order(method, std::move(order));
      return g;
    }
    std::vector<std::string> names(n);
    for (std::size_t v = 0; v < n; ++v)
      names[v].assign(name_bytes, static_cast<std::size_t>(name_start[v]),
                      static_cast<std::size_t>(name_start[v + 1] - name_start[v]));
    name_bytes = {};
    Graph g = [&] {
      try {
        return Graph::with_names(std::move(adj), std::move(names), h.flags & flag_directed,
                                 h.flags & flag_weighted);
      } catch (const ArgumentError&) {
        // Graph's message quotes the name as it is, raw bytes and all.
        throw InputError(
            path, "corrupt graphrun cache: " +
                      repeated_name(f.get(), expect, name_start, static_cast<std::size_t>(n)));
      }
    }();
    if (ordered) g.set_stored_order(method, std::move(order));
    return g;
  } catch (const ArgumentError& e) {
    throw InputError(path, std::string("corrupt graphrun cache: ") + e.what());
  }
}

}  // namespace graphrun::io
