// Whole-file input for the text readers (internal to io/).
//
// A reader gets the complete, decompressed file in one buffer so that it can
// split it into line-aligned chunks and parse them in parallel. The buffer
// always ends with '\n' (one is appended when the file lacks it), so a
// scanner may run to the next newline without checking for the end.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "progress.hpp"

namespace graphrun::io::detail {

struct TextBuffer {
  std::unique_ptr<char[]> data;
  std::size_t size = 0;  // bytes of file content, not counting an appended '\n'

  const char* begin() const noexcept { return data.get(); }
  // One past the final '\n' (the appended one when the file had none).
  const char* end() const noexcept {
    return data.get() + size + (size == 0 || data[size - 1] != '\n' ? 1 : 0);
  }
};

// Raw bytes of a file, regular or not (pipes are read to their end).
// InputError "PATH: strerror" when it cannot be opened or read.
struct RawBytes {
  std::unique_ptr<unsigned char[]> data;
  std::size_t size = 0;
  std::span<const unsigned char> bytes() const noexcept { return {data.get(), size}; }
};
RawBytes read_raw(const std::string& path, std::size_t extra_capacity = 1);

// gzip is recognised by its magic bytes (1f 8b), whatever the file is called.
bool is_gzip(std::span<const unsigned char> bytes) noexcept;

// Inflates a (possibly multi-member) gzip file. A truncated or corrupt
// stream is an InputError naming `path`. Reports progress in [0, 1] of the
// compressed input consumed.
TextBuffer gunzip(const std::string& path, std::span<const unsigned char> gz, Progress& progress);

// The file's text, decompressed when it is gzip.
TextBuffer read_text(const std::string& path, Progress& progress);

}  // namespace graphrun::io::detail
