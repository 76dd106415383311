// Reading whole files into memory: the text readers parse from one buffer.

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "graphrun/engine/error.hpp"
#include "text_input.hpp"

namespace graphrun::io::detail {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

[[noreturn]] void fail_errno(const std::string& path, const char* doing) {
  throw InputError(path, std::string(doing) + ": " + std::strerror(errno));
}

}  // namespace

RawBytes read_raw(const std::string& path, std::size_t extra_capacity) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) fail_errno(path, "cannot open");
  struct stat st {};
  if (::fstat(fileno(f.get()), &st) != 0) fail_errno(path, "cannot stat");
  if (S_ISDIR(st.st_mode)) throw InputError(path, "is a directory");

  RawBytes raw;
  if (S_ISREG(st.st_mode)) {
    // One big read: the file size is known, so this runs at disk speed.
    const auto size = static_cast<std::size_t>(st.st_size);
    raw.data = std::make_unique_for_overwrite<unsigned char[]>(size + extra_capacity);
    raw.size = std::fread(raw.data.get(), 1, size, f.get());
    if (std::ferror(f.get())) fail_errno(path, "read error");
    if (raw.size != size) throw InputError(path, "file shrank while being read");
    return raw;
  }
  // A pipe or device: read until end of file, doubling the buffer.
  std::size_t capacity = 1 << 20;
  raw.data = std::make_unique_for_overwrite<unsigned char[]>(capacity + extra_capacity);
  for (;;) {
    if (raw.size == capacity) {
      auto bigger = std::make_unique_for_overwrite<unsigned char[]>(2 * capacity + extra_capacity);
      std::memcpy(bigger.get(), raw.data.get(), raw.size);
      raw.data = std::move(bigger);
      capacity *= 2;
    }
    const std::size_t got = std::fread(raw.data.get() + raw.size, 1, capacity - raw.size, f.get());
    raw.size += got;
    if (got == 0) {
      if (std::ferror(f.get())) fail_errno(path, "read error");
      return raw;
    }
  }
}

bool is_gzip(std::span<const unsigned char> bytes) noexcept {
  return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

TextBuffer read_text(const std::string& path, Progress& progress) {
  RawBytes raw = read_raw(path, 1);
  if (is_gzip(raw.bytes())) return gunzip(path, raw.bytes(), progress);
  // Plain text: hand the bytes over as they are, with room for the final '\n'
  // that read_raw reserved.
  TextBuffer text;
  text.size = raw.size;
  text.data.reset(reinterpret_cast<char*>(raw.data.release()));
  if (text.size == 0 || text.data[text.size - 1] != '\n') text.data[text.size] = '\n';
  progress.report(1.0);
  return text;
}

}  // namespace graphrun::io::detail
