// The --format help of the subcommands with a GPU SpMV (pagerank, bfs), from
// the SpMV format table (engine/spmv_format_table.hpp): the option's text and
// the SPMV FORMATS section of --help, one line per format.
#pragma once

#include <string>
#include <string_view>

namespace graphrun::cli {

// `lead`, then a line of every name of the table, then `rest`.
std::string spmv_format_option_help(std::string_view lead, std::string_view rest);

// "SPMV FORMATS (--format):" and the table's help, one line per format.
std::string spmv_formats_section();

}  // namespace graphrun::cli
