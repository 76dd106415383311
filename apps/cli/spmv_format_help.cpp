#include "spmv_format_help.hpp"

#include "graphrun/engine/spmv_format_table.hpp"

namespace graphrun::cli {

std::string spmv_format_option_help(std::string_view lead, std::string_view rest) {
  std::string help(lead);
  help += ":\n";
  help += spmv_format_names();
  help += " (see SPMV FORMATS below).\n";
  help += rest;
  return help;
}

std::string spmv_formats_section() {
  std::string section = "SPMV FORMATS (--format):\n";
  section += spmv_format_help();
  return section;
}

}  // namespace graphrun::cli
