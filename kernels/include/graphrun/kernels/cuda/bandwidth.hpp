// The device's measured copy bandwidth: the yardstick for memory-bound
// kernels (an SpMV can at best stream its bytes at this rate).
//
//   const double gbs = cuda::measured_copy_bandwidth();   // e.g. ~4000 on an H200
//
// A device-to-device copy of 1 GiB, timed with CUDA events (gpu_median_ms), median of
// a few runs after a warm-up; bytes counted as read + written (2 GiB per
// copy). CUDA builds only.
#pragma once

namespace graphrun::cuda {

// GB/s (10^9 bytes per second) on the current device.
double measured_copy_bandwidth();

}  // namespace graphrun::cuda
