// OutputFile: all or nothing for regular files (through symlinks too),
// direct writes for devices, FIFOs and descriptor aliases, path errors as
// ArgumentError; check_output_path.

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>
#include <thread>

#include "graphrun/io/write.hpp"
#include "io_test_support.hpp"

namespace graphrun::io::test {
namespace {

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}
std::vector<std::string> entries(const TempDir& dir) { return entries(dir.path()); }

std::vector<std::string> names(std::initializer_list<const char*> list) {
  return {list.begin(), list.end()};
}

void write_through(const std::string& path, const std::string& text) {
  OutputFile out(path);
  std::fputs(text.c_str(), out.stream());
  out.commit();
}

fs::perms mode_of(const std::string& path) { return fs::status(path).permissions(); }

// What fn throws: "ArgumentError: what()", "Error: what()", or "no error".
std::string thrown(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const ArgumentError& e) {
    return std::string("ArgumentError: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("Error: ") + e.what();
  }
  return "no error";
}

bool is_argument_error(const std::string& what, const std::string& fragment) {
  return what.rfind("ArgumentError: ", 0) == 0 && what.find(fragment) != std::string::npos;
}

constexpr uid_t nobody = 65534;

// Runs fn in a child process as uid and gid 65534, so that permission
// checks apply as they do to a normal user (root passes them all); returns
// the child's exit status: fn's result, or 100 when the switch failed.
int as_nobody(const std::function<int()>& fn) {
  const pid_t child = ::fork();
  if (child == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(nobody) != 0 || ::setuid(nobody) != 0)
      ::_exit(100);
    int rc = 99;
    try {
      rc = fn();
    } catch (...) {
    }
    ::_exit(rc);
  }
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TEST(OutputFile, NotCommittedLeavesNothing) {
  TempDir dir;
  {
    OutputFile out(dir.file("result.tsv"));
    std::fputs("half a result\n", out.stream());
    EXPECT_EQ(entries(dir).size(), 1u);  // the temporary file, while writing
  }
  EXPECT_TRUE(entries(dir).empty());
}

// A run stopped by a signal while its output is half-written: the child
// process dies of the signal as it would have, and no temporary is left.
TEST(OutputFile, InterruptedRunLeavesNoTemporary) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    TempDir dir;
    const std::string target = dir.file("result.tsv");
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      OutputFile out(target);
      std::fputs("half a result\n", out.stream());
      std::fflush(out.stream());
      ::raise(sig);
      ::_exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_TRUE(entries(dir).empty()) << "signal " << sig << " left " << entries(dir).front();
  }
}

TEST(OutputFile, CommittedFileIsInPlaceWithoutTemporary) {
  TempDir dir;
  {
    OutputFile out(dir.file("result.tsv"));
    std::fputs("all of it\n", out.stream());
    EXPECT_FALSE(fs::exists(dir.file("result.tsv")));
    out.commit();
    out.commit();  // harmless
  }
  EXPECT_EQ(entries(dir), names({"result.tsv"}));
  EXPECT_EQ(read_file(dir.file("result.tsv")), "all of it\n");
}

TEST(OutputFile, FailedRunKeepsThePreviousFile) {
  TempDir dir;
  write_file(dir.file("result.tsv"), "old\n");
  try {
    OutputFile out(dir.file("result.tsv"));
    std::fputs("new but interrupted\n", out.stream());
    throw std::runtime_error("interrupted");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(read_file(dir.file("result.tsv")), "old\n");
  EXPECT_EQ(entries(dir), names({"result.tsv"}));
}

// A file of the temporary's name that is not ours (a run killed by SIGKILL
// whose pid came round again) is neither reused nor removed.
TEST(OutputFile, StaleFileOfTheTemporarysNameIsLeftAlone) {
  TempDir dir;
  const std::string stale = dir.file("result.tsv.tmp." + std::to_string(::getpid()));
  write_file(stale, "someone else's\n");
  write_through(dir.file("result.tsv"), "new\n");
  EXPECT_EQ(read_file(dir.file("result.tsv")), "new\n");
  EXPECT_EQ(read_file(stale), "someone else's\n");
  EXPECT_EQ(entries(dir).size(), 2u);
}

TEST(OutputFile, MissingFolderIsAnArgumentErrorNamingPathAndReason) {
  const std::string path = "/nonexistent/graphrun/out.tsv";
  const std::string what = thrown([&] { OutputFile out(path); });
  EXPECT_TRUE(is_argument_error(what, path + ": cannot write there: No such file or directory"))
      << what;
}

TEST(OutputFile, FolderIsAnArgumentError) {
  TempDir dir;
  fs::create_directory(dir.file("taken"));
  std::string what = thrown([&] { OutputFile out(dir.file("taken")); });
  EXPECT_TRUE(is_argument_error(what, dir.file("taken") + ": cannot write there: Is a directory"))
      << what;
  what = thrown([&] { OutputFile out(dir.file("new/")); });
  EXPECT_TRUE(is_argument_error(what, "cannot write there")) << what;
  EXPECT_EQ(entries(dir), names({"taken"}));
}

// A folder that appears in place of the target while the run writes.
TEST(OutputFile, FailedRenameIsAnErrorAndLeavesNoTemporary) {
  TempDir dir;
  OutputFile out(dir.file("taken"));
  std::fputs("data\n", out.stream());
  fs::create_directory(dir.file("taken"));
  fs::create_directory(dir.file("taken/x"));  // not empty: rename cannot replace it
  try {
    out.commit();
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.file("taken")), std::string::npos) << e.what();
  }
  EXPECT_EQ(entries(dir), names({"taken"}));
}

TEST(OutputFile, DashIsStdout) {
  OutputFile out("-");
  EXPECT_EQ(out.stream(), stdout);
  out.commit();
}

// Permission denied is a property of the path: ArgumentError (exit status
// 2), from OutputFile and from check_output_path. Root passes permission
// checks, so as root the check runs in a child that is uid 65534.
TEST(OutputFile, PermissionDeniedIsAnArgumentError) {
  TempDir dir;
  const std::string ro = dir.file("ro");
  fs::create_directory(ro);
  fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                          fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const std::string target = ro + "/out.tsv";
  const std::string fragment = target + ": cannot write there: Permission denied";
  auto open_it = [&] { OutputFile out(target); };
  auto check_it = [&] { check_output_path(target); };
  if (::geteuid() == 0) {
    EXPECT_EQ(as_nobody([&] { return is_argument_error(thrown(open_it), fragment) ? 0 : 1; }), 0)
        << "OutputFile as uid 65534";
    EXPECT_EQ(as_nobody([&] { return is_argument_error(thrown(check_it), fragment) ? 0 : 1; }), 0)
        << "check_output_path as uid 65534";
  } else {
    EXPECT_TRUE(is_argument_error(thrown(open_it), fragment)) << thrown(open_it);
    EXPECT_TRUE(is_argument_error(thrown(check_it), fragment)) << thrown(check_it);
  }
  EXPECT_TRUE(entries(fs::path(ro)).empty());
  fs::permissions(ro, fs::perms::owner_all);
}

// A failure while writing (here ENOSPC from /dev/full) stays an Error, not
// an ArgumentError: the path was fine.
TEST(OutputFile, WriteFailureIsNotAnArgumentError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir dir;
  fs::create_symlink("/dev/full", dir.file("full"));
  const std::string what = thrown([&] {
    OutputFile out(dir.file("full"));
    std::fputs("data\n", out.stream());
    out.commit();
  });
  EXPECT_EQ(what.rfind("Error: ", 0), 0u) << what;
  EXPECT_NE(what.find("No space left on device"), std::string::npos) << what;
  EXPECT_TRUE(fs::is_symlink(dir.file("full")));
}

// Renaming onto /dev/null would put a regular file in its place. As root a
// private node (char 1 3) stands in for it; others use /dev/null itself.
TEST(OutputFile, CharacterDeviceIsWrittenInPlace) {
  TempDir dir;
  std::string dev = "/dev/null";
  if (::geteuid() == 0) {
    dev = dir.file("null");
    if (::mknod(dev.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) != 0)
      GTEST_SKIP() << "mknod: " << std::strerror(errno)
                   << " (the real /dev/null is only used without root)";
    const int fd = ::open(dev.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) GTEST_SKIP() << dev << ": " << std::strerror(errno) << " (a nodev file system?)";
    ::close(fd);
  }
  EXPECT_NO_THROW(check_output_path(dev));
  write_through(dev, "discarded\n");
  struct stat st {};
  ASSERT_EQ(::stat(dev.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  EXPECT_EQ(st.st_rdev, ::makedev(1, 3));
  if (::geteuid() == 0)
    EXPECT_EQ(entries(dir), names({"null"}));
  else
    EXPECT_FALSE(fs::exists(dev + ".tmp." + std::to_string(::getpid())));
}

TEST(OutputFile, FifoIsWrittenInPlaceToItsReader) {
  TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NO_THROW(check_output_path(fifo));  // and does not wait for a reader
  // The read end first (non-blocking: no writer yet), so that opening the
  // write end does not wait either; reads block from then on.
  const int rfd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(rfd, 0);
  ASSERT_EQ(::fcntl(rfd, F_SETFL, 0), 0);
  std::string payload;
  for (int i = 0; payload.size() < (std::size_t(1) << 20); ++i)
    payload += std::to_string(i) + "\t" + std::to_string(i * 7) + "\n";  // more than a pipe holds

  std::optional<OutputFile> out;
  out.emplace(fifo);
  std::string received;
  std::thread reader([&] {
    char buf[1 << 16];
    ssize_t n;
    while ((n = ::read(rfd, buf, sizeof buf)) > 0) received.append(buf, std::size_t(n));
  });
  const std::string what = thrown([&] {
    std::fwrite(payload.data(), 1, payload.size(), out->stream());
    out->commit();
  });
  out.reset();  // closes the write end (if commit did not): the reader sees the end
  reader.join();
  ::close(rfd);
  EXPECT_EQ(what, "no error");
  EXPECT_EQ(received.size(), payload.size());
  EXPECT_TRUE(received == payload);
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(entries(dir), names({"pipe"}));
}

// /dev/fd/N and /proc/self/fd/N (what /dev/stdout is, with N = 1) write
// into the file the descriptor holds, at its offset: renaming onto the
// file would leave the descriptor on an unlinked inode.
TEST(OutputFile, DescriptorAliasWritesIntoTheOpenFile) {
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (!fs::is_directory(prefix)) continue;
    SCOPED_TRACE(prefix);
    TempDir dir;
    const std::string file = dir.file("redirected.txt");
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, "before\n", 7), 7);
    struct stat before {};
    ASSERT_EQ(::fstat(fd, &before), 0);
    const std::string what =
        thrown([&] { write_through(prefix + std::to_string(fd), "result\n"); });
    EXPECT_EQ(::write(fd, "after\n", 6), 6);  // still open, its offset moved on
    ::close(fd);
    EXPECT_EQ(what, "no error");
    EXPECT_EQ(read_file(file), "before\nresult\nafter\n");
    struct stat now {};
    ASSERT_EQ(::stat(file.c_str(), &now), 0);
    EXPECT_EQ(now.st_ino, before.st_ino);
    EXPECT_EQ(entries(dir), names({"redirected.txt"}));
  }
}

// A descriptor open only for reading is refused: reopening its file for
// writing would truncate an input.
TEST(OutputFile, ReadOnlyDescriptorAliasIsAnArgumentError) {
  TempDir dir;
  const std::string file = write_file(dir.file("input.txt"), "input\n");
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  const std::string alias = "/proc/self/fd/" + std::to_string(fd);
  const std::string what = thrown([&] { write_through(alias, "output\n"); });
  const std::string check = thrown([&] { check_output_path(alias); });
  ::close(fd);
  EXPECT_TRUE(is_argument_error(what, alias + ": cannot write there: Bad file descriptor")) << what;
  EXPECT_TRUE(is_argument_error(check, "Bad file descriptor")) << check;
  EXPECT_EQ(read_file(file), "input\n");
}

// A link to /dev/stdout, in a child whose stdout is redirected to a file:
// the output lands in that file.
TEST(OutputFile, LinkToDevStdoutWritesIntoTheRedirectedFile) {
  TempDir dir;
  const std::string file = dir.file("stdout.txt");
  fs::create_symlink("/dev/stdout", dir.file("out"));
  std::fflush(stdout);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::dup2(fd, 1) != 1) ::_exit(2);
    try {
      write_through(dir.file("out"), "result\n");
    } catch (...) {
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(read_file(file), "result\n");
  EXPECT_TRUE(fs::is_symlink(dir.file("out")));
  EXPECT_EQ(entries(dir), names({"out", "stdout.txt"}));
}

TEST(OutputFile, SymlinkStaysALinkAndItsTargetIsReplaced) {
  TempDir dir;
  write_file(dir.file("real.tsv"), "old\n");
  fs::create_symlink("real.tsv", dir.file("link"));
  write_through(dir.file("link"), "new\n");
  ASSERT_TRUE(fs::is_symlink(dir.file("link")));
  EXPECT_EQ(fs::read_symlink(dir.file("link")), "real.tsv");
  EXPECT_EQ(read_file(dir.file("real.tsv")), "new\n");
  EXPECT_EQ(entries(dir), names({"link", "real.tsv"}));
}

// link -> b (relative), b -> /abs/sub/c, sub/c -> t.tsv (relative to sub):
// the temporary lives beside the final target, so the rename stays within
// one folder (one file system).
TEST(OutputFile, SymlinkChainIsFollowedToItsEnd) {
  TempDir dir;
  fs::create_directory(dir.file("sub"));
  write_file(dir.file("sub/t.tsv"), "old\n");
  fs::create_symlink("t.tsv", dir.file("sub/c"));
  fs::create_symlink(dir.file("sub/c"), dir.file("b"));
  fs::create_symlink("b", dir.file("link"));
  {
    OutputFile out(dir.file("link"));
    std::fputs("new\n", out.stream());
    EXPECT_EQ(entries(dir.path() / "sub").size(), 3u);  // c, t.tsv, the temporary
    EXPECT_EQ(entries(dir), names({"b", "link", "sub"}));
    out.commit();
  }
  EXPECT_EQ(read_file(dir.file("sub/t.tsv")), "new\n");
  EXPECT_TRUE(fs::is_symlink(dir.file("link")));
  EXPECT_TRUE(fs::is_symlink(dir.file("b")));
  EXPECT_TRUE(fs::is_symlink(dir.file("sub/c")));
  EXPECT_EQ(entries(dir.path() / "sub"), names({"c", "t.tsv"}));
}

TEST(OutputFile, DanglingSymlinkCreatesItsTarget) {
  TempDir dir;
  fs::create_directory(dir.file("sub"));
  fs::create_symlink("sub/new.tsv", dir.file("link"));
  write_through(dir.file("link"), "new\n");
  EXPECT_TRUE(fs::is_symlink(dir.file("link")));
  EXPECT_EQ(read_file(dir.file("sub/new.tsv")), "new\n");
  EXPECT_EQ(entries(dir.path() / "sub"), names({"new.tsv"}));

  // A link into a folder that does not exist names the target.
  fs::create_symlink("nowhere/x.tsv", dir.file("lost"));
  const std::string what = thrown([&] { OutputFile out(dir.file("lost")); });
  EXPECT_TRUE(is_argument_error(what, dir.file("lost") + " -> " + dir.file("nowhere/x.tsv") +
                                          ": cannot write there: No such file or directory"))
      << what;
}

TEST(OutputFile, SymlinkLoopIsAnArgumentError) {
  TempDir dir;
  fs::create_symlink("b", dir.file("a"));
  fs::create_symlink("a", dir.file("b"));
  const std::string what = thrown([&] { OutputFile out(dir.file("a")); });
  EXPECT_TRUE(is_argument_error(what, "cannot write there: Too many levels of symbolic links"))
      << what;
  EXPECT_EQ(entries(dir), names({"a", "b"}));
}

TEST(OutputFile, SymlinkedTargetIsIntactWithoutCommit) {
  TempDir dir;
  fs::create_directory(dir.file("sub"));
  write_file(dir.file("sub/real.tsv"), "old\n");
  fs::create_symlink("sub/real.tsv", dir.file("link"));
  {
    OutputFile out(dir.file("link"));
    std::fputs("new but abandoned\n", out.stream());
  }
  EXPECT_TRUE(fs::is_symlink(dir.file("link")));
  EXPECT_EQ(read_file(dir.file("sub/real.tsv")), "old\n");
  EXPECT_EQ(entries(dir.path() / "sub"), names({"real.tsv"}));
  EXPECT_EQ(entries(dir), names({"link", "sub"}));
}

TEST(OutputFile, ReplacedFileKeepsItsMode) {
  TempDir dir;
  const auto rw_owner = fs::perms::owner_read | fs::perms::owner_write;
  write_file(dir.file("secret.tsv"), "old\n");
  fs::permissions(dir.file("secret.tsv"), rw_owner);
  write_through(dir.file("secret.tsv"), "new\n");
  EXPECT_EQ(mode_of(dir.file("secret.tsv")), rw_owner);
  EXPECT_EQ(read_file(dir.file("secret.tsv")), "new\n");

  // Through a link, the target's mode counts.
  const auto rw_group = rw_owner | fs::perms::group_read | fs::perms::group_write;
  fs::permissions(dir.file("secret.tsv"), rw_group);
  fs::create_symlink("secret.tsv", dir.file("link"));
  write_through(dir.file("link"), "newer\n");
  EXPECT_EQ(mode_of(dir.file("secret.tsv")), rw_group);
  EXPECT_EQ(read_file(dir.file("secret.tsv")), "newer\n");
}

TEST(OutputFile, ReplacedFileKeepsItsOwner) {
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file to another user needs root";
  TempDir dir;
  const std::string path = dir.file("theirs.tsv");
  write_file(path, "old\n");
  ASSERT_EQ(::chown(path.c_str(), nobody, nobody), 0);
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  write_through(path, "new\n");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, nobody);
  EXPECT_EQ(st.st_gid, nobody);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(read_file(path), "new\n");
}

TEST(OutputFile, NewFileGetsTheUmasksMode) {
  for (const mode_t mask : {mode_t(022), mode_t(077), mode_t(002), mode_t(0)}) {
    TempDir dir;
    const mode_t before = ::umask(mask);
    write_through(dir.file("new.tsv"), "x\n");
    const mode_t after = ::umask(before);
    EXPECT_EQ(after, mask);  // left as it was
    struct stat st {};
    ASSERT_EQ(::stat(dir.file("new.tsv").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0666u & ~mask) << "umask " << std::oct << mask;
  }
}

// /dev/shm is an ordinary folder (tmpfs): files there are replaced
// atomically like anywhere else, not opened as devices.
TEST(OutputFile, FileInDevShmIsCreated) {
  if (!fs::is_directory("/dev/shm") || ::access("/dev/shm", W_OK) != 0)
    GTEST_SKIP() << "no writable /dev/shm";
  const std::string path = "/dev/shm/graphrun-io-test-" + std::to_string(::getpid());
  write_through(path, "x\n");
  EXPECT_EQ(read_file(path), "x\n");
  fs::remove(path);
}

TEST(CheckOutputPath, AcceptsWritableTargets) {
  TempDir dir;
  EXPECT_NO_THROW(check_output_path("-"));
  EXPECT_NO_THROW(check_output_path(dir.file("new.tsv")));
  write_file(dir.file("old.tsv"), "old\n");
  EXPECT_NO_THROW(check_output_path(dir.file("old.tsv")));
  fs::create_symlink("sub/x.tsv", dir.file("dangling"));
  fs::create_directory(dir.file("sub"));
  EXPECT_NO_THROW(check_output_path(dir.file("dangling")));
  EXPECT_NO_THROW(check_output_path("/dev/null"));
  EXPECT_NO_THROW(check_output_path("/dev/stderr"));
  EXPECT_EQ(entries(dir), names({"dangling", "old.tsv", "sub"}));  // nothing created
  EXPECT_TRUE(entries(dir.path() / "sub").empty());
}

TEST(CheckOutputPath, RefusesWhatCannotBeWritten) {
  TempDir dir;
  fs::create_directory(dir.file("folder"));
  fs::create_symlink("folder", dir.file("to-folder"));
  fs::create_symlink("missing/x.tsv", dir.file("to-missing"));
  fs::create_symlink("loop", dir.file("loop"));
  write_file(dir.file("file"), "");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir.file("folder"), dir.file("folder") + ": is a folder; --output needs a file name"},
      {dir.file("to-folder"), dir.file("to-folder") + " -> " + dir.file("folder") +
                                  ": is a folder; --output needs a file name"},
      {dir.file("missing/x.tsv"), dir.file("missing/x.tsv") + ": cannot write there: folder " +
                                      dir.file("missing") + " does not exist"},
      {dir.file("to-missing"), dir.file("to-missing") + " -> " + dir.file("missing/x.tsv") +
                                   ": cannot write there: folder " + dir.file("missing") +
                                   " does not exist"},
      {dir.file("loop"), "cannot write there: Too many levels of symbolic links"},
      {dir.file("file/x.tsv"), "cannot write there: Not a directory"},
      {"", "empty file name"},
  };
  for (const auto& [path, fragment] : cases) {
    const std::string what = thrown([&] { check_output_path(path); });
    EXPECT_TRUE(is_argument_error(what, fragment)) << path << ": " << what;
  }
}

}  // namespace
}  // namespace graphrun::io::test
