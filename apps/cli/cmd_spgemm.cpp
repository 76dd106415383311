// graphrun spgemm: C = A*B for sparse matrices read from files, written as
// Matrix Market. B defaults to A (C = A², the 2-hop path counts of a graph).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>

#include "common.hpp"
#include "graphrun/engine/device_memory.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "graphrun/kernels/spgemm.hpp"
#include "graphrun/kernels/spgemm_estimate.hpp"
#include "progress.hpp"
#include "spgemm_estimate_report.hpp"
#include "spgemm_operands.hpp"

namespace graphrun::cli {

namespace {

struct SpgemmArgs {
  CommonOptions common;  // common.input is A
  std::string b_path;    // empty: B = A
  std::string output = "-";
  bool transpose_b = false;
  bool estimate = false;  // print what the product would cost, compute nothing
};

// Whether `keys` are 1..n, the numbering Matrix Market output gives.
bool are_indices(const Keys& keys) {
  if (keys.named()) return false;
  for (std::size_t i = 0; i < keys.ids.size(); ++i)
    if (keys.ids[i] != i + 1) return false;
  return true;
}

// C keyed by A's row ids and B's column ids: 'ROW<TAB>COL<TAB>VALUE' lines,
// rows in A's vertex order, columns in B's within a row, values with 17
// significant digits: a weighted edge list graphrun reads back.
void write_keyed(const std::string& path, const Csr<double>& c, const Keys& rows,
                 const Keys& cols) {
  io::OutputFile out(path);
  {
    TextWriter w(out.stream());
    const auto put_key = [&w](const Keys& k, vertex_t i) -> TextWriter& {
      const auto j = static_cast<std::size_t>(i);
      return k.named() ? w.put(k.names[j]) : w.put(k.ids[j]);
    };
    for (vertex_t i = 0; i < c.n_rows(); ++i)
      for (offset_t e = c.row_ptr()[i]; e < c.row_ptr()[i + 1]; ++e) {
        put_key(rows, i).put('\t');
        put_key(cols, c.col_idx()[e]).put('\t');
        w.put(c.is_pattern() ? 1.0 : c.values()[static_cast<std::size_t>(e)]).put('\n');
      }
  }
  out.commit();
}

void check_readable(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found)
    throw InputError(path, "no such file");
  if (status.type() == std::filesystem::file_type::directory)
    throw InputError(path, "is a folder, not a matrix file");
}

std::string shape(const Csr<double>& m) { return format("%dx%d", m.n_rows(), m.n_cols()); }

void run_spgemm(const SpgemmArgs& args) {
  // An estimate for the GPU reads and counts on the CPU: it needs no GPU.
  CommonOptions run_on = args.common;
  std::size_t estimate_cap = 0;  // --max-device-memory, compared with in the estimate
  if (args.estimate) {
    estimate_cap = max_device_memory_option(args.common);
    run_on.device = "cpu";
    run_on.max_device_memory.clear();
  }
  Context ctx = make_context(run_on, "spgemm");
  if (estimate_cap > 0) set_device_memory_cap(estimate_cap);
  if (!args.estimate) check_output_path(args.output);
  const std::string& a_path = args.common.input;
  const std::string& b_path = args.b_path.empty() ? a_path : args.b_path;
  check_readable(a_path);
  if (b_path != a_path) check_readable(b_path);

  Stopwatch load_time;
  const Operand a_in = read_operand(a_path, args.common);
  Operand b_own;
  if (b_path != a_path) b_own = read_operand(b_path, args.common);
  const Operand& b_read = b_path != a_path ? b_own : a_in;
  Operand b_t;
  if (args.transpose_b) b_t = transposed(b_read);
  const Operand& b_op = args.transpose_b ? b_t : b_read;
  const std::string b_name = b_path + (args.transpose_b ? " (transposed)" : "");

  // Graph operands meet by vertex id, matrices by index (see
  // spgemm_operands.hpp).
  const bool keyed = a_in.graph || b_op.graph;
  KeyMatch match;
  Csr<double> a_matched;
  if (keyed) a_matched = match_inner_keys(a_in, b_op, match);
  const Csr<double>& a = keyed ? a_matched : a_in.matrix;
  const Csr<double>& b = b_op.matrix;
  const double load_seconds = load_time.seconds();

  if (!keyed && a.n_cols() != b.n_rows())
    throw ArgumentError("cannot multiply: A (" + a_path + ") is " + shape(a) + " and B (" + b_name +
                        ") is " + shape(b) + "; A*B needs as many columns in A (" +
                        std::to_string(a.n_cols()) + ") as rows in B (" +
                        std::to_string(b.n_rows()) + ")");
  const std::string matched =
      keyed ? format(
                  "; A's columns met B's rows by vertex id: %lld in both, %lld in A only, "
                  "%lld in B only",
                  static_cast<long long>(match.matched), static_cast<long long>(match.a_only),
                  static_cast<long long>(match.b_only))
            : std::string();

  if (args.estimate) {
    Stopwatch count_time;
    EstimateReport report;
    report.a_name = a_path;
    report.b_name = b_name;
    report.a = &a;
    report.b = &b;
    report.device = parse_device(args.common.device);
    report.threads = ctx.threads();
    report.estimate = estimate_spgemm<PlusTimes<double>>(
        a.view(), b.view(), {.device = report.device, .threads = report.threads});
    const double count_ms = count_time.seconds() * 1e3;
    report.limits = device_memory_limits(report.device, report.why_no_limits);
    print_estimate(report);
    print_summary(args.common,
                  format("spgemm --estimate: A %s (%lld nnz) * B %s (%lld nnz): %lld intermediate "
                         "products, nnz(C) <= %lld; counted in %.2f ms, nothing multiplied; "
                         "load %.3f s%s",
                         shape(a_in.matrix).c_str(), static_cast<long long>(a.nnz()),
                         shape(b).c_str(), static_cast<long long>(b.nnz()),
                         static_cast<long long>(report.estimate.intermediate_products),
                         static_cast<long long>(report.estimate.nnz_c_bound), count_ms,
                         load_seconds, matched.c_str()));
    return;
  }

  SpgemmStats stats;
  ProgressBar bar("spgemm", !args.common.quiet);  // the elapsed time, past a second
  const Csr<double> c = spgemm<PlusTimes<double>>(ctx, a.view(), b.view(), &stats);
  bar.finish();
  if (const auto bad = find_first_value(c, [](double v) { return !std::isfinite(v); })) {
    const vertex_t row = row_of_entry(c, *bad);
    const vertex_t col = c.col_idx()[*bad];
    throw Error(format("spgemm: C(%s, %s) is %g: the products overflow a double; nothing written",
                       keyed ? a_in.rows.text(row).c_str() : std::to_string(row + 1).c_str(),
                       keyed ? b_op.cols.text(col).c_str() : std::to_string(col + 1).c_str(),
                       c.values()[static_cast<std::size_t>(*bad)]));
  }

  Stopwatch write_time;
  if (!keyed || is_matrix_market_name(args.output)) {
    io::write_matrix_market(args.output, c);
    if (keyed && !args.common.quiet && (!are_indices(a_in.rows) || !are_indices(b_op.cols)))
      std::fprintf(stderr,
                   "spgemm: note: %s numbers C's rows 1..%d in the order of A's vertices and its "
                   "columns 1..%d in the order of B's (ascending id, or first appearance for "
                   "names); write C to a name not ending in .mtx to keep the ids\n",
                   args.output.c_str(), c.n_rows(), c.n_cols());
  } else {
    write_keyed(args.output, c, a_in.rows, b_op.cols);
  }
  if (args.output == "-") check_stdout();
  const double write_seconds = write_time.seconds();

  print_summary(
      args.common,
      format("spgemm: A %s (%lld nnz) * B %s (%lld nnz) = C %s (%lld nnz); %lld intermediate "
             "products (max %lld in a row); %s, %d threads: analysis %.2f ms, symbolic %.2f ms, "
             "numeric %.2f ms, sort %.2f ms%s, total %.2f ms (%.2f GFLOP/s); load %.3f s, "
             "write %.3f s%s",
             shape(a_in.matrix).c_str(), static_cast<long long>(a_in.matrix.nnz()),
             shape(b).c_str(), static_cast<long long>(b.nnz()), shape(c).c_str(),
             static_cast<long long>(c.nnz()), static_cast<long long>(stats.intermediate_products),
             static_cast<long long>(stats.max_row_products),
             std::string(to_string(ctx.device())).c_str(), ctx.threads(), stats.analysis_ms,
             stats.symbolic_ms, stats.numeric_ms, stats.sort_ms,
             ctx.device() == Device::cpu ? " (inside numeric)" : "", stats.total_ms,
             stats.total_ms > 0
                 ? 2.0 * static_cast<double>(stats.intermediate_products) / stats.total_ms / 1e6
                 : 0.0,
             load_seconds, write_seconds, matched.c_str()));
}

}  // namespace

Command add_spgemm(CLI::App& root) {
  auto args = std::make_shared<SpgemmArgs>();
  CLI::App* sub = root.add_subcommand(
      "spgemm",
      "Sparse matrix product C = A*B, written as Matrix Market\n"
      "C(i,j) = sum over k of A(i,k)*B(k,j), stored wherever some k links row i of A to\n"
      "column j of B (even where the sum is 0). B defaults to A, so 'graphrun spgemm G'\n"
      "gives A², whose entry (i,j) counts the 2-step paths from i to j (weighted: sums\n"
      "the products of the weights). --transpose-b multiplies by Bᵀ instead (A*Aᵀ: pairs\n"
      "of rows sharing columns). The product runs on the CPU (hash-based multi-phase\n"
      "SpGEMM, OpenMP) or with --device cuda on the GPU.");
  sub->add_option("A", args->common.input, "Left matrix: Matrix Market (.mtx, .mtx.gz) or a graph")
      ->required()
      ->type_name("FILE");
  sub->add_option("B", args->b_path, "Right matrix (default: A again)")->type_name("FILE");
  sub->add_flag("--transpose-b", args->transpose_b, "Multiply by the transpose of B (A*Bᵀ)");
  sub->add_flag("--estimate", args->estimate,
                "Multiply nothing: print the intermediate products, a bound on nnz(C) and the "
                "bytes each phase would need on --device (see ESTIMATE below), then exit");
  sub->add_option("-o,--output", args->output, "Write C here (see OUTPUT below); default stdout")
      ->check(output_path())
      ->type_name("FILE");
  sub->add_flag("--abc", args->common.abc,
                "Inputs are 'name name [weight]' lines (as mcl --abc reads); C is keyed by the "
                "names");
  add_device_option(*sub, args->common.device);
  add_gpu_options(*sub, args->common);
  add_threads_option(*sub, args->common.threads);
  sub->add_flag("--undirected", args->common.undirected,
                "Edge-list inputs: add the reverse of every edge (Matrix Market files are read "
                "as they are; a symmetric one is expanded)");
  sub->add_flag("-q,--quiet", args->common.quiet, "No summary line on stderr");
  sub->footer(
      "\nINPUTS:\n"
      "  *.mtx, *.mtx.gz  Matrix Market coordinate (real, integer or pattern; general or\n"
      "                   symmetric, which is expanded); rectangular matrices allowed;\n"
      "                   a pattern matrix has entries 1; repeated entries are summed\n"
      "  any other name   a graph (SNAP edge list, plain or .gz, a .grb cache, or ABC text\n"
      "                   with --abc), used as its square adjacency matrix over its vertex\n"
      "                   ids; unweighted edges are 1\n"
      "  Two Matrix Market files are multiplied by index: A*B needs as many columns in A\n"
      "  as rows in B (with --transpose-b: as columns in B). When either operand is a\n"
      "  graph, A's columns meet B's rows by vertex id (a Matrix Market operand's ids are\n"
      "  its indices): A = '1 2', '2 3' and B = '3 4', '4 5' give C(2,4) = 1 and\n"
      "  nothing for 1; ids in only one of the two contribute nothing, and the summary\n"
      "  counts them.\n"
      "OUTPUT:\n"
      "  Two Matrix Market operands: Matrix Market 'coordinate real general', 1-based,\n"
      "  rows in order and columns sorted within each row, values with 17 significant\n"
      "  digits. A graph operand: 'ROW<TAB>COL<TAB>VALUE' lines keyed by A's row ids and\n"
      "  B's column ids (a weighted edge list), rows in A's vertex order; Matrix Market\n"
      "  (renumbered 1..n, with a note) when --output ends in .mtx or .mtx.gz. stdout\n"
      "  unless --output. A summary (shapes, nnz, intermediate products, time per phase,\n"
      "  ids matched) goes to stderr.\n"
      "ESTIMATE (--estimate):\n"
      "  Reads A and B, counts from their row pointers and exits 0 without multiplying\n"
      "  or writing C. A table on stdout gives the intermediate products IP (the sum\n"
      "  over rows i and entries A(i,k) of nnz(B(k,:)); exact, with the largest row's),\n"
      "  the bound nnz(C) <= sum over rows of min(IP(i), columns of B) (equal when no\n"
      "  two products of a row meet in one column), and the bytes on the --device of\n"
      "  the inputs, the row analysis, the symbolic phase, the numeric phase (hash\n"
      "  tables, accumulators, staging) and C at that bound, with the peak held at\n"
      "  once. Figures sized by nnz(C) are upper bounds; the rest are exact but for\n"
      "  CUB's small scratch on the GPU. The peak is compared with the machine's\n"
      "  memory (cpu) or the GPU's free and total memory (cuda; no GPU is needed to\n"
      "  estimate, and the table says when none is present). On the GPU, 'least' is\n"
      "  what the product needs with its hash tables cut into one-row chunks.\n" +
      std::string(exit_status_help) +
      "\nEXAMPLES:\n"
      "  graphrun spgemm A.mtx                       # A*A to stdout\n"
      "  graphrun spgemm A.mtx B.mtx -o C.mtx        # A*B\n"
      "  graphrun spgemm A.mtx --transpose-b -o G.mtx  # A*Aᵀ\n"
      "  graphrun spgemm big.mtx --estimate --device cuda  # will A*A fit on the GPU?\n"
      "  graphrun spgemm web-Google.txt.gz -o two_hop.tsv --threads 8  # 2-hop paths by id\n"
      "  graphrun spgemm follows.txt likes.txt -o reach.tsv  # matched by user id\n");
  return {sub, [args] { run_spgemm(*args); }};
}

}  // namespace graphrun::cli
