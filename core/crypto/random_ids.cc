#include "core/crypto/random_ids.h"

#include <pthread.h>
#include <sys/random.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace netgraph::crypto {
namespace {

// Moved in a forked child, so every thread's buffer there is refilled before use.
std::atomic<unsigned> g_fork_generation{0};

void OnForkInChild() { g_fork_generation.fetch_add(1, std::memory_order_relaxed); }

struct IdBuffer {
  std::array<std::uint8_t, 4096> bytes;
  std::size_t used = bytes.size();
  unsigned fork_generation = 0;
};

thread_local IdBuffer t_buffer;

void Refill(IdBuffer& buffer) {
  std::size_t filled = 0;
  while (filled < buffer.bytes.size()) {
    const ssize_t got = ::getrandom(buffer.bytes.data() + filled, buffer.bytes.size() - filled, 0);
    if (got > 0) {
      filled += static_cast<std::size_t>(got);
    } else if (got < 0 && errno != EINTR) {
      // getrandom(2) fails otherwise only without kernel support (before Linux 3.17), where
      // nothing of this service runs.
      std::abort();
    }
  }
  buffer.used = 0;
}

}  // namespace

void FillRandomIdBytes(std::span<std::uint8_t> out) {
  static std::once_flag registered;
  std::call_once(registered, [] { ::pthread_atfork(nullptr, nullptr, OnForkInChild); });
  IdBuffer& buffer = t_buffer;
  const unsigned generation = g_fork_generation.load(std::memory_order_relaxed);
  if (buffer.fork_generation != generation) {
    buffer.fork_generation = generation;
    buffer.used = buffer.bytes.size();
  }
  std::size_t filled = 0;
  while (filled < out.size()) {
    if (buffer.used == buffer.bytes.size()) Refill(buffer);
    const std::size_t take = std::min(out.size() - filled, buffer.bytes.size() - buffer.used);
    std::memcpy(out.data() + filled, buffer.bytes.data() + buffer.used, take);
    buffer.used += take;
    filled += take;
  }
}

}  // namespace netgraph::crypto
