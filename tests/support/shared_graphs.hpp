// The graph files of a collection laid out as ROOT/NAME/FILE (the shared
// graph collection, GRAPHRUN_DATASETS): edge lists and Matrix Market files,
// plain or gzip, without the side files (vertex tables *.nodes.*, ground
// truths, protein complexes). Empty when ROOT does not exist.
//
// shipped_graph_files(): the small graphs shipped in the repository's
// datasets/ (same layout), which every checkout has: tests over real graphs
// take these always and the shared collection's where it is present, so
// that a machine without the collection still runs them.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace graphrun::test {

// Whether a file name is a graph: edge lists and Matrix Market files, plain
// or gzip, but not side files (vertex tables, ground truths, protein
// complexes) nor the generators' CMakeLists.txt under datasets/.
inline bool is_graph_file(const std::string& name) {
  if (name == "CMakeLists.txt") return false;
  const bool mtx = name.ends_with(".mtx.gz") || name.ends_with(".mtx");
  const bool txt = name.ends_with(".txt.gz") || name.ends_with(".txt");
  const bool side = name.find(".nodes.") != std::string::npos ||
                    name.find("groundtruth") != std::string::npos ||
                    name.find("complexes") != std::string::npos;
  return (mtx || txt) && !side;
}

inline std::vector<std::filesystem::path> graph_files(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return out;
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.is_regular_file() && is_graph_file(f.path().filename().string()))
        out.push_back(f.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

#if defined(GRAPHRUN_SOURCE_DIR)
inline std::vector<std::filesystem::path> shipped_graph_files() {
  return graph_files(std::filesystem::path(GRAPHRUN_SOURCE_DIR) / "datasets");
}
#endif

}  // namespace graphrun::test
