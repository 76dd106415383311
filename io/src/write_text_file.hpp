// Writing a whole text file through io::TextWriter (internal to io/): all or
// nothing through an OutputFile, gzip-compressed when the name ends in ".gz"
// (gzip_sink.hpp).
#pragma once

#include <string>
#include <string_view>

#include "graphrun/io/text_writer.hpp"
#include "graphrun/io/write.hpp"

namespace graphrun::io::detail {

inline bool is_gzip_name(std::string_view path) {
  return path.size() > 3 && path.substr(path.size() - 3) == ".gz";
}

// Writes `path` all or nothing through an OutputFile: fill(TextWriter&)
// writes the text; a failed write throws graphrun::Error naming the path.
template <class Fill>
void write_text_file(const std::string& path, Fill&& fill) {
  OutputFile out(path);
  TextWriter w(out.stream(), path, is_gzip_name(path));
  fill(w);
  w.finish();
  out.commit();
}

}  // namespace graphrun::io::detail
