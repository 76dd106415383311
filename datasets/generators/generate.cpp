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
// then "src<TAB>dst" lines. The random stream is a fixed 64-bit generator
// (splitmix64) mapped to ranges by multiply-shift, so the same command gives
// the same file on every platform.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (Lemire's multiply-shift; bias below 2^-64 * n).
  std::uint64_t below(std::uint64_t n) {
    __extension__ using u128 = unsigned __int128;  // GCC/Clang; exact 64x64 -> 128
    return static_cast<std::uint64_t>((static_cast<u128>(next()) * n) >> 64);
  }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

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
  {
    EdgeWriter w(f);
    SplitMix64 rng{seed};
    if (kind == "uniform") {
      const std::uint64_t n = parse_u64(argv[2]), degree = parse_u64(argv[3]);
      if (n == 0 || n > (1ULL << 31) || degree > (1ULL << 40) / n) usage();  // n*degree <= 2^40
      for (std::uint64_t k = 0; k < n * degree; ++k) w.edge(rng.below(n), rng.below(n));
    } else if (kind == "rmat") {
      const std::uint64_t scale = parse_u64(argv[2]), ef = parse_u64(argv[3]);
      if (scale == 0 || scale > 31 || ef == 0 || ef > (1ULL << 20)) usage();
      const std::uint64_t m = ef << scale;
      for (std::uint64_t k = 0; k < m; ++k) {
        std::uint64_t u = 0, v = 0;
        for (std::uint64_t bit = 0; bit < scale; ++bit) {
          const double r = rng.unit();  // quadrant: a (0,0), b (0,1), c (1,0), else (1,1)
          const bool row = r >= a + b, col = (r >= a && r < a + b) || r >= a + b + c;
          u |= static_cast<std::uint64_t>(row) << bit;
          v |= static_cast<std::uint64_t>(col) << bit;
        }
        w.edge(u, v);
      }
    } else if (kind == "grid") {
      const std::uint64_t rows = parse_u64(argv[2]), cols = parse_u64(argv[3]);
      if (rows == 0 || cols == 0 || rows > (1ULL << 31) / cols) usage();
      for (std::uint64_t r = 0; r < rows; ++r) {
        for (std::uint64_t col = 0; col < cols; ++col) {
          const std::uint64_t v = r * cols + col;
          if (col + 1 < cols) w.edge(v, v + 1);
          if (r + 1 < rows) w.edge(v, v + cols);
        }
      }
    } else {
      usage();
    }
  }
  if (std::fflush(f) != 0 || (out_path && std::fclose(f) != 0)) {
    std::perror("graphrun-generate");
    return 1;
  }
  return 0;
}
