// Inflating a gzip file held in memory (zlib).
//
// The whole decompressed text is produced at once because the parsers split
// it into chunks for their threads. The gzip trailer's ISIZE (size mod 2^32)
// gives the output size of a single-member file, so usually one allocation
// suffices; concatenated members and >4 GiB files grow the buffer.

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"
#include "text_input.hpp"

namespace graphrun::io::detail {

namespace {

struct Inflater {
  z_stream zs{};
  explicit Inflater(const std::string& path) {
    // 15 + 16: gzip wrapper only (the caller checked the magic bytes).
    if (inflateInit2(&zs, 15 + 16) != Z_OK) throw InputError(path, "zlib: cannot initialise");
  }
  ~Inflater() { inflateEnd(&zs); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
};

}  // namespace

TextBuffer gunzip(const std::string& path, std::span<const unsigned char> gz, Progress& progress,
                  std::size_t max_bytes) {
  // Output up to one byte past the limit: that byte, produced, means the
  // text is larger than the limit (a gzip bomb inflates 1000:1).
  const std::size_t limit = input_limit(max_bytes);
  const std::size_t most = limit == std::numeric_limits<std::size_t>::max() ? limit : limit + 1;
  const std::size_t n_in = gz.size();
  std::size_t capacity = 0;
  if (n_in >= 18) {
    const unsigned char* t = gz.data() + n_in - 4;
    capacity = std::size_t(t[0]) | std::size_t(t[1]) << 8 | std::size_t(t[2]) << 16 |
               std::size_t(t[3]) << 24;
    // deflate cannot compress better than about 1032:1; a larger ISIZE means
    // a damaged trailer (e.g. a truncated file), so do not trust it.
    if (capacity / 1032 > n_in) capacity = 0;
  }
  capacity = std::max<std::size_t>(capacity, std::max<std::size_t>(4 * n_in, 1 << 16));
  capacity = std::min(capacity, most);

  TextBuffer out;
  // Room for a final '\n' and the padding after it.
  out.data = TextData(new char[capacity + 1 + text_padding]);
  std::size_t produced = 0;

  Inflater inf(path);
  z_stream& zs = inf.zs;
  std::size_t consumed = 0;
  // zlib counts in uInt; feed and drain in slices of at most 1 GiB.
  constexpr std::size_t slice = std::size_t(1) << 30;
  for (;;) {
    if (produced == capacity) {
      const std::size_t bigger = capacity > most / 2 ? most : 2 * capacity;
      TextData grown(new char[bigger + 1 + text_padding]);
      std::memcpy(grown.get(), out.data.get(), produced);
      out.data = std::move(grown);
      capacity = bigger;
    }
    // Small input slices keep the progress callback lively.
    const std::size_t in_now = std::min<std::size_t>(n_in - consumed, std::size_t(4) << 20);
    const std::size_t out_now = std::min(capacity - produced, slice);
    zs.next_in = const_cast<Bytef*>(gz.data() + consumed);
    zs.avail_in = static_cast<uInt>(in_now);
    zs.next_out = reinterpret_cast<Bytef*>(out.data.get() + produced);
    zs.avail_out = static_cast<uInt>(out_now);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    consumed += in_now - zs.avail_in;
    produced += out_now - zs.avail_out;
    // Checked here, not at the top of the loop: the stream may end in the
    // same call that passes the limit.
    if (produced > limit) input_too_large(path, "the decompressed text", limit, max_bytes != 0);
    progress.report(static_cast<double>(consumed) / static_cast<double>(n_in));

    if (rc == Z_STREAM_END) {
      // Another member may follow (files made by `cat a.gz b.gz`); anything
      // else after the end is padding, ignored as gzip(1) does.
      if (is_gzip(gz.subspan(consumed))) {
        inflateReset(&zs);
        continue;
      }
      break;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && consumed == n_in && zs.avail_out > 0)
      throw InputError(path, "truncated gzip file (unexpected end of compressed data)");
    if (rc == Z_BUF_ERROR) continue;  // no room or no input this round: loop feeds more
    throw InputError(path, std::string("corrupt gzip data: ") + (zs.msg ? zs.msg : "zlib error"));
  }
  out.size = produced;
  end_text(out);
  return out;
}

}  // namespace graphrun::io::detail
