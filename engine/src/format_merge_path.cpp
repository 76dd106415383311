#include <string>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/formats/merge_path.hpp"

namespace graphrun {

MergePathPartition::MergePathPartition(const offset_t* row_ptr, vertex_t n_rows, int shares) {
  if (shares < 1)
    throw ArgumentError("merge-path: the number of shares must be at least 1, not " +
                        std::to_string(shares));
  const offset_t nnz = row_ptr[n_rows];
  const offset_t total = checked_add(offset_t{n_rows}, nnz, "merge-path length (rows + nnz)");
  share_length_ = total / shares + (total % shares != 0);
  start_row_.resize(static_cast<std::size_t>(shares) + 1);
  start_entry_.resize(static_cast<std::size_t>(shares) + 1);
  for (int p = 0; p <= shares; ++p) {
    // p * L may pass total only by less than L; clamp (trailing shares are empty).
    const offset_t diagonal = std::min(total, offset_t{p} * share_length_);
    const MergeCoord c = merge_path_search(diagonal, row_ptr + 1, n_rows, nnz);
    start_row_[p] = c.row;
    start_entry_[p] = c.entry;
  }
}

std::vector<MergeCoord> MergePathPartition::starts() const {
  std::vector<MergeCoord> s(start_row_.size());
  for (std::size_t p = 0; p < s.size(); ++p) s[p] = {start_row_[p], start_entry_[p]};
  return s;
}

}  // namespace graphrun
