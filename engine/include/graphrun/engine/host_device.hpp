// GRAPHRUN_HD marks a function that runs on the host and, in code that nvcc
// compiles, on the device too: the format views, semiring operations and
// rules shared by both backends are written once with it.
#pragma once

#if defined(__CUDACC__)
#define GRAPHRUN_HD __host__ __device__
#else
#define GRAPHRUN_HD
#endif
