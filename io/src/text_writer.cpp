// See graphrun/io/text_writer.hpp.
#include "graphrun/io/text_writer.hpp"

#include <cerrno>

#include "graphrun/engine/error.hpp"
#include "gzip_sink.hpp"

namespace graphrun::io {

TextWriter::TextWriter(std::FILE* f) : f_(f) {}

TextWriter::TextWriter(std::FILE* f, std::string path, bool gzip)
    : f_(f), path_(std::move(path)), throws_(true) {
  if (gzip) gz_ = std::make_unique<detail::GzipSink>(f_, path_);
}

TextWriter::~TextWriter() {
  // The reporting form leaves errors to the stream's owner, so writing out
  // cannot throw here; the throwing form is ended by finish() or abandoned.
  if (!throws_) flush();
}

void TextWriter::finish() {
  flush();
  if (gz_) gz_->finish();
}

void TextWriter::emit(const char* p, std::size_t n) {
  if (gz_)
    gz_->write(p, n);
  else if (std::fwrite(p, 1, n, f_) != n && throws_)
    throw Error(path_ + ": write error: " + std::strerror(errno));
}

}  // namespace graphrun::io
