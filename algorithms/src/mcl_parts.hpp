// The pieces of Markov clustering that the CPU loop (mcl.cpp) and the GPU
// loop (cuda/mcl.cu) share: the start matrix, the pruning rule of one
// column, and reading the clusters off the limit matrix. Each follows the
// mcl program (22-282) step for step, down to its float/double mix: values
// are stored as float, sums run in double in index order, and a quotient is
// rounded to float once, `(float)((double)v / sum)`.
//
// Storage: rows of these CSR matrices are mcl's columns (see mcl.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "graphrun/algorithms/mcl.hpp"
#include "graphrun/engine/csr.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::detail::mcl {

// ArgumentError for parameters out of range (both backends check first).
void validate(const MclOptions& o);

// mcl's resource parameters, as the per-column code sees them.
struct PruneParams {
  double cut;   // rigid cutoff: mcl's precision 0.99999 / P; entries >= cut stay
  double pct;   // recovery when the kept mass is below this (pct / 100)
  int select;   // S: keep the S largest when more than S pass the cutoff
  int recover;  // R: recovery may keep up to R

  static PruneParams from(const MclOptions& o) {
    return {0.99999 / o.prune_number, o.recover_percent / 100.0, o.select_number, o.recover_number};
  }
};

// After iteration 40 mcl raises the inflation by 0.1 % per iteration, so
// that a rare periodic iterand cannot keep it going forever.
inline constexpr int inflation_bump_after = 40;
inline constexpr double inflation_bump = 1.001;

// The start matrix: the undirected graph (a directed one symmetrized with
// the larger weight of the two directions, as mcl merges repeated arcs),
// weights rounded to float, zero weights dropped, input loops discarded,
// then a loop of the column's largest weight on every vertex (1 for a
// vertex without edges), columns normalized. ArgumentError for a negative
// weight.
Csr<float> start_matrix(const Graph& g, int threads);

// What pruning decides for one expanded column (mclExpandVector1): keep
// every entry >= threshold; `kept` of them; `chaos` is mcl's column chaos,
// (max - Σ v²) of the unpruned column times the kept count.
struct PruneDecision {
  double threshold = 0;
  std::int64_t kept = 0;
  float chaos = 0;
};

// The k-th largest (k >= 1, counted with multiplicity) of the values below
// `below`, in `scratch`'s storage; there are at least k of them.
inline double kth_largest_below(const float* v, std::int64_t n, std::int64_t k, double below,
                                std::vector<float>& scratch) {
  scratch.clear();
  for (std::int64_t i = 0; i < n; ++i)
    if (static_cast<double>(v[i]) < below) scratch.push_back(v[i]);
  const auto kth = scratch.begin() + (k - 1);
  std::nth_element(scratch.begin(), kth, scratch.end(), std::greater<float>());
  return *kth;
}

// One pass over a column (n >= 1): its largest value, Σ v² and, of the
// entries >= cut, the sum and count; sums in index order. A function of its
// own so that the accumulators stay in registers: inlined into
// prune_column, where they live on across calls, GCC kept them on the
// stack, a store and a reload per entry on each chain, and this pass took
// about a tenth of the CPU iteration on the LFR graph of mu = 0.3.
struct ColumnSums {
  float maxval;
  double center, mass;
  std::int64_t n_cut;
};

[[gnu::noinline]] inline ColumnSums column_sums(const float* v, std::int64_t n, double cut) {
  float maxval = v[0];
  double center = 0, mass = 0;
  std::int64_t n_cut = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const float f = v[i];
    const double x = f;
    maxval = maxval < f ? f : maxval;  // std::max's order of operands
    center += x * x;
    if (x >= cut) {
      mass += x;
      ++n_cut;
    }
  }
  return {maxval, center, mass, n_cut};
}

// mcl's pruning of one column of n values (the expanded column rounded to
// float, in row order). In order: the rigid cutoff; recovery of the largest
// cut entries when fewer than R entries holding less than pct of the mass
// survive; otherwise selection of the S largest when more than S survive,
// followed by recovery of the largest entries that selection dropped under
// the same condition. Ties at a threshold are all kept, so a column can end
// with a few more than S or R entries, as in mcl.
inline PruneDecision prune_column(const float* v, std::int64_t n, const PruneParams& p,
                                  std::vector<float>& scratch) {
  PruneDecision d;
  if (n == 0) return d;
  const ColumnSums sums = column_sums(v, n, p.cut);
  const float maxval = sums.maxval;
  const double center = sums.center, mass = sums.mass;
  const std::int64_t n_cut = sums.n_cut;
  d.threshold = p.cut;
  d.kept = n_cut;
  if (p.recover > 0 && n_cut < p.recover && mass < p.pct) {
    // Recovery from the whole column: the R - n_cut largest below the cut.
    d.threshold = n > p.recover ? kth_largest_below(v, n, p.recover - n_cut, p.cut, scratch) : 0.0;
    d.kept = 0;
    for (std::int64_t i = 0; i < n; ++i) d.kept += static_cast<double>(v[i]) >= d.threshold;
  } else if (p.select > 0 && n_cut > p.select) {
    // Selection: the S-th largest of the entries that passed the cut.
    const double sbar =
        kth_largest_below(v, n, p.select, std::numeric_limits<double>::infinity(), scratch);
    double mass_select = 0;
    std::int64_t n_select = 0;
    for (std::int64_t i = 0; i < n; ++i)
      if (static_cast<double>(v[i]) >= sbar) {
        mass_select += v[i];
        ++n_select;
      }
    d.threshold = sbar;
    d.kept = n_select;
    if (p.recover > 0 && n_select < p.recover && mass_select < p.pct) {
      // Recovery among the entries that passed the cut but not selection.
      double rbar = 0;
      if (n_cut > p.recover) {
        rbar = kth_largest_below(v, n, p.recover - n_select, sbar, scratch);
        rbar = std::max(rbar, p.cut);  // only entries that passed the cut come back
      } else {
        rbar = p.cut;
      }
      d.threshold = rbar;
      d.kept = 0;
      for (std::int64_t i = 0; i < n; ++i) d.kept += static_cast<double>(v[i]) >= rbar;
    }
  }
  d.chaos =
      static_cast<float>((static_cast<double>(maxval) - center) * static_cast<double>(d.kept));
  return d;
}

// Reads the clusters off the limit matrix L as mcl does (mclDag,
// mclInterpret, then overlap cut and the "revsize" order): each column
// keeps the entries near its loop value and above 1/(n+1) of its
// renormalized mass; attractors are the columns that keep their loop;
// connected attractors form a system; every other vertex joins the systems
// of the attractors it reaches, and where it reaches several, the first one
// (the largest system); vertices that reach none form one more cluster.
// Clusters are numbered largest first, ties by their sorted member lists.
// Returns cluster[v]; *n_clusters gets the count.
std::vector<vertex_t> interpret(const Csr<float>& limit, vertex_t* n_clusters);

}  // namespace graphrun::detail::mcl
