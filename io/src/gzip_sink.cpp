#include "gzip_sink.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "graphrun/engine/error.hpp"

namespace graphrun::io::detail {

struct GzipSink::State {
  z_stream zs{};
  bool initialised = false;
  bool finished = false;
  unsigned char out[1 << 18];
};

namespace {

[[noreturn]] void zlib_error(const std::string& path, const char* call, int rc,
                             const z_stream& zs) {
  throw Error(path + ": zlib: " + call + " failed (" + (zs.msg ? zs.msg : std::to_string(rc)) +
              ")");
}

}  // namespace

GzipSink::GzipSink(std::FILE* f, std::string path, int level)
    : s_(std::make_unique<State>()), f_(f), path_(std::move(path)) {
  // 15 + 16: the largest window, with a gzip header and trailer.
  const int rc = deflateInit2(&s_->zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  if (rc != Z_OK) zlib_error(path_, "deflateInit2", rc, s_->zs);
  s_->initialised = true;
}

GzipSink::~GzipSink() {
  if (s_->initialised) deflateEnd(&s_->zs);
}

void GzipSink::write(const char* data, std::size_t n) {
  if (n > 0) deflate_all(data, n, false);
}

void GzipSink::finish() {
  if (!s_->finished) deflate_all(nullptr, 0, true);
  s_->finished = true;
}

void GzipSink::deflate_all(const char* data, std::size_t n, bool last) {
  if (s_->finished) throw Error(path_ + ": zlib: write after the end of the stream");
  z_stream& zs = s_->zs;
  // zlib counts in uInt: feed at most 1 GiB at a time.
  constexpr std::size_t slice = std::size_t(1) << 30;
  std::size_t done = 0;
  do {
    const std::size_t now = std::min(n - done, slice);
    const bool end = last && done + now == n;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data + done));
    zs.avail_in = static_cast<uInt>(now);
    int rc = Z_OK;
    // Drain until deflate leaves room in the output buffer (all input taken)
    // or, at the end, until it reports the end of the stream.
    do {
      zs.next_out = s_->out;
      zs.avail_out = sizeof s_->out;
      rc = deflate(&zs, end ? Z_FINISH : Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        zlib_error(path_, "deflate", rc, zs);
      const std::size_t have = sizeof s_->out - zs.avail_out;
      if (have > 0 && std::fwrite(s_->out, 1, have, f_) != have)
        throw Error(path_ + ": write error: " + std::strerror(errno));
      // Z_BUF_ERROR means no progress was possible: harmless when all input
      // is taken, but Z_FINISH with room left must progress.
      if (end && rc == Z_BUF_ERROR && zs.avail_out != 0) zlib_error(path_, "deflate", rc, zs);
    } while (end ? rc != Z_STREAM_END : zs.avail_out == 0);
    if (zs.avail_in != 0) zlib_error(path_, "deflate", Z_STREAM_ERROR, zs);
    done += now;
  } while (done < n);
}

}  // namespace graphrun::io::detail
