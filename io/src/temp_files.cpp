#include "temp_files.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>

namespace graphrun::io::detail {

namespace {

// A fixed table: the signal handler may only touch memory that is never
// reallocated, and only call async-signal-safe functions (unlink, raise).
constexpr int max_slots = 32;
constexpr std::size_t max_path = 4096;
enum SlotState : int { free_slot = 0, filling = 1, live = 2 };
struct Slot {
  std::atomic<int> state{free_slot};
  char path[max_path];
};
std::array<Slot, max_slots> slots;
constexpr int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void remove_temp_files_and_die(int sig) {
  for (auto& s : slots)
    if (s.state.load(std::memory_order_acquire) == live) ::unlink(s.path);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_handlers() {
  for (int sig : cleanup_signals) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction act {};
    act.sa_handler = remove_temp_files_and_die;
    ::sigemptyset(&act.sa_mask);
    ::sigaction(sig, &act, nullptr);
  }
}

}  // namespace

int register_temp_file(const std::string& path) {
  static std::once_flag once;
  std::call_once(once, install_handlers);
  if (path.size() >= max_path) return -1;
  for (int i = 0; i < max_slots; ++i) {
    int expected = free_slot;
    // Claim, fill, then publish: the handler reads only published paths.
    if (!slots[i].state.compare_exchange_strong(expected, filling)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].state.store(live, std::memory_order_release);
    return i;
  }
  return -1;
}

void unregister_temp_file(int slot) {
  if (slot >= 0 && slot < max_slots) slots[slot].state.store(free_slot, std::memory_order_release);
}

}  // namespace graphrun::io::detail
