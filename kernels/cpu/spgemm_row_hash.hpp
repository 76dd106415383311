// The hash agent of the CPU SpGEMM: rows of kind hash (cpu/spgemm.hpp),
// accumulated in the thread's open-addressing table.
//
// Keys are column ids (-1 = free), linear probing, the slot is the upper
// bits of a Fibonacci (multiplicative) hash, so runs of neighbouring columns
// spread over the table. A row uses the power of two at or above twice its
// bound min(IP, n_cols) (spgemm_table_slots: at most half full, short
// probes), and clears only its own slots afterwards.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "spgemm_row_common.hpp"

namespace graphrun::cpu::spgemm_detail {

// Slot of column j in a table of 2^(32 - shift) slots.
inline std::uint32_t hash_slot(vertex_t j, int shift) {
  return (static_cast<std::uint32_t>(j) * 0x9E3779B1u) >> shift;
}

inline int hash_shift(std::int64_t slots) {
  return 32 - std::countr_zero(static_cast<std::uint64_t>(slots));
}

template <class S, class T>
class HashRows : RowOperands<S, T> {
 public:
  using V = typename S::value_type;
  using RowOperands<S, T>::RowOperands;

  // nnz(C(i,:)): the distinct columns, counted by insertion of the keys.
  offset_t symbolic(const Plan& p, vertex_t i, Workspace<V>& w, offset_t a_begin,
                    offset_t a_end) const {
    const std::int64_t slots = spgemm_table_slots(std::min<std::int64_t>(p.ip[i], b_.n_cols));
    const int shift = hash_shift(slots);
    const std::uint32_t mask = static_cast<std::uint32_t>(slots - 1);
    vertex_t* keys = w.keys.data();
    offset_t count = 0;
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
        const vertex_t j = b_.col_idx[kb];
        std::uint32_t h = hash_slot(j, shift);
        while (keys[h] != j) {
          if (keys[h] == -1) {
            keys[h] = j;
            ++count;
            break;
          }
          h = (h + 1) & mask;
        }
      }
    }
    std::fill(keys, keys + slots, vertex_t{-1});
    return count;
  }

  // Row i of C: products accumulated in the table, the keys compacted into
  // out_col and sorted, each value fetched by its key. `len` is the row's
  // length, or -1 where the symbolic phase did not run (then counted here).
  offset_t numeric(const Plan& p, vertex_t i, Workspace<V>& w, vertex_t* out_col, V* out_val,
                   offset_t len, offset_t a_begin, offset_t a_end) const {
    const std::int64_t slots = spgemm_table_slots(std::min<std::int64_t>(p.ip[i], b_.n_cols));
    const int shift = hash_shift(slots);
    const std::uint32_t mask = static_cast<std::uint32_t>(slots - 1);
    vertex_t* keys = w.keys.data();
    V* vals = w.vals.data();
    offset_t inserted = 0;
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      const V aik = a_entry(ka);
      for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
        const vertex_t j = b_.col_idx[kb];
        const V prod = S::mul(aik, b_entry(kb));
        std::uint32_t h = hash_slot(j, shift);
        while (true) {
          if (keys[h] == j) {
            vals[h] = S::add(vals[h], prod);
            break;
          }
          if (keys[h] == -1) {
            keys[h] = j;
            vals[h] = prod;
            ++inserted;
            break;
          }
          h = (h + 1) & mask;
        }
      }
    }
    if (len < 0) len = inserted;
    // Compact the keys into C, sort them, then fetch each value by its key.
    offset_t n = 0;
    for (std::int64_t s = 0; s < slots && n < len; ++s)
      if (keys[s] != -1) out_col[n++] = keys[s];
    sort_columns(out_col, len);
    for (offset_t t = 0; t < len; ++t) {
      const vertex_t j = out_col[t];
      std::uint32_t h = hash_slot(j, shift);
      while (keys[h] != j) h = (h + 1) & mask;
      out_val[t] = vals[h];
    }
    std::fill(keys, keys + slots, vertex_t{-1});
    return len;
  }

 private:
  using Operands = RowOperands<S, T>;
  using Operands::a_, Operands::b_, Operands::a_entry, Operands::b_entry;
};

}  // namespace graphrun::cpu::spgemm_detail
