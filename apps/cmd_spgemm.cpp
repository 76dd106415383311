// graphrun spgemm: C = A*B for sparse matrices read from files, written as
// Matrix Market. B defaults to A (C = A², the 2-hop path counts of a graph).
#include <filesystem>
#include <memory>
#include <string>

#include "commands.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "graphrun/io/write.hpp"
#include "graphrun/kernels/spgemm.hpp"

namespace graphrun::cli {

namespace {

struct SpgemmArgs {
  CommonOptions common;  // common.input is A
  std::string b_path;    // empty: B = A
  std::string output = "-";
  bool transpose_b = false;
};

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A matrix from a file: Matrix Market as a plain (possibly rectangular)
// matrix; anything else through the graph loader, as its adjacency.
Csr<double> read_matrix(const std::string& path, const CommonOptions& o) {
  if (ends_with(path, ".mtx") || ends_with(path, ".mtx.gz")) return io::read_matrix_market(path);
  CommonOptions g = o;
  g.input = path;
  return load_input(g).graph.adj();
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
  Context ctx = make_context(args.common, "spgemm");
  check_output_path(args.output);
  const std::string& a_path = args.common.input;
  const std::string& b_path = args.b_path.empty() ? a_path : args.b_path;
  check_readable(a_path);
  if (b_path != a_path) check_readable(b_path);

  Stopwatch load_time;
  const Csr<double> a = read_matrix(a_path, args.common);
  Csr<double> b_own;
  if (b_path != a_path) b_own = read_matrix(b_path, args.common);
  const Csr<double>& b_read = b_path != a_path ? b_own : a;
  Csr<double> b_t;
  if (args.transpose_b) b_t = b_read.transpose();
  const Csr<double>& b = args.transpose_b ? b_t : b_read;
  const double load_seconds = load_time.seconds();

  const std::string b_name = b_path + (args.transpose_b ? " (transposed)" : "");
  if (a.n_cols() != b.n_rows())
    throw ArgumentError("cannot multiply: A (" + a_path + ") is " + shape(a) + " and B (" + b_name +
                        ") is " + shape(b) + "; A*B needs as many columns in A (" +
                        std::to_string(a.n_cols()) + ") as rows in B (" +
                        std::to_string(b.n_rows()) + ")");

  SpgemmStats stats;
  const Csr<double> c = spgemm<PlusTimes<double>>(ctx, a.view(), b.view(), &stats);

  Stopwatch write_time;
  io::write_matrix_market(args.output, c);
  const double write_seconds = write_time.seconds();

  print_summary(
      args.common,
      format("spgemm: A %s (%lld nnz) * B %s (%lld nnz) = C %s (%lld nnz); %lld intermediate "
             "products (max %lld in a row); %s, %d threads: analysis %.2f ms, symbolic %.2f ms, "
             "numeric %.2f ms, sort %.2f ms%s, total %.2f ms (%.2f GFLOP/s); load %.3f s, "
             "write %.3f s",
             shape(a).c_str(), static_cast<long long>(a.nnz()), shape(b).c_str(),
             static_cast<long long>(b.nnz()), shape(c).c_str(), static_cast<long long>(c.nnz()),
             static_cast<long long>(stats.intermediate_products),
             static_cast<long long>(stats.max_row_products),
             std::string(to_string(ctx.device())).c_str(), ctx.threads(), stats.analysis_ms,
             stats.symbolic_ms, stats.numeric_ms, stats.sort_ms,
             ctx.device() == Device::cpu ? " (inside numeric)" : "", stats.total_ms,
             stats.total_ms > 0
                 ? 2.0 * static_cast<double>(stats.intermediate_products) / stats.total_ms / 1e6
                 : 0.0,
             load_seconds, write_seconds));
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
  sub->add_option("-o,--output", args->output,
                  "Write C here (Matrix Market coordinate real general); default stdout")
      ->type_name("FILE");
  add_device_option(*sub, args->common.device);
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
      "  any other name   a graph (SNAP edge list, plain or .gz, or a .grb cache), used as\n"
      "                   its square adjacency matrix: vertices are numbered 1..n in\n"
      "                   ascending order of input id (C speaks these numbers), unweighted\n"
      "                   edges are 1\n"
      "  A*B needs as many columns in A as rows in B (with --transpose-b: as columns in B).\n"
      "OUTPUT:\n"
      "  Matrix Market 'coordinate real general', 1-based, rows in order and columns sorted\n"
      "  within each row, values with 17 significant digits; stdout unless --output.\n"
      "  A summary (shapes, nnz, intermediate products, time per phase) goes to stderr.\n" +
      std::string(exit_status_help) +
      "\nEXAMPLES:\n"
      "  graphrun spgemm A.mtx                       # A*A to stdout\n"
      "  graphrun spgemm A.mtx B.mtx -o C.mtx        # A*B\n"
      "  graphrun spgemm A.mtx --transpose-b -o G.mtx  # A*Aᵀ\n"
      "  graphrun spgemm web-Google.txt.gz -o two_hop.mtx --threads 8\n");
  return {sub, [args] { run_spgemm(*args); }};
}

}  // namespace graphrun::cli
