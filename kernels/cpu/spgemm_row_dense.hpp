// The dense agent of the CPU SpGEMM: rows of kind dense (cpu/spgemm.hpp),
// Gustavson's algorithm over the thread's bitmap of n_cols bits and n_cols
// accumulators. No hashing and no probing; a row comes out in column order
// by a scan of its bitmap words where that is cheaper than a sort.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "spgemm_row_common.hpp"

namespace graphrun::cpu::spgemm_detail {

template <class S, class T>
class DenseRows : RowOperands<S, T> {
 public:
  using V = typename S::value_type;
  using RowOperands<S, T>::RowOperands;

  // nnz(C(i,:)): the set bits of the row's columns, by whichever of three
  // ways costs least for its shape; the bitmap is left all zero.
  offset_t symbolic(const Plan& p, vertex_t i, Workspace<V>& w, offset_t a_begin,
                    offset_t a_end) const {
    std::uint64_t* bits = w.bits.data();
    const std::int64_t words = b_.n_cols / 64 + 1;
    if (!p.b_row_bits.empty()) {
      // Narrow B with long rows: OR B's row bitmaps, count, clear.
      for (offset_t ka = a_begin; ka < a_end; ++ka) {
        const std::uint64_t* row = p.b_row_bits.data() + a_.col_idx[ka] * words;
        for (std::int64_t wi = 0; wi < words; ++wi) bits[wi] |= row[wi];
      }
      offset_t count = 0;
      for (std::int64_t wi = 0; wi < words; ++wi) {
        count += std::popcount(bits[wi]);
        bits[wi] = 0;
      }
      return count;
    }
    if (words <= p.ip[i]) {
      // Fewer bitmap words than products: only set bits, then count and
      // clear them all with popcount (one or-store per product).
      for (offset_t ka = a_begin; ka < a_end; ++ka) {
        const vertex_t k = a_.col_idx[ka];
        for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
          const vertex_t j = b_.col_idx[kb];
          bits[j >> 6] |= std::uint64_t{1} << (j & 63);
        }
      }
      offset_t count = 0;
      for (std::int64_t wi = 0; wi < words; ++wi) {
        count += std::popcount(bits[wi]);
        bits[wi] = 0;
      }
      return count;
    }
    // Else count first touches, then clear the bits by walking the
    // products again (they are still in cache).
    offset_t count = 0;
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
        const vertex_t j = b_.col_idx[kb];
        const std::uint64_t bit = std::uint64_t{1} << (j & 63);
        count += (bits[j >> 6] & bit) == 0;
        bits[j >> 6] |= bit;
      }
    }
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) bits[b_.col_idx[kb] >> 6] = 0;
    }
    return count;
  }

  // Writes the columns set in bitmap words first_word..last_word, in order,
  // with their accumulated values, and clears bits and accumulators behind it
  // (S::zero() again) for the next row.
  static offset_t read_out_bitmap(std::uint64_t* bits, V* acc, std::int64_t first_word,
                                  std::int64_t last_word, vertex_t* out_col, V* out_val) {
    offset_t t = 0;
    for (std::int64_t wi = first_word; wi <= last_word; ++wi) {
      std::uint64_t x = bits[wi];
      bits[wi] = 0;
      while (x) {
        const vertex_t j = static_cast<vertex_t>(wi * 64 + std::countr_zero(x));
        out_col[t] = j;
        out_val[t] = acc[j];
        acc[j] = S::zero();
        ++t;
        x &= x - 1;
      }
    }
    return t;
  }

  // A dense row with more products than bitmap words (few columns, long
  // rows): no branch per product. Every product is added to its accumulator
  // (S::zero() between rows, so the first addition gives the product itself)
  // and sets its bit; the row is then read out by scanning the whole bitmap,
  // resetting bits and accumulators behind it. The first-touch branch of the
  // general path below mispredicts about once per column of C.
  offset_t numeric_many(Workspace<V>& w, vertex_t* out_col, V* out_val, offset_t a_begin,
                        offset_t a_end) const {
    std::uint64_t* bits = w.bits.data();
    V* acc = w.acc.data();
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      const V aik = a_entry(ka);
      // B's row end in a register: acc's stores could alias row_ptr as far
      // as the compiler knows, and it would reload the bound every product.
      const offset_t kb_end = b_.row_ptr[k + 1];
      for (offset_t kb = b_.row_ptr[k]; kb < kb_end; ++kb) {
        const vertex_t j = b_.col_idx[kb];
        acc[j] = S::add(acc[j], S::mul(aik, b_entry(kb)));
        bits[j >> 6] |= std::uint64_t{1} << (j & 63);
      }
    }
    return read_out_bitmap(bits, acc, 0, b_.n_cols / 64, out_col, out_val);
  }

  // Gustavson with a bitmap of the columns seen (n_cols bits: 32 KiB covers
  // 2^18 columns, so it stays in L1 where int markers would not) and dense
  // accumulators. The row is read out in column order either by scanning the
  // bitmap words between its lowest and highest column (ctz per hit), or by
  // sorting the columns collected on first touch, whichever is cheaper:
  // words vs L log L. Both leave the bitmap all zero for the next row.
  offset_t numeric(Workspace<V>& w, vertex_t* out_col, V* out_val, offset_t len, offset_t a_begin,
                   offset_t a_end) const {
    std::uint64_t* bits = w.bits.data();
    V* acc = w.acc.data();
    offset_t n = 0;
    vertex_t lo = b_.n_cols, hi = 0;
    for (offset_t ka = a_begin; ka < a_end; ++ka) {
      const vertex_t k = a_.col_idx[ka];
      const V aik = a_entry(ka);
      for (offset_t kb = b_.row_ptr[k]; kb < b_.row_ptr[k + 1]; ++kb) {
        const vertex_t j = b_.col_idx[kb];
        const V prod = S::mul(aik, b_entry(kb));
        std::uint64_t& word = bits[j >> 6];
        const std::uint64_t bit = std::uint64_t{1} << (j & 63);
        if (!(word & bit)) {
          word |= bit;
          acc[j] = prod;
          out_col[n++] = j;
          lo = std::min(lo, j);
          hi = std::max(hi, j);
        } else {
          acc[j] = S::add(acc[j], prod);
        }
      }
    }
    if (len < 0) len = n;
    if (len == 0) return 0;
    const std::int64_t words = (hi >> 6) - (lo >> 6) + 1;
    if (words <= len * static_cast<std::int64_t>(std::bit_width(static_cast<std::uint64_t>(len)))) {
      read_out_bitmap(bits, acc, lo >> 6, hi >> 6, out_col, out_val);
    } else {
      sort_columns(out_col, len);
      for (offset_t t = 0; t < len; ++t) {
        const vertex_t j = out_col[t];
        out_val[t] = acc[j];
        acc[j] = S::zero();
        bits[j >> 6] = 0;
      }
    }
    return len;
  }

 private:
  using Operands = RowOperands<S, T>;
  using Operands::a_, Operands::b_, Operands::a_entry, Operands::b_entry;
};

}  // namespace graphrun::cpu::spgemm_detail
