// Runs the `mcl` program: ABC file out, posix_spawnp (no shell, so labels
// and paths need no quoting), waitpid, clusters back in. Everything lives in
// a private mkdtemp directory that is removed on every way out.
#include "anchors/mcl_program.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <unordered_map>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/stopwatch.hpp"

extern char** environ;

namespace graphrun::anchors {

namespace {

namespace fs = std::filesystem;

// A private directory under $TMPDIR (or /tmp), removed with its contents
// when the run ends, successfully or not.
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ =
        (tmp && *tmp ? std::string(tmp) : std::string("/tmp")) + "/graphrun-mcl-XXXXXX";
    if (!::mkdtemp(templ.data()))
      throw Error(templ + ": cannot create a temporary directory: " + std::strerror(errno));
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;  // best effort: a destructor must not throw
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const noexcept { return path_; }

 private:
  fs::path path_;
};

void check_arguments(const Csr<double>& adj, const std::vector<std::string>& labels,
                     const MclProgramOptions& o) {
  if (adj.n_rows() != adj.n_cols())
    throw ArgumentError("mcl: the adjacency matrix is not square (" + std::to_string(adj.n_rows()) +
                        " x " + std::to_string(adj.n_cols()) + ")");
  if (labels.size() != std::size_t(adj.n_rows()))
    throw ArgumentError("mcl: " + std::to_string(labels.size()) + " labels for " +
                        std::to_string(adj.n_rows()) + " vertices");
  for (const std::string& l : labels)
    if (l.empty() || std::ranges::any_of(l, [](char c) { return std::isspace((unsigned char)c); }))
      throw ArgumentError("mcl: label '" + l + "' is empty or holds white space, " +
                          "which separates the fields of an ABC file");
  if (!(o.inflation > 1) || !std::isfinite(o.inflation))
    throw ArgumentError("mcl: inflation must be a finite number > 1, not " +
                        std::to_string(o.inflation));
  if (o.threads < 1) throw ArgumentError("mcl: threads must be >= 1");
  // -S 0 and -R 0 switch selection and recovery off, in mcl as in graphrun.
  if (o.prune_number < 1 || o.select_number < 0 || o.recover_number < 0)
    throw ArgumentError("mcl: -P must be >= 1, -S and -R >= 0");
  if (o.recover_percent < 0 || o.recover_percent > 100)
    throw ArgumentError("mcl: -pct must be between 0 and 100");
}

// labels[u] TAB labels[v] TAB weight per stored entry; weights in the
// shortest form that reads back as the same double.
void write_abc(const fs::path& path, const Csr<double>& adj,
               const std::vector<std::string>& labels) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw Error(path.string() + ": " + std::strerror(errno));
  std::string buf;
  bool ok = true;
  const auto& row_ptr = adj.row_ptr();
  const auto& col_idx = adj.col_idx();
  for (vertex_t u = 0; u < adj.n_rows() && ok; ++u)
    for (offset_t k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
      char num[32];
      const double w = adj.is_pattern() ? 1.0 : adj.values()[std::size_t(k)];
      const auto end = std::to_chars(num, num + sizeof num, w).ptr;
      buf.append(labels[std::size_t(u)]).append(1, '\t');
      buf.append(labels[std::size_t(col_idx[std::size_t(k)])]).append(1, '\t');
      buf.append(num, end).append(1, '\n');
      if (buf.size() >= (1 << 20)) {
        ok = std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
        buf.clear();
      }
    }
  if (ok) ok = std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
  const int err = errno;
  if (std::fclose(f) != 0 || !ok)
    throw Error(path.string() + ": write: " + std::strerror(ok ? errno : err));
}

// The last `n` lines of a text file (mcl's chatter ends with the reason it
// stopped), for error messages.
std::string last_lines(const fs::path& path, std::size_t n) {
  std::ifstream f(path);
  std::deque<std::string> lines;
  for (std::string line; std::getline(f, line);) {
    lines.push_back(std::move(line));
    if (lines.size() > n) lines.pop_front();
  }
  std::string out;
  for (const std::string& l : lines) out += "\n  " + l;
  return out.empty() ? " (no output)" : out;
}

std::string not_found_message(const std::string& program) {
  return program == "mcl"
             ? "the mcl program was not found on PATH; Debian: apt-get install mcl"
             : "the mcl program '" + program + "' was not found; Debian: apt-get install mcl";
}

// Runs argv[0] (looked up on PATH) with stdin from /dev/null and stdout and
// stderr into `log`; returns the wait status and the seconds from spawn to exit.
std::pair<int, double> spawn_and_wait(std::vector<std::string> args, const fs::path& log) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 2, 1);

  const Stopwatch start;
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc == ENOENT) throw Error(not_found_message(args[0]));
  if (rc != 0) throw Error("cannot start " + args[0] + ": " + std::strerror(rc));

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw Error("waitpid for " + args[0] + ": " + std::strerror(errno));
  const double seconds = start.seconds();
  return {status, seconds};
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

using LabelIds = std::unordered_map<std::string_view, vertex_t>;

// Label -> vertex, refusing a label given twice (mcl would merge the two).
LabelIds label_ids(const std::vector<std::string>& labels) {
  LabelIds id;
  id.reserve(labels.size());
  for (std::size_t v = 0; v < labels.size(); ++v)
    if (!id.emplace(labels[v], vertex_t(v)).second)
      throw ArgumentError("mcl: label '" + labels[v] + "' is given to two vertices");
  return id;
}

// mcl's output: one cluster per line, tab-separated labels. Every label must
// be a vertex of the graph and appear once.
void read_clusters(const fs::path& path, const LabelIds& id, MclProgramResult& r) {
  std::ifstream f(path);
  if (!f) throw Error("mcl exited normally but wrote no clustering to " + path.string());
  r.cluster.assign(id.size(), -1);
  std::int64_t line_no = 0;
  for (std::string line; std::getline(f, line);) {
    ++line_no;
    if (line.empty()) continue;
    std::string_view rest = line;
    while (!rest.empty()) {
      const std::size_t tab = rest.find('\t');
      const std::string_view label = rest.substr(0, tab);
      rest = tab == std::string_view::npos ? std::string_view() : rest.substr(tab + 1);
      const auto it = id.find(label);
      if (it == id.end())
        throw Error("mcl's output, line " + std::to_string(line_no) + ": label '" +
                    std::string(label) + "' is no vertex of the graph");
      if (r.cluster[std::size_t(it->second)] >= 0)
        throw Error("mcl's output, line " + std::to_string(line_no) + ": vertex '" +
                    std::string(label) + "' is in two clusters");
      r.cluster[std::size_t(it->second)] = r.n_clusters;
    }
    ++r.n_clusters;
  }
}

}  // namespace

MclProgramResult run_mcl_program(const Csr<double>& adj, const std::vector<std::string>& labels,
                                 const MclProgramOptions& o) {
  check_arguments(adj, labels, o);
  const LabelIds id = label_ids(labels);
  const TempDir dir;
  const fs::path abc = dir.path() / "graph.abc", out = dir.path() / "clusters.txt",
                 log = dir.path() / "mcl.log";
  write_abc(abc, adj, labels);

  const auto [status, seconds] =
      spawn_and_wait({o.program, abc.string(), "--abc", "-I", number(o.inflation), "-te",
                      std::to_string(o.threads), "-P", std::to_string(o.prune_number), "-S",
                      std::to_string(o.select_number), "-R", std::to_string(o.recover_number),
                      "-pct", std::to_string(o.recover_percent), "-o", out.string()},
                     log);
  if (WIFSIGNALED(status))
    throw Error(o.program + " was killed by signal " + std::to_string(WTERMSIG(status)) + ":" +
                last_lines(log, 10));
  if (WEXITSTATUS(status) != 0)
    throw Error(o.program + " exited with status " + std::to_string(WEXITSTATUS(status)) + ":" +
                last_lines(log, 10));
  // mcl exits 0 even on a bad option, having written nothing.
  if (!fs::exists(out)) throw Error(o.program + " wrote no clustering:" + last_lines(log, 10));

  MclProgramResult r;
  r.seconds = seconds;
  read_clusters(out, id, r);

  // A vertex with no stored entry in its row or column is not in the ABC
  // file, so mcl never saw it: it becomes a singleton cluster, numbered
  // after mcl's. Any other vertex mcl left out means its output is not a
  // clustering of this graph.
  std::vector<bool> in_file(labels.size(), false);
  for (vertex_t u = 0; u < adj.n_rows(); ++u)
    if (adj.row_length(u) > 0) in_file[std::size_t(u)] = true;
  for (vertex_t v : adj.col_idx()) in_file[std::size_t(v)] = true;
  for (std::size_t v = 0; v < labels.size(); ++v)
    if (r.cluster[v] < 0) {
      if (in_file[v])
        throw Error(o.program + " left vertex '" + labels[v] + "' out of its clustering");
      r.cluster[v] = r.n_clusters++;
    }
  return r;
}

bool mcl_program_available(const std::string& program) {
  if (program.empty()) return false;
  const auto executable = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
  };
  if (program.find('/') != std::string::npos) return executable(program);
  const char* path = std::getenv("PATH");
  // posix_spawnp's search when PATH is unset (glibc: confstr(_CS_PATH)).
  std::string_view dirs = path ? path : "/bin:/usr/bin";
  while (true) {
    const std::size_t colon = dirs.find(':');
    const std::string_view d = dirs.substr(0, colon);
    if (executable(fs::path(d.empty() ? "." : std::string(d)) / program)) return true;
    if (colon == std::string_view::npos) return false;
    dirs.remove_prefix(colon + 1);
  }
}

}  // namespace graphrun::anchors
