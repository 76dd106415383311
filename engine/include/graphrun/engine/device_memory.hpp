// How much device memory graphrun holds, and a cap on it.
//
// Every device allocation graphrun makes (DeviceBuffer, DeviceArray,
// DeviceCsr, the SpGEMM's pool workspace) is counted here. With a cap set
// (Context::set_max_device_memory, --max-device-memory), an allocation that
// would take the count past it fails with a DeviceError naming the bytes
// needed, in use and capped, before the device is asked; the SpGEMM plans
// its row chunks within what the cap leaves. The cap is one per process, as
// the device's memory is. Libraries graphrun calls for comparison (cuSPARSE
// in the benchmarks) are not counted.
#pragma once

#include <cstddef>
#include <string>

namespace graphrun {

// 0 = no cap (the device's own memory is the limit).
void set_device_memory_cap(std::size_t bytes) noexcept;
std::size_t device_memory_cap() noexcept;
// Bytes graphrun holds now, and the most it held since the last reset.
std::size_t device_memory_in_use() noexcept;
std::size_t device_memory_peak() noexcept;
void reset_device_memory_peak() noexcept;

// "1610612736 bytes (1.50 GiB)", for messages.
std::string describe_bytes(std::size_t bytes);

// Counts `bytes` as held, or throws DeviceError("<what> needs N bytes of
// device memory; the cap ... ") when that would pass the cap.
void reserve_device_memory(std::size_t bytes, const char* what);
void release_device_memory(std::size_t bytes) noexcept;
// What the cap leaves for a new allocation (SIZE_MAX without a cap).
std::size_t device_memory_headroom() noexcept;

// The current device's free and total memory (cudaMemGetInfo); false, with
// the reason in `error`, where it cannot be read or the build has no CUDA.
bool device_memory_totals(std::size_t& free_bytes, std::size_t& total_bytes, std::string& error);

// Frees the page-locked host memory graphrun keeps for the life of the
// process: the two 32 MiB buffers that large host-device copies go through
// and the 64 KiB block of small read-back buffers (where none of it is held
// now); they are pinned again at their next use. For a leak checker
// (compute-sanitizer --leak-check full, which counts them: the GPU tests
// call this at the end) or a caller about to reset the device. Nothing to do
// in a build without CUDA.
void release_pinned_host_buffers() noexcept;

// CUDA builds only (the SpGEMM and MCL size their pieces by them).
// What the device can give a new allocation now: its free memory plus what
// its default stream-ordered pool holds unused (the cap apart).
std::size_t device_memory_free();
// The same within the cap. For sizing work done in pieces (the SpGEMM's row
// chunks, MCL's column blocks).
std::size_t device_memory_available();

}  // namespace graphrun
