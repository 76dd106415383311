// Every SpMV format on the CPU against the CSR reference: COO, ELL, HYB and
// JDS references, the merge-path reference and parallel kernel, and the
// spmv() entry point with each SpmvFormat, for every semiring × {no mask,
// mask, complemented mask} × matrix value type, on random matrices of the
// shapes that break kernels (weighted and pattern) and on real graphs from
// GRAPHRUN_DATASETS (skipped when absent).
//
// The COO, ELL, HYB and JDS references add a row's entries in CSR order, so
// they must equal the CSR reference byte for byte for every semiring. The
// parallel kernels associate PlusTimes sums differently (several
// accumulators, split rows): those are compared within the rounding bound
// 2 L eps sum_k |a_ik x_k|, and min, max and or byte for byte. Merge-path
// results must be bit-identical run to run for a thread count, and for a
// given partition whatever the thread count (MergePathIsDeterministic runs
// 1, 2, 3 and 7 threads). Rows outside the mask keep their previous value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/formats/coo_format.hpp"
#include "graphrun/engine/formats/ell.hpp"
#include "graphrun/engine/formats/hyb.hpp"
#include "graphrun/engine/formats/jds.hpp"
#include "graphrun/engine/formats/merge_path.hpp"
#include "graphrun/engine/formats/sell.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/kernels/cpu/spmv_reference.hpp"
#include "graphrun/kernels/spmv.hpp"
#include "support/random_graphs.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun {
namespace {

using test::MatrixShape;
using test::Rng;

// Input vector values suited to each semiring (including its zero).
template <class S>
typename S::value_type random_x(Rng& rng) {
  using V = typename S::value_type;
  if constexpr (std::is_same_v<S, OrAnd>) {
    const auto k = rng.below(4);
    return k == 0 ? V(7) : V(k == 1);  // any non-zero is true
  } else if constexpr (std::is_same_v<S, MinPlus<V>>) {
    return rng.coin(0.2) ? S::zero() : V(rng.uniform(0.0, 10.0));
  } else if constexpr (std::is_same_v<S, MaxTimes<V>>) {
    return rng.coin(0.2) ? V(0) : V(rng.uniform(0.0, 1.0));
  } else {
    return rng.coin(0.1) ? V(0) : V(rng.uniform(-1.0, 1.0));
  }
}

template <class S>
constexpr bool reorders_rounding =
    std::is_same_v<S, PlusTimes<double>> || std::is_same_v<S, PlusTimes<float>>;

// The derived formats of one matrix, built once for all semirings and masks.
template <class T>
struct Formats {
  const Csr<T>& csr;
  CooMatrix<T> coo;
  std::optional<Ell<T>> ell;  // empty when ELL refuses the matrix
  Hyb<T> hyb;
  Jds<T> jds;
  std::optional<Sell<T>> sell;      // empty when SELL refuses the matrix
  std::vector<Sell<T>> sell_parts;  // in 2 and 5 column parts, where they fit
  std::vector<MergePathPartition> partitions;

  explicit Formats(const Csr<T>& a)
      : csr(a), coo(CooMatrix<T>::from_csr(a)), hyb(Hyb<T>::from_csr(a)), jds(Jds<T>::from_csr(a)) {
    try {
      ell = Ell<T>::from_csr(a);
    } catch (const FormatError&) {
      // checked in check_matrix: only a matrix past the fill limit refuses
    }
    try {
      sell = Sell<T>::from_csr(a);
    } catch (const FormatError&) {
      // past the fill limit too (formats_test recounts the slots)
    }
    for (vertex_t parts : {2, 5}) try {
        sell_parts.push_back(Sell<T>::from_csr(a.view(), sell_window(analyze(a.view())), parts));
      } catch (const FormatError&) {
        // each part's slices pad to their own longest row: more slots
      }
    for (int shares : {1, 3, 64, 1001}) partitions.emplace_back(a.view(), shares);
  }
};

template <class S, class T>
class Checker {
 public:
  using V = typename S::value_type;

  Checker(const Formats<T>& f, std::string what, std::uint64_t seed) : f_(f), what_(what) {
    Rng rng(seed);
    x_.resize(f.csr.n_cols());
    for (auto& v : x_) v = random_x<S>(rng);
    bits_.resize(f.csr.n_rows());
    for (auto& b : bits_) b = static_cast<std::uint8_t>(rng.coin(0.5) ? 1 + rng.below(3) : 0);
    if constexpr (reorders_rounding<S>) {
      const auto a = f.csr.view();
      bound_.resize(a.n_rows);
      for (vertex_t i = 0; i < a.n_rows; ++i) {
        double abs_sum = 0;
        for (offset_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
          abs_sum += std::abs(static_cast<double>(semiring_entry<S>(a.value(k))) *
                              static_cast<double>(x_[a.col_idx[k]]));
        const double len = static_cast<double>(a.row_ptr[i + 1] - a.row_ptr[i]);
        bound_[i] = 2 * len * std::numeric_limits<V>::epsilon() * abs_sum;
      }
    }
  }

  void run() {
    for (int m = 0; m < 3; ++m) {
      mask_ = m == 0 ? Mask{} : Mask{bits_.data(), m == 2};
      mask_name_ = " mask=" + std::to_string(m);
      expect_ = fresh();
      cpu::spmv_reference<S>(f_.csr.view(), x_.data(), expect_.data(), mask_);
      check_references();
      check_merge_path();
      check_entry_points();
    }
  }

 private:
  static constexpr V sentinel = V(42);
  std::vector<V> fresh() const { return std::vector<V>(f_.csr.n_rows(), sentinel); }

  // Byte-equal to the CSR reference.
  void expect_exact(const std::vector<V>& y, const std::string& who) const {
    ASSERT_EQ(y.size(), expect_.size());
    if (y.empty()) return;
    if (std::memcmp(y.data(), expect_.data(), y.size() * sizeof(V)) == 0) return;
    for (std::size_t i = 0; i < y.size(); ++i)
      ASSERT_EQ(y[i], expect_[i]) << what_ << mask_name_ << " " << who << " row " << i;
    FAIL() << what_ << mask_name_ << " " << who << ": bytes differ";  // e.g. -0.0 vs 0.0
  }

  // Equal to `base` (by default the CSR reference) up to reassociation of
  // PlusTimes sums: within the rounding bound of each, so 2x between two
  // kernels that both reassociate.
  void expect_close(const std::vector<V>& y, const std::string& who,
                    const std::vector<V>* base = nullptr) const {
    const std::vector<V>& expect = base ? *base : expect_;
    const double slack = base ? 2.0 : 1.0;
    if constexpr (reorders_rounding<S>) {
      ASSERT_EQ(y.size(), expect.size());
      for (std::size_t i = 0; i < y.size(); ++i) {
        if (!mask_.allows(static_cast<vertex_t>(i))) {
          ASSERT_EQ(y[i], sentinel) << what_ << mask_name_ << " " << who << " row " << i;
          continue;
        }
        ASSERT_LE(std::abs(static_cast<double>(y[i]) - static_cast<double>(expect[i])),
                  slack * bound_[i])
            << what_ << mask_name_ << " " << who << " row " << i;
      }
    } else if (!base) {
      expect_exact(y, who);  // row-by-row report against the CSR reference
    } else {
      ASSERT_EQ(y.size(), expect.size());
      if (!y.empty()) {
        EXPECT_EQ(std::memcmp(y.data(), expect.data(), y.size() * sizeof(V)), 0)
            << what_ << mask_name_ << " " << who;
      }
    }
  }

  void check_references() const {
    std::vector<V> y = fresh();
    cpu::spmv_reference<S>(f_.coo.view(), x_.data(), y.data(), mask_);
    expect_exact(y, "coo");
    if (f_.ell) {
      y = fresh();
      cpu::spmv_reference<S>(f_.ell->view(), x_.data(), y.data(), mask_);
      expect_exact(y, "ell");
    }
    y = fresh();
    cpu::spmv_reference<S>(f_.hyb.view(), x_.data(), y.data(), mask_);
    expect_exact(y, "hyb");
    y = fresh();
    cpu::spmv_reference<S>(f_.jds.view(), x_.data(), y.data(), mask_);
    expect_exact(y, "jds");
    if (f_.sell) {
      y = fresh();
      cpu::spmv_reference<S>(f_.sell->view(), x_.data(), y.data(), mask_);
      expect_exact(y, "sell");
    }
    for (const Sell<T>& m : f_.sell_parts) {
      y = fresh();
      cpu::spmv_reference<S>(m.view(), x_.data(), y.data(), mask_);
      expect_exact(y, "sell in " + std::to_string(m.n_parts()) + " column parts");
    }
  }

  void check_merge_path() const {
    const auto a = f_.csr.view();
    for (const MergePathPartition& p : f_.partitions) {
      const std::string shares = " shares=" + std::to_string(p.shares());
      std::vector<V> ref = fresh();
      cpu::spmv_merge_path_reference<S>(p.view(a), x_.data(), ref.data(), mask_);
      expect_close(ref, "merge-path reference" + shares);
      // A given partition gives the same bits at any thread count.
      std::vector<V> first;
      for (int threads : {1, 2}) {
        std::vector<V> y = fresh();
        cpu::spmv_merge_path<S>(p.view(a), x_.data(), y.data(), mask_, threads);
        const std::string who = "merge-path" + shares + " threads=" + std::to_string(threads);
        expect_close(y, who);
        expect_close(y, who + " vs its reference", &ref);
        if (threads == 1) {
          first = y;
        } else if (!y.empty()) {
          ASSERT_EQ(std::memcmp(y.data(), first.data(), y.size() * sizeof(V)), 0)
              << what_ << mask_name_ << " " << who << ": differs from one thread";
        }
      }
    }
    // Shares picked from the thread count.
    for (int threads : {1, 2}) {
      std::vector<V> y = fresh();
      cpu::spmv_merge_path<S>(a, x_.data(), y.data(), mask_, threads);
      expect_close(y, "merge-path auto shares threads=" + std::to_string(threads));
    }
  }

  void check_entry_points() const {
    const auto a = f_.csr.view();
    {
      const int threads = 2;
      Context ctx(Device::cpu, threads);
      const std::string t = " threads=" + std::to_string(threads);
      for (SpmvFormat format : all_spmv_formats()) {
        std::vector<V> y = fresh();
        if ((format == SpmvFormat::ell && !f_.ell) || (format == SpmvFormat::sell && !f_.sell)) {
          EXPECT_THROW(spmv<S>(ctx, format, a, x_.data(), y.data(), mask_), FormatError);
          continue;
        }
        spmv<S>(ctx, format, a, x_.data(), y.data(), mask_);
        expect_close(y, "spmv(" + std::string(to_string(format)) + ")" + t);
      }
      std::vector<V> y = fresh();
      spmv<S>(ctx, SpmvFormat::automatic, a, x_.data(), y.data(), mask_);
      expect_close(y, "spmv(auto)" + t);
      y = fresh();
      spmv<S>(ctx, a, x_.data(), y.data(), mask_);
      expect_close(y, "spmv(csr)" + t);
      // The overloads on built formats.
      y = fresh();
      spmv<S>(ctx, f_.coo.view(), x_.data(), y.data(), mask_);
      expect_exact(y, "spmv(CooView)" + t);
      if (f_.ell) {
        y = fresh();
        spmv<S>(ctx, f_.ell->view(), x_.data(), y.data(), mask_);
        expect_exact(y, "spmv(EllView)" + t);
      }
      y = fresh();
      spmv<S>(ctx, f_.hyb.view(), x_.data(), y.data(), mask_);
      expect_exact(y, "spmv(HybView)" + t);
      y = fresh();
      spmv<S>(ctx, f_.jds.view(), x_.data(), y.data(), mask_);
      expect_exact(y, "spmv(JdsView)" + t);
      if (f_.sell) {
        y = fresh();
        spmv<S>(ctx, f_.sell->view(), x_.data(), y.data(), mask_);
        expect_exact(y, "spmv(SellView)" + t);
      }
      y = fresh();
      spmv<S>(ctx, f_.partitions.back().view(a), x_.data(), y.data(), mask_);
      expect_close(y, "spmv(MergePathView)" + t);
    }
  }

  const Formats<T>& f_;
  std::string what_;
  std::vector<V> x_;
  std::vector<std::uint8_t> bits_;
  std::vector<double> bound_;
  Mask mask_;
  std::string mask_name_;
  std::vector<V> expect_;
};

template <class T>
void check_formats_built(const Formats<T>& f, const std::string& what) {
  const RowStats s = analyze(f.csr.view());
  const bool fits = ell_fits(f.csr.n_rows(), s.max_length, f.csr.nnz());
  EXPECT_EQ(f.ell.has_value(), fits) << what << ": ELL built iff within the fill limit";
}

// All semirings on one matrix.
template <class T>
void check_matrix(const Csr<T>& a, const std::string& what, std::uint64_t seed) {
  const Formats<T> f(a);
  check_formats_built(f, what);
  Checker<PlusTimes<double>, T>(f, what + " PlusTimes<double>", seed).run();
  Checker<PlusTimes<float>, T>(f, what + " PlusTimes<float>", seed + 1).run();
  Checker<MinPlus<double>, T>(f, what + " MinPlus<double>", seed + 2).run();
  Checker<MinPlus<float>, T>(f, what + " MinPlus<float>", seed + 3).run();
  Checker<MaxTimes<double>, T>(f, what + " MaxTimes<double>", seed + 4).run();
  Checker<MaxTimes<float>, T>(f, what + " MaxTimes<float>", seed + 5).run();
  Checker<OrAnd, T>(f, what + " OrAnd", seed + 6).run();
}

struct Case {
  std::string name;
  vertex_t rows, cols;
  MatrixShape shape;
  double per_row;
};

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"0x0", 0, 0, MatrixShape::uniform, 3},
      {"7x0", 7, 0, MatrixShape::uniform, 3},
      {"0x7", 0, 7, MatrixShape::uniform, 3},
      {"1x1", 1, 1, MatrixShape::uniform, 2},
      {"uniform_97x61", 97, 61, MatrixShape::uniform, 4},
      {"uniform_9001", 9001, 9001, MatrixShape::uniform, 6},  // HYB with both parts
      {"empty_rows_1001", 1001, 1001, MatrixShape::empty_rows, 5},
      {"empty_rows_9001x77", 9001, 77, MatrixShape::empty_rows, 3},
      {"heavy_row_3001", 3001, 3001, MatrixShape::heavy_row, 8},  // one row split many ways
      {"heavy_row_13", 13, 13, MatrixShape::heavy_row, 2},
      {"power_law_14999", 14999, 14999, MatrixShape::power_law, 8},
      {"power_law_33x1000", 33, 1000, MatrixShape::power_law, 30},
      {"banded_12289", 12289, 12289, MatrixShape::banded, 11},
      {"banded_300x20", 300, 20, MatrixShape::banded, 5},
  };
  return all;
}

template <class T>
void check_all_shapes() {
  std::uint64_t seed = 1;
  for (const Case& c : cases()) {
    for (bool pattern : {false, true}) {
      const Csr<T> a = test::random_csr<T>(c.rows, c.cols, c.shape, c.per_row, pattern, ++seed);
      check_matrix<T>(a, c.name + (pattern ? " pattern" : " valued"), seed * 7);
    }
  }
}

TEST(SpmvFormats, RandomMatricesDouble) { check_all_shapes<double>(); }
TEST(SpmvFormats, RandomMatricesFloat) { check_all_shapes<float>(); }

// Merge-path with 1, 2, 3 and 7 threads (more than the cores: shares run
// in whatever order threads reach them): run after run the same bits for a
// thread count, and for an explicit partition of many shares the same bits
// whatever the thread count. PlusTimes is where the order could show.
template <class S, class T>
void check_merge_path_determinism(const Csr<T>& a, const std::string& what) {
  using V = typename S::value_type;
  Rng rng(77);
  std::vector<V> x(a.n_cols());
  for (auto& v : x) v = random_x<S>(rng);
  const auto view = a.view();
  for (int threads : {1, 2, 3, 7}) {
    std::vector<V> first(a.n_rows());
    cpu::spmv_merge_path<S>(view, x.data(), first.data(), Mask{}, threads);
    for (int run = 1; run < 4; ++run) {
      std::vector<V> y(a.n_rows());
      cpu::spmv_merge_path<S>(view, x.data(), y.data(), Mask{}, threads);
      ASSERT_EQ(std::memcmp(y.data(), first.data(), y.size() * sizeof(V)), 0)
          << what << " threads=" << threads << " run " << run;
    }
  }
  for (int shares : {5, 97, 4096}) {
    const MergePathPartition p(view, shares);
    std::vector<V> first(a.n_rows());
    cpu::spmv_merge_path<S>(p.view(view), x.data(), first.data(), Mask{}, 1);
    for (int threads : {2, 3, 7, 7}) {
      std::vector<V> y(a.n_rows());
      cpu::spmv_merge_path<S>(p.view(view), x.data(), y.data(), Mask{}, threads);
      ASSERT_EQ(std::memcmp(y.data(), first.data(), y.size() * sizeof(V)), 0)
          << what << " shares=" << shares << " threads=" << threads;
    }
  }
}

TEST(SpmvFormats, MergePathIsDeterministic) {
  for (MatrixShape shape : {MatrixShape::power_law, MatrixShape::heavy_row, MatrixShape::uniform}) {
    const Csr<double> a = test::random_csr<double>(40000, 40000, shape, 8, false, 5);
    check_merge_path_determinism<PlusTimes<double>, double>(a, test::to_string(shape));
    const Csr<float> f = test::random_csr<float>(40000, 40000, shape, 8, false, 6);
    check_merge_path_determinism<PlusTimes<float>, float>(f, test::to_string(shape) + " float");
  }
}

// Real graphs of different kinds: the graphs shipped in datasets/ always;
// where the shared collection is present, a road network (ELL fits), skewed
// social and technical networks (ELL refuses, HYB splits), weighted matrices.
TEST(SpmvFormats, RealGraphs) {
  namespace fs = std::filesystem;
  const fs::path root(GRAPHRUN_DATASETS);
  const char* files[] = {"luxembourg_osm/luxembourg_osm.mtx.gz",
                         "email-Enron/email-Enron.txt.gz",
                         "pgp-strong-2009/pgp-strong-2009.txt.gz",
                         "astro-ph/astro-ph.txt.gz",
                         "bcsstk13/bcsstk13.mtx.gz",
                         "cryg2500/cryg2500.mtx.gz"};
  std::vector<fs::path> paths = test::shipped_graph_files();
  ASSERT_FALSE(paths.empty()) << "datasets/ ships small graphs";
  for (const char* name : files)
    if (fs::exists(root / name)) paths.push_back(root / name);
  int checked = 0;
  std::uint64_t seed = 1000;
  for (const fs::path& file : paths) {
    const std::string name = file.string();
    Graph g;
    try {
      g = io::load_graph(file.string());
    } catch (const InputError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    const Csr<double>& a = g.adj();
    check_matrix<double>(a, name, seed += 10);
    if (!a.is_pattern()) {  // and its pattern
      const Csr<double> p(a.n_rows(), a.n_cols(), a.row_ptr(), a.col_idx(), {});
      check_matrix<double>(p, std::string(name) + " pattern", seed += 10);
    }
    ++checked;
  }
  RecordProperty("graphs_checked", checked);
}

// Hand-checked: every format gives the same y on a small matrix with a
// stored zero, an empty row and a row longer than the others.
//   A = [ 2 0 1 0 ]    x = [1 2 3 4]
//       [ 0 0 0 0 ]
//       [ 0 5 0 0 ]  (A(2,2) stored as 0)
//       [ 1 1 1 1 ]
TEST(SpmvFormats, SmallByHand) {
  Coo<double> coo{
      4, 4, {0, 0, 2, 2, 3, 3, 3, 3}, {0, 2, 1, 2, 0, 1, 2, 3}, {2, 1, 5, 0, 1, 1, 1, 1}};
  const Csr<double> a = Csr<double>::from_coo(coo);
  Context ctx(Device::cpu, 2);
  const double x[4] = {1, 2, 3, 4};
  for (SpmvFormat format : all_spmv_formats()) {
    double y[4] = {-1, -1, -1, -1};
    spmv<PlusTimes<double>>(ctx, format, a.view(), x, y);
    EXPECT_EQ(y[0], 5.0) << to_string(format);
    EXPECT_EQ(y[1], 0.0) << to_string(format);
    EXPECT_EQ(y[2], 10.0) << to_string(format);
    EXPECT_EQ(y[3], 10.0) << to_string(format);
    const std::uint8_t bx[4] = {0, 0, 1, 0};
    const std::uint8_t bits[4] = {1, 0, 1, 0};
    std::uint8_t z[4] = {9, 9, 9, 9};
    spmv<OrAnd>(ctx, format, a.view(), bx, z, Mask{bits, true});  // rows 1 and 3
    EXPECT_EQ(z[0], 9) << to_string(format);
    EXPECT_EQ(z[1], 0) << to_string(format);
    EXPECT_EQ(z[2], 9) << to_string(format);
    EXPECT_EQ(z[3], 1) << to_string(format);
  }
}

// Every row of the format table, `auto` included, through the entry point
// that takes a format name's value: the same y as the CSR reference (exactly
// for min-plus; within rounding for plus-times, whose parallel kernels
// associate differently), on every shape; ELL may refuse only a matrix past
// its fill limit. And a layout's view goes to its own format's kernel.
TEST(SpmvFormats, EveryTableRowComputesTheReference) {
  Context ctx(Device::cpu, 2);
  std::uint64_t seed = 901;
  for (MatrixShape shape : {MatrixShape::uniform, MatrixShape::empty_rows, MatrixShape::heavy_row,
                            MatrixShape::power_law, MatrixShape::banded}) {
    const Csr<double> a = test::random_csr<double>(3000, 2500, shape, 6, false, ++seed);
    const RowStats stats = analyze(a.view());
    Rng rng(++seed);
    std::vector<double> x(a.n_cols());
    for (double& v : x) v = rng.uniform(0.0, 4.0);
    std::vector<double> want(a.n_rows()), want_min(a.n_rows());
    cpu::spmv_reference<PlusTimes<double>>(a.view(), x.data(), want.data());
    cpu::spmv_reference<MinPlus<double>>(a.view(), x.data(), want_min.data());
    for (const SpmvFormatRow& row : spmv_format_table()) {
      SCOPED_TRACE(std::string(row.name) + ", " + test::to_string(shape));
      const SpmvFormat format = parse_spmv_format(row.name);
      std::vector<double> y(a.n_rows(), -7.0), y_min(a.n_rows(), -7.0);
      if (format == SpmvFormat::ell && !ell_fits(a.n_rows(), stats.max_length, a.nnz())) {
        EXPECT_THROW(spmv<PlusTimes<double>>(ctx, format, a.view(), x.data(), y.data()),
                     FormatError);
        continue;
      }
      if (format == SpmvFormat::sell) {
        try {
          (void)Sell<double>::from_csr(a);
        } catch (const FormatError&) {
          EXPECT_THROW(spmv<PlusTimes<double>>(ctx, format, a.view(), x.data(), y.data()),
                       FormatError);
          continue;
        }
      }
      spmv<PlusTimes<double>>(ctx, format, a.view(), x.data(), y.data());
      spmv<MinPlus<double>>(ctx, format, a.view(), x.data(), y_min.data());
      for (vertex_t i = 0; i < a.n_rows(); ++i) {
        ASSERT_NEAR(y[i], want[i], 1e-12 * (1.0 + std::abs(want[i]))) << "row " << i;
        ASSERT_EQ(y_min[i], want_min[i]) << "row " << i;
      }
    }
    // The views of built layouts: each is its format's kernel.
    static_assert(CooView<double>::format == SpmvFormat::coo);
    static_assert(EllView<double>::format == SpmvFormat::ell);
    static_assert(HybView<double>::format == SpmvFormat::hyb);
    static_assert(JdsView<double>::format == SpmvFormat::jds);
    static_assert(SellView<double>::format == SpmvFormat::sell);
    static_assert(MergePathView<double>::format == SpmvFormat::merge_path);
    std::vector<double> y(a.n_rows(), -7.0);
    spmv<PlusTimes<double>>(ctx, Hyb<double>::from_csr(a).view(), x.data(), y.data());
    for (vertex_t i = 0; i < a.n_rows(); ++i) ASSERT_EQ(y[i], want[i]) << "hyb view, row " << i;
    const MergePathPartition part(a.view(), 5);
    spmv<PlusTimes<double>>(ctx, part.view(a.view()), x.data(), y.data());
    for (vertex_t i = 0; i < a.n_rows(); ++i)
      ASSERT_NEAR(y[i], want[i], 1e-12 * (1.0 + std::abs(want[i]))) << "merge-path view, row " << i;
  }
}

TEST(SpmvFormats, CudaContextIsRefused) {
  const Csr<double> a = test::random_csr<double>(10, 10, MatrixShape::uniform, 2, false, 3);
  Context ctx(Device::cuda);
  std::vector<double> x(10, 1.0), y(10);
  for (SpmvFormat format : all_spmv_formats())
    EXPECT_THROW(spmv<PlusTimes<double>>(ctx, format, a.view(), x.data(), y.data()), DeviceError);
  const Jds<double> j = Jds<double>::from_csr(a);
  EXPECT_THROW(spmv<PlusTimes<double>>(ctx, j.view(), x.data(), y.data()), DeviceError);
}

}  // namespace
}  // namespace graphrun
