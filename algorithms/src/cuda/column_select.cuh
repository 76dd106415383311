// Order statistics of one column of non-negative floats, computed by a whole
// block in place: the k-th largest value by radix selection, and the count
// and sum of the values at or above a threshold. MCL's pruning asks for the
// S-th and R-th largest entries of an expanded column (selection and
// recovery); a sort of the column answers that too, but costs n log n and a
// sorted copy, and on a graph with no community structure every column of
// an expansion goes to recovery with hundreds of thousands of entries.
//
// Radix selection: non-negative floats order as their bit patterns, so the
// k-th largest is found digit by digit, 8 bits at a time from the top: each
// pass counts, in a histogram in shared memory, the next digit of the values
// whose higher digits equal the ones chosen so far, and picks the digit
// whose bin holds the k-th largest of them. Four passes over the column,
// each reading it once; the answer is exact and the same in any order.
#pragma once

#include <cstdint>

namespace graphrun::detail {

template <int BLOCK>
struct ColumnSelect {
  static_assert(BLOCK % 32 == 0 && BLOCK >= 64 && BLOCK <= 1024);
  static constexpr int kWarps = BLOCK / 32;

  struct Shared {
    unsigned int hist[256];
    unsigned int prefix;
    long long rank;  // the rank sought among the values that match the prefix
    long long warp_count[kWarps];
    double warp_mass[kWarps];
  };

  // The k-th largest of v[0, n), 1 <= k <= n. Called by the whole block
  // (it synchronizes); every thread gets the value.
  __device__ static float kth_largest(const float* __restrict__ v, std::int64_t n, std::int64_t k,
                                      Shared& s) {
    unsigned int prefix = 0, mask = 0;
    long long rank = k;
    for (int shift = 24; shift >= 0; shift -= 8) {
      for (int i = threadIdx.x; i < 256; i += BLOCK) s.hist[i] = 0;
      __syncthreads();
      for (std::int64_t i = threadIdx.x; i < n; i += BLOCK) {
        const unsigned int u = __float_as_uint(v[i]);
        if ((u & mask) == prefix) atomicAdd(&s.hist[(u >> shift) & 255u], 1u);
      }
      __syncthreads();
      if (threadIdx.x < 32) {
        // Lane l holds bins 255 - 8l down to 248 - 8l: a scan over the lanes
        // counts the values above each lane's bins, largest first.
        const int lane = static_cast<int>(threadIdx.x);
        unsigned int mine[8];
        long long sum = 0;
        for (int b = 0; b < 8; ++b) sum += mine[b] = s.hist[255 - 8 * lane - b];
        long long above = sum;  // inclusive scan over lanes 0..lane
        for (int d = 1; d < 32; d <<= 1) {
          const long long o = __shfl_up_sync(0xffffffffu, above, d);
          if (lane >= d) above += o;
        }
        above -= sum;  // exclusive: the values in the bins of lanes before
        const unsigned int hit = __ballot_sync(0xffffffffu, above < rank && above + sum >= rank);
        if (lane == __ffs(hit) - 1) {
          int b = 0;
          while (above + mine[b] < rank) above += mine[b++];
          s.prefix = prefix | (static_cast<unsigned int>(255 - 8 * lane - b) << shift);
          s.rank = rank - above;
        }
      }
      __syncthreads();
      prefix = s.prefix;
      rank = s.rank;
      mask |= 255u << shift;
      __syncthreads();  // every thread has read them before the next pass
    }
    return __uint_as_float(prefix);
  }

  // How many of v[0, n) are >= t, and their sum (per thread in index order,
  // then warp by warp in a fixed order: the same bits every call). Called by
  // the whole block; every thread gets both.
  __device__ static void at_least(const float* __restrict__ v, std::int64_t n, double t,
                                  long long& count, double& mass, Shared& s) {
    long long c = 0;
    double m = 0;
    for (std::int64_t i = threadIdx.x; i < n; i += BLOCK) {
      const double x = v[i];
      if (x >= t) {
        ++c;
        m += x;
      }
    }
    for (int o = 16; o > 0; o >>= 1) {
      c += __shfl_xor_sync(0xffffffffu, c, o);
      m += __shfl_xor_sync(0xffffffffu, m, o);
    }
    if (threadIdx.x % 32 == 0) {
      s.warp_count[threadIdx.x / 32] = c;
      s.warp_mass[threadIdx.x / 32] = m;
    }
    __syncthreads();
    count = 0;
    mass = 0;
    for (int w = 0; w < kWarps; ++w) {
      count += s.warp_count[w];
      mass += s.warp_mass[w];
    }
    __syncthreads();  // every thread has read them before they are written again
  }
};

}  // namespace graphrun::detail
