// libFuzzer target: the per-vertex files, read against a graph with numeric
// ids and against one with named vertices. Label files (graphrun contract
// --labels): one label per vertex, every label in range and used, and the
// labels numbered in the documented order (ascending integers when all are,
// byte order otherwise; distinct texts). Value files (graphrun pagerank
// --start): one finite value per vertex, none negative where refused, 0 for
// each vertex counted missing, and the counts adding up.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "fuzz_support.hpp"
#include "graphrun/io/labels.hpp"
#include "graphrun/io/vertex_values.hpp"

using namespace graphrun;
using namespace graphrun::fuzz;

namespace {

// Ids 0, 1, 2, 7, 10, 100, 18446744073709551615 (a path through them).
Graph numeric_graph() {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 7;
  for (vertex_t v = 0; v + 1 < 7; ++v) {
    coo.row.push_back(v);
    coo.col.push_back(v + 1);
  }
  return Graph(Csr<double>::from_coo(coo), {0, 1, 2, 7, 10, 100, UINT64_MAX}, true, false);
}

// Names "a", "b", "10", "#x", "é" and "a b"-free tokens only: names
// with blanks cannot be written in a label file.
Graph named_graph() {
  Coo<double> coo;
  coo.n_rows = coo.n_cols = 5;
  coo.row = {0, 1, 2, 3};
  coo.col = {1, 2, 3, 4};
  return Graph::with_names(Csr<double>::from_coo(coo), {"a", "b", "10", "#x", "\xc3\xa9"}, true,
                           false);
}

std::optional<std::uint64_t> integer(const std::string& s) {
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

void check(const io::VertexLabels& m, const Graph& g) {
  fuzz_check(m.labels.size() == static_cast<std::size_t>(g.n_vertices()), "one label per vertex");
  std::vector<bool> used(m.names.size(), false);
  for (vertex_t l : m.labels) {
    fuzz_check(l >= 0 && static_cast<std::size_t>(l) < m.names.size(), "label in range");
    used[static_cast<std::size_t>(l)] = true;
  }
  fuzz_check(std::all_of(used.begin(), used.end(), [](bool u) { return u; }), "every label used");
  const bool numeric =
      std::all_of(m.names.begin(), m.names.end(), [](const std::string& s) { return integer(s); });
  for (std::size_t k = 1; k < m.names.size(); ++k) {
    const std::string &x = m.names[k - 1], &y = m.names[k];
    const bool ordered = numeric && *integer(x) != *integer(y) ? *integer(x) < *integer(y) : x < y;
    fuzz_check(ordered, "labels numbered in the documented order");
  }
}

void check(const io::VertexValues& m, const Graph& g, bool non_negative) {
  const auto n = static_cast<std::int64_t>(g.n_vertices());
  fuzz_check(m.value.size() == static_cast<std::size_t>(n), "one value per vertex");
  fuzz_check(std::all_of(m.value.begin(), m.value.end(),
                         [&](double x) { return std::isfinite(x) && (!non_negative || x >= 0); }),
             "values finite (and non-negative where asked)");
  fuzz_check(m.lines >= 1, "at least one value line");
  fuzz_check(m.missing >= 0 && m.missing <= n && m.unknown >= 0, "counts in range");
  fuzz_check(m.lines == (n - m.missing) + m.unknown, "every line given a vertex or skipped");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Graph numeric = numeric_graph();
  static const Graph named = named_graph();
  const std::string path = Scratch::get().write("labels.tsv", {data, size});
  for (const Graph* g : {&numeric, &named}) {
    io::VertexLabels m;
    if (reads([&] { m = io::read_vertex_labels(path, *g, "g"); })) check(m, *g);
    for (bool non_negative : {false, true}) {
      io::VertexValues v;
      if (reads([&] {
            v = io::read_vertex_values(path, *g, {.non_negative = non_negative, .graph_name = "g"});
          }))
        check(v, *g, non_negative);
    }
  }
  return 0;
}
