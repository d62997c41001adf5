#include "fcgi/pool/hand_off_watcher.h"

#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>

#include "core/log.h"

namespace netgraph::fcgi {

static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

struct HandOffWatcher::Shared {
  enum State : int { kIdle, kServing, kHanding, kHanded };
  static constexpr std::size_t kWords = kMaxOffered / 64;
  // Also the futex word the watcher sleeps on while idle, and the worker on while a hand-off ends.
  std::atomic<int> state{kIdle};
  std::atomic<int> parked{0};  // the watcher sleeps (or is about to)
  std::atomic<int> ending{0};  // the worker waits for the hand-off in progress (or is about to)
  std::atomic<std::uint64_t> requests{0};  // Begin calls
  // Bit fd % 64 of word fd / 64: descriptor fd is offered. Written by one side at a time: the
  // worker outside Begin..End, the watcher in kHanding (it withdraws what it handed off).
  std::atomic<std::uint64_t> offered[kWords] = {};
  // What the watcher's current or last look chose (written in kHanding before it sends them; read
  // by the worker once the look is over or the watcher gone).
  std::atomic<int> chosen_count{0};
  int chosen[ConnectionHandoff::kMaxPerMessage] = {};
};

namespace {

using Shared = HandOffWatcher::Shared;

// The signal the watcher takes as its worker's death (PR_SET_PDEATHSIG): one the pool sends no
// process.
constexpr int kWorkerDied = SIGUSR2;

// Futexes on a shared (not private) mapping: the worker and its watcher are two processes.
void FutexWait(std::atomic<int>* word, int expected, const timespec* timeout = nullptr) {
  ::syscall(SYS_futex, reinterpret_cast<int*>(word), FUTEX_WAIT, expected, timeout, nullptr, 0);
}
void FutexWake(std::atomic<int>* word) {
  ::syscall(SYS_futex, reinterpret_cast<int*>(word), FUTEX_WAKE, 1, nullptr, nullptr, 0);
}

// The marks are written by one side at a time: a load and a store, cheaper than a locked change.
void SetMark(Shared& shared, int fd, bool offered) {
  std::atomic<std::uint64_t>& word = shared.offered[static_cast<std::size_t>(fd) / 64];
  const std::uint64_t bit = std::uint64_t{1} << (fd % 64);
  const std::uint64_t was = word.load(std::memory_order_relaxed);
  word.store(offered ? was | bit : was & ~bit, std::memory_order_relaxed);
}

// Up to `most` offered descriptors, from `*next_word` on (advanced past the words read whole).
std::size_t CollectOffered(const Shared& shared, std::size_t* next_word, int* fds,
                           std::size_t most) {
  std::size_t count = 0;
  for (; *next_word < Shared::kWords; ++*next_word) {
    std::uint64_t bits = shared.offered[*next_word].load(std::memory_order_relaxed);
    for (; bits != 0 && count < most; bits &= bits - 1) {
      fds[count++] = static_cast<int>(*next_word * 64) + __builtin_ctzll(bits);
    }
    if (bits != 0) return count;  // full: the rest of this word next time
  }
  return count;
}

struct WatcherArguments {
  const ConnectionHandoff* handoff;
  Shared* shared;
  std::chrono::microseconds tick;
  pid_t worker;
  HandOffWatcher::Seams seams;
};

// The watcher's own copy of this process's memory (no CLONE_VM): what its signal handler reads.
const ConnectionHandoff* g_handoff = nullptr;
Shared* g_shared = nullptr;
pid_t g_worker = 0;
volatile std::sig_atomic_t g_worker_died = 0;
// Set while the watcher sleeps: the handler may then act at once. Clear while it looks, so that a
// death that comes in the middle of a look waits for the look's end (no connection goes twice).
volatile std::sig_atomic_t g_at_rest = 0;

// Queues every offered connection and exits: the worker is gone, and this process's exit closes
// the rest of its descriptors (the connection of the request it was serving among them).
// Async-signal-safe: loads, sendmsg(2), write(2), _exit(2).
[[noreturn]] void HandOverAndExit() {
  std::size_t next_word = 0;
  int fds[ConnectionHandoff::kMaxPerMessage];
  for (;;) {
    const std::size_t count = CollectOffered(*g_shared, &next_word, fds, std::size(fds));
    if (count == 0) ::_exit(0);
    // Words read only partly are read again: clear what goes now, so it is not collected twice.
    for (std::size_t i = 0; i < count; ++i) SetMark(*g_shared, fds[i], false);
    if (!g_handoff->Put(fds, count)) {
      constexpr char kLost[] =
          "connection hand-off: the queue refused a dead worker's idle connections; they close\n";
      (void)!::write(STDERR_FILENO, kLost, sizeof(kLost) - 1);
      ::_exit(1);
    }
  }
}

void OnWorkerDied(int) {
  // The kernel sends the signal once the watcher has a new parent; the same signal from anyone
  // else, while the worker lives, must not give its connections to a second worker.
  if (::getppid() == g_worker) return;
  g_worker_died = 1;
  if (g_at_rest != 0) HandOverAndExit();
}

// Marks the watcher at rest (or not), acting on a death that came while it was not.
void Rest(bool at_rest) {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  g_at_rest = at_rest ? 1 : 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (g_worker_died != 0) HandOverAndExit();
}

// Of the `count` descriptors in `fds`, keeps in place those whose peer has sent something (the
// start of a request) and returns how many. poll(2) only looks: nothing is read.
std::size_t KeepThoseWithInput(int* fds, std::size_t count) {
  pollfd polled[ConnectionHandoff::kMaxPerMessage];
  for (std::size_t i = 0; i < count; ++i) polled[i] = {fds[i], POLLIN, 0};
  if (::poll(polled, count, 0) <= 0) return 0;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if ((polled[i].revents & POLLIN) != 0) fds[kept++] = fds[i];
  }
  return kept;
}

// One look while the worker serves (in kHanding), when another worker waits: hands off every
// connection the worker offers when the request has run a whole tick (`request` is the one seen at
// the previous look), and otherwise half (rounded up) of those whose next request has arrived. True
// when something went.
bool Look(const WatcherArguments& arguments, std::uint64_t request, std::uint64_t seen_request) {
  Shared& shared = *arguments.shared;
  std::size_t count = 0;
  if (arguments.handoff->waiting() > 0) {
    std::size_t next_word = 0;
    count = CollectOffered(shared, &next_word, shared.chosen, std::size(shared.chosen));
    if (request != seen_request) count = (KeepThoseWithInput(shared.chosen, count) + 1) / 2;
  }
  shared.chosen_count.store(static_cast<int>(count));
  if (arguments.seams.watcher_handing != nullptr) arguments.seams.watcher_handing();
  if (count == 0 || !arguments.handoff->Put(shared.chosen, count)) return false;
  for (std::size_t i = 0; i < count; ++i) SetMark(shared, shared.chosen[i], false);
  return true;
}

int Watch(void* raw) {
  const WatcherArguments arguments = *static_cast<WatcherArguments*>(raw);
  g_handoff = arguments.handoff;
  g_shared = arguments.shared;
  g_worker = arguments.worker;
  // Without its handler the watcher cannot hand anything over at the worker's death: it then dies
  // with the worker. (sigaction(2) itself, not daemon/signals.h, which may allocate: this is the
  // copy of a process that may have had other threads.)
  struct sigaction action = {};
  action.sa_handler = OnWorkerDied;
  sigemptyset(&action.sa_mask);
  const bool handled = ::sigaction(kWorkerDied, &action, nullptr) == 0;
  sigset_t died;
  sigemptyset(&died);
  sigaddset(&died, kWorkerDied);
  ::sigprocmask(SIG_UNBLOCK, &died, nullptr);
  ::prctl(PR_SET_PDEATHSIG, handled ? kWorkerDied : SIGKILL);
  // The worker died before the line above.
  if (::getppid() != arguments.worker) {
    if (handled) HandOverAndExit();
    return 0;
  }
  using State = Shared::State;
  Shared& shared = *arguments.shared;
  const timespec tick = {0, static_cast<long>(arguments.tick.count()) * 1000};
  int idle_ticks = 0;
  std::uint64_t seen_request = 0;
  for (;;) {
    Rest(true);
    if (idle_ticks >= 2) {
      // Either this sees the worker's kServing, or the worker sees parked and wakes it.
      shared.parked.store(1);
      if (shared.state.load() == State::kIdle) FutexWait(&shared.state, State::kIdle);
      shared.parked.store(0);
      idle_ticks = 0;
    }
    ::nanosleep(&tick, nullptr);
    Rest(false);
    int state = State::kServing;
    if (shared.state.compare_exchange_strong(state, State::kHanding)) {
      idle_ticks = 0;
      const std::uint64_t request = shared.requests.load();
      const bool handed = Look(arguments, request, seen_request);
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

HandOffWatcher::HandOffWatcher(const ConnectionHandoff& handoff, std::chrono::microseconds tick,
                               int death_signal)
    : HandOffWatcher(handoff, tick, death_signal, Seams()) {}

HandOffWatcher::HandOffWatcher(const ConnectionHandoff& handoff, std::chrono::microseconds tick,
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

HandOffWatcher::~HandOffWatcher() {
  if (watcher_ > 0) {
    // SIGKILL: no hand-over, which is for a worker that died, not one that ends.
    ::kill(watcher_, SIGKILL);
    // __WALL: a watcher whose exit signal is not SIGCHLD is a "clone" child to waitpid(2).
    if (!watcher_reaped_) ::waitpid(watcher_, nullptr, __WALL);
  }
  if (shared_ != nullptr) ::munmap(static_cast<void*>(shared_), sizeof(Shared));
}

void HandOffWatcher::Offer(int fd) {
  if (shared_ != nullptr && fd >= 0 && fd < kMaxOffered) SetMark(*shared_, fd, true);
}

void HandOffWatcher::Withdraw(int fd) {
  if (shared_ != nullptr && fd >= 0 && fd < kMaxOffered) SetMark(*shared_, fd, false);
}

bool HandOffWatcher::Offered(int fd) const {
  if (shared_ == nullptr || fd < 0 || fd >= kMaxOffered) return false;
  const std::uint64_t word =
      shared_->offered[static_cast<std::size_t>(fd) / 64].load(std::memory_order_relaxed);
  return (word >> (fd % 64) & 1) != 0;
}

void HandOffWatcher::Begin() {
  if (watcher_ <= 0) return;
  shared_->requests.fetch_add(1);
  // Publishes the marks: the watcher reads them only after moving kServing on. In kIdle only the
  // worker moves the state, so a plain store is safe here.
  shared_->state.store(Shared::kServing);
  if (shared_->parked.load() != 0) FutexWake(&shared_->state);
}

bool HandOffWatcher::End() {
  handed_.clear();
  if (watcher_ <= 0) return false;
  int state = Shared::kServing;
  // The common case: the watcher is not looking, and from kIdle it never starts.
  if (shared_->state.compare_exchange_strong(state, Shared::kIdle)) return false;
  return Settle(state);
}

bool HandOffWatcher::Settle(int state) {
  for (;;) {
    if (state == Shared::kHanding) {
      if (!AwaitHandOff()) {
        GiveUpWatcher();
        return !handed_.empty();
      }
      state = shared_->state.load();
      continue;
    }
    if (seams_.worker_settling != nullptr) seams_.worker_settling();
    // kServing or kHanded. The watcher may start a look at kServing meanwhile: the exchange then
    // fails, returns kHanding, and the loop waits for the look's outcome.
    const int seen = state;
    if (shared_->state.compare_exchange_strong(state, Shared::kIdle)) {
      if (seen != Shared::kHanded) return false;
      CopyHanded();
      return true;
    }
  }
}

void HandOffWatcher::CopyHanded() {
  const int count = shared_->chosen_count.load();
  const int most = static_cast<int>(std::size(shared_->chosen));
  handed_.assign(shared_->chosen, shared_->chosen + std::clamp(count, 0, most));
}

bool HandOffWatcher::AwaitHandOff() {
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

bool HandOffWatcher::WatcherExited() {
  if (watcher_reaped_) return true;
  const pid_t reaped = ::waitpid(watcher_, nullptr, WNOHANG | __WALL);
  watcher_reaped_ = reaped == watcher_ || (reaped < 0 && errno == ECHILD);
  return watcher_reaped_;
}

void HandOffWatcher::GiveUpWatcher() {
  const bool died = WatcherExited();
  if (!died) {
    // It shares the descriptor table: alive, it could still send descriptors the worker reuses.
    ::kill(watcher_, SIGKILL);
    ::waitpid(watcher_, nullptr, __WALL);
  }
  // Ended: what it had chosen stays as it was, maybe sent, maybe not.
  CopyHanded();
  log::Error(
      std::string("connection hand-off: the watcher ") +
      (died ? "died" : "did not finish within " + std::to_string(kMaxWait.count()) + " ms") +
      " in the middle of handing off " + std::to_string(handed_.size()) +
      " idle connections; closing this worker's descriptors of them, handing off nothing more");
  watcher_ = -1;
  watcher_reaped_ = true;
}

}  // namespace netgraph::fcgi
