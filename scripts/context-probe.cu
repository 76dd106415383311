// Fixed costs of a CUDA process: a primary context made alone and beside a
// loader's page faults on every core, and a process's end with device and
// pinned memory held (docs/performance.md, "a CUDA process's fixed costs").
//
//   nvcc -O3 -arch=sm_90 -std=c++17 scripts/context-probe.cu -o context-probe
//   ./context-probe ctx                      cudaFree(nullptr) in a fresh process
//   ./context-probe touch MB THREADS HUGE    first touch of MB of host memory on THREADS
//                                            (HUGE: 0 small pages, 1 huge pages, 2 MAP_POPULATE)
//   ./context-probe both MB THREADS HUGE     the two at once, the context on its own thread
//   ./context-probe serial MB THREADS HUGE   the two one after the other
//   ./context-probe teardown DEV_MB NALLOC PIN_MB FREE QUICK
//       a child makes a context, NALLOC device blocks of DEV_MB in all, PIN_MB of pinned
//       memory, frees them if FREE, and returns from main (or _exits if QUICK); the times
//       from its start to each step and from its exit handlers to its reaping
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

static double now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double touch(size_t mb, int threads, int huge) {
  size_t bytes = mb << 20;
  double t0 = now();
  char* p;
  if (huge == 2) {  // faulted in by the kernel in the mmap call
    p = static_cast<char*>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0));
  } else if (huge) {
    p = static_cast<char*>(
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    madvise(p, bytes, MADV_HUGEPAGE);
  } else {
    p = static_cast<char*>(
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    madvise(p, bytes, MADV_NOHUGEPAGE);
  }
  std::vector<std::thread> ts;
  for (int i = 0; i < threads; ++i)
    ts.emplace_back([=] {
      size_t lo = bytes / threads * i, hi = bytes / threads * (i + 1);
      for (size_t k = lo; k < hi; k += 4096) p[k] = 1;
    });
  for (auto& t : ts) t.join();
  double dt = now() - t0;
  munmap(p, bytes);
  return dt;
}

static double ctx() {
  double t0 = now();
  cudaFree(nullptr);
  return now() - t0;
}

int main(int argc, char** argv) {
  std::string mode = argc > 1 ? argv[1] : "ctx";
  if (mode == "ctx") {
    printf("ctx %.1f ms\n", 1e3 * ctx());
    return 0;
  }
  if (mode == "touch") {
    printf("touch %s MB %s thr huge=%s: %.1f ms\n", argv[2], argv[3], argv[4],
           1e3 * touch(atol(argv[2]), atoi(argv[3]), atoi(argv[4])));
    return 0;
  }
  if (mode == "serial") {
    double tc = ctx();
    double tt = touch(atol(argv[2]), atoi(argv[3]), atoi(argv[4]));
    printf("serial %s MB %s thr huge=%s: ctx %.1f ms, touch %.1f ms\n", argv[2], argv[3], argv[4],
           1e3 * tc, 1e3 * tt);
    return 0;
  }
  if (mode == "both") {
    double tc = 0, tt = 0;
    std::thread a([&] { tc = ctx(); });
    tt = touch(atol(argv[2]), atoi(argv[3]), atoi(argv[4]));
    a.join();
    printf("both %s MB %s thr huge=%s: ctx %.1f ms, touch %.1f ms\n", argv[2], argv[3], argv[4],
           1e3 * tc, 1e3 * tt);
    return 0;
  }
  if (mode == "teardown") {  // teardown DEV_MB NALLOC PIN_MB FREE QUICK
    size_t dev = atol(argv[2]);
    int nalloc = atoi(argv[3]);
    size_t pin = atol(argv[4]);
    bool free_all = atoi(argv[5]);
    bool quick = atoi(argv[6]);
    int fd[2];
    if (pipe(fd)) return 1;
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
      close(fd[0]);
      static int wfd = fd[1];
      atexit([] {
        double t = now();
        (void)!write(wfd, &t, sizeof t);
      });
      cudaFree(nullptr);
      double tctx = now();
      (void)!write(wfd, &tctx, sizeof tctx);
      std::vector<void*> ptrs;
      for (int i = 0; i < nalloc; ++i) {
        void* q;
        if (cudaMalloc(&q, (dev << 20) / nalloc) != cudaSuccess) {
          fprintf(stderr, "malloc failed\n");
          _exit(3);
        }
        cudaMemset(q, 0, (dev << 20) / nalloc);
        ptrs.push_back(q);
      }
      void* h = nullptr;
      if (pin) {
        cudaMallocHost(&h, pin << 20);
        memset(h, 1, pin << 20);
      }
      cudaDeviceSynchronize();
      double tw = now();
      (void)!write(wfd, &tw, sizeof tw);
      if (free_all) {
        for (void* q : ptrs) cudaFree(q);
        if (h) cudaFreeHost(h);
      }
      double tf = now();
      (void)!write(wfd, &tf, sizeof tf);
      if (quick) {
        double t = now();
        (void)!write(wfd, &t, sizeof t);
        _exit(0);
      }
      return 0;
    }
    close(fd[1]);
    int st;
    waitpid(pid, &st, 0);
    double tend = now();
    double v[4] = {0, 0, 0, 0};
    (void)!read(fd[0], v, sizeof v);
    printf(
        "teardown dev %zu MB in %d, pinned %zu MB, free %d, _exit %d: ctx %.1f, work %.1f, free "
        "%.1f, free->handlers done %.1f, handlers->reaped %.1f, total %.1f ms\n",
        dev, nalloc, pin, (int)free_all, (int)quick, 1e3 * (v[0] - t0), 1e3 * (v[1] - v[0]),
        1e3 * (v[2] - v[1]), 1e3 * (v[3] - v[2]), 1e3 * (tend - v[3]), 1e3 * (tend - t0));
    return 0;
  }
  return 1;
}
