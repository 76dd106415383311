// Side streams for the GPU SpGEMM's group kernels (spgemm_launch.cuh).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "graphrun/engine/cuda_check.hpp"

namespace graphrun::cuda::spgemm_detail {

// The groups' kernels run side by side on this thread's side streams: a
// group of a few long rows (whose blocks finish late) then overlaps the
// groups of many short rows instead of running after them. Used only when
// two or more groups have rows; the side streams and events are made once
// per thread and device.
//
// `apart` asks for one more stream that no group shares: the chain of the
// global-memory rows (their kernel, segmented sort and scatter), a few
// blocks that run for hundreds of microseconds. On a stream of its own,
// launched first, it overlaps the groups instead of following them.
class Fan {
 public:
  static constexpr int kSide = 3;

  Fan(cudaStream_t main, int nonempty, bool apart = false) : main_(main) {
    if (nonempty + (apart ? 1 : 0) < 2) return;
    side_ = &sides();
    if (!side_->ok) return;
    used_ = std::clamp(nonempty - 1, 0, kSide);
    apart_ = apart;
    GRAPHRUN_CUDA_CHECK(cudaEventRecord(side_->forked, main));
    for (int i = 0; i < kSide + 1; ++i)
      if (in_use(i)) GRAPHRUN_CUDA_CHECK(cudaStreamWaitEvent(side_->stream[i], side_->forked, 0));
  }

  // The stream set apart (the caller's where side streams are unavailable).
  cudaStream_t apart() const { return apart_ ? side_->stream[kSide] : main_; }
  Fan(const Fan&) = delete;
  Fan& operator=(const Fan&) = delete;

  // The stream for the next group: the caller's first, then the side ones.
  cudaStream_t next() {
    const int i = turn_++ % (used_ + 1);
    return i == 0 ? main_ : side_->stream[i - 1];
  }
  // The caller's stream waits for every side stream.
  void join() {
    for (int i = 0; i < kSide + 1; ++i) {
      if (!in_use(i)) continue;
      GRAPHRUN_CUDA_CHECK(cudaEventRecord(side_->done[i], side_->stream[i]));
      GRAPHRUN_CUDA_CHECK(cudaStreamWaitEvent(main_, side_->done[i], 0));
    }
    used_ = 0;
    apart_ = false;
  }

 private:
  // Side stream i takes part in this fan: one of the groups' or the one set apart.
  bool in_use(int i) const { return i < used_ || (apart_ && i == kSide); }

  struct Side {
    int device = -1;
    bool ok = false;
    cudaStream_t stream[kSide + 1]{};  // the last: the one set apart
    cudaEvent_t forked{}, done[kSide + 1]{};
    void make(int dev) {
      release();
      device = dev;
      ok = cudaEventCreateWithFlags(&forked, cudaEventDisableTiming) == cudaSuccess;
      for (int i = 0; i < kSide + 1 && ok; ++i)
        ok = cudaStreamCreateWithFlags(&stream[i], cudaStreamNonBlocking) == cudaSuccess &&
             cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming) == cudaSuccess;
      if (!ok) cudaGetLastError();
    }
    void release() {  // errors ignored: also runs at thread exit
      for (int i = 0; i < kSide + 1; ++i) {
        if (stream[i]) cudaStreamDestroy(stream[i]);
        if (done[i]) cudaEventDestroy(done[i]);
        stream[i] = nullptr;
        done[i] = nullptr;
      }
      if (forked) cudaEventDestroy(forked);
      forked = nullptr;
      ok = false;
    }
    ~Side() { release(); }
  };
  static Side& sides() {
    static thread_local Side side;
    int dev = 0;
    GRAPHRUN_CUDA_CHECK(cudaGetDevice(&dev));
    if (dev != side.device) side.make(dev);
    return side;
  }

  cudaStream_t main_;
  Side* side_ = nullptr;  // this thread's, looked up once per fan
  int used_ = 0;
  bool apart_ = false;
  int turn_ = 0;
};

}  // namespace graphrun::cuda::spgemm_detail
