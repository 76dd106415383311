// Whole-file input for the text readers (internal to io/).
//
// A reader gets the complete, decompressed file in one buffer so that it can
// split it into line-aligned chunks and parse them in parallel. The buffer
// always ends with '\n' (one is appended when the file lacks it), so a
// scanner may run to the next newline without checking for the end, and
// text_padding zero bytes follow that '\n', so a scanner may read a word at
// a time (text_fields.hpp's parse_u64 reads up to 16 bytes at a field).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

#include "progress.hpp"

namespace graphrun::io::detail {

inline constexpr std::size_t text_padding = 16;

// Frees a text's storage: delete[] for a text read or inflated into
// memory, munmap for a file mapped in place (mapped_text.hpp).
struct TextStorage {
  std::size_t mapped = 0;  // bytes of the mapping; 0: allocated by new[]
  int slot = -1;           // the mapping's slot in the SIGBUS guard
  void operator()(char* p) const noexcept;
};
using TextData = std::unique_ptr<char[], TextStorage>;

struct TextBuffer {
  TextData data;
  std::size_t size = 0;  // bytes of file content, not counting an appended '\n'

  // Whether a mapped file was truncated under the text (its lost pages read
  // as line ends): the reader must not use what it parsed.
  bool changed() const noexcept;

  const char* begin() const noexcept { return data.get(); }
  // One past the final '\n' (the appended one when the file had none).
  const char* end() const noexcept {
    return data.get() + size + (size == 0 || data[size - 1] != '\n' ? 1 : 0);
  }
};

// The machine's physical memory in bytes; SIZE_MAX where unknown.
std::size_t physical_memory_bytes() noexcept;

// The most bytes of text a read may hold in memory: `max_bytes`
// (LoadOptions::max_input_bytes) where it is not 0, else half the machine's
// physical memory: the graph built from a text needs about as much memory
// again, so a larger text cannot become a graph here. Past it a read is a
// SizeError naming the file, never an allocation the kernel may grant and
// then kill the process for: a gzip bomb, a pipe that never ends.
std::size_t input_limit(std::size_t max_bytes) noexcept;
// SizeError "PATH: <what> is larger than <limit, described>: N bytes".
[[noreturn]] void input_too_large(const std::string& path, const char* what, std::size_t limit,
                                  bool user_limit);

// Raw bytes of a file, regular or not (pipes are read to their end).
// InputError "PATH: strerror" when it cannot be opened or read; SizeError
// past input_limit(max_bytes).
struct RawBytes {
  std::unique_ptr<unsigned char[]> data;
  std::size_t size = 0;
  std::span<const unsigned char> bytes() const noexcept { return {data.get(), size}; }
};
RawBytes read_raw(const std::string& path, std::size_t extra_capacity = 1,
                  std::size_t max_bytes = 0);

// Reads `size` bytes at `offset` of regular file `fd` into `out`, in slices
// of at least 64 MiB read by parallel threads: one read() of a cached 2 GB
// file copies it at ~5 GB/s on one core, page-faulting the fresh buffer as
// it goes; slices spread the copy and the faults over the cores. Returns 0,
// the errno of a failed read, or -1 where the file ended first.
int read_at(int fd, void* out, std::size_t size, std::uint64_t offset) noexcept;

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

// A binary graph file (the .grb cache, a GAP .sg) open for reading, and its
// size. InputError "PATH: cannot open: ..." or "PATH: <kind> must be a
// regular file"; SizeError when the file is larger than `max_bytes`, or,
// with 0, than this machine's memory (the file is the arrays themselves, so
// it may take all of it), naming it `what` ("the cache").
struct BinaryFile {
  std::unique_ptr<std::FILE, FileCloser> file;
  std::uint64_t size = 0;
};
BinaryFile open_binary_graph(const std::string& path, const char* kind, const char* what,
                             std::size_t max_bytes);

// Ends the text of `text` (its `size` bytes, with room for 1 + text_padding
// more allocated): the final '\n' where the text lacks one, then the
// padding's zeros.
void end_text(TextBuffer& text) noexcept;

// gzip is recognised by its magic bytes (1f 8b), whatever the file is called.
bool is_gzip(std::span<const unsigned char> bytes) noexcept;

// Inflates a (possibly multi-member) gzip file. A truncated or corrupt
// stream is an InputError naming `path`; text past input_limit(max_bytes)
// a SizeError. Reports progress in [0, 1] of the compressed input consumed.
TextBuffer gunzip(const std::string& path, std::span<const unsigned char> gz, Progress& progress,
                  std::size_t max_bytes = 0);

// InputError naming `path` where text.changed(): every reader calls it
// after its parse.
void check_unchanged(const TextBuffer& text, const std::string& path);

// The file's text, decompressed when it is gzip, at most
// input_limit(max_bytes) bytes of it (SizeError past that); a large plain
// file is mapped rather than copied (mapped_text.hpp).
TextBuffer read_text(const std::string& path, Progress& progress, std::size_t max_bytes = 0);

}  // namespace graphrun::io::detail
