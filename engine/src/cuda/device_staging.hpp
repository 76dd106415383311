// Host arrays to the device through pinned buffers (internal to engine/).
//
// A pageable cudaMemcpy moves about 7.5 GB/s to the H200 and 1.4 GB/s
// into fresh host memory; through pinned memory it runs at the bus's speed. stage_to_device
// converts a block of values into one of two pinned buffers (in parallel, narrowing 64-bit ids to
// 32 bits where asked) while the block before is copied from the other, so that the conversion
// hides behind the copy. The two buffers (64 MiB) are pinned once per process
// and reused; arrays of up to 1 MiB skip them (an ordinary copy). Every
// DeviceBuffer copy of 4 MiB or more goes through them too (device_array.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

struct CUstream_st;

namespace graphrun::detail {

// out[0 ..) = the parts back to back, each value converted to To; returns
// when the copies are done on `stream`.
template <class From, class To>
void stage_to_device(std::span<const std::span<const From>> parts, To* out, CUstream_st* stream);

// out[0 .. n) = the n values at device address `from`, converted to To,
// through the same pinned buffers the other way: block k+1 is copied while
// the host spreads block k into `out` on every core. Returns when done.
template <class From, class To>
void stage_from_device(const From* from, std::size_t n, To* out, CUstream_st* stream);

// Unpins the two buffers (after any staged copy under way); the next staged
// copy pins them again. Part of release_pinned_host_buffers().
void release_staging_buffers() noexcept;

}  // namespace graphrun::detail
