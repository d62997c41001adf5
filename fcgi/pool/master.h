// The pre-forking master of the FastCGI pool, after php-fpm's process manager: it forks N workers
// that all accept on one inherited listening socket, and supervises them together with any other
// child processes the pool needs (the outbox relay), each kind a "role" with its own count.
//
// - A worker that dies is replaced; one that dies within a second of starting is replaced after a
//   growing delay (up to 5 s), so a crash loop does not spin.
// - SIGTERM, SIGINT or SIGQUIT: graceful stop. Workers get SIGTERM, finish their current request
//   and exit; after the shutdown timeout the rest get SIGKILL. Run() returns once every worker is
//   gone.
// - SIGHUP: reload. The master asks its Reconfigure callback for a new plan (the configuration read
//   again); an error is logged and the children keep running as they are. Otherwise children of
//   the new plan replace the old ones one at a time: a new one starts before an old one is asked to
//   stop, so the pool never shrinks below the smaller of the two counts. A role that grows gets its
//   extra children at once; one that shrinks asks its surplus children to stop.
// - With a scoreboard (fcgi/pool/scoreboard.h), each child gets a slot of it, and the master ends
//   (SIGKILL) a worker busy with one request longer than the request timeout, after logging what
//   it was doing; it is replaced like any dead worker (php-fpm's request_terminate_timeout).
// Signals only write a byte to a self-pipe; all work happens in Run()'s loop. A signal sent to a
// child before it has reset the master's dispositions waits until it has (it is the child's).
#ifndef NETGRAPH_FCGI_POOL_MASTER_H_
#define NETGRAPH_FCGI_POOL_MASTER_H_

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/status.h"
#include "fcgi/pool/scoreboard.h"

namespace netgraph::fcgi {

// A kind of child process: `main` runs in each of `count` forked children; its return value is the
// child's exit status. Children are asked to stop with SIGTERM.
struct ChildRole {
  std::string name;  // for logs: "worker", "relay"
  int count = 1;
  std::function<int()> main;
};

struct PreforkOptions {
  std::chrono::milliseconds shutdown_timeout{30000};  // NETGRAPH_SHUTDOWN_TIMEOUT_MS
  Scoreboard* scoreboard = nullptr;
  std::chrono::milliseconds request_timeout{0};  // NETGRAPH_REQUEST_TIMEOUT_MS; 0: none
};

// What the master runs: its options and its children.
struct PoolPlan {
  PreforkOptions options;
  std::vector<ChildRole> roles;
};

// Called in the master on SIGHUP: the plan to switch to, or why the configuration was refused.
using Reconfigure = std::function<Result<PoolPlan>()>;

class PreforkMaster {
 public:
  // A point where a test acts (tests/unit/fcgi/master_test.cc); null in production.
  struct Seams {
    void (*child_forked)() = nullptr;  // in each child, at once after fork(2)
  };

  // Without `reconfigure`, SIGHUP replaces the children with the same plan.
  explicit PreforkMaster(PoolPlan plan, Reconfigure reconfigure = nullptr);
  PreforkMaster(PoolPlan plan, Reconfigure reconfigure, Seams seams);

  // Forks the workers and supervises them until a stop signal. Returns the master's exit status:
  // 1 at once when its signal handling cannot be set up.
  int Run();

 private:
  using Clock = std::chrono::steady_clock;
  struct Slot {
    const ChildRole* role = nullptr;
    pid_t pid = 0;
    Clock::time_point started;
    Clock::time_point respawn_at;
    int rapid_failures = 0;
    int generation = 0;  // the plan the child was forked from
  };

  void Spawn(int index);
  void Reap();
  void BeginStop();
  void BeginReload();
  // Switches to `plan`: re-lays the slots role by role, keeping the running children in them.
  void Adopt(PoolPlan plan);
  void AdvanceReload();
  void RespawnDueSlots();
  bool HasChildren() const;
  void EnforceRequestTimeout();
  int PollTimeoutMs() const;

  PreforkOptions options_;
  std::vector<ChildRole> roles_;
  Reconfigure reconfigure_;
  Seams seams_;
  int generation_ = 0;
  std::vector<Slot> slots_;
  std::map<pid_t, int> retiring_;  // old workers asked to stop during a reload -> their slot
  std::vector<int> reload_queue_;  // slots whose child is of an older plan, to replace in turn
  bool reloading_ = false;         // until the last old child is replaced
  std::set<pid_t> timed_out_;      // workers killed for the request timeout, not yet reaped
  bool stopping_ = false;
  bool killed_ = false;
  Clock::time_point stop_deadline_;
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_MASTER_H_
