// Buffered number formatting for the text writers (internal to io/).
//
// std::to_chars into a block that goes to the stream in one fwrite: an order
// of magnitude faster than fprintf per line, and locale-independent. A path
// ending in ".gz" is compressed on the way (gzip_sink.hpp).
#pragma once

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"
#include "gzip_sink.hpp"

namespace graphrun::io::detail {

inline bool is_gzip_name(std::string_view path) {
  return path.size() > 3 && path.substr(path.size() - 3) == ".gz";
}

class TextWriter {
 public:
  // `path` names the file in errors; gzip when `gzip`.
  TextWriter(std::FILE* f, std::string path, bool gzip) : f_(f), path_(std::move(path)) {
    if (gzip) gz_.emplace(f_, path_);
  }
  // No flush: a writer left by an exception is abandoned with its
  // uncommitted OutputFile; finish() ends a complete one.
  ~TextWriter() = default;
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  template <class Int>
  void integer(Int v) {
    reserve(24);
    pos_ = std::to_chars(buf_ + pos_, buf_ + sizeof buf_, v).ptr - buf_;
  }
  // 17 significant digits: enough to read back the same double.
  void real(double v) {
    reserve(32);
    pos_ = std::to_chars(buf_ + pos_, buf_ + sizeof buf_, v, std::chars_format::general, 17).ptr -
           buf_;
  }
  void put(char c) {
    reserve(1);
    buf_[pos_++] = c;
  }
  void text(std::string_view s) {
    if (s.size() > sizeof buf_ / 2) {
      flush();
      emit(s.data(), s.size());
      return;
    }
    reserve(s.size());
    std::memcpy(buf_ + pos_, s.data(), s.size());
    pos_ += s.size();
  }
  // Writes out what is buffered and ends the gzip stream.
  void finish() {
    flush();
    if (gz_) gz_->finish();
  }

 private:
  void flush() {
    if (pos_ > 0) emit(buf_, static_cast<std::size_t>(pos_));
    pos_ = 0;
  }
  void emit(const char* p, std::size_t n) {
    if (gz_)
      gz_->write(p, n);
    else if (std::fwrite(p, 1, n, f_) != n)
      throw Error(path_ + ": write error: " + std::strerror(errno));
  }
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(pos_) + n > sizeof buf_) flush();
  }
  std::FILE* f_;
  std::string path_;
  std::optional<GzipSink> gz_;
  char buf_[1 << 16];
  std::ptrdiff_t pos_ = 0;
};

// Writes `path` all or nothing through an OutputFile: fill(TextWriter&)
// writes the text, gzip-compressed when the name ends in ".gz".
template <class Fill>
void write_text_file(const std::string& path, Fill&& fill) {
  OutputFile out(path);
  TextWriter w(out.stream(), path, is_gzip_name(path));
  fill(w);
  w.finish();
  out.commit();
}

}  // namespace graphrun::io::detail
