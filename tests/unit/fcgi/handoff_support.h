// What the tests of the connection hand-off (fcgi/pool/connection_handoff.h,
// fcgi/pool/hand_off_watcher.h) share: socket pairs standing in for nginx's connections, queues in
// this process's shared memory, and waits with bounds.
#ifndef NETGRAPH_TESTS_UNIT_FCGI_HANDOFF_SUPPORT_H_
#define NETGRAPH_TESTS_UNIT_FCGI_HANDOFF_SUPPORT_H_

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "fcgi/pool/connection_handoff.h"
#include "fcgi/pool/shared_memory.h"

namespace netgraph::fcgi {

struct Pair {
  Pair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0); }
  ~Pair() {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  int& ours() { return fds[0]; }   // the worker's end
  int& peers() { return fds[1]; }  // nginx's end
  int fds[2] = {-1, -1};
};

// The shared memory of this test process, as a master's: each queue takes a part of it, never given
// back (fcgi/pool/shared_memory.h).
inline SharedMemory& Memory() {
  static const std::unique_ptr<SharedMemory> memory =
      SharedMemory::Create(256 * SharedMemory::Bytes({ConnectionHandoff::kSharedBytes})).value();
  return *memory;
}

inline std::unique_ptr<ConnectionHandoff> MakeHandoff() {
  Result<std::unique_ptr<ConnectionHandoff>> made = ConnectionHandoff::Create(Memory());
  EXPECT_TRUE(made.ok()) << made.status().message();
  return made.ok() ? std::move(made).value() : nullptr;
}

// Whether `fd` becomes readable within `ms`.
inline bool Readable(int fd, int ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  for (;;) {
    pollfd wait = {fd, POLLIN, 0};
    const int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                          deadline - std::chrono::steady_clock::now())
                                          .count());
    const int ready = ::poll(&wait, 1, std::max(left, 0));
    if (ready >= 0 || errno != EINTR) return ready == 1;
  }
}

// Sleeps `ms`, whatever signal comes.
inline void Sleep(int ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < deadline) ::usleep(1000);
}

inline std::string ReadSome(int fd) {
  if (!Readable(fd, 2000)) return "<nothing>";
  char buffer[64];
  const ssize_t got = ::read(fd, buffer, sizeof(buffer));
  return got < 0 ? "<error>" : std::string(buffer, static_cast<std::size_t>(got));
}

// What the queue holds, taken: the descriptors of every queued message.
inline std::vector<int> TakeAll(const ConnectionHandoff& handoff) {
  std::vector<int> taken;
  while (handoff.Take(&taken)) {
  }
  return taken;
}

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_TESTS_UNIT_FCGI_HANDOFF_SUPPORT_H_
