// Shared pieces of the libFuzzer targets.
//
// The targets drive the public readers exactly as users do, through a file
// name: each input is written to a file in a private temporary folder (in
// /dev/shm when there is one, so no disk is touched) and read back from there.
// An InputError or SizeError is the expected answer to bad bytes; any other
// exception, a crash, a sanitizer report, a hang or an allocation past
// libFuzzer's limit is a finding. Beyond "no crash", each target checks what
// must hold of what it read (see the targets), with fuzz_check.
#pragma once

#include <omp.h>
#include <unistd.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>

#include "graphrun/engine/error.hpp"
#include "graphrun/engine/graph.hpp"

namespace graphrun::fuzz {

// Aborts (a finding) with a message when `ok` is false.
inline void fuzz_check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}

// The private folder, made on first use and removed at exit.
class Scratch {
 public:
  static Scratch& get() {
    static Scratch s;
    return s;
  }
  // Writes `bytes` to the file `name` in the folder and returns its path.
  std::string write(const std::string& name, std::span<const std::uint8_t> bytes) const {
    const std::string path = dir_ + "/" + name;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    fuzz_check(f != nullptr, "cannot create a scratch file");
    const bool ok = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    fuzz_check(std::fclose(f) == 0 && ok, "cannot write a scratch file");
    return path;
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  Scratch() {
    const char* base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : nullptr;
    if (base == nullptr) base = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
    std::string templ = std::string(base) + "/graphrun-fuzz-XXXXXX";
    fuzz_check(mkdtemp(templ.data()) != nullptr, "cannot make a scratch folder");
    dir_ = templ;
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string dir_;
};

// Two graphs with the same arrays, bit for bit, and the same flags and names.
inline bool same_graph(const Graph& a, const Graph& b) {
  const auto& x = a.adj();
  const auto& y = b.adj();
  if (a.n_vertices() != b.n_vertices() || a.n_edges() != b.n_edges() ||
      a.directed() != b.directed() || a.weighted() != b.weighted() ||
      x.is_pattern() != y.is_pattern() || a.has_names() != b.has_names() ||
      a.input_ids() != b.input_ids() || x.row_ptr() != y.row_ptr() || x.col_idx() != y.col_idx())
    return false;
  if (x.values().size() != y.values().size()) return false;
  for (std::size_t k = 0; k < x.values().size(); ++k)
    if (std::bit_cast<std::uint64_t>(x.values()[k]) != std::bit_cast<std::uint64_t>(y.values()[k]))
      return false;
  for (vertex_t v = 0; a.has_names() && v < a.n_vertices(); ++v)
    if (a.name(v) != b.name(v)) return false;
  const Graph::StoredOrder *p = a.stored_order(), *q = b.stored_order();
  if ((p == nullptr) != (q == nullptr)) return false;
  return p == nullptr || (p->method == q->method && p->order == q->order);
}

// An error's message without the leading "PATH": the same complaint about
// the same line compares equal whatever the file was called.
inline std::string message_after_path(const InputError& e) {
  const std::string w = e.what();
  return w.compare(0, e.file().size(), e.file()) == 0 ? w.substr(e.file().size()) : w;
}

// The outcome of a read: empty when it succeeded, else the complaint.
template <class F>
std::string outcome(F&& read) {
  try {
    read();
    return {};
  } catch (const InputError& e) {
    return "input: " + message_after_path(e);
  } catch (const SizeError& e) {
    return std::string("size: ") + e.what();
  }
}

// Runs `read`, treating the documented errors of bad input as an answer.
// Returns whether it succeeded.
template <class F>
bool reads(F&& read) {
  try {
    read();
    return true;
  } catch (const InputError&) {
  } catch (const SizeError&) {
  }
  return false;
}

}  // namespace graphrun::fuzz

// One thread. The readers run on the thread count their options say, but
// other library code (CSR assembly, transposes) uses OpenMP's default, and
// its idle workers spin between parallel regions: CPU time that fuzzes
// nothing, and that made libFuzzer's workers look busier than they were.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  omp_set_num_threads(1);
  return 0;
}
