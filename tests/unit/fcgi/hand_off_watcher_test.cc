// A pool worker's watcher (fcgi/pool/hand_off_watcher.h): the offered connections of a busy worker
// handed off, those of a dead one too, and the watcher's own death or hang in the middle of a
// hand-off survived; socket pairs stand in for nginx's connections.
#include "fcgi/pool/hand_off_watcher.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "tests/unit/fcgi/handoff_support.h"

namespace netgraph::fcgi {
namespace {

TEST(HandOffWatcherTest, WhileARequestRunsAndAnotherWorkerWaitsTheOtherConnectionsGo) {
  auto handoff = MakeHandoff();
  HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
  Pair first, second, served;
  busy.Offer(first.ours());
  busy.Offer(second.ours());
  handoff->BeginWait();  // another worker waits for work
  busy.Begin();
  EXPECT_TRUE(Readable(handoff->take_fd(), 2000)) << "handed off within a few ticks";
  EXPECT_TRUE(busy.End());
  handoff->EndWait();
  EXPECT_EQ(std::vector<int>(busy.HandedOff().begin(), busy.HandedOff().end()),
            (std::vector<int>{first.ours(), second.ours()}));
  EXPECT_FALSE(busy.Offered(first.ours())) << "what went is no longer offered";
  const std::vector<int> taken = TakeAll(*handoff);
  ASSERT_EQ(taken.size(), 2u);
  ASSERT_EQ(::write(taken[1], "x", 1), 1);
  EXPECT_EQ(ReadSome(second.peers()), "x");
  for (int fd : taken) ::close(fd);
}

TEST(HandOffWatcherTest, NothingMovesWhileNoOtherWorkerWaits) {
  auto handoff = MakeHandoff();
  HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
  Pair first;
  busy.Offer(first.ours());
  busy.Begin();
  Sleep(20);  // twenty ticks
  EXPECT_FALSE(busy.End());
  EXPECT_TRUE(busy.Offered(first.ours()));
  EXPECT_TRUE(TakeAll(*handoff).empty());
}

TEST(HandOffWatcherTest, FastRequestsPassNothingAndTheWatcherWakesAgainAfterIdling) {
  auto handoff = MakeHandoff();
  HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
  Pair first;
  busy.Offer(first.ours());
  handoff->BeginWait();
  for (int request = 0; request < 1000; ++request) {
    busy.Begin();
    EXPECT_FALSE(busy.End()) << "a request shorter than a tick";
  }
  EXPECT_TRUE(TakeAll(*handoff).empty());
  Sleep(20);  // long enough for the watcher to go to sleep
  busy.Begin();
  EXPECT_TRUE(Readable(handoff->take_fd(), 2000)) << "the first request after idling woke it";
  EXPECT_TRUE(busy.End());
  handoff->EndWait();
  for (int fd : TakeAll(*handoff)) ::close(fd);
}

// Requests of about 100 µs one after another (ten per tick of the watcher's), for `ms` or until
// some connections go; true when some went. `longest` becomes the longest request, as this thread
// saw it: one preempted for a whole tick counts as slow to the watcher.
bool ServeFastRequests(HandOffWatcher& busy, int ms, std::chrono::microseconds* longest) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(ms);
  *longest = std::chrono::microseconds(0);
  while (Clock::now() < deadline) {
    const Clock::time_point began = Clock::now();
    busy.Begin();
    while (Clock::now() < began + std::chrono::microseconds(100)) {
    }
    const bool went = busy.End();
    *longest = std::max(
        *longest, std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - began));
    if (went) return true;
  }
  return false;
}

TEST(HandOffWatcherTest, ABacklogBehindFastRequestsGoesHalfToAWaitingWorker) {
  constexpr std::chrono::microseconds kTick(1000);
  // A request preempted for a whole tick would let the rule for slow requests act instead (every
  // offered connection goes): such an attempt proves nothing, and runs again.
  for (int attempt = 0; attempt < 5; ++attempt) {
    auto handoff = MakeHandoff();
    HandOffWatcher busy(*handoff, kTick, SIGCHLD);
    Pair quiet, first, second, third;
    for (Pair* pair : {&quiet, &first, &second, &third}) busy.Offer(pair->ours());
    for (Pair* pair : {&first, &second, &third}) ASSERT_EQ(::write(pair->peers(), "r", 1), 1);
    std::chrono::microseconds longest;
    EXPECT_FALSE(ServeFastRequests(busy, 20, &longest)) << "no other worker waits: nothing moves";
    handoff->BeginWait();
    const bool went = ServeFastRequests(busy, 2000, &longest);
    handoff->EndWait();
    const std::vector<int> taken = TakeAll(*handoff);
    if (longest >= kTick) {
      for (int fd : taken) ::close(fd);
      continue;
    }
    ASSERT_TRUE(went) << "the backlog went within a few ticks";
    const std::vector<int> handed(busy.HandedOff().begin(), busy.HandedOff().end());
    EXPECT_EQ(handed.size(), 2u) << "half of the three with a request waiting, rounded up";
    EXPECT_EQ(std::count(handed.begin(), handed.end(), quiet.ours()), 0)
        << "a connection with nothing waiting stays";
    EXPECT_TRUE(busy.Offered(quiet.ours()));
    ASSERT_EQ(taken.size(), 2u);
    for (int fd : taken) {
      EXPECT_EQ(ReadSome(fd), "r") << "what went carries its request, unread";
      ::close(fd);
    }
    return;
  }
  GTEST_SKIP() << "in every attempt a request was preempted for a whole tick";
}

// The state of process `pid` from /proc ('Z' a zombie), or 0 when there is none.
char ProcessState(pid_t pid) {
  std::FILE* file = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
  if (file == nullptr) return 0;
  char state = 0;
  if (std::fscanf(file, "%*d (%*[^)]) %c", &state) != 1) state = 0;
  std::fclose(file);
  return state;
}

TEST(HandOffWatcherTest, TheWatcherEndsWithItsWorkerEvenOneThatIsKilled) {
  auto handoff = MakeHandoff();
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {
    HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
    const pid_t watcher = busy.watcher();
    if (::write(pipe_fds[1], &watcher, sizeof(watcher)) != sizeof(watcher)) ::_exit(2);
    ::pause();  // until killed: no destructor runs
  }
  pid_t watcher = -1;
  ASSERT_EQ(::read(pipe_fds[0], &watcher, sizeof(watcher)), static_cast<ssize_t>(sizeof(watcher)));
  ASSERT_GT(watcher, 0);
  EXPECT_NE(ProcessState(watcher), 0);
  ::kill(worker, SIGKILL);
  ASSERT_EQ(::waitpid(worker, nullptr, 0), worker);
  char state = ProcessState(watcher);
  for (int waited = 0; waited < 2000 && state != 0 && state != 'Z'; ++waited) {
    Sleep(1);
    state = ProcessState(watcher);
  }
  EXPECT_TRUE(state == 0 || state == 'Z') << "the watcher still runs: " << state;
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

volatile std::sig_atomic_t g_watcher_died = 0;

TEST(HandOffWatcherTest, ItsWorkerHearsWhenTheWatcherDies) {
  struct sigaction action = {};
  action.sa_handler = [](int) { g_watcher_died = 1; };
  struct sigaction before = {};
  ::sigaction(SIGUSR2, &action, &before);
  auto handoff = MakeHandoff();
  {
    HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGUSR2);
    ASSERT_GT(busy.watcher(), 0);
    ::kill(busy.watcher(), SIGKILL);
    for (int waited = 0; waited < 2000 && g_watcher_died == 0; ++waited) Sleep(1);
    EXPECT_EQ(g_watcher_died, 1);
  }
  ::sigaction(SIGUSR2, &before, nullptr);
}

// The seams of HandOffWatcher (fcgi/pool/hand_off_watcher.h) are plain functions: these globals are
// what they reach. The watcher runs in its own copy of this process's memory (set before it
// starts), but shares the descriptor table, so it talks to the test through pipes.
int g_queue_fd = -1;       // the hand-off queue's readable end
int g_in_look[2];          // the watcher writes a byte here when its first look begins
int g_settling_calls = 0;  // End's rare path reached the point between its load and its change

// The watcher's first look lasts 200 ms (a preemption while it holds kHanding); others are quick.
void WatcherHoldsItsFirstLook() {
  static bool first = true;  // the watcher's copy
  if (!first) return;
  first = false;
  const char byte = 1;
  if (::write(g_in_look[1], &byte, 1) != 1) ::_exit(2);
  Sleep(200);
}

// The worker is preempted between reading the state and changing it for as long as the watcher
// takes to hand the connections off (at most 2 s).
void WorkerStallsUntilAHandOff() {
  ++g_settling_calls;
  Readable(g_queue_fd, 2000);
}

TEST(HandOffWatcherTest,
     AWorkerPreemptedWhileItEndsARequestNeverKeepsConnectionsTheWatcherHandedOff) {
  auto handoff = MakeHandoff();
  g_queue_fd = handoff->take_fd();
  g_settling_calls = 0;
  ASSERT_EQ(::pipe(g_in_look), 0);
  HandOffWatcher::Seams seams;
  seams.worker_settling = WorkerStallsUntilAHandOff;
  seams.watcher_handing = WatcherHoldsItsFirstLook;
  HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGCHLD, seams);
  Pair first, second;
  busy.Offer(first.ours());
  busy.Offer(second.ours());
  handoff->BeginWait();  // another worker waits for work
  busy.Begin();
  // The request ends while the watcher looks (its first look of this request hands nothing off).
  ASSERT_TRUE(Readable(g_in_look[0], 5000)) << "the watcher never looked";
  const bool went = busy.End();
  handoff->EndWait();
  const std::vector<int> queued = TakeAll(*handoff);
  if (g_settling_calls == 0) {
    for (int fd : queued) ::close(fd);
    GTEST_SKIP() << "this process ran only after the watcher's 200 ms look: nothing raced";
  }
  // The connections are in the queue, for another worker: this one must not keep them too.
  EXPECT_EQ(queued.size(), 2u);
  EXPECT_TRUE(went) << "End says the connections stayed while the queue holds them: two workers "
                       "would read and write one nginx connection";
  for (int fd : queued) ::close(fd);
  ::close(g_in_look[0]);
  ::close(g_in_look[1]);
}

// Runs `worker` in a child process and returns its exit status, or fails the test when it has not
// ended within `limit_ms` (it is then killed).
int RunWorkerWithin(int limit_ms, const std::function<int()>& worker) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(worker());
  int status = 0;
  for (int waited = 0; waited < limit_ms; ++waited) {
    if (::waitpid(child, &status, WNOHANG) == child) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    Sleep(1);
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ADD_FAILURE() << "the worker did not return from End within " << limit_ms << " ms";
  return -1;
}

// The watcher dies in its second look: the first look of a request chooses nothing (the request has
// not run a whole tick yet); the second chooses the offered connection.
void WatcherDiesInItsSecondLook() {
  static int looks = 0;  // the watcher's copy
  if (++looks == 2) ::kill(::getpid(), SIGKILL);
}

TEST(HandOffWatcherTest, AWatcherKilledInTheMiddleOfAHandOffCostsItsConnectionsNotTheWorker) {
  auto handoff = MakeHandoff();
  Pair connection;
  const int status = RunWorkerWithin(10000, [&] {
    HandOffWatcher::Seams seams;
    seams.watcher_handing = WatcherDiesInItsSecondLook;
    HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGCHLD, seams);
    const pid_t watcher = busy.watcher();
    handoff->BeginWait();
    busy.Offer(connection.ours());
    busy.Begin();
    // The watcher dies with the connection chosen; the request ends after that.
    for (int waited = 0; waited < 5000 && ProcessState(watcher) != 'Z'; ++waited) Sleep(1);
    if (ProcessState(watcher) != 'Z') return 10;
    // The connection must count as gone: the worker closes it.
    if (!busy.End()) return 11;
    if (busy.HandedOff().size() != 1 || busy.HandedOff()[0] != connection.ours()) return 12;
    if (busy.watcher() != -1) return 13;
    busy.Offer(connection.ours());
    busy.Begin();  // nothing is handed off any more
    Sleep(20);
    if (busy.End()) return 14;
    return 0;
  });
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(TakeAll(*handoff).empty()) << "the watcher died before it sent anything";
}

// The watcher hangs in its second look, the one that chooses the offered connection.
void WatcherHangsInItsSecondLook() {
  static int looks = 0;  // the watcher's copy
  if (++looks < 2) return;
  const char byte = 1;
  if (::write(g_in_look[1], &byte, 1) != 1) ::_exit(2);
  for (;;) ::pause();
}

TEST(HandOffWatcherTest, AWatcherThatHangsInTheMiddleOfAHandOffIsEndedAfterTheBound) {
  auto handoff = MakeHandoff();
  Pair connection;
  ASSERT_EQ(::pipe(g_in_look), 0);
  const auto started = std::chrono::steady_clock::now();
  const int status = RunWorkerWithin(10000, [&] {
    HandOffWatcher::Seams seams;
    seams.watcher_handing = WatcherHangsInItsSecondLook;
    HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGCHLD, seams);
    const pid_t watcher = busy.watcher();
    handoff->BeginWait();
    busy.Offer(connection.ours());
    busy.Begin();
    if (!Readable(g_in_look[0], 5000)) return 10;  // the watcher hangs
    if (!busy.End()) return 11;
    if (ProcessState(watcher) != 0) return 12;  // ended and reaped: it can send nothing more
    return 0;
  });
  EXPECT_EQ(status, 0);
  EXPECT_GE(std::chrono::steady_clock::now() - started, HandOffWatcher::kMaxWait);
  EXPECT_TRUE(TakeAll(*handoff).empty());
  ::close(g_in_look[0]);
  ::close(g_in_look[1]);
}

// A worker (a forked process) that holds two idle connections offered, one it was reading
// (withdrawn) and, when `serving`, one whose request it serves, then is killed: what reaches the
// queue, and what the peers see.
void KillAWorkerHoldingConnections(bool serving) {
  auto handoff = MakeHandoff();
  Pair idle, other, read, served;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {
    HandOffWatcher watcher(*handoff, std::chrono::microseconds(1000), SIGCHLD);
    for (Pair* pair : {&idle, &other, &read}) watcher.Offer(pair->ours());
    watcher.Withdraw(read.ours());  // about to be read: no longer another worker's to take
    if (serving) watcher.Begin();
    if (::write(ready[1], "r", 1) != 1) ::_exit(2);
    for (;;) ::pause();  // until killed: no destructor runs
  }
  // From now on only the worker (and its watcher) hold the worker's ends.
  for (Pair* pair : {&idle, &other, &read, &served}) {
    ::close(pair->ours());
    pair->ours() = -1;
  }
  ASSERT_TRUE(Readable(ready[0], 5000)) << "the worker did not start";
  if (!serving) Sleep(20);  // the watcher has gone to sleep on its futex
  ::kill(worker, SIGKILL);
  ASSERT_EQ(::waitpid(worker, nullptr, 0), worker);

  ASSERT_TRUE(Readable(handoff->take_fd(), 5000))
      << "nothing of the dead worker's reached the queue";
  char byte;
  // The watcher has exited: the connections it did not queue are closed.
  ASSERT_TRUE(Readable(served.peers(), 5000));
  EXPECT_EQ(::read(served.peers(), &byte, 1), 0) << "the served connection is closed";
  ASSERT_TRUE(Readable(read.peers(), 5000));
  EXPECT_EQ(::read(read.peers(), &byte, 1), 0) << "the withdrawn connection is closed";
  const std::vector<int> taken = TakeAll(*handoff);
  ASSERT_EQ(taken.size(), 2u) << "the idle connections, and only they, are queued";
  ASSERT_EQ(::write(taken[0], "a", 1), 1);
  ASSERT_EQ(::write(taken[1], "b", 1), 1);
  EXPECT_EQ(ReadSome(idle.peers()), "a");
  EXPECT_EQ(ReadSome(other.peers()), "b");
  for (int fd : taken) ::close(fd);
  ::close(ready[0]);
  ::close(ready[1]);
}

// Whether process `pid` has a handler for `signal` (SigCgt in /proc/<pid>/status).
bool Catches(pid_t pid, int signal) {
  std::FILE* file = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
  if (file == nullptr) return false;
  char line[256];
  unsigned long long caught = 0;
  while (std::fgets(line, sizeof(line), file) != nullptr) {
    if (std::sscanf(line, "SigCgt: %llx", &caught) == 1) break;
  }
  std::fclose(file);
  return (caught >> (signal - 1) & 1) != 0;
}

TEST(HandOffWatcherTest, TheSignalOfAWorkersDeathFromAnyoneElseHandsNothingOff) {
  auto handoff = MakeHandoff();
  HandOffWatcher busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
  Pair connection;
  busy.Offer(connection.ours());
  ASSERT_GT(busy.watcher(), 0);
  for (int waited = 0; waited < 5000 && !Catches(busy.watcher(), SIGUSR2); ++waited) Sleep(1);
  ::kill(busy.watcher(), SIGUSR2);  // what the kernel sends the watcher when its worker dies
  Sleep(50);
  EXPECT_TRUE(TakeAll(*handoff).empty()) << "a live worker's connection was handed off";
  EXPECT_NE(ProcessState(busy.watcher()), 'Z') << "the watcher exited";
  EXPECT_TRUE(busy.Offered(connection.ours()));
}

TEST(HandOffWatcherTest, AWorkerKilledWhileServingCostsOnlyTheConnectionItServes) {
  KillAWorkerHoldingConnections(true);
}

TEST(HandOffWatcherTest, AWorkerKilledWhileWaitingLosesNoIdleConnection) {
  KillAWorkerHoldingConnections(false);
}

}  // namespace
}  // namespace netgraph::fcgi
