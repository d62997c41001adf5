#include "fcgi/connection_handoff.h"

#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <new>
#include <string>

namespace netgraph::fcgi {

// An atomic that needed a lock would keep it in this process, not in the shared page.
static_assert(std::atomic<int>::is_always_lock_free);

namespace {

// Room for the largest message's descriptors.
union ControlBuffer {
  char bytes[CMSG_SPACE(sizeof(int) * ConnectionHandoff::kMaxPerMessage)];
  cmsghdr align;
};

}  // namespace

Result<std::unique_ptr<ConnectionHandoff>> ConnectionHandoff::Create() {
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
    return Status::Error(std::string("making the connection hand-off queue: ") +
                         std::strerror(errno));
  }
  void* page = ::mmap(nullptr, sizeof(std::atomic<int>), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    const int error = errno;
    ::close(pair[0]);
    ::close(pair[1]);
    return Status::Error(std::string("mapping the waiting-worker count: ") + std::strerror(error));
  }
  return std::unique_ptr<ConnectionHandoff>(
      new ConnectionHandoff(pair[0], pair[1], new (page) std::atomic<int>(0)));
}

ConnectionHandoff::~ConnectionHandoff() {
  ::close(put_fd_);
  ::close(take_fd_);
  ::munmap(static_cast<void*>(waiting_), sizeof(std::atomic<int>));
}

bool ConnectionHandoff::Put(const int* fds, std::size_t count) const {
  if (count == 0 || count > kMaxPerMessage) {
    errno = EINVAL;
    return false;
  }
  // A message needs a byte of data for its descriptors to travel with.
  char byte = 0;
  iovec data = {&byte, 1};
  ControlBuffer control;
  msghdr message = {};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control.bytes;
  message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
  cmsghdr* header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int) * count);
  std::memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
  ssize_t sent;
  do {
    sent = ::sendmsg(put_fd_, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  return sent == 1;
}

bool ConnectionHandoff::Take(std::vector<int>* fds) const {
  char byte;
  iovec data = {&byte, 1};
  ControlBuffer control;
  msghdr message = {};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control.bytes;
  message.msg_controllen = sizeof(control.bytes);
  ssize_t got;
  do {
    got = ::recvmsg(take_fd_, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) return false;
  for (cmsghdr* header = CMSG_FIRSTHDR(&message); header != nullptr;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    const std::size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(header) + i * sizeof(int), sizeof(int));
      fds->push_back(fd);
    }
  }
  return true;
}

namespace {

// What the tick's handler reads and writes. Only the worker's one thread and the handler that
// interrupts it touch these, so volatile sig_atomic_t and signal fences order them.
struct TickState {
  const ConnectionHandoff* handoff = nullptr;
  int fds[ConnectionHandoff::kMaxPerMessage] = {};
  std::size_t count = 0;
  volatile std::sig_atomic_t serving = 0;     // a request runs; `fds` are the others
  volatile std::sig_atomic_t request = 0;     // counts Begin calls (wraps)
  volatile std::sig_atomic_t handed_off = 0;  // the handler handed `fds` off
  volatile std::sig_atomic_t idle_ticks = 0;  // consecutive ticks that found no request running
  std::sig_atomic_t seen_request = -1;        // the request the previous tick found
};
TickState g_tick;

void OnTick(int) {
  if (g_tick.serving == 0) {
    g_tick.idle_ticks = g_tick.idle_ticks + 1;
    return;
  }
  g_tick.idle_ticks = 0;
  const std::sig_atomic_t request = g_tick.request;
  const bool whole_tick = request == g_tick.seen_request;
  g_tick.seen_request = request;
  if (!whole_tick || g_tick.count == 0 || g_tick.handoff->waiting() == 0) return;
  const int saved_errno = errno;
  if (g_tick.handoff->Put(g_tick.fds, g_tick.count)) {
    g_tick.handed_off = 1;
    g_tick.serving = 0;
  }
  errno = saved_errno;
}

}  // namespace

BusyHandOff::BusyHandOff(const ConnectionHandoff& handoff, std::chrono::microseconds tick)
    : tick_(tick) {
  g_tick.handoff = &handoff;
  struct sigaction action = {};
  action.sa_handler = OnTick;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGALRM, &action, nullptr);
}

BusyHandOff::~BusyHandOff() {
  SetTimer(false);
  ::signal(SIGALRM, SIG_IGN);
}

void BusyHandOff::SetTimer(bool running) {
  const auto every = running ? tick_ : std::chrono::microseconds(0);
  const timeval interval = {static_cast<time_t>(every.count() / 1000000),
                            static_cast<suseconds_t>(every.count() % 1000000)};
  const itimerval timer = {interval, interval};
  ::setitimer(ITIMER_REAL, &timer, nullptr);
  ticking_ = running;
}

void BusyHandOff::Begin(const int* fds, std::size_t count) {
  g_tick.count = std::min(count, ConnectionHandoff::kMaxPerMessage);
  std::copy(fds, fds + g_tick.count, g_tick.fds);
  g_tick.handed_off = 0;
  g_tick.request = static_cast<std::sig_atomic_t>(g_tick.request + 1);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  g_tick.serving = 1;
  if (!ticking_) SetTimer(true);
}

bool BusyHandOff::End() {
  g_tick.serving = 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  return g_tick.handed_off != 0;
}

void BusyHandOff::Idle() {
  if (ticking_ && g_tick.idle_ticks >= 2) SetTimer(false);
}

}  // namespace netgraph::fcgi
