// choose_spmv_format: the SpMV format for a matrix's row statistics, per
// device. The CPU and GPU rules are separate functions, each with the
// measurements behind it.
#include <omp.h>

#include "graphrun/engine/formats/merge_path.hpp"
#include "graphrun/engine/spmv_format.hpp"

namespace graphrun {

// CPU: the CSR kernel (csr-warp and csr-thread both name it on the CPU) or
// merge-path; the other formats exist on the CPU only as references.
//
// The CSR kernel splits rows into 8 blocks of equal work (rows + nnz) per
// thread, handed out dynamically; it cannot split a row, so its parallel time
// is at least the time of the longest row. Merge-path (8 equal shares of the
// merge path per thread, also dynamic) splits rows and pays a carry-out
// fix-up. Measured piece by piece (each block or share timed on the thread
// CPU clock, the parallel time taken as the makespan of the kernel's dynamic
// schedule on T threads; 21 rounds alternating A/B and B/A, medians), on a
// 2-vCPU x86 machine shared with compilations, which made wall-clock medians
// at 2 threads useless (20 ms scheduler stalls). PlusTimes<double> over
// the matrices as loaded; R-MAT from gen::rmat (Graph500's a = .57); the
// power law, heavy-row and hub matrices are the tests' random_csr shapes
// (power_law; heavy_row; heavy_row with many more columns than rows):
//
//   matrix (rows, nnz)            longest row / (rows + nnz)   merge-path / CSR time
//                                                              T=1   T=2   T=4   T=16  T=64
//   email-Enron (37K, 368K)       0.003                        1.04  1.07  1.07  1.10  1.05
//   ca-HepPh (12K, 237K)          0.002                        1.07  0.80  0.84  0.98  1.15
//   p2p-Gnutella30 (37K, 88K)     0.0004                       1.00  1.10  1.08  1.14  1.25
//   R-MAT 18, ef 16 (262K, 3.9M)  0.004                        1.07  0.96  1.03  1.06  1.17
//   R-MAT 20, ef 16 (1M, 16M)     0.002                        1.03  1.01  1.06  1.01  0.94
//   power law Zipf .9 (1M, 7.5M)  0.027                        0.97  1.04  1.02  1.19  0.92
//   one heavy row (200K, 392K)    0.32                         0.98  0.96  0.94  0.84  0.86
//   one heavy row (1M, 2.0M)      0.33                         0.89  0.91  0.92  0.99  0.52
//   hub, 200K x 1M (751K nnz)     0.58                         0.79  0.92  0.79  0.36  0.14
//   hub, 100K x 1M (898K nnz)     0.80                         0.96  0.80  0.65  0.30  0.12
//   hub, 20K x 2M (679K nnz)      0.94                         0.90  0.55  0.30  0.13  0.05
//
// (T=1 runs both as one serial pass, so that column shows the noise of the
// machine: about +-10%, sometimes 20%.) Wall-clock medians of the parallel
// kernels themselves, taken when the load had dropped to 3, agree at T=2:
// hub 0.94: 0.50, hub 0.80: 0.90, hub 0.58: 0.96, heavy row 0.33: 1.06,
// R-MAT 20: 1.06, email-Enron, ca-HepPh, luxembourg_osm, pgp-strong-2009:
// 0.95-1.08.
//
// While every row is shorter than a thread's share of the work,
// (rows + nnz) / T, the two stay within the noise of each other, CSR a little
// ahead at 16-64 threads. Past it, the row bounds the CSR kernel and
// merge-path is ahead: hub 0.58 at T=2 and 4, heavy rows 0.33 at T=4 and 64
// (level at 16), the power law at T=64; by up to 20x at the extreme. So:
// merge-path when the longest row is longer than (rows + nnz) / T, else CSR.
// T is the thread count of the SpMV: spmv() with SpmvFormat::automatic asks
// with its context's; choose_spmv_format(), which has no context, with
// OpenMP's default (what a CPU Context uses unless told, OMP_NUM_THREADS).
// Matrices too small for either kernel to go parallel (under 2^14 rows + nnz)
// stay on CSR.
bool merge_path_pays_on_cpu(const RowStats& stats, int threads) noexcept {
  const double work = static_cast<double>(stats.n_rows) + static_cast<double>(stats.nnz);
  if (threads <= 1 || work < static_cast<double>(cpu_min_parallel_work)) return false;
  return static_cast<double>(stats.max_length) * threads > work;
}

namespace {

SpmvFormat choose_cpu_format(const RowStats& stats) {
  return merge_path_pays_on_cpu(stats, omp_get_max_threads()) ? SpmvFormat::merge_path
                                                              : SpmvFormat::csr_warp;
}

// GPU: measured on an H200 with `graphrun bench spmv --suite DATASETS --device
// cuda` (docs/bench/spmv-h200.md): every format beside cuSPARSE's
// cusparseSpMV on the 45 files of the shared collection that load (two are
// node lists that parse as edge lists) and the generated suite, double values. Speed-ups over
// cuSPARSE (> 1: faster):
//
//   graph (rows, mean, cv)           csr-thread csr-warp  hyb   coo  merge-path
//   2000x2000 grid (4M, 4.0, 0.01)      2.27      0.98   2.02  1.08   0.62
//   luxembourg_osm (115K, 2.1, 0.20)    1.62      1.50   0.86  1.11   1.04
//   uniform 4M, degree 16 (16, 0.25)    0.75      0.96   1.04  0.86   0.83
//   R-MAT 22 (4M, 15.6, 12.0)           0.05      0.29   0.94  0.98   0.94
//   R-MAT 20 (1M, 15.3, 9.2)            0.04      0.22   0.98  1.01   0.98
//   email-Enron (37K, 10.0, 3.6)        0.16      0.73   0.81  1.16   1.08
//   pgp-strong-2009 (40K, 7.6, 2.7)     0.14      0.45   0.83  1.16   1.03
//   ca-HepPh (12K, 19.7, 2.4)           0.41      1.08   0.78  1.05   1.01
//   the 41 other graphs (< 40K rows)    0.24-2.1  1.13-2.1 0.6-2.2 0.4-1.3 0.8-1.3
//
// (ELL, where it fits, trails csr-thread or HYB; JDS trails almost
// everywhere.) Below about 100K rows an SpMV takes microseconds, bound by
// launch and memory latency: csr-warp, one launch with up to a warp per row,
// is the fastest format on 39 of the 41 and within 10% on the other two
// (cuSPARSE takes 9-16 us there, csr-warp 7-13 us). Long rows (a coefficient
// of variation past 2, or a row 64x the mean) stall one warp while the others
// idle; COO's equal tiles of entries with a segmented reduction keep every
// block busy, ahead of merge-path on all five such graphs. Large regular matrices are
// bandwidth-bound: a thread per row reads short rows with the fewest instructions (grid: 73% of the
// measured copy bandwidth), and past 8 entries per row HYB's coalesced ELL
// slots win. Picks: geometric mean 1.52x cuSPARSE over 49 graphs, lowest
// 0.98x (R-MAT 22).
//
// Skewed matrices of 2^20 rows and more go to merge-path (2026-12-05, an
// H100, `graphrun bench spmv --device cuda --reps 30`): there its shares of
// rows + entries were ahead of COO's tiles of entries on every R-MAT graph,
// where on the H200 above COO was a few percent ahead:
//
//   graph (rows, mean, cv)                 coo   merge-path   (x cuSPARSE, H100)
//   R-MAT 20 undirected (1M, 29.9, 8.6)    0.89  0.97
//   R-MAT 22 undirected (4M, 30.6, 11.3)   0.88  1.02
//   R-MAT 24 undirected (16.8M, 31.0, 14.8) 0.87 1.03
//   R-MAT 20 (1M, 15.3, 9.2)               0.94  1.03
//   R-MAT 22 (4M, 15.6, 12.0)              0.91  1.01
//   web-NotreDame (326K, 4.6, 4.7)         1.30  1.06
//   soc-Epinions1 (76K, 6.7, 3.9)          1.35  1.24
//   soc-Slashdot0902 (82K, 11.5, 3.2)      1.02  0.95
//
// Below 2^20 rows COO stays: well ahead on the web and social graphs. On the
// H200 merge-path is within 4% of COO on R-MAT 20 and 22, so the rule keeps
// the pick within 10% of the fastest on both.
//
// Rows renumbered by degree (dbg, degree, hubsort on a symmetric matrix: its
// rows of like length side by side) go to csr-bins instead (2026-12-06, an
// H100, `graphrun bench spmv --device cuda --reorder dbg`): each bin's rows
// then lie together, and its lanes per row suit them, without merge-path's
// search and staging per tile. x cuSPARSE on the input order:
//
//   graph, renumbered by dbg        csr-bins  merge-path  coo
//   R-MAT 22 undirected             1.19      1.08        1.01
//   R-MAT 20 undirected             1.25      1.13        1.09
//
// In input order csr-bins is behind (R-MAT 22: 1.00 against merge-path's
// 1.07), its rows' bins scattered.
//
// Regular rows of more than 8 entries went to HYB until SELL-32-σ came
// (2026-12-06, an H100, `graphrun bench spmv` and `bench pagerank --gather
// float --format F`, x cuSPARSE; PageRank's iteration against the
// cuSPARSE-based one):
//
//   graph (rows, mean, cv)            SpMV: hyb  jds   sell   PageRank: hyb  jds   sell
//   uniform 4M x 16 (4.2M, 32, 0.18)        1.16 1.19  1.14             1.48 1.39  1.51
//   uniform 16M x 16 (16.8M, 32, 0.18)      1.12 1.03  1.09             -    -     -
//   LFR 1M, mu 0.3 (1M, 19.8, 0.49)         0.99 1.10  1.08             1.13 1.24  1.21
//
// SELL is within 5% of the fastest format on each of these and the fastest
// PageRank iteration on the uniform graph, where PageRank gathers x in float;
// HYB was 10% behind JDS on LFR. (JDS: its rows sorted over the whole matrix
// scatter its stores, 1.03x on the 16M-row graph.)
//
// Rows of varied length (cv past 0.5) and a million entries or more, few
// rows of them, go to COO as the skewed ones do (2026-12-06, an H100,
// `graphrun bench spmv --device cuda --undirected`): on Cornell5 (18,660
// rows of 85 entries on average, cv 1.0, no row long enough to count as
// skewed) csr-warp, the pick before, ran at 0.88x cuSPARSE and COO at 1.15x;
// a warp per row of a few hundred entries leaves the lanes of shorter rows
// idle, where COO's equal tiles do not.
SpmvFormat choose_gpu_format(const RowStats& stats, RowOrder rows) {
  const bool skewed = stats.cv > 2.0 || stats.max_length > 64 * (stats.mean + 1);
  if (skewed && stats.n_rows >= (1 << 20))
    return rows == RowOrder::by_degree ? SpmvFormat::csr_bins : SpmvFormat::merge_path;
  if (skewed) return SpmvFormat::coo;
  const bool regular = stats.cv <= 0.5;
  if (regular && stats.n_rows >= (1 << 16))
    return stats.mean <= 8 ? SpmvFormat::csr_thread : SpmvFormat::sell;
  if (!regular && stats.nnz >= (1 << 20)) return SpmvFormat::coo;
  return SpmvFormat::csr_warp;
}

}  // namespace

SpmvFormat choose_spmv_format(const RowStats& stats, Device device, RowOrder rows) {
  return device == Device::cpu ? choose_cpu_format(stats) : choose_gpu_format(stats, rows);
}

}  // namespace graphrun
