// The SpMV format table's rows, names and help, all from GRAPHRUN_SPMV_FORMATS.
#include "graphrun/engine/spmv_format_table.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "graphrun/engine/error.hpp"

namespace graphrun {

namespace {

constexpr SpmvFormatRow table[] = {
    {SpmvFormat::automatic, "auto", SpmvPicked::never,
     "picked from the row statistics (mean, spread, longest row) among"},
#define GRAPHRUN_SPMV_FORMAT_ROW(id, name, picked, help) \
  {SpmvFormat::id, name, SpmvPicked::picked, help},
    GRAPHRUN_SPMV_FORMATS(GRAPHRUN_SPMV_FORMAT_ROW)
#undef GRAPHRUN_SPMV_FORMAT_ROW
};

constexpr std::size_t n_rows = std::size(table);

// The rows are in enum order: a format's row is table[format].
constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < n_rows; ++i)
    if (static_cast<std::size_t>(table[i].format) != i) return false;
  return true;
}
static_assert(rows_in_enum_order());

constexpr std::array<SpmvFormat, n_rows - 1> concrete = [] {
  std::array<SpmvFormat, n_rows - 1> c{};
  for (std::size_t i = 1; i < n_rows; ++i) c[i - 1] = table[i].format;
  return c;
}();

}  // namespace

std::span<const SpmvFormatRow> spmv_format_table() { return table; }

const SpmvFormatRow& spmv_format_row(SpmvFormat f) {
  const auto i = static_cast<std::size_t>(f);
  if (i >= n_rows) throw ArgumentError("SpMV format: no such format");
  return table[i];
}

std::string_view to_string(SpmvFormat f) {
  const auto i = static_cast<std::size_t>(f);
  return i < n_rows ? table[i].name : std::string_view("?");
}

std::string spmv_format_names() {
  std::string names;
  for (std::size_t i = 0; i < n_rows; ++i) {
    if (i > 0) names += i + 1 == n_rows ? " or " : ", ";
    names += table[i].name;
  }
  return names;
}

bool spmv_format_picked(SpmvFormat f, Device device) {
  const SpmvPicked p = spmv_format_row(f).picked;
  return p == SpmvPicked::cpu_gpu ||
         p == (device == Device::cpu ? SpmvPicked::cpu : SpmvPicked::gpu);
}

std::string spmv_format_help() {
  std::size_t width = 0;
  for (const SpmvFormatRow& r : table) width = std::max(width, r.name.size());
  std::string help;
  for (const SpmvFormatRow& r : table) {
    help += "  ";
    help += r.name;
    help.append(width + 2 - r.name.size(), ' ');
    help += r.help;
    help += '\n';
    if (r.format != SpmvFormat::automatic) continue;
    // The formats auto picks from: "CPU: a, b; GPU: c, d".
    help.append(width + 4, ' ');
    for (const Device d : {Device::cpu, Device::cuda}) {
      help += d == Device::cpu ? "CPU:" : "; GPU:";
      const char* sep = " ";
      for (const SpmvFormat f : concrete) {
        if (!spmv_format_picked(f, d)) continue;
        help += sep;
        help += to_string(f);
        sep = ", ";
      }
    }
    help += '\n';
  }
  return help;
}

SpmvFormat parse_spmv_format(std::string_view name) {
  for (const SpmvFormatRow& r : table)
    if (r.name == name) return r.format;
  std::string message = "unknown SpMV format '";
  message += name;
  message += "' (expected ";
  message += spmv_format_names();
  message += ')';
  throw ArgumentError(message);
}

std::span<const SpmvFormat> all_spmv_formats() { return concrete; }

namespace detail {
void spmv_format_not_concrete() {
  throw ArgumentError("SpMV: 'auto' is no format to run; choose_spmv_format() picks one");
}
}  // namespace detail

}  // namespace graphrun
