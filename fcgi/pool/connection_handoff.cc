#include "fcgi/pool/connection_handoff.h"

#include <linux/futex.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#include "core/log.h"

namespace netgraph::fcgi {

// An atomic that needed a lock would keep it in this process, not in the shared page.
static_assert(std::atomic<int>::is_always_lock_free);

namespace {

// A message of the queue: one byte of data, which its descriptors travel with, and room for the
// largest message's descriptors.
struct Message {
  explicit Message(std::size_t control_length) {
    header.msg_iov = &data;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = control_length;
  }
  Message(const Message&) = delete;
  Message& operator=(const Message&) = delete;

  char byte = 0;
  iovec data = {&byte, 1};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * ConnectionHandoff::kMaxPerMessage)];
  msghdr header = {};
};

}  // namespace

Result<std::unique_ptr<ConnectionHandoff>> ConnectionHandoff::Create(SharedMemory& memory) {
  NETGRAPH_ASSIGN_OR_RETURN(void* part, memory.Allocate(kSharedBytes));
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
    return Status::Error(std::string("making the connection hand-off queue: ") +
                         std::strerror(errno));
  }
  return std::unique_ptr<ConnectionHandoff>(
      new ConnectionHandoff(pair[0], pair[1], new (part) std::atomic<int>(0)));
}

ConnectionHandoff::~ConnectionHandoff() {
  ::close(put_fd_);
  ::close(take_fd_);
}

bool ConnectionHandoff::Put(const int* fds, std::size_t count) const {
  if (count == 0 || count > kMaxPerMessage) {
    errno = EINVAL;
    return false;
  }
  Message message(CMSG_SPACE(sizeof(int) * count));
  cmsghdr* header = CMSG_FIRSTHDR(&message.header);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int) * count);
  std::memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
  ssize_t sent;
  do {
    sent = ::sendmsg(put_fd_, &message.header, MSG_DONTWAIT | MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  return sent == 1;
}

bool ConnectionHandoff::Take(std::vector<int>* fds) const {
  Message message(sizeof(Message::control));
  ssize_t got;
  do {
    got = ::recvmsg(take_fd_, &message.header, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) return false;
  for (cmsghdr* header = CMSG_FIRSTHDR(&message.header); header != nullptr;
       header = CMSG_NXTHDR(&message.header, header)) {
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

struct BusyHandOff::Shared {
  enum State : int { kIdle, kServing, kHanding, kHanded };
  // Also the futex word the watcher sleeps on while idle, and the worker on while a hand-off ends.
  std::atomic<int> state{kIdle};
  std::atomic<int> parked{0};  // the watcher sleeps (or is about to)
  std::atomic<int> ending{0};  // the worker waits for the hand-off in progress (or is about to)
  std::atomic<std::uint64_t> requests{0};  // Begin calls
  // Written by the worker in kIdle, read by the watcher in kHanding only.
  std::size_t count = 0;
  int fds[ConnectionHandoff::kMaxPerMessage] = {};
};

namespace {

// Futexes on a shared (not private) mapping: the worker and its watcher are two processes.
void FutexWait(std::atomic<int>* word, int expected, const timespec* timeout = nullptr) {
  ::syscall(SYS_futex, reinterpret_cast<int*>(word), FUTEX_WAIT, expected, timeout, nullptr, 0);
}
void FutexWake(std::atomic<int>* word) {
  ::syscall(SYS_futex, reinterpret_cast<int*>(word), FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

struct WatcherArguments {
  const ConnectionHandoff* handoff;
  BusyHandOff::Shared* shared;
  std::chrono::microseconds tick;
  pid_t worker;
  BusyHandOff::Seams seams;
};

int Watch(void* raw) {
  const WatcherArguments arguments = *static_cast<WatcherArguments*>(raw);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != arguments.worker) return 0;  // the worker died before the line above
  using State = BusyHandOff::Shared::State;
  BusyHandOff::Shared& shared = *arguments.shared;
  const timespec tick = {0, static_cast<long>(arguments.tick.count()) * 1000};
  int idle_ticks = 0;
  std::uint64_t seen_request = 0;
  for (;;) {
    if (idle_ticks >= 2) {
      // Either this sees the worker's kServing, or the worker sees parked and wakes it.
      shared.parked.store(1);
      if (shared.state.load() == State::kIdle) FutexWait(&shared.state, State::kIdle);
      shared.parked.store(0);
      idle_ticks = 0;
    }
    ::nanosleep(&tick, nullptr);
    int state = State::kServing;
    if (shared.state.compare_exchange_strong(state, State::kHanding)) {
      idle_ticks = 0;
      if (arguments.seams.watcher_handing != nullptr) arguments.seams.watcher_handing();
      // Only a request that has run a whole tick: fast ones, however many, pass nothing.
      const std::uint64_t request = shared.requests.load();
      const bool handed = request == seen_request && shared.count > 0 &&
                          arguments.handoff->waiting() > 0 &&
                          arguments.handoff->Put(shared.fds, shared.count);
      seen_request = request;
      // Only the watcher leaves kHanding: a plain store cannot overwrite a move of the worker's.
      shared.state.store(handed ? State::kHanded : State::kServing);
      // Either the worker sees the new state before it sleeps, or this sees ending and wakes it.
      if (shared.ending.load() != 0) FutexWake(&shared.state);
    } else if (state == State::kIdle) {
      ++idle_ticks;
    } else {
      idle_ticks = 0;
    }
  }
}

}  // namespace

BusyHandOff::BusyHandOff(const ConnectionHandoff& handoff, std::chrono::microseconds tick,
                         int death_signal)
    : BusyHandOff(handoff, tick, death_signal, Seams()) {}

BusyHandOff::BusyHandOff(const ConnectionHandoff& handoff, std::chrono::microseconds tick,
                         int death_signal, Seams seams)
    : tick_(tick), seams_(seams) {
  void* page =
      ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    log::Error(std::string("connection hand-off: mapping the watcher's page: ") +
               std::strerror(errno));
    return;
  }
  shared_ = new (page) Shared();
  // The watcher's stack: its own copy of this process's memory (no CLONE_VM), so a static buffer
  // of the worker serves.
  alignas(16) static char stack[64 * 1024];
  WatcherArguments arguments = {&handoff, shared_, tick, ::getpid(), seams};
  watcher_ = ::clone(Watch, stack + sizeof(stack), CLONE_FILES | death_signal, &arguments);
  if (watcher_ < 0) {
    log::Error(std::string("connection hand-off: starting the watcher: ") + std::strerror(errno));
  }
}

BusyHandOff::~BusyHandOff() {
  if (watcher_ > 0) {
    ::kill(watcher_, SIGKILL);
    // __WALL: a watcher whose exit signal is not SIGCHLD is a "clone" child to waitpid(2).
    if (!watcher_reaped_) ::waitpid(watcher_, nullptr, __WALL);
  }
  if (shared_ != nullptr) ::munmap(static_cast<void*>(shared_), sizeof(Shared));
}

void BusyHandOff::Begin(const int* fds, std::size_t count) {
  if (watcher_ <= 0) return;
  shared_->count = std::min(count, ConnectionHandoff::kMaxPerMessage);
  std::copy(fds, fds + shared_->count, shared_->fds);
  shared_->requests.fetch_add(1);
  // Publishes the descriptors: the watcher reads them only after moving kServing on. In kIdle only
  // the worker moves the state, so a plain store is safe here.
  shared_->state.store(Shared::kServing);
  if (shared_->parked.load() != 0) FutexWake(&shared_->state);
}

bool BusyHandOff::End() {
  if (watcher_ <= 0) return false;
  int state = Shared::kServing;
  // The common case: the watcher is not looking, and from kIdle it never starts.
  if (shared_->state.compare_exchange_strong(state, Shared::kIdle)) return false;
  return Settle(state);
}

bool BusyHandOff::Settle(int state) {
  for (;;) {
    if (state == Shared::kHanding) {
      if (!AwaitHandOff()) {
        GiveUpWatcher();
        return true;
      }
      state = shared_->state.load();
      continue;
    }
    if (seams_.worker_settling != nullptr) seams_.worker_settling();
    // kServing or kHanded. The watcher may start a look at kServing meanwhile: the exchange then
    // fails, returns kHanding, and the loop waits for the look's outcome.
    const int seen = state;
    if (shared_->state.compare_exchange_strong(state, Shared::kIdle)) {
      return seen == Shared::kHanded;
    }
  }
}

bool BusyHandOff::AwaitHandOff() {
  // Each look gets kMaxWait: a watcher that finishes its looks is never given up, however many
  // the worker runs into (they are a tick apart, so it soon wins the exchange).
  const auto deadline = std::chrono::steady_clock::now() + kMaxWait;
  // Slices short enough to notice a dead watcher soon (a dead one never wakes the futex).
  const std::chrono::nanoseconds slice =
      std::max<std::chrono::nanoseconds>(tick_, std::chrono::milliseconds(1));
  shared_->ending.store(1);
  bool finished = false;
  for (;;) {
    if (shared_->state.load() != Shared::kHanding) {
      finished = true;
      break;
    }
    const auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::nanoseconds::zero() || WatcherExited()) break;
    const auto wait = std::min<std::chrono::nanoseconds>(left, slice);
    const timespec timeout = {static_cast<time_t>(wait.count() / 1000000000),
                              static_cast<long>(wait.count() % 1000000000)};
    FutexWait(&shared_->state, Shared::kHanding, &timeout);
  }
  shared_->ending.store(0);
  return finished;
}

bool BusyHandOff::WatcherExited() {
  if (watcher_reaped_) return true;
  const pid_t reaped = ::waitpid(watcher_, nullptr, WNOHANG | __WALL);
  watcher_reaped_ = reaped == watcher_ || (reaped < 0 && errno == ECHILD);
  return watcher_reaped_;
}

void BusyHandOff::GiveUpWatcher() {
  const bool died = WatcherExited();
  log::Error(
      std::string("connection hand-off: the watcher ") +
      (died ? "died" : "did not finish within " + std::to_string(kMaxWait.count()) + " ms") +
      " in the middle of handing off " + std::to_string(shared_->count) +
      " idle connections; closing this worker's descriptors of them, handing off nothing more");
  if (!died) {
    // It shares the descriptor table: alive, it could still send descriptors the worker reuses.
    ::kill(watcher_, SIGKILL);
    ::waitpid(watcher_, nullptr, __WALL);
  }
  watcher_ = -1;
  watcher_reaped_ = true;
}

}  // namespace netgraph::fcgi
