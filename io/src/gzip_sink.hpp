// gzip compression of a writer's output onto a stream (internal to io/).
#pragma once

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>

namespace graphrun::io::detail {

// Compresses what write() is given and writes the gzip stream (header,
// deflate data, trailer) to `f`. finish() ends the stream; without it the
// output is incomplete, which is fine for an OutputFile that is not
// committed. Errors (zlib or a failed write) throw graphrun::Error naming
// `path`.
class GzipSink {
 public:
  GzipSink(std::FILE* f, std::string path, int level = 6);
  ~GzipSink();
  GzipSink(const GzipSink&) = delete;
  GzipSink& operator=(const GzipSink&) = delete;

  void write(const char* data, std::size_t n);
  void finish();

 private:
  void deflate_all(const char* data, std::size_t n, bool last);

  struct State;  // the z_stream, kept out of this header
  std::unique_ptr<State> s_;
  std::FILE* f_;
  std::string path_;
};

}  // namespace graphrun::io::detail
