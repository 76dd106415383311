// graphrun info: sizes and degree statistics of a graph (engine/row_stats.hpp).
#include <algorithm>
#include <memory>

#include "common.hpp"
#include "graphrun/engine/row_stats.hpp"

namespace graphrun::cli {

namespace {

struct InfoArgs {
  CommonOptions common;
};

std::string bytes_text(std::size_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  if (u == 0) return format("%zu B", b);
  return format("%zu B (%.1f %s)", b, v, units[u]);
}

void line(const char* key, const std::string& value) {
  std::printf("%-18s %s\n", (std::string(key) + ":").c_str(), value.c_str());
}

std::string degree_text(const RowStats& s) {
  return format("min %lld, max %lld, mean %.4g, stddev %.4g, cv %.4g, empty rows %lld (%.2f%%)",
                static_cast<long long>(s.min_length), static_cast<long long>(s.max_length), s.mean,
                s.stddev, s.cv, static_cast<long long>(s.histogram[0]), 100.0 * s.empty_fraction);
}

std::string bucket_text(std::size_t b) {
  if (b == 0) return "0";
  const unsigned long long lo = 1ull << (b - 1), hi = (1ull << b) - 1;
  if (lo == hi) return format("%llu", lo);
  return format("%llu-%llu", lo, hi);
}

void run_info(const InfoArgs& a) {
  make_cpu_context(a.common, "info");
  const Loaded in = load_input(a.common);
  const Graph& g = in.graph;
  const Csr<double>& adj = g.adj();

  Stopwatch analyze_time;
  const RowStats out = analyze(adj.view());
  const bool directed = g.directed();
  const RowStats in_stats = directed ? analyze(g.transpose().view()) : out;
  const offset_t loops = g.self_loops();

  line("file", a.common.input);
  if (in.stats.omitted_vertices > 0)
    line("vertices", format("%lld (the file declares %lld; the %lld indices in no entry are left "
                            "out, ids stay the file's indices)",
                            static_cast<long long>(g.n_vertices()),
                            static_cast<long long>(in.stats.declared_vertices),
                            static_cast<long long>(in.stats.omitted_vertices)));
  else
    line("vertices", format("%lld", static_cast<long long>(g.n_vertices())));
  if (directed)
    line("edges", format("%lld", static_cast<long long>(g.n_edges())));
  else
    line("edges", format("%lld undirected (%lld stored entries, both directions)",
                         static_cast<long long>((g.n_edges() - loops) / 2 + loops),
                         static_cast<long long>(g.n_edges())));
  line("directed", directed ? "yes" : "no");
  line("weighted", g.weighted() ? "yes" : "no");
  if (g.weighted() && !adj.values().empty()) {
    const auto [lo, hi] = std::minmax_element(adj.values().begin(), adj.values().end());
    double total = 0;
    for (double w : adj.values()) total += w;
    line("weights", format("min %.17g, max %.17g, sum over stored entries %.17g", *lo, *hi, total));
  }
  line("self loops", format("%lld", static_cast<long long>(loops)));
  if (g.n_vertices() > 0 && g.has_names())
    line("vertex names",
         g.label(0) + " .. " + g.label(g.n_vertices() - 1) + " (in order of first appearance)");
  else if (g.n_vertices() > 0)
    line("input ids", format("%llu .. %llu", static_cast<unsigned long long>(g.input_id(0)),
                             static_cast<unsigned long long>(g.input_id(g.n_vertices() - 1))));
  if (const Graph::StoredOrder* stored = g.stored_order())
    line("vertex ordering",
         std::string(to_string(stored->method)) + " (stored: pagerank renumbers by it)");
  line("out-degree", degree_text(out));
  line("in-degree", directed ? degree_text(in_stats) : "same as out-degree (undirected)");

  // Log2 buckets of row length; up to the last non-empty bucket.
  std::size_t last = 0;
  for (std::size_t b = 0; b < out.histogram.size(); ++b)
    if (out.histogram[b] != 0 || in_stats.histogram[b] != 0) last = b;
  if (directed)
    std::printf("%-18s %12s %12s\n", "degree histogram:", "out", "in");
  else
    std::printf("%-18s %12s\n", "degree histogram:", "degree");
  for (std::size_t b = 0; b <= last; ++b) {
    if (directed)
      std::printf("  %-16s %12lld %12lld\n", bucket_text(b).c_str(),
                  static_cast<long long>(out.histogram[b]),
                  static_cast<long long>(in_stats.histogram[b]));
    else
      std::printf("  %-16s %12lld\n", bucket_text(b).c_str(),
                  static_cast<long long>(out.histogram[b]));
  }
  line("csr bytes", bytes_text(adj.bytes()));
  if (directed) line("transpose bytes", bytes_text(g.transpose().bytes()));
  check_stdout();
  const double seconds_analyze = analyze_time.seconds();

  print_summary(a.common, format("info: %s, %s, analyze %.3f s", graph_size(g).c_str(),
                                 load_summary(in).c_str(), seconds_analyze));
}

}  // namespace

Command add_info(CLI::App& root) {
  auto args = std::make_shared<InfoArgs>();
  CLI::App* sub = root.add_subcommand(
      "info",
      "Sizes and degree statistics of a graph\n"
      "Vertices, edges (stored entries; for an undirected graph also the undirected edge\n"
      "count), directed/weighted, self loops, out- and in-degree statistics (min, max, mean,\n"
      "stddev, coefficient of variation, empty rows), the degree histogram in log2 buckets,\n"
      "and the bytes of the CSR arrays.");
  add_common_options(*sub, args->common);
  sub->footer(std::string("OUTPUT:\n"
                          "  Aligned 'key: value' lines on stdout; the histogram lists how many\n"
                          "  vertices have a degree in each range 0, 1, 2-3, 4-7, ...\n") +
              input_help() + exit_status_help +
              "\nEXAMPLE:\n"
              "  graphrun info soc-LiveJournal1.txt.gz --undirected\n");
  return {sub, [args] { run_info(*args); }};
}

}  // namespace graphrun::cli
