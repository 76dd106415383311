// Reading whole files into memory: the text readers parse from one buffer.

#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/types.hpp"
#include "mapped_text.hpp"
#include "text_input.hpp"

namespace graphrun::io::detail {

namespace {

[[noreturn]] void fail_errno(const std::string& path, const char* doing) {
  throw InputError(path, std::string(doing) + ": " + std::strerror(errno));
}

}  // namespace

std::size_t physical_memory_bytes() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return std::numeric_limits<std::size_t>::max();
  const auto p = static_cast<unsigned long long>(pages), s = static_cast<unsigned long long>(page);
  return p > std::numeric_limits<std::size_t>::max() / s ? std::numeric_limits<std::size_t>::max()
                                                         : static_cast<std::size_t>(p * s);
}

std::size_t input_limit(std::size_t max_bytes) noexcept {
  if (max_bytes != 0) return max_bytes;
  const std::size_t memory = physical_memory_bytes();
  return memory == std::numeric_limits<std::size_t>::max() ? memory : memory / 2;
}

void input_too_large(const std::string& path, const char* what, std::size_t limit,
                     bool user_limit) {
  char text[240];
  if (user_limit)
    std::snprintf(text, sizeof text,
                  "%s is larger than the input limit of %zu bytes (LoadOptions::max_input_bytes)",
                  what, limit);
  else
    std::snprintf(text, sizeof text,
                  "%s is larger than half this machine's memory, %zu bytes (%.3g GB): the graph "
                  "built from it would not fit beside it",
                  what, limit, static_cast<double>(limit) / 1e9);
  throw SizeError(path + ": " + text);
}

RawBytes read_raw(const std::string& path, std::size_t extra_capacity, std::size_t max_bytes) {
  const std::size_t limit = input_limit(max_bytes);
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) fail_errno(path, "cannot open");
  struct stat st {};
  if (::fstat(fileno(f.get()), &st) != 0) fail_errno(path, "cannot stat");
  if (S_ISDIR(st.st_mode)) throw InputError(path, "is a directory");

  RawBytes raw;
  if (S_ISREG(st.st_mode)) {
    const auto size = static_cast<std::size_t>(st.st_size);
    if (size > limit) input_too_large(path, "the file", limit, max_bytes != 0);
    raw.data = std::make_unique_for_overwrite<unsigned char[]>(size + extra_capacity);
    raw.size = size;
    if (const int e = read_at(fileno(f.get()), raw.data.get(), size, 0); e != 0) {
      if (e < 0) throw InputError(path, "file shrank while being read");
      errno = e;
      fail_errno(path, "read error");
    }
    return raw;
  }
  // A pipe or device: read until end of file, doubling the buffer, up to
  // one byte past the limit (which tells a stream of exactly `limit` bytes
  // from a longer one, /dev/zero included).
  const std::size_t most = limit == std::numeric_limits<std::size_t>::max() ? limit : limit + 1;
  std::size_t capacity = std::min<std::size_t>(std::size_t{1} << 20, most);
  raw.data = std::make_unique_for_overwrite<unsigned char[]>(capacity + extra_capacity);
  for (;;) {
    if (raw.size > limit) input_too_large(path, "the input", limit, max_bytes != 0);
    if (raw.size == capacity) {
      const std::size_t grown = capacity > most / 2 ? most : 2 * capacity;
      auto bigger = std::make_unique_for_overwrite<unsigned char[]>(grown + extra_capacity);
      std::memcpy(bigger.get(), raw.data.get(), raw.size);
      raw.data = std::move(bigger);
      capacity = grown;
    }
    const std::size_t got = std::fread(raw.data.get() + raw.size, 1, capacity - raw.size, f.get());
    raw.size += got;
    if (got == 0) {
      if (std::ferror(f.get())) fail_errno(path, "read error");
      return raw;
    }
  }
}

int read_at(int fd, void* out, std::size_t size, std::uint64_t offset) noexcept {
  constexpr std::size_t min_slice = std::size_t{64} << 20;
  const int threads = std::max(1, omp_get_max_threads());
  const auto slices = static_cast<std::int64_t>(
      std::clamp<std::size_t>(size / min_slice, 1, static_cast<std::size_t>(threads)));
  auto* bytes = static_cast<unsigned char*>(out);
  int error = 0;
#pragma omp parallel for schedule(static, 1) num_threads(static_cast <int>(slices))
  for (std::int64_t i = 0; i < slices; ++i) {
    std::size_t at = split_point(size, slices, i);
    const std::size_t end = split_point(size, slices, i + 1);
    while (at < end) {
      const ssize_t got = ::pread(fd, bytes + at, end - at, static_cast<off_t>(offset + at));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        const int e = got < 0 ? errno : -1;
#pragma omp critical(read_at_error)
        if (error == 0) error = e;
        break;
      }
      at += static_cast<std::size_t>(got);
    }
  }
  return error;
}

BinaryFile open_binary_graph(const std::string& path, const char* kind, const char* what,
                             std::size_t max_bytes) {
  BinaryFile b;
  // The type is asked before the open: opening a named pipe waits for a
  // writer, which may never come.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw InputError(path, std::string(kind) + " must be a regular file");
  b.file.reset(std::fopen(path.c_str(), "rb"));
  if (!b.file) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  if (::fstat(fileno(b.file.get()), &st) != 0 || !S_ISREG(st.st_mode))
    throw InputError(path, std::string(kind) + " must be a regular file");
  b.size = static_cast<std::uint64_t>(st.st_size);
  const std::size_t limit = max_bytes != 0 ? max_bytes : physical_memory_bytes();
  if (b.size > limit) {
    if (max_bytes != 0) input_too_large(path, what, limit, true);
    throw SizeError(path + ": " + what + " is larger than this machine's memory, " +
                    std::to_string(limit) + " bytes");
  }
  return b;
}

bool is_gzip(std::span<const unsigned char> bytes) noexcept {
  return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

void end_text(TextBuffer& text) noexcept {
  std::size_t end = text.size;
  if (end == 0 || text.data[end - 1] != '\n') text.data[end++] = '\n';
  std::memset(text.data.get() + end, 0, text_padding);
}

void TextStorage::operator()(char* p) const noexcept {
  if (mapped != 0)
    unmap_text(p, mapped, slot);
  else
    delete[] p;
}

bool TextBuffer::changed() const noexcept { return mapping_changed(data.get_deleter().slot); }

void check_unchanged(const TextBuffer& text, const std::string& path) {
  if (text.changed())
    throw InputError(path,
                     "the file was truncated while it was being read; read it again once it is "
                     "complete");
}

TextBuffer read_text(const std::string& path, Progress& progress, std::size_t max_bytes) {
  if (std::optional<TextBuffer> mapped = map_text(path, input_limit(max_bytes))) {
    progress.report(1.0);
    return std::move(*mapped);
  }
  RawBytes raw = read_raw(path, 1 + text_padding, max_bytes);
  if (is_gzip(raw.bytes())) return gunzip(path, raw.bytes(), progress, max_bytes);
  // Plain text: hand the bytes over as they are, with the room for the final
  // '\n' and the padding that read_raw reserved.
  TextBuffer text;
  text.size = raw.size;
  text.data.reset(reinterpret_cast<char*>(raw.data.release()));
  end_text(text);
  progress.report(1.0);
  return text;
}

}  // namespace graphrun::io::detail
