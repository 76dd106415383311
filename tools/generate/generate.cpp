// graphrun-generate: synthetic graphs large enough to load a machine, as SNAP
// edge lists, reproducible from their parameters and seed.
//
//   graphrun-generate uniform N DEGREE [--seed S]      N vertices, N*DEGREE directed edges,
//                                                      endpoints uniform (G(n, m), with repeats)
//   graphrun-generate rmat SCALE EDGE_FACTOR [--seed S] [--abc A B C]
//                                                      R-MAT (Chakrabarti, Zhan, Faloutsos 2004),
//                                                      2^SCALE vertices, EDGE_FACTOR * 2^SCALE
//                                                      edges; Graph500 defaults a=.57 b=.19 c=.19
//   graphrun-generate grid ROWS COLS                   5-point grid, each undirected edge once
//                                                      (load it with --undirected)
//   graphrun-generate lfr N [--degree K] [--max-degree M] [--mu MU] [--tau1 T] [--tau2 T]
//       [--min-community C] [--max-community C] [--seed S] [--communities FILE]
//                                                      LFR benchmark graph (Lancichinetti,
//                                                      Fortunato, Radicchi 2008), each undirected
//                                                      edge once; --communities writes the planted
//                                                      "vertex<TAB>community" map
//
// Output goes to stdout (or -o FILE): a comment header with the command,
// then "src<TAB>dst" lines. The graphs come from graphrun/generators/synthetic.hpp
// (also what `graphrun bench` uses for gen: inputs), so the same command gives
// the same file on every platform and at every thread count.
#include <sys/stat.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/generators/lfr.hpp"
#include "graphrun/generators/synthetic.hpp"

namespace {

class EdgeWriter {
 public:
  explicit EdgeWriter(std::FILE* f) : f_(f) { buf_.reserve(1 << 20); }
  ~EdgeWriter() { flush(); }
  bool failed() const { return failed_; }
  void edge(std::uint64_t u, std::uint64_t v) {
    char tmp[48];
    char* p = std::to_chars(tmp, tmp + 20, u).ptr;
    *p++ = '\t';
    p = std::to_chars(p, p + 20, v).ptr;
    *p++ = '\n';
    buf_.append(tmp, p);
    if (buf_.size() > (1 << 20) - 64) flush();
  }
  void flush() {
    if (!failed_ && !buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size())
      failed_ = true;  // the caller reports it and removes the file
    buf_.clear();
  }

 private:
  std::FILE* f_;
  std::string buf_;
  bool failed_ = false;
};

[[noreturn]] void usage() {
  std::fprintf(
      stderr,
      "usage: graphrun-generate uniform N DEGREE [--seed S] [-o FILE]\n"
      "       graphrun-generate rmat SCALE EDGE_FACTOR [--seed S] [--abc A B C] [-o FILE]\n"
      "       graphrun-generate grid ROWS COLS [-o FILE]\n"
      "       graphrun-generate lfr N [--degree K] [--max-degree M] [--mu MU] [--tau1 T]\n"
      "           [--tau2 T] [--min-community C] [--max-community C] [--seed S] [-o FILE]\n"
      "           [--communities FILE]\n"
      "  lfr: an LFR benchmark graph (Lancichinetti, Fortunato & Radicchi 2008) of N\n"
      "  vertices, each undirected edge once (load it with --undirected): degrees from a\n"
      "  power law of exponent --tau1 (default 2) with mean --degree (20) up to\n"
      "  --max-degree (50); community sizes from a power law of exponent --tau2 (1)\n"
      "  between --min-community and --max-community (default: the smallest and largest\n"
      "  degree); a share --mu (0.3) of each vertex's edges leaves its community.\n"
      "  --communities FILE writes the planted communities as 'vertex<TAB>community'\n"
      "  lines (what graphrun contract --labels reads). A summary goes to stderr.\n");
  std::exit(2);
}

std::uint64_t parse_u64(const char* s) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(s, s + std::strlen(s), v);
  if (ec != std::errc() || *end != '\0') usage();
  return v;
}

double parse_double(const char* s) {
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s || *end != '\0') usage();
  return v;
}

}  // namespace

// The planted communities of the vertices that have an edge (the others are
// not in the graph a loader builds), as "vertex<TAB>community" lines.
bool write_communities(std::FILE* f, const graphrun::gen::LfrGraph& g) {
  std::vector<char> has_edge(g.community.size(), 0);
  for (std::size_t e = 0; e < g.edges.row.size(); ++e)
    has_edge[static_cast<std::size_t>(g.edges.row[e])] =
        has_edge[static_cast<std::size_t>(g.edges.col[e])] = 1;
  std::fprintf(f, "# vertex\tcommunity (planted by graphrun-generate lfr)\n");
  EdgeWriter w(f);
  for (std::size_t v = 0; v < g.community.size(); ++v)
    if (has_edge[v]) w.edge(v, static_cast<std::uint64_t>(g.community[v]));
  w.flush();
  return !w.failed();
}

// Whether `path` names a regular file (not a link, a device, a FIFO): the
// only kind a failed run may remove.
bool regular_file(const char* path) {
  struct stat st;
  return ::lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

// An output file opened for writing, removed again unless commit() says it
// was written whole: a failed run leaves no half-written file behind. Only
// a regular file is removed: -o /dev/full or a link must stay what it was.
class Output {
 public:
  // path null: stdout.
  explicit Output(const char* path) : path_(path), f_(path ? std::fopen(path, "wb") : stdout) {}
  ~Output() {
    if (path_ && f_) std::fclose(f_);
    if (path_ && !committed_ && regular_file(path_)) std::remove(path_);
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  std::FILE* file() const { return f_; }
  const char* name() const { return path_ ? path_ : "stdout"; }
  // Flushes and closes; false (errno set) when anything failed.
  bool commit() {
    bool ok = std::fflush(f_) == 0 && !std::ferror(f_);
    if (path_) {
      ok = std::fclose(f_) == 0 && ok;
      f_ = nullptr;
    }
    committed_ = ok;
    return ok;
  }

 private:
  const char* path_;
  std::FILE* f_;
  bool committed_ = false;
};

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const std::string kind = argv[1];
  if (kind != "uniform" && kind != "rmat" && kind != "grid" && kind != "lfr") usage();
  const bool lfr = kind == "lfr";
  if (!lfr && argc < 4) usage();
  std::uint64_t seed = 1;
  double a = 0.57, b = 0.19, c = 0.19;
  const char* out_path = nullptr;
  const char* communities_path = nullptr;
  graphrun::gen::LfrOptions lo;
  for (int i = lfr ? 3 : 4; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--seed") && has_value) {
      seed = parse_u64(argv[++i]);
    } else if (lfr && !std::strcmp(argv[i], "--degree") && has_value) {
      lo.avg_degree = parse_double(argv[++i]);
    } else if (lfr && !std::strcmp(argv[i], "--max-degree") && has_value) {
      lo.max_degree = parse_u64(argv[++i]);
    } else if (lfr && !std::strcmp(argv[i], "--mu") && has_value) {
      lo.mu = parse_double(argv[++i]);
    } else if (lfr && !std::strcmp(argv[i], "--tau1") && has_value) {
      lo.tau1 = parse_double(argv[++i]);
    } else if (lfr && !std::strcmp(argv[i], "--tau2") && has_value) {
      lo.tau2 = parse_double(argv[++i]);
    } else if (lfr && !std::strcmp(argv[i], "--min-community") && has_value) {
      lo.min_community = parse_u64(argv[++i]);
    } else if (lfr && !std::strcmp(argv[i], "--max-community") && has_value) {
      lo.max_community = parse_u64(argv[++i]);
    } else if (lfr && !std::strcmp(argv[i], "--communities") && has_value) {
      communities_path = argv[++i];
    } else if (!lfr && !std::strcmp(argv[i], "--abc") && i + 3 < argc) {
      a = parse_double(argv[++i]);
      b = parse_double(argv[++i]);
      c = parse_double(argv[++i]);
      if (a < 0 || b < 0 || c < 0 || a + b + c > 1) usage();
    } else if (!std::strcmp(argv[i], "-o") && i + 1 < argc) {
      out_path = argv[++i];
    } else {
      usage();
    }
  }
  // Generate first: bad parameters end the run before any file is touched.
  graphrun::Coo<double> coo;
  graphrun::gen::LfrGraph planted;
  try {
    if (lfr) {
      lo.n = parse_u64(argv[2]);
      lo.seed = seed;
      planted = graphrun::gen::lfr(lo);
      std::fprintf(stderr,
                   "graphrun-generate lfr: %llu vertices, %zu edges, %d communities, mixing %.4f "
                   "(asked %.4f), %lld stubs left unplaced\n",
                   static_cast<unsigned long long>(lo.n), planted.edges.row.size(),
                   planted.n_communities, planted.mixing, lo.mu,
                   static_cast<long long>(planted.dropped_stubs));
      coo = std::move(planted.edges);
    } else if (kind == "uniform") {
      coo = graphrun::gen::uniform(parse_u64(argv[2]), parse_u64(argv[3]), seed);
    } else if (kind == "rmat") {
      const std::uint64_t scale = parse_u64(argv[2]);
      if (scale == 0 || scale > 31) usage();
      coo = graphrun::gen::rmat(static_cast<unsigned>(scale), parse_u64(argv[3]), seed, a, b, c);
    } else {
      coo = graphrun::gen::grid(parse_u64(argv[2]), parse_u64(argv[3]));
    }
  } catch (const graphrun::Error& e) {
    std::fprintf(stderr, "graphrun-generate: %s\n", e.what());
    return 2;
  }

  Output out(out_path);
  if (!out.file()) {
    std::perror(out_path);
    return 1;
  }
  std::FILE* f = out.file();
  std::fprintf(f, "# graphrun-generate");  // the parameters, not the output's name
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-o") || !std::strcmp(argv[i], "--communities")) {
      ++i;
      continue;
    }
    std::fprintf(f, " %s", argv[i]);
  }
  std::fprintf(f, "\n");
  {
    EdgeWriter w(f);
    for (std::size_t k = 0; k < coo.row.size(); ++k)
      w.edge(static_cast<std::uint64_t>(coo.row[k]), static_cast<std::uint64_t>(coo.col[k]));
    w.flush();
    if (w.failed()) {
      std::perror(out.name());
      return 1;
    }
  }
  if (!out.commit()) {
    std::perror(out.name());
    return 1;
  }
  if (communities_path) {
    planted.edges = std::move(coo);  // write_communities reads which vertices have an edge
    Output truth(communities_path);
    if (!truth.file() || !write_communities(truth.file(), planted) || !truth.commit()) {
      std::perror(communities_path);
      // A graph without its communities is no use.
      if (out_path && regular_file(out_path)) std::remove(out_path);
      return 1;
    }
  }
  return 0;
}
