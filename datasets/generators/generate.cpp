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
//
// Output goes to stdout (or -o FILE): a comment header with the command,
// then "src<TAB>dst" lines. The graphs come from graphrun/generators.hpp
// (also what `graphrun bench` uses for gen: inputs), so the same command gives
// the same file on every platform and at every thread count.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/generators.hpp"

namespace {

class EdgeWriter {
 public:
  explicit EdgeWriter(std::FILE* f) : f_(f) { buf_.reserve(1 << 20); }
  ~EdgeWriter() { flush(); }
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
    if (!buf_.empty() && std::fwrite(buf_.data(), 1, buf_.size(), f_) != buf_.size()) {
      std::perror("graphrun-generate: write");
      std::exit(1);
    }
    buf_.clear();
  }

 private:
  std::FILE* f_;
  std::string buf_;
};

[[noreturn]] void usage() {
  std::fprintf(
      stderr,
      "usage: graphrun-generate uniform N DEGREE [--seed S] [-o FILE]\n"
      "       graphrun-generate rmat SCALE EDGE_FACTOR [--seed S] [--abc A B C] [-o FILE]\n"
      "       graphrun-generate grid ROWS COLS [-o FILE]\n");
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

int main(int argc, char** argv) {
  if (argc < 4) usage();
  const std::string kind = argv[1];
  if (kind != "uniform" && kind != "rmat" && kind != "grid") usage();
  std::uint64_t seed = 1;
  double a = 0.57, b = 0.19, c = 0.19;
  const char* out_path = nullptr;
  for (int i = 4; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = parse_u64(argv[++i]);
    } else if (!std::strcmp(argv[i], "--abc") && i + 3 < argc) {
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
  std::FILE* f = out_path ? std::fopen(out_path, "wb") : stdout;
  if (!f) {
    std::perror(out_path);
    return 1;
  }
  std::fprintf(f, "# graphrun-generate");  // the parameters, not the output's name
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-o")) {
      ++i;
      continue;
    }
    std::fprintf(f, " %s", argv[i]);
  }
  std::fprintf(f, "\n");
  try {
    graphrun::Coo<double> coo;
    if (kind == "uniform") {
      coo = graphrun::gen::uniform(parse_u64(argv[2]), parse_u64(argv[3]), seed);
    } else if (kind == "rmat") {
      const std::uint64_t scale = parse_u64(argv[2]);
      if (scale == 0 || scale > 31) usage();
      coo = graphrun::gen::rmat(static_cast<unsigned>(scale), parse_u64(argv[3]), seed, a, b, c);
    } else {
      coo = graphrun::gen::grid(parse_u64(argv[2]), parse_u64(argv[3]));
    }
    EdgeWriter w(f);
    for (std::size_t k = 0; k < coo.row.size(); ++k)
      w.edge(static_cast<std::uint64_t>(coo.row[k]), static_cast<std::uint64_t>(coo.col[k]));
  } catch (const graphrun::Error& e) {
    std::fprintf(stderr, "graphrun-generate: %s\n", e.what());
    return 2;
  }
  if (std::fflush(f) != 0 || (out_path && std::fclose(f) != 0)) {
    std::perror("graphrun-generate");
    return 1;
  }
  return 0;
}
