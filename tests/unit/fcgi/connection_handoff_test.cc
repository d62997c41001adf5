// The queue that passes idle FastCGI connections between a pool's workers
// (fcgi/pool/connection_handoff.h), with socket pairs standing in for nginx's connections.
#include "fcgi/pool/connection_handoff.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace netgraph::fcgi {
namespace {

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
SharedMemory& Memory() {
  static const std::unique_ptr<SharedMemory> memory =
      SharedMemory::Create(256 * SharedMemory::Bytes({ConnectionHandoff::kSharedBytes})).value();
  return *memory;
}

std::unique_ptr<ConnectionHandoff> MakeHandoff() {
  Result<std::unique_ptr<ConnectionHandoff>> made = ConnectionHandoff::Create(Memory());
  EXPECT_TRUE(made.ok()) << made.status().message();
  return made.ok() ? std::move(made).value() : nullptr;
}

// Whether `fd` becomes readable within `ms`.
bool Readable(int fd, int ms) {
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
void Sleep(int ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < deadline) ::usleep(1000);
}

std::string ReadSome(int fd) {
  if (!Readable(fd, 2000)) return "<nothing>";
  char buffer[64];
  const ssize_t got = ::read(fd, buffer, sizeof(buffer));
  return got < 0 ? "<error>" : std::string(buffer, static_cast<std::size_t>(got));
}

// The peer sees neither data nor the end of the connection.
bool StillOpenAndQuiet(int fd) {
  pollfd wait = {fd, POLLIN, 0};
  return ::poll(&wait, 1, 0) == 0;
}

TEST(ConnectionHandoffTest, ATakenConnectionIsTheOneThatWasPutWithWhatWasSentOnIt) {
  auto handoff = MakeHandoff();
  Pair connection;
  ASSERT_EQ(::write(connection.peers(), "request", 7), 7);  // sent before the hand-off
  ASSERT_TRUE(handoff->Put(&connection.ours(), 1));
  ::close(connection.ours());
  connection.ours() = -1;
  EXPECT_TRUE(StillOpenAndQuiet(connection.peers())) << "the queue holds the connection open";

  std::vector<int> taken;
  ASSERT_TRUE(handoff->Take(&taken));
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(ReadSome(taken[0]), "request");
  ASSERT_EQ(::write(taken[0], "answer", 6), 6);
  EXPECT_EQ(ReadSome(connection.peers()), "answer");
  ::close(taken[0]);
}

TEST(ConnectionHandoffTest, OneMessageCarriesManyConnectionsInOrder) {
  auto handoff = MakeHandoff();
  Pair first, second, third;
  const int fds[] = {first.ours(), second.ours(), third.ours()};
  ASSERT_TRUE(handoff->Put(fds, 3));
  std::vector<int> taken;
  ASSERT_TRUE(handoff->Take(&taken));
  ASSERT_EQ(taken.size(), 3u);
  Pair* pairs[] = {&first, &second, &third};
  for (int i = 0; i < 3; ++i) {
    const std::string word = "c" + std::to_string(i);
    ASSERT_EQ(::write(taken[i], word.data(), word.size()), 2);
    EXPECT_EQ(ReadSome(pairs[i]->peers()), word);
    ::close(taken[i]);
  }
  EXPECT_FALSE(handoff->Take(&taken)) << "one message, taken once";
}

TEST(ConnectionHandoffTest, AnEmptyQueueGivesNothingAndDoesNotBlock) {
  auto handoff = MakeHandoff();
  std::vector<int> taken = {42};
  EXPECT_FALSE(handoff->Take(&taken));
  EXPECT_EQ(taken, std::vector<int>{42});
  pollfd wait = {handoff->take_fd(), POLLIN, 0};
  EXPECT_EQ(::poll(&wait, 1, 0), 0) << "not readable while empty";
}

TEST(ConnectionHandoffTest, PutRefusesNoConnectionsAndMoreThanAMessageCarries) {
  auto handoff = MakeHandoff();
  Pair connection;
  EXPECT_FALSE(handoff->Put(&connection.ours(), 0));
  std::vector<int> many(ConnectionHandoff::kMaxPerMessage + 1, connection.ours());
  EXPECT_FALSE(handoff->Put(many.data(), many.size()));
  EXPECT_EQ(errno, EINVAL);
  EXPECT_TRUE(handoff->Put(many.data(), ConnectionHandoff::kMaxPerMessage));
}

TEST(ConnectionHandoffTest, AFullQueueRefusesAtOnceAndTheCallerKeepsItsConnection) {
  auto handoff = MakeHandoff();
  Pair connection;
  int queued = 0;
  while (handoff->Put(&connection.ours(), 1)) {
    ASSERT_LT(++queued, 100000) << "the queue never filled";
  }
  EXPECT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK) << errno;
  ASSERT_EQ(::write(connection.ours(), "still ours", 10), 10);
  EXPECT_EQ(ReadSome(connection.peers()), "still ours");
  // Taking one message makes room for one more.
  std::vector<int> taken;
  ASSERT_TRUE(handoff->Take(&taken));
  EXPECT_TRUE(handoff->Put(&connection.ours(), 1));
  for (int fd : taken) ::close(fd);
}

TEST(ConnectionHandoffTest, AConnectionPutByOneProcessIsServedByAnother) {
  auto handoff = MakeHandoff();
  Pair connection;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The taker: waits for the message as a worker does, then answers on the connection.
    pollfd wait = {handoff->take_fd(), POLLIN, 0};
    std::vector<int> taken;
    handoff->BeginWait();
    const bool woke = ::poll(&wait, 1, 5000) == 1;
    handoff->EndWait();
    if (!woke || !handoff->Take(&taken) || taken.size() != 1) ::_exit(2);
    ::_exit(::write(taken[0], "from the child", 14) == 14 ? 0 : 3);
  }
  // The child counts itself as waiting before the connection arrives.
  for (int i = 0; i < 500 && handoff->waiting() == 0; ++i) ::usleep(10000);
  EXPECT_EQ(handoff->waiting(), 1);
  ASSERT_TRUE(handoff->Put(&connection.ours(), 1));
  ::close(connection.ours());
  connection.ours() = -1;
  EXPECT_EQ(ReadSome(connection.peers()), "from the child");
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(handoff->waiting(), 0);
}

// What the queue holds, taken: the descriptors of every queued message.
std::vector<int> TakeAll(const ConnectionHandoff& handoff) {
  std::vector<int> taken;
  while (handoff.Take(&taken)) {
  }
  return taken;
}

TEST(BusyHandOffTest, WhileARequestRunsAndAnotherWorkerWaitsTheOtherConnectionsGo) {
  auto handoff = MakeHandoff();
  BusyHandOff busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
  Pair first, second;
  const int others[] = {first.ours(), second.ours()};
  handoff->BeginWait();  // another worker waits for work
  busy.Begin(others, 2);
  EXPECT_TRUE(Readable(handoff->take_fd(), 2000)) << "handed off within a few ticks";
  EXPECT_TRUE(busy.End());
  handoff->EndWait();
  const std::vector<int> taken = TakeAll(*handoff);
  ASSERT_EQ(taken.size(), 2u);
  ASSERT_EQ(::write(taken[1], "x", 1), 1);
  EXPECT_EQ(ReadSome(second.peers()), "x");
  for (int fd : taken) ::close(fd);
}

TEST(BusyHandOffTest, NothingMovesWhileNoOtherWorkerWaits) {
  auto handoff = MakeHandoff();
  BusyHandOff busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
  Pair first;
  busy.Begin(&first.ours(), 1);
  Sleep(20);  // twenty ticks
  EXPECT_FALSE(busy.End());
  EXPECT_TRUE(TakeAll(*handoff).empty());
}

TEST(BusyHandOffTest, FastRequestsPassNothingAndTheWatcherWakesAgainAfterIdling) {
  auto handoff = MakeHandoff();
  BusyHandOff busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
  Pair first;
  handoff->BeginWait();
  for (int request = 0; request < 1000; ++request) {
    busy.Begin(&first.ours(), 1);
    EXPECT_FALSE(busy.End()) << "a request shorter than a tick";
  }
  EXPECT_TRUE(TakeAll(*handoff).empty());
  Sleep(20);  // long enough for the watcher to go to sleep
  busy.Begin(&first.ours(), 1);
  EXPECT_TRUE(Readable(handoff->take_fd(), 2000)) << "the first request after idling woke it";
  EXPECT_TRUE(busy.End());
  handoff->EndWait();
  for (int fd : TakeAll(*handoff)) ::close(fd);
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

TEST(BusyHandOffTest, TheWatcherEndsWithItsWorkerEvenOneThatIsKilled) {
  auto handoff = MakeHandoff();
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {
    BusyHandOff busy(*handoff, std::chrono::microseconds(1000), SIGCHLD);
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

TEST(BusyHandOffTest, ItsWorkerHearsWhenTheWatcherDies) {
  struct sigaction action = {};
  action.sa_handler = [](int) { g_watcher_died = 1; };
  struct sigaction before = {};
  ::sigaction(SIGUSR2, &action, &before);
  auto handoff = MakeHandoff();
  {
    BusyHandOff busy(*handoff, std::chrono::microseconds(1000), SIGUSR2);
    ASSERT_GT(busy.watcher(), 0);
    ::kill(busy.watcher(), SIGKILL);
    for (int waited = 0; waited < 2000 && g_watcher_died == 0; ++waited) Sleep(1);
    EXPECT_EQ(g_watcher_died, 1);
  }
  ::sigaction(SIGUSR2, &before, nullptr);
}

// The seams of BusyHandOff (fcgi/pool/connection_handoff.h) are plain functions: these globals are
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

TEST(BusyHandOffTest, AWorkerPreemptedWhileItEndsARequestNeverKeepsConnectionsTheWatcherHandedOff) {
  auto handoff = MakeHandoff();
  g_queue_fd = handoff->take_fd();
  g_settling_calls = 0;
  ASSERT_EQ(::pipe(g_in_look), 0);
  BusyHandOff::Seams seams;
  seams.worker_settling = WorkerStallsUntilAHandOff;
  seams.watcher_handing = WatcherHoldsItsFirstLook;
  BusyHandOff busy(*handoff, std::chrono::microseconds(1000), SIGCHLD, seams);
  Pair first, second;
  const int others[] = {first.ours(), second.ours()};
  handoff->BeginWait();  // another worker waits for work
  busy.Begin(others, 2);
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

void WatcherDies() { ::kill(::getpid(), SIGKILL); }

TEST(BusyHandOffTest, AWatcherKilledInTheMiddleOfAHandOffCostsItsConnectionsNotTheWorker) {
  auto handoff = MakeHandoff();
  Pair connection;
  const int status = RunWorkerWithin(10000, [&] {
    BusyHandOff::Seams seams;
    seams.watcher_handing = WatcherDies;
    BusyHandOff busy(*handoff, std::chrono::microseconds(1000), SIGCHLD, seams);
    const pid_t watcher = busy.watcher();
    handoff->BeginWait();
    busy.Begin(&connection.ours(), 1);
    // The watcher dies in its first look; the request ends after that.
    for (int waited = 0; waited < 5000 && ProcessState(watcher) != 'Z'; ++waited) Sleep(1);
    if (ProcessState(watcher) != 'Z') return 10;
    if (!busy.End()) return 11;  // the connection must count as gone: the worker closes it
    if (busy.watcher() != -1) return 12;
    busy.Begin(&connection.ours(), 1);  // nothing is handed off any more
    Sleep(20);
    if (busy.End()) return 13;
    return 0;
  });
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(TakeAll(*handoff).empty()) << "the watcher died before it sent anything";
}

void WatcherHangs() {
  const char byte = 1;
  if (::write(g_in_look[1], &byte, 1) != 1) ::_exit(2);
  for (;;) ::pause();
}

TEST(BusyHandOffTest, AWatcherThatHangsInTheMiddleOfAHandOffIsEndedAfterTheBound) {
  auto handoff = MakeHandoff();
  Pair connection;
  ASSERT_EQ(::pipe(g_in_look), 0);
  const auto started = std::chrono::steady_clock::now();
  const int status = RunWorkerWithin(10000, [&] {
    BusyHandOff::Seams seams;
    seams.watcher_handing = WatcherHangs;
    BusyHandOff busy(*handoff, std::chrono::microseconds(1000), SIGCHLD, seams);
    const pid_t watcher = busy.watcher();
    busy.Begin(&connection.ours(), 1);
    if (!Readable(g_in_look[0], 5000)) return 10;  // the watcher hangs in its first look
    if (!busy.End()) return 11;
    if (ProcessState(watcher) != 0) return 12;  // ended and reaped: it can send nothing more
    return 0;
  });
  EXPECT_EQ(status, 0);
  EXPECT_GE(std::chrono::steady_clock::now() - started, BusyHandOff::kMaxWait);
  EXPECT_TRUE(TakeAll(*handoff).empty());
  ::close(g_in_look[0]);
  ::close(g_in_look[1]);
}

}  // namespace
}  // namespace netgraph::fcgi
