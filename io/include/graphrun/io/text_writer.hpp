// Buffered text output with fast, locale-independent number formatting:
// std::to_chars into a block that goes to the stream in one fwrite, an order
// of magnitude faster than fprintf per line. io's writers (edge lists,
// Matrix Market) and the command line's outputs write through it.
//
//   io::TextWriter w(out.stream());
//   w.put(id).put('\t').put(rank).put('\n');   // integers, 17-digit doubles
//
// A write error is met in one of two ways, chosen by the constructor:
//   TextWriter(f)              the error stays on the stream's error flag for
//                              its owner to report (OutputFile::commit(), a
//                              check of stdout); the destructor writes out
//                              what is still buffered.
//   TextWriter(f, path, gzip)  a failed write throws graphrun::Error
//                              "PATH: write error: ..."; gzip-compressed when
//                              `gzip`. finish() writes out the rest and ends
//                              the gzip stream; a writer destroyed without it
//                              (left by an exception, its OutputFile not
//                              committed) writes nothing more.
#pragma once

#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

namespace graphrun::io {

namespace detail {
class GzipSink;
}

class TextWriter {
 public:
  explicit TextWriter(std::FILE* f);
  TextWriter(std::FILE* f, std::string path, bool gzip);
  ~TextWriter();
  TextWriter(const TextWriter&) = delete;
  TextWriter& operator=(const TextWriter&) = delete;

  TextWriter& put(char c) {
    reserve(1);
    buf_[pos_++] = c;
    return *this;
  }
  TextWriter& put(std::string_view s) {
    if (s.size() > sizeof buf_ / 2) {
      flush();
      emit(s.data(), s.size());
      return *this;
    }
    reserve(s.size());
    std::memcpy(buf_ + pos_, s.data(), s.size());
    pos_ += s.size();
    return *this;
  }
  template <std::integral Int>
  requires(!std::same_as<Int, char> && !std::same_as<Int, bool>) TextWriter& put(Int v) {
    reserve(24);
    pos_ = std::to_chars(buf_ + pos_, buf_ + sizeof buf_, v).ptr - buf_;
    return *this;
  }
  // 17 significant digits: enough to read back the same double.
  TextWriter& put(double v) {
    reserve(32);
    pos_ = std::to_chars(buf_ + pos_, buf_ + sizeof buf_, v, std::chars_format::general, 17).ptr -
           buf_;
    return *this;
  }
  // Writes out what is buffered (and ends the gzip stream).
  void finish();

 private:
  void flush() {
    if (pos_ > 0) emit(buf_, static_cast<std::size_t>(pos_));
    pos_ = 0;
  }
  void emit(const char* p, std::size_t n);
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(pos_) + n > sizeof buf_) flush();
  }

  std::FILE* f_;
  std::string path_;
  bool throws_ = false;  // the (f, path, gzip) form
  std::unique_ptr<detail::GzipSink> gz_;
  char buf_[1 << 16];
  std::ptrdiff_t pos_ = 0;
};

}  // namespace graphrun::io
