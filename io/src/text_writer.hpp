// Buffered number formatting for the text writers (internal to io/).
//
// std::to_chars into a block that goes to the stream in one fwrite: an order
// of magnitude faster than fprintf per line, and locale-independent.
#pragma once

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace graphrun::io::detail {

class TextWriter {
 public:
  explicit TextWriter(std::FILE* f) : f_(f) {}
  ~TextWriter() { flush(); }
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
      std::fwrite(s.data(), 1, s.size(), f_);
      return;
    }
    reserve(s.size());
    std::memcpy(buf_ + pos_, s.data(), s.size());
    pos_ += s.size();
  }
  void flush() {
    if (pos_ > 0) std::fwrite(buf_, 1, static_cast<std::size_t>(pos_), f_);
    pos_ = 0;
  }

 private:
  void reserve(std::size_t n) {
    if (static_cast<std::size_t>(pos_) + n > sizeof buf_) flush();
  }
  std::FILE* f_;
  char buf_[1 << 16];
  std::ptrdiff_t pos_ = 0;
};

}  // namespace graphrun::io::detail
