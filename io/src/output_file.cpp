// OutputFile: a regular file is written beside its target and renamed into
// place on commit; anything else is written directly.
//
// rename(2) within one folder is atomic, so readers of the target see either
// the old file or the complete new one, never a half-written one. The
// temporary is removed when the run fails (destructor) and when it is
// interrupted by SIGINT, SIGTERM or SIGHUP (temp_files.hpp). Renaming is
// wrong for anything but a regular file: it would put a regular file in place
// of /dev/null or a FIFO, and for /dev/stdout redirected to a file it would
// replace the file the shell's descriptor points to, losing the output.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/write.hpp"
#include "temp_files.hpp"

namespace graphrun::io {

namespace {

namespace fs = std::filesystem;

// Errors that come from the path itself rather than from writing to it.
bool is_path_error(int err) {
  switch (err) {
    case EACCES:
    case EPERM:
    case ENOENT:
    case ENOTDIR:
    case EROFS:
    case EISDIR:
    case ENAMETOOLONG:
    case ELOOP:
    case ENXIO:   // a socket, or a device that is not there
    case ENODEV:  // likewise
    case ETXTBSY:
      return true;
    default:
      return false;
  }
}

[[noreturn]] void cannot_write_there(const std::string& name, int err) {
  throw ArgumentError(name + ": cannot write there: " + std::strerror(err));
}

// `doing` names the step for errors that are not the path's.
[[noreturn]] void fail(const std::string& name, const char* doing, int err) {
  if (is_path_error(err)) cannot_write_there(name, err);
  throw Error(name + ": " + doing + ": " + std::strerror(err));
}

[[noreturn]] void write_error(const std::string& name, int err) {
  throw Error(name + ": write error: " + std::strerror(err));
}

// The path in messages: a followed symlink names its target too.
std::string display(const std::string& path, const std::string& target) {
  return target == path ? path : path + " -> " + target;
}

// umask(2) can only be read by setting it, which races with other threads
// creating files; Linux (4.7+) shows it in /proc/self/status. Without that
// line, the value read while the library loads (before any thread) is used.
const mode_t umask_at_load = [] {
  const mode_t m = ::umask(0);
  ::umask(m);
  return m;
}();

mode_t current_umask() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8) & 0777);
  return umask_at_load;
}

std::string lexical_absolute(const std::string& p) {
  std::error_code ec;
  const fs::path a = fs::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

// Device and process files are written directly whatever they resolve to:
// /dev/stdout may resolve to a regular file the shell holds open. /dev/shm
// is an ordinary (tmpfs) folder.
bool in_device_tree(std::string_view abs) {
  auto under = [abs](std::string_view dir) { return abs.substr(0, dir.size()) == dir; };
  return (under("/dev/") || under("/proc/")) && !under("/dev/shm/");
}

// The descriptor N that `abs` names (/dev/stdin, /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N, /proc/PID/fd/N for
// this process); -1 when it names none, -2 when that descriptor is closed
// or read-only (reopening it for writing would truncate an input file).
int descriptor_alias(std::string_view abs) {
  int fd = -1;
  if (abs == "/dev/stdin") {
    fd = 0;
  } else if (abs == "/dev/stdout") {
    fd = 1;
  } else if (abs == "/dev/stderr") {
    fd = 2;
  } else {
    std::string_view rest;
    for (const std::string& dir :
         {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
          std::string("/proc/thread-self/fd/"), "/proc/" + std::to_string(::getpid()) + "/fd/"})
      if (abs.substr(0, dir.size()) == dir) rest = abs.substr(dir.size());
    if (rest.empty() || rest.size() > 9 || rest.find_first_not_of("0123456789") != rest.npos)
      return -1;
    fd = std::atoi(std::string(rest).c_str());
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) return -2;
  return fd;
}

// The target of a symlink into `out`; returns 0 or an errno.
int read_link(const std::string& link, std::string& out) {
  std::string buf(256, '\0');
  for (;;) {
    const ssize_t n = ::readlink(link.c_str(), buf.data(), buf.size());
    if (n < 0) return errno;
    if (n == 0) return ENOENT;
    if (static_cast<std::size_t>(n) < buf.size()) {
      out = buf.substr(0, std::size_t(n));
      return 0;
    }
    buf.resize(2 * buf.size());
  }
}

enum class Kind {
  descriptor,  // an alias of an open descriptor: write through a duplicate
  direct,      // a device, FIFO... or anything under /dev or /proc
  folder,
  regular,  // an existing regular file: replaced
  absent,   // nothing there yet (or its folder is missing)
};

struct Resolved {
  Kind kind = Kind::absent;
  std::string target;  // after following symlinks
  int fd = -1;         // Kind::descriptor
  bool exists = false;
  struct stat st {};  // when it exists
};

constexpr int max_links = 40;  // as the kernel's own limit (ELOOP)

// Follows `path` through symlinks one step at a time (a relative target is
// relative to the link's folder) to what would be written.
Resolved resolve(const std::string& path) {
  Resolved r;
  std::string cur = path;
  for (int links = 0;; ++links) {
    const std::string abs = lexical_absolute(cur);
    if (in_device_tree(abs)) {
      r.target = cur;
      r.fd = descriptor_alias(abs);
      if (r.fd == -2) cannot_write_there(display(path, cur), EBADF);
      if (r.fd >= 0) {
        r.kind = Kind::descriptor;
        return r;
      }
      r.kind = Kind::direct;
      if (::stat(cur.c_str(), &r.st) == 0) {
        r.exists = true;
        if (S_ISDIR(r.st.st_mode)) r.kind = Kind::folder;
      } else if (const int err = errno; err != ENOENT) {
        cannot_write_there(display(path, cur), err);
      }
      return r;
    }
    struct stat st {};
    if (::lstat(cur.c_str(), &st) != 0) {
      const int err = errno;
      if (err != ENOENT) cannot_write_there(display(path, cur), err);
      r.target = cur;
      // "new/" names a folder, not a file to create.
      r.kind = cur.back() == '/' ? Kind::folder : Kind::absent;
      return r;
    }
    if (S_ISLNK(st.st_mode)) {
      if (links == max_links) cannot_write_there(display(path, cur), ELOOP);
      std::string to;
      if (const int err = read_link(cur, to)) cannot_write_there(display(path, cur), err);
      cur = to.front() == '/' ? to : (fs::path(cur).parent_path() / to).string();
      continue;
    }
    r.target = cur;
    r.exists = true;
    r.st = st;
    r.kind = S_ISREG(st.st_mode)   ? Kind::regular
             : S_ISDIR(st.st_mode) ? Kind::folder
                                   : Kind::direct;
    return r;
  }
}

std::string folder_of(const std::string& file) {
  const fs::path parent = fs::path(file).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

int open_retrying(const char* path, int flags, mode_t mode = 0) {
  int fd;
  do fd = ::open(path, flags, mode);
  while (fd < 0 && errno == EINTR);  // a FIFO's open waits for a reader
  return fd;
}

// Gives the new file the target's owner, group and permission bits (set-id
// bits aside: writing clears those too), or 0666 & ~umask for a new file.
// Returns 0 or an errno.
int adopt_attributes(int fd, const Resolved& r) {
  if (!r.exists) return ::fchmod(fd, 0666 & ~current_umask()) == 0 ? 0 : errno;
  struct stat now {};
  if (::fstat(fd, &now) != 0) return errno;
  if (now.st_uid != r.st.st_uid || now.st_gid != r.st.st_gid) {
    // Only root may give a file away; a member of the group may still set it.
    if (::fchown(fd, r.st.st_uid, r.st.st_gid) != 0) {
      if (errno != EPERM) return errno;
      if (now.st_gid != r.st.st_gid && ::fchown(fd, uid_t(-1), r.st.st_gid) != 0 && errno != EPERM)
        return errno;
    }
  }
  return ::fchmod(fd, r.st.st_mode & 0777) == 0 ? 0 : errno;
}

}  // namespace

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    f_ = stdout;
    return;
  }
  if (path_.empty()) throw ArgumentError("the output file name is empty");
  const Resolved r = resolve(path_);
  target_ = r.target;
  const std::string name = display(path_, target_);
  int fd = -1;
  switch (r.kind) {
    case Kind::folder:
      cannot_write_there(name, EISDIR);
    case Kind::descriptor:
      fd = ::fcntl(r.fd, F_DUPFD_CLOEXEC, 0);
      if (fd < 0) fail(name, "cannot open", errno);
      break;
    case Kind::direct: {
      // Truncation only means something for a regular file (under /proc or
      // /dev); devices and FIFOs ignore it.
      const bool truncate = r.exists && S_ISREG(r.st.st_mode);
      fd = open_retrying(target_.c_str(),
                         O_WRONLY | O_NOCTTY | O_CLOEXEC | (truncate ? O_TRUNC : 0));
      if (fd < 0) fail(name, "cannot open", errno);
      break;
    }
    case Kind::regular:
    case Kind::absent: {
      // 0600 and O_EXCL: nobody else can read the bytes before fchmod, and a
      // stale file of the same name is never reused.
      const std::string pid = std::to_string(::getpid());
      bool short_names = false;  // after ENAMETOOLONG for target + suffix
      for (int attempt = 0; fd < 0; ++attempt) {
        tmp_ = short_names ? folder_of(target_) + "/.graphrun" : target_;
        tmp_.append(".tmp.").append(pid);
        if (attempt) tmp_.append(".").append(std::to_string(attempt));
        temp_slot_ = detail::register_temp_file(tmp_);  // before the file exists
        fd = open_retrying(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) break;
        const int err = errno;
        detail::unregister_temp_file(temp_slot_);
        temp_slot_ = -1;
        if (err == ENAMETOOLONG && !short_names) {
          short_names = true;
        } else if (err != EEXIST || attempt == 100) {
          tmp_.clear();
          fail(name, "cannot create a temporary file", err);
        }
      }
      if (const int err = adopt_attributes(fd, r)) {
        ::close(fd);
        ::unlink(tmp_.c_str());
        detail::unregister_temp_file(temp_slot_);
        fail(name, "cannot set the permissions of the new file", err);
      }
      break;
    }
  }
  f_ = ::fdopen(fd, "wb");
  if (!f_) {
    const int err = errno;
    ::close(fd);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    detail::unregister_temp_file(temp_slot_);
    throw Error(name + ": cannot open: " + std::strerror(err));
  }
  // Large writes: the writers emit many small pieces.
  std::setvbuf(f_, nullptr, _IOFBF, std::size_t(1) << 20);
}

OutputFile::~OutputFile() {
  if (!committed_ && f_ && f_ != stdout) {
    std::fclose(f_);
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
  }
  detail::unregister_temp_file(temp_slot_);
}

void OutputFile::commit() {
  if (committed_) return;
  if (f_ == stdout) {
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) write_error("<stdout>", errno);
    committed_ = true;
    return;
  }
  const std::string name = display(path_, target_);
  const bool write_failed = std::fflush(f_) != 0 || std::ferror(f_);
  int err = errno;
  const bool close_failed = std::fclose(f_) != 0;
  if (!write_failed && close_failed) err = errno;
  f_ = nullptr;
  if (write_failed || close_failed) {
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    write_error(name, err);
  }
  if (!tmp_.empty() && std::rename(tmp_.c_str(), target_.c_str()) != 0) {
    err = errno;
    ::unlink(tmp_.c_str());
    fail(name, "cannot rename the finished file into place", err);
  }
  detail::unregister_temp_file(temp_slot_);
  temp_slot_ = -1;
  committed_ = true;
}

void check_output_path(const std::string& path) {
  if (path == "-") return;
  if (path.empty()) throw ArgumentError("--output: empty file name");
  const Resolved r = resolve(path);
  const std::string name = display(path, r.target);
  switch (r.kind) {
    case Kind::descriptor:
      return;
    case Kind::folder:
      throw ArgumentError(name + ": is a folder; --output needs a file name");
    case Kind::direct:
      // Not opened here: opening a FIFO would wait for its reader.
      if (!r.exists) cannot_write_there(name, ENOENT);
      if (::faccessat(AT_FDCWD, r.target.c_str(), W_OK, AT_EACCESS) != 0)
        cannot_write_there(name, errno);
      return;
    case Kind::regular:
    case Kind::absent: {
      const std::string folder = folder_of(r.target);
      struct stat st {};
      if (::stat(folder.c_str(), &st) != 0) {
        if (errno == ENOENT)
          throw ArgumentError(name + ": cannot write there: folder " + folder + " does not exist");
        cannot_write_there(name, errno);
      }
      if (!S_ISDIR(st.st_mode)) cannot_write_there(name, ENOTDIR);
      if (::faccessat(AT_FDCWD, folder.c_str(), W_OK | X_OK, AT_EACCESS) != 0)
        cannot_write_there(name, errno);
      return;
    }
  }
}

}  // namespace graphrun::io
