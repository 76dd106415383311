// Every real graph a test can reach, loaded: the shipped ones (datasets/, in
// every checkout), then the shared collection's (GRAPHRUN_DATASETS) where it
// is present. Files that are not graphs with numeric ids (as-caida's, the
// named protein networks) and graphs without vertices are skipped.
// check(g, name) says whether it checked g (false: g is not for this test,
// e.g. it has negative weights); the count of graphs checked is returned,
// for the test to require a minimum.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "graphrun/engine/error.hpp"
#include "graphrun/io/load.hpp"
#include "support/shared_graphs.hpp"

namespace graphrun::test {

#if defined(GRAPHRUN_SOURCE_DIR) && defined(GRAPHRUN_DATASETS)
template <class Check>
int for_each_real_graph(const io::LoadOptions& options, Check&& check) {
  std::vector<std::filesystem::path> files = shipped_graph_files();
  for (const std::filesystem::path& f : graph_files(GRAPHRUN_DATASETS)) files.push_back(f);
  int checked = 0;
  for (const std::filesystem::path& file : files) {
    Graph g;
    try {
      g = io::load_graph(file.string(), options);
    } catch (const InputError&) {
      continue;  // not a graph with numeric ids
    }
    if (g.n_vertices() == 0) continue;
    if (check(g, file.filename().string())) ++checked;
  }
  return checked;
}

inline io::LoadOptions taken_undirected(bool undirected) {
  io::LoadOptions o;
  o.undirected = undirected;
  return o;
}
#endif

}  // namespace graphrun::test
