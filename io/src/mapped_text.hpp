// A large plain-text file mapped into memory in place of a copy (internal to
// io/; read_text in file_source.cpp uses it).
//
// Reading a 450 MB edge list that sits in the page cache into a fresh buffer
// took 123 ms on 2 threads (every page faulted in and copied); mapping it and
// faulting its pages in from every core (MADV_POPULATE_READ) took 11 ms, and
// the text is then never copied. The mapping is private and writable, so the
// final '\n' and the padding of text_input.hpp are written as to any buffer.
//
// A mapped file that is truncated while it is parsed would raise SIGBUS at
// the first access past its new end. A handler, installed once, catches a
// fault inside a live mapping, puts a page of '\n' bytes in its place (so
// every scanner still stops at a line end and the parse runs to the end of
// the text) and marks the mapping; the reader then refuses the file
// (check_unchanged in text_input.hpp) as it refuses a file that shrank under
// read(). A fault outside every mapping goes to the handler that was there
// before. Where the handler cannot be installed, files are read as before.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "text_input.hpp"

namespace graphrun::io::detail {

// Regular files from this size up are mapped; smaller ones are read (a
// mapping's set-up and teardown cost more than copying a few pages).
inline constexpr std::size_t map_min_bytes = std::size_t{1} << 20;

// The file at `path` mapped as a TextBuffer (ended by end_text), or nullopt
// where it is read instead: not a regular file, smaller than map_min_bytes,
// gzip, larger than `limit` (read_raw then says so), any mapping call
// failed, or no SIGBUS guard could be installed.
std::optional<TextBuffer> map_text(const std::string& path, std::size_t limit);

// Releases a mapping made by map_text (TextStorage's deleter).
void unmap_text(char* base, std::size_t bytes, int slot) noexcept;

// Whether the mapping in `slot` lost pages to a truncation since it was made.
bool mapping_changed(int slot) noexcept;

}  // namespace graphrun::io::detail
