// graphrun contract: the quotient graph C = S·A·Sᵀ of a vertex -> label map
// (algorithms/contract.hpp), written as "label<TAB>label<TAB>weight" lines.
// Labels come from a file (arbitrary tokens, numbered densely here) or from
// --group-size K (consecutive dense ids, label v / K).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "graphrun/algorithms/contract.hpp"
#include "graphrun/engine/error.hpp"
#include "graphrun/io/labels.hpp"
#include "graphrun/io/write.hpp"
#include "progress.hpp"

namespace graphrun::cli {

namespace {

struct ContractArgs {
  CommonOptions common;
  std::string labels_path;  // --labels FILE
  int group_size = 0;       // --group-size K (0: not given)
  bool keep_loops = false;
  std::string output = "-";
};

// --group-size K: label v / K for dense vertex v (ascending input id).
io::VertexLabels group_labels(const Graph& g, int group_size) {
  io::VertexLabels out;
  out.labels = consecutive_labels(g.n_vertices(), group_size);
  const vertex_t n_labels =
      g.n_vertices() == 0 ? 0 : (g.n_vertices() - 1) / static_cast<vertex_t>(group_size) + 1;
  out.names.resize(static_cast<std::size_t>(n_labels));
  for (vertex_t k = 0; k < n_labels; ++k) out.names[k] = std::to_string(k);
  return out;
}

void run_contract(const ContractArgs& a) {
  Context ctx = make_context(a.common, "contract", DeviceCheck::at_load);
  const bool from_file = !a.labels_path.empty();
  if (from_file == (a.group_size > 0))
    throw ArgumentError(
        "give exactly one of --labels FILE (a label for every vertex) or --group-size K "
        "(consecutive vertices in groups of K)");
  check_output_path(a.output);
  if (from_file) check_input_file(a.labels_path, "label");

  const Loaded in = load_input(a.common, DeviceCheck::at_load);
  const Graph& g = in.graph;

  Stopwatch label_time;
  const io::VertexLabels map = from_file ? io::read_vertex_labels(a.labels_path, g, a.common.input)
                                         : group_labels(g, a.group_size);
  const double label_seconds = label_time.seconds();

  ContractOptions options;
  options.keep_loops = a.keep_loops;
  // An empty graph has no labels; C is then a 1x1 matrix with no entry.
  const auto n_labels = std::max<vertex_t>(1, static_cast<vertex_t>(map.names.size()));
  ProgressBar bar("contract", !a.common.quiet);  // the elapsed time, past a second
  const ContractResult r = contract(ctx, g, map.labels, n_labels, options);
  bar.finish();
  const Csr<double>& c = r.quotient;
  if (const auto bad = find_first_value(c, [](double v) { return !std::isfinite(v); })) {
    const vertex_t row = row_of_entry(c, *bad);
    throw Error("contract: the weight from label " + map.names[row] + " to label " +
                map.names[c.col_idx()[*bad]] + " is " +
                std::to_string(c.values()[static_cast<std::size_t>(*bad)]) +
                ": the sum of its edges' weights left the range of a double");
  }

  // Row k in label order, its columns sorted: both follow the dense numbers.
  Stopwatch write_time;
  io::OutputFile out(a.output);
  {
    TextWriter w(out.stream());
    for (vertex_t k = 0; k < c.n_rows(); ++k)
      for (offset_t e = c.row_ptr()[k]; e < c.row_ptr()[k + 1]; ++e)
        w.put(map.names[k])
            .put('\t')
            .put(map.names[c.col_idx()[e]])
            .put('\t')
            .put(c.values()[e])
            .put('\n');
  }
  out.commit();
  const double write_seconds = write_time.seconds();

  const std::string where = ctx.device() == Device::cuda ? std::string("cuda")
                                                         : format("cpu, %d thread%s", ctx.threads(),
                                                                  ctx.threads() == 1 ? "" : "s");
  print_summary(a.common,
                format("contract: %s, %lld labels; quotient %lld entries (self loops %s); %lld "
                       "intermediate products; %s; load %.3f s, labels %.3f s, contract %.3f s "
                       "(products %.3f s), write %.3f s",
                       graph_size(g).c_str(), static_cast<long long>(map.names.size()),
                       static_cast<long long>(c.nnz()), a.keep_loops ? "kept" : "removed",
                       static_cast<long long>(r.products), where.c_str(), in.seconds, label_seconds,
                       r.seconds, r.compute_seconds, write_seconds));
}

}  // namespace

Command add_contract(CLI::App& root) {
  auto args = std::make_shared<ContractArgs>();
  CLI::App* sub = root.add_subcommand(
      "contract",
      "Quotient graph of a vertex labelling: C = S*A*Sᵀ (graph contraction)\n"
      "Merges the vertices of each cluster into one vertex: C(k,l) is the total weight of\n"
      "the edges from a vertex labelled k to a vertex labelled l (an unweighted edge\n"
      "counts 1). In matrix terms S is the labels x vertices matrix with S(l,v) = 1 where\n"
      "v has label l, A the adjacency, and C = S*A*Sᵀ, computed as (S*A)*Sᵀ by two sparse\n"
      "matrix products (SpGEMM) on the CPU or, with --device cuda, the GPU. An undirected\n"
      "graph stores each edge both ways, so C is symmetric and an edge inside a cluster\n"
      "adds twice to C(k,k). C(k,k) (edges inside a cluster) is left out unless\n"
      "--keep-loops.");
  add_common_options(*sub, args->common);
  sub->add_option("--labels", args->labels_path,
                  "Label file: 'ID<TAB>LABEL' per line, every vertex exactly once")
      ->type_name("LABELS.tsv");
  sub->add_option("--group-size", args->group_size,
                  "Instead of --labels: group consecutive vertices (in ascending id order) K by "
                  "K, label = position / K")
      ->check(int_at_least(1, "a group size >= 1"))
      ->type_name("K");
  sub->add_flag("--keep-loops", args->keep_loops,
                "Keep C(k,k), the weight of the edges inside each cluster");
  sub->add_option("--output,-o", args->output, "Write the quotient here; default stdout")
      ->check(output_path())
      ->type_name("OUT");
  sub->footer(
      std::string(
          "LABEL FILE (--labels):\n"
          "  One 'ID LABEL' line per vertex, fields separated by tabs or spaces; '#' starts\n"
          "  a comment line; blank lines are skipped. ID is a vertex id as in INPUT; every\n"
          "  vertex of the graph gets exactly one line (a missing vertex, an unknown id, a\n"
          "  vertex labelled twice or a line without exactly two fields is an error naming\n"
          "  FILE:LINE). LABEL is any token: cluster numbers, names. Labels are ordered\n"
          "  numerically when all of them are non-negative integers, else byte by byte.\n"
          "  For example:\n"
          "    # vertex  cluster\n"
          "    0  left\n"
          "    1  left\n"
          "    2  right\n"
          "OUTPUT:\n"
          "  'LABEL<TAB>LABEL<TAB>WEIGHT' for every pair of clusters linked by some edge,\n"
          "  rows in label order and the second label ascending within a row, weights with\n"
          "  17 significant digits (edge counts in an unweighted graph); stdout unless\n"
          "  --output. A summary (sizes, labels, entries of C, intermediate products,\n"
          "  times) goes to stderr.\n") +
      input_help() + exit_status_help +
      "\nEXAMPLES:\n"
      "  graphrun contract datasets/karate/karate.txt.gz --undirected --group-size 10\n"
      "  graphrun contract web.txt.gz --labels communities.tsv --keep-loops -o quotient.tsv\n"
      "  graphrun contract web.txt.gz --labels communities.tsv --device cuda\n");
  return {sub, [args] { run_contract(*args); }};
}

}  // namespace graphrun::cli
