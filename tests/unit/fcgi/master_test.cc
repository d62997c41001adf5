// The pre-forking master (fcgi/pool/master.h), each test's master in a forked process of its own:
// its signal handling is set up or it refuses to run, and a signal that reaches a child between
// fork(2) and the reset of the master's dispositions is the child's, never the master's.
#include "fcgi/pool/master.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <new>
#include <utility>

namespace netgraph::fcgi {
namespace {

// The exit status of `pid`, or -1 when it has not exited within `ms` (it is then killed).
int AwaitExit(pid_t pid, int ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return -1;
    }
    ::usleep(10000);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int ExitAtOnce() { return 0; }

TEST(PreforkMasterTest, RefusesToRunWithoutItsSignalPipe) {
  const pid_t master = ::fork();
  ASSERT_GE(master, 0);
  if (master == 0) {
    // No descriptor left for the signal pipe: the lowest free one is the limit.
    const int free_fd = ::dup(0);
    ::close(free_fd);
    const rlimit limit = {static_cast<rlim_t>(free_fd), static_cast<rlim_t>(free_fd)};
    ::setrlimit(RLIMIT_NOFILE, &limit);
    PoolPlan plan;
    plan.roles = {{"worker", 1, ExitAtOnce}};
    ::_exit(PreforkMaster(std::move(plan)).Run());
  }
  EXPECT_EQ(AwaitExit(master, 10000), 1) << "the master ran without its signal pipe";
}

// Where a child says it runs (its pid), and the first child forked (memory shared with the
// master's children), which is signalled before it resets the master's dispositions.
int g_started = -1;
std::atomic<pid_t>* g_first_child = nullptr;

// In each child, at once after fork(2): the first one gets SIGTERM there, as an operator's kill or
// a master's stop could reach it at that moment.
void SignalTheFirstChild() {
  pid_t none = 0;
  if (g_first_child->compare_exchange_strong(none, ::getpid())) ::raise(SIGTERM);
}

int ReportAndWait() {
  const pid_t self = ::getpid();
  (void)!::write(g_started, &self, sizeof(self));
  for (;;) ::pause();
}

TEST(PreforkMasterTest, ASignalThatReachesAChildBeforeItsResetIsTheChilds) {
  void* page = ::mmap(nullptr, sizeof(std::atomic<pid_t>), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  g_first_child = new (page) std::atomic<pid_t>(0);
  int started[2];
  ASSERT_EQ(::pipe(started), 0);
  g_started = started[1];
  const pid_t master = ::fork();
  ASSERT_GE(master, 0);
  if (master == 0) {
    ::close(started[0]);
    PoolPlan plan;
    plan.options.shutdown_timeout = std::chrono::milliseconds(5000);
    plan.roles = {{"worker", 1, ReportAndWait}};
    PreforkMaster::Seams seams;
    seams.child_forked = SignalTheFirstChild;
    ::_exit(PreforkMaster(std::move(plan), nullptr, seams).Run());
  }
  ::close(started[1]);

  pollfd wait = {started[0], POLLIN, 0};
  ASSERT_EQ(::poll(&wait, 1, 20000), 1) << "no child of the master started";
  pid_t running = 0;
  ASSERT_EQ(::read(started[0], &running, sizeof(running)), static_cast<ssize_t>(sizeof(running)));
  const pid_t signalled = g_first_child->load();
  ASSERT_GT(signalled, 0);
  // The signalled child died of its SIGTERM (and was replaced); had the master's handler, copied
  // into it, taken the signal, it would run, and the master would be stopping the pool.
  EXPECT_NE(running, signalled) << "the child signalled before its reset went on to run";
  EXPECT_EQ(::waitpid(master, nullptr, WNOHANG), 0) << "the master stopped";
  ::kill(master, SIGTERM);
  EXPECT_EQ(AwaitExit(master, 20000), 0);
  ::close(started[0]);
  ::munmap(page, sizeof(std::atomic<pid_t>));
}

}  // namespace
}  // namespace netgraph::fcgi
