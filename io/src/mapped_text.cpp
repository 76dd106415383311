// Mapped text files and their SIGBUS guard (mapped_text.hpp).
#include "mapped_text.hpp"

#include <fcntl.h>
#include <omp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace graphrun::io::detail {

namespace {

// The live mappings: [begin, end) per slot, 0 when free. The handler reads
// them lock-free; slots are taken and given back under a mutex.
constexpr int slots = 64;
std::atomic<std::uintptr_t> slot_begin[slots], slot_end[slots];
std::atomic<bool> slot_hit[slots];
std::mutex slot_owner;
bool slot_taken[slots];

std::uintptr_t page_bytes = 4096;
struct sigaction previous {};
bool guarded = false;

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (int s = 0; s < slots; ++s) {
    const std::uintptr_t b = slot_begin[s].load(std::memory_order_acquire);
    if (b == 0 || at < b || at >= slot_end[s].load(std::memory_order_acquire)) continue;
    // A page of line ends where the file's page was: the faulting load runs
    // again and reads them.
    void* page = reinterpret_cast<void*>(at & ~(page_bytes - 1));
    if (::mmap(page, page_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
               -1, 0) == MAP_FAILED)
      break;
    std::memset(page, '\n', page_bytes);
    slot_hit[s].store(true, std::memory_order_release);
    return;
  }
  // Not a mapped text's page: what was there before.
  if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(sig, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(sig);
  } else {
    // The default action: the faulting access runs again and ends the
    // process as it would have without this handler.
    ::signal(SIGBUS, SIG_DFL);
  }
}

bool handler_is_ours() {
  struct sigaction now {};
  return ::sigaction(SIGBUS, nullptr, &now) == 0 && (now.sa_flags & SA_SIGINFO) != 0 &&
         now.sa_sigaction == on_sigbus;
}

// Installs the handler once; false where it could not be, or where another
// one has taken its place since (a sanitizer's runtime, or the program
// graphrun is a library of): then nothing is mapped.
bool install_guard() {
  static std::once_flag once;
  std::call_once(once, [] {
    page_bytes = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction ours {};
    ours.sa_sigaction = on_sigbus;
    ours.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&ours.sa_mask);
    guarded = ::sigaction(SIGBUS, &ours, &previous) == 0;
  });
  return guarded && handler_is_ours();
}

int take_slot(std::uintptr_t begin, std::uintptr_t end) {
  const std::lock_guard lock(slot_owner);
  for (int s = 0; s < slots; ++s) {
    if (slot_taken[s]) continue;
    slot_taken[s] = true;
    slot_hit[s].store(false, std::memory_order_relaxed);
    slot_end[s].store(end, std::memory_order_release);
    slot_begin[s].store(begin, std::memory_order_release);
    return s;
  }
  return -1;
}

void give_slot(int s) {
  const std::lock_guard lock(slot_owner);
  slot_begin[s].store(0, std::memory_order_release);
  slot_end[s].store(0, std::memory_order_release);
  slot_taken[s] = false;
}

struct DescriptorCloser {
  int fd;
  ~DescriptorCloser() { ::close(fd); }
};

}  // namespace

std::optional<TextBuffer> map_text(const std::string& path, std::size_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;  // read_raw says why
  const DescriptorCloser closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  const auto size = static_cast<std::size_t>(st.st_size);
  // The guard asked for only now: most files a reader meets are small.
  if (size < map_min_bytes || size > limit || !install_guard()) return std::nullopt;
  unsigned char magic[2];
  if (::pread(fd, magic, 2, 0) != 2 || (magic[0] == 0x1f && magic[1] == 0x8b)) return std::nullopt;

  // Room for the text, its final '\n' and the padding, the file mapped over
  // the front of it: what lies past the file's last page stays anonymous.
  const std::size_t bytes = (size + 1 + text_padding + page_bytes - 1) / page_bytes * page_bytes;
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return std::nullopt;
  const auto begin = reinterpret_cast<std::uintptr_t>(base);
  const int slot = take_slot(begin, begin + bytes);
  if (slot < 0 ||
      ::mmap(base, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
    if (slot >= 0) give_slot(slot);
    ::munmap(base, bytes);
    return std::nullopt;
  }
  TextBuffer text;
  text.data = TextData(static_cast<char*>(base), TextStorage{bytes, slot});
  text.size = size;

  // The pages faulted in from every core, slices of whole pages. A slice
  // past a shrunk end fails (EFAULT): the file is read instead. An older
  // kernel without MADV_POPULATE_READ (EINVAL) faults the pages on access.
  const std::size_t file_pages = (size + page_bytes - 1) / page_bytes;
  const int threads =
      std::max(1, std::min<int>(omp_get_max_threads(), static_cast<int>(file_pages / 256) + 1));
  bool shrunk = false;
#if defined(MADV_POPULATE_READ)
#pragma omp parallel for num_threads(threads) schedule(static, 1) reduction(|| : shrunk)
  for (int t = 0; t < threads; ++t) {
    const std::size_t first = file_pages * static_cast<std::size_t>(t) / threads;
    const std::size_t last = file_pages * static_cast<std::size_t>(t + 1) / threads;
    if (last > first &&
        ::madvise(static_cast<char*>(base) + first * page_bytes, (last - first) * page_bytes,
                  MADV_POPULATE_READ) != 0 &&
        errno == EFAULT)
      shrunk = true;
  }
#endif
  if (shrunk || mapping_changed(slot)) return std::nullopt;
  end_text(text);
  return text;
}

void unmap_text(char* base, std::size_t bytes, int slot) noexcept {
  // The slot first: once unmapped, the addresses may be mapped again by
  // anyone, whose faults are not this guard's.
  give_slot(slot);
  ::munmap(base, bytes);
}

bool mapping_changed(int slot) noexcept {
  return slot >= 0 && slot_hit[slot].load(std::memory_order_acquire);
}

}  // namespace graphrun::io::detail
