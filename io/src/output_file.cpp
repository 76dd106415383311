// OutputFile: write beside the target, rename into place on commit.
//
// rename(2) within one directory is atomic, so readers of `path` see either
// the old file or the complete new one, never a half-written one. The
// temporary is removed when the run fails (destructor) and when it is
// interrupted by SIGINT, SIGTERM or SIGHUP (temp_files.hpp).

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"
#include "temp_files.hpp"

namespace graphrun::io {

namespace {

[[noreturn]] void fail(const std::string& path, const char* doing, int err) {
  throw Error(path + ": " + doing + ": " + std::strerror(err));
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    f_ = stdout;
    return;
  }
  tmp_ = path_ + ".tmp." + std::to_string(::getpid());
  temp_slot_ = detail::register_temp_file(tmp_);  // before the file exists
  f_ = std::fopen(tmp_.c_str(), "wb");
  if (!f_) {
    const int err = errno;
    detail::unregister_temp_file(temp_slot_);
    fail(path_, "cannot create", err);
  }
  // Large writes: the writers emit many small pieces.
  std::setvbuf(f_, nullptr, _IOFBF, std::size_t(1) << 20);
}

OutputFile::~OutputFile() {
  if (!committed_ && f_ && f_ != stdout) {
    std::fclose(f_);
    std::remove(tmp_.c_str());
  }
  detail::unregister_temp_file(temp_slot_);
}

void OutputFile::commit() {
  if (committed_) return;
  if (f_ == stdout) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) fail("<stdout>", "write error", errno);
    committed_ = true;
    return;
  }
  const bool write_failed = std::fflush(f_) != 0 || std::ferror(f_);
  int err = errno;
  const bool close_failed = std::fclose(f_) != 0;
  if (!write_failed && close_failed) err = errno;
  f_ = nullptr;
  if (write_failed || close_failed) {
    std::remove(tmp_.c_str());
    fail(path_, "write error", err);
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    err = errno;
    std::remove(tmp_.c_str());
    fail(path_, "cannot rename the finished file into place", err);
  }
  detail::unregister_temp_file(temp_slot_);
  temp_slot_ = -1;
  committed_ = true;
}

}  // namespace graphrun::io
