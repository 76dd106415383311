// CPU benchmark: graphrun's loader and PageRank beside SuiteSparse:GraphBLAS
// running PageRank the way LAGraph writes it (LAGr_PageRank, "GAP" variant),
// on the same graphs, in one run, with the same number of threads.
//
//   graphrun-bench-cpu [--threads N] [--iters K] [--reps R] [--undirected] FILE...
//
// For each graph it prints: load time and MB/s (uncompressed bytes parsed),
// zlib's inflate rate on the same file (the floor for a .gz input), seconds
// per PageRank iteration for both (median of R alternating runs of K
// iterations each), the ratio, the memory-traffic floor of an
// iteration (bytes that must move / measured copy bandwidth), and the L1
// distance between the two rank vectors (they compute the same function).
//
// Both sides run unweighted PageRank (LAGraph's definition) in double
// precision; both use the transpose built outside the timed region.
extern "C" {
#include <GraphBLAS.h>
}
#include <omp.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "graphrun/algorithms/pagerank.hpp"
#include "graphrun/io/load.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void ok(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS && info != GrB_NO_VALUE)
    throw std::runtime_error(std::string("GraphBLAS call failed: ") + what);
}
#define GRB_CHECK(call) ok((call), #call)

// Decompression rate of zlib alone on the file (MB/s of output), or 0 when
// the file is not gzip: what no .gz loader can beat on one thread.
double inflate_mb_per_s(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return 0;
  if (gzdirect(f)) {
    gzclose(f);
    return 0;
  }
  std::vector<char> buf(1 << 20);
  std::size_t total = 0;
  auto t0 = Clock::now();
  int got;
  while ((got = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0) total += got;
  gzclose(f);
  return static_cast<double>(total) / 1e6 / since(t0);
}

// Copy bandwidth (bytes read + written per second) over arrays well past the
// caches, with the given threads: the ceiling a memory-bound loop can reach.
double copy_bandwidth(int threads) {
  const std::size_t n = std::size_t{64} << 20;  // 512 MiB per array
  std::vector<double> a(n, 1.0), b(n, 0.0);
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = Clock::now();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::size_t i = 0; i < n; ++i) b[i] = a[i];
    best = std::max(best, 2.0 * n * sizeof(double) / since(t0));
  }
  if (b[n / 2] != 1.0) std::abort();
  return best;
}

GrB_Matrix to_graphblas(const graphrun::Csr<double>& a) {
  const auto n = static_cast<GrB_Index>(a.n_rows());
  const auto nnz = static_cast<GrB_Index>(a.nnz());
  std::vector<GrB_Index> ap(a.row_ptr().begin(), a.row_ptr().end());
  std::vector<GrB_Index> aj(a.col_idx().begin(), a.col_idx().end());
  std::vector<double> ax(std::max<GrB_Index>(nnz, 1), 1.0);
  GrB_Matrix m;
  GRB_CHECK(GrB_Matrix_import_FP64(&m, GrB_FP64, n, n, ap.data(), aj.data(), ax.data(), n + 1, nnz,
                                   nnz, GrB_CSR_FORMAT));
  return m;
}

struct GraphBlasPageRank {
  std::vector<double> rank;
  double seconds = 0;
};

// LAGr_PageRank's loop, in FP64 and without its convergence exit so that
// exactly `iters` iterations are timed.
GraphBlasPageRank graphblas_pagerank(const graphrun::Graph& g, int iters, double damping) {
  const auto n = static_cast<GrB_Index>(g.n_vertices());
  GrB_Matrix at = to_graphblas(g.transpose());
  // d = out-degree / damping, present only for vertices with out-edges;
  // sinks: the vertices with none.
  std::vector<GrB_Index> di, sinks;
  std::vector<double> dx;
  for (graphrun::vertex_t v = 0; v < g.n_vertices(); ++v) {
    const auto deg = g.adj().row_length(v);
    if (deg > 0) {
      di.push_back(static_cast<GrB_Index>(v));
      dx.push_back(static_cast<double>(deg) / damping);
    } else {
      sinks.push_back(static_cast<GrB_Index>(v));
    }
  }
  GrB_Vector d, r, t, w, sink_vals;
  GRB_CHECK(GrB_Vector_new(&d, GrB_FP64, n));
  GRB_CHECK(GrB_Vector_build_FP64(d, di.data(), dx.data(), di.size(), GrB_PLUS_FP64));
  GRB_CHECK(GrB_Vector_new(&r, GrB_FP64, n));
  GRB_CHECK(GrB_Vector_new(&t, GrB_FP64, n));
  GRB_CHECK(GrB_Vector_new(&w, GrB_FP64, n));
  GRB_CHECK(GrB_Vector_new(&sink_vals, GrB_FP64, sinks.size()));
  GRB_CHECK(GrB_Vector_assign_FP64(r, nullptr, nullptr, 1.0 / static_cast<double>(n), GrB_ALL, n,
                                   nullptr));
  GRB_CHECK(GrB_Matrix_wait(at, GrB_MATERIALIZE));
  const double teleport = (1 - damping) / static_cast<double>(n);
  auto t0 = Clock::now();
  for (int k = 0; k < iters; ++k) {
    std::swap(t, r);  // t: the previous ranks
    double ssum = 0;
    if (!sinks.empty()) {
      GRB_CHECK(
          GrB_Vector_extract(sink_vals, nullptr, nullptr, t, sinks.data(), sinks.size(), nullptr));
      GRB_CHECK(GrB_Vector_reduce_FP64(&ssum, nullptr, GrB_PLUS_MONOID_FP64, sink_vals, nullptr));
      ssum *= damping / static_cast<double>(n);
    }
    GRB_CHECK(GrB_Vector_assign_FP64(r, nullptr, nullptr, teleport + ssum, GrB_ALL, n, nullptr));
    GRB_CHECK(GrB_Vector_eWiseMult_BinaryOp(w, nullptr, nullptr, GrB_DIV_FP64, t, d, nullptr));
    GRB_CHECK(GrB_mxv(r, nullptr, GrB_PLUS_FP64, GxB_PLUS_SECOND_FP64, at, w, nullptr));
    GRB_CHECK(GrB_Vector_assign(t, nullptr, GrB_MINUS_FP64, r, GrB_ALL, n, nullptr));
    GRB_CHECK(GrB_Vector_apply(t, nullptr, nullptr, GrB_ABS_FP64, t, nullptr));
    double rdiff = 0;
    GRB_CHECK(GrB_Vector_reduce_FP64(&rdiff, nullptr, GrB_PLUS_MONOID_FP64, t, nullptr));
  }
  GraphBlasPageRank out;
  out.seconds = since(t0);
  out.rank.assign(n, 0.0);
  std::vector<GrB_Index> ri(n);
  std::vector<double> rx(n);
  GrB_Index nv = n;
  GRB_CHECK(GrB_Vector_extractTuples_FP64(ri.data(), rx.data(), &nv, r));
  for (GrB_Index k = 0; k < nv; ++k) out.rank[ri[k]] = rx[k];
  GrB_Matrix_free(&at);
  GrB_Vector_free(&d);
  GrB_Vector_free(&r);
  GrB_Vector_free(&t);
  GrB_Vector_free(&w);
  GrB_Vector_free(&sink_vals);
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string base_name(const std::string& path) {
  auto s = path.substr(path.find_last_of('/') + 1);
  return s.substr(0, s.find('.'));
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2, iters = 20, reps = 7;
  bool undirected = false;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--undirected")) {
      undirected = true;
    } else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--iters") && i + 1 < argc) {
      iters = std::atoi(argv[++i]);
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr,
                   "usage: %s [--threads N] [--iters K] [--reps R] [--undirected] FILE...\n",
                   argv[0]);
      return 2;
    } else {
      files.emplace_back(argv[i]);
    }
  }
  if (files.empty() || threads < 1 || iters < 1 || reps < 1) {
    std::fprintf(stderr, "usage: %s [--threads N] [--iters K] [--reps R] [--undirected] FILE...\n",
                 argv[0]);
    return 2;
  }
  omp_set_num_threads(threads);
  GRB_CHECK(GrB_init(GrB_NONBLOCKING));
  GRB_CHECK(GxB_Global_Option_set(GxB_GLOBAL_NTHREADS, threads));
  const double bw = copy_bandwidth(threads);
  std::printf(
      "threads %d, median of %d runs of %d PageRank iterations, measured copy bandwidth %.1f "
      "GB/s\n\n",
      threads, reps, iters, bw / 1e9);
  std::printf(
      "| graph | vertices | edges | load MB/s | zlib inflate MB/s | graphrun s/iter | GraphBLAS "
      "s/iter | speed-up | floor s/iter | graphrun / floor | L1(graphrun, GraphBLAS) |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  const double damping = 0.85;
  for (const auto& path : files) {
    graphrun::io::LoadStats ls;
    graphrun::io::LoadOptions lo;
    lo.threads = threads;
    lo.undirected = undirected;
    auto t0 = Clock::now();
    graphrun::Graph g = graphrun::io::load_graph(path, lo, &ls);
    const double load_s = since(t0);
    (void)g.transpose();  // both sides get the transpose for free
    graphrun::Context ctx(graphrun::Device::cpu, threads);
    graphrun::PageRankOptions po;
    po.damping = damping;
    po.tol = 1e-300;  // run exactly `iters` iterations
    po.max_iter = iters;
    po.use_weights = false;
    // Warm up both, then alternate them `reps` times (so that a slow spell
    // of the machine hits both sides) and take each side's median.
    graphrun::pagerank(ctx, g, po);
    graphblas_pagerank(g, 2, damping);
    std::vector<double> ours_t, theirs_t;
    graphrun::PageRankResult ours;
    GraphBlasPageRank theirs;
    for (int rep = 0; rep < reps; ++rep) {
      ours = graphrun::pagerank(ctx, g, po);
      ours_t.push_back(ours.seconds / ours.iterations);
      theirs = graphblas_pagerank(g, iters, damping);
      theirs_t.push_back(theirs.seconds / iters);
    }
    const double ours_it = median(ours_t), theirs_it = median(theirs_t);
    double l1 = 0;
    for (graphrun::vertex_t v = 0; v < g.n_vertices(); ++v)
      l1 += std::fabs(ours.rank[v] - theirs.rank[v]);
    // Bytes an iteration must move: the transpose's row_ptr and col_idx once,
    // the scaled rank vector read once per in-edge is at least once (8 B/v),
    // the new ranks written and the old read for the L1 change.
    const double n = g.n_vertices(), m = static_cast<double>(g.n_edges());
    const double bytes = 8 * (n + 1) + 4 * m + 8 * n + 8 * n + 8 * n;
    const double floor_s = bytes / bw;
    std::printf("| %s | %d | %lld | %.0f | %.0f | %.3g | %.3g | %.2f | %.2g | %.1f | %.1e |\n",
                base_name(path).c_str(), g.n_vertices(), static_cast<long long>(g.n_edges()),
                ls.bytes_read / 1e6 / load_s, inflate_mb_per_s(path), ours_it, theirs_it,
                theirs_it / ours_it, floor_s, ours_it / floor_s, l1);
    std::fflush(stdout);
  }
  GrB_finalize();
  return 0;
}
