#include "graphrun/engine/spmv_format.hpp"

#include <array>
#include <string>

#include "graphrun/engine/error.hpp"

namespace graphrun {

namespace {
constexpr std::array<SpmvFormat, 7> concrete = {
    SpmvFormat::coo, SpmvFormat::csr_thread, SpmvFormat::csr_warp,  SpmvFormat::ell,
    SpmvFormat::hyb, SpmvFormat::jds,        SpmvFormat::merge_path};
}  // namespace

std::string_view to_string(SpmvFormat f) {
  switch (f) {
    case SpmvFormat::automatic:
      return "auto";
    case SpmvFormat::coo:
      return "coo";
    case SpmvFormat::csr_thread:
      return "csr-thread";
    case SpmvFormat::csr_warp:
      return "csr-warp";
    case SpmvFormat::ell:
      return "ell";
    case SpmvFormat::hyb:
      return "hyb";
    case SpmvFormat::jds:
      return "jds";
    case SpmvFormat::merge_path:
      return "merge-path";
  }
  return "?";
}

SpmvFormat parse_spmv_format(std::string_view name) {
  if (name == "auto") return SpmvFormat::automatic;
  for (SpmvFormat f : concrete)
    if (to_string(f) == name) return f;
  throw ArgumentError("unknown SpMV format '" + std::string(name) +
                      "' (expected auto, coo, csr-thread, csr-warp, ell, hyb, jds or merge-path)");
}

std::span<const SpmvFormat> all_spmv_formats() { return concrete; }

}  // namespace graphrun
