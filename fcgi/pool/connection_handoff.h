// Idle FastCGI connections passed between the workers of a pool. nginx keeps its connections to
// the pool open (upstream keepalive), and a connection belongs to the process holding it: a request
// nginx sends on an idle connection held by a worker that is busy with another request would wait
// for that request, with other workers idle. A worker therefore hands the idle connections it holds
// to this queue when it will not read them soon (fcgi/pool/worker.cc says when), and any worker
// that is waiting for work takes them (docs/architecture.md, "Connections from nginx").
//
// - The queue is a SOCK_SEQPACKET socket pair made by the master before it forks; each message
//   carries connections as SCM_RIGHTS. A connection in the queue stays open (the message holds it)
//   until a worker takes it, so nothing nginx sent on it is lost; the queue outlives any one
//   worker, and what is in it when the last process holding the pair exits is closed.
// - Put never blocks: it fails when the queue is full (the caller still holds its connections) or
//   on a count it cannot carry.
// - Take never blocks: it appends the connections of one message, if there is one.
// - Waiting workers: each worker counts itself while it waits for work (a counter in the pool's
//   shared memory), so a busy worker can tell whether handing off would find a taker.
#ifndef NETGRAPH_FCGI_POOL_CONNECTION_HANDOFF_H_
#define NETGRAPH_FCGI_POOL_CONNECTION_HANDOFF_H_

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/status.h"
#include "fcgi/pool/shared_memory.h"

namespace netgraph::fcgi {

class ConnectionHandoff {
 public:
  // The most connections one Put carries (the kernel allows 253). A worker takes a message only
  // while it has room for this many under its connection limit (fcgi/pool/worker.cc), so the
  // smaller a message, the fuller a worker may be and still take one; nginx keeps 32 idle
  // connections per nginx worker, spread over the pool's workers, so a busy worker seldom holds
  // more than this.
  static constexpr std::size_t kMaxPerMessage = 64;

  // The bytes of shared memory it takes (the count of waiting workers).
  static constexpr std::size_t kSharedBytes = sizeof(std::atomic<int>);
  // Makes the queue, and the counter in `memory` (fcgi/pool/shared_memory.h), which must outlive
  // it; call before forking.
  static Result<std::unique_ptr<ConnectionHandoff>> Create(SharedMemory& memory);
  ~ConnectionHandoff();
  ConnectionHandoff(const ConnectionHandoff&) = delete;
  ConnectionHandoff& operator=(const ConnectionHandoff&) = delete;

  // Queues `count` (1 to kMaxPerMessage) connections. On success the queue holds them: the caller
  // closes its own descriptors. False (errno set) when the queue is full or `count` is out of
  // range.
  bool Put(const int* fds, std::size_t count) const;

  // Appends the connections of one queued message to `fds` (close-on-exec; O_NONBLOCK and the other
  // status flags are the connection's, as its sender had them). False when the queue was empty.
  bool Take(std::vector<int>* fds) const;

  // Readable (POLLIN) while a message is queued.
  int take_fd() const { return take_fd_; }

  void BeginWait() const { waiting_->fetch_add(1, std::memory_order_relaxed); }
  void EndWait() const { waiting_->fetch_sub(1, std::memory_order_relaxed); }
  // How many workers are waiting for work now.
  int waiting() const { return waiting_->load(std::memory_order_relaxed); }

 private:
  ConnectionHandoff(int put_fd, int take_fd, std::atomic<int>* waiting)
      : put_fd_(put_fd), take_fd_(take_fd), waiting_(waiting) {}

  int put_fd_;
  int take_fd_;
  std::atomic<int>* waiting_;
};

// Hands a worker's idle connections to `handoff` once a request has kept the worker busy for a
// whole tick and another worker waits for work, so a slow request (a claim waiting on a lock) holds
// up no request but its own for more than a tick or two. Fast requests pass nothing, and while
// every worker is busy nothing moves (the connections would only go round).
//
// The one who looks is a watcher process the worker clones sharing its descriptor table
// (CLONE_FILES), so it can pass the worker's connections by their numbers, and nothing else: a
// thread would make the whole worker pay for thread safety (atomic reference counts, locked
// allocations), and a timer signal would interrupt the worker's system calls. They talk through a
// page of shared memory. The watcher ticks while the worker serves and sleeps on a futex once the
// worker has been idle for two ticks; only the first request after that wakes it, so a busy worker
// makes no system call per request for this. The watcher dies with the worker (PR_SET_PDEATHSIG),
// and the worker is sent `death_signal` when the watcher dies (a worker asks for SIGTERM: it stops
// gracefully and its master replaces it, watcher and all).
//
// The page holds one state word, and each side moves it only along its own edges:
//   worker:  idle -> serving (Begin);  serving -> idle and handed -> idle (End)
//   watcher: serving -> handing -> serving or handed (one look, one hand-off at most)
// Leaving "serving" is a compare-and-swap on both sides, so a move of one is never overwritten by
// the other's: a worker preempted anywhere in End either ends the request before the watcher looks
// (nothing goes) or sees the hand-off it lost the race to (then the connections went).
//
// Contract: Begin and End are called by the worker in pairs around a request, and between them the
// worker does not touch the connections it passed to Begin; End tells whether they went (then the
// worker closes its descriptors of them) and waits out a hand-off in progress, for kMaxWait at
// most: a watcher that dies or hangs in the middle of a hand-off is ended, and the connections it
// was handing count as gone (maybe queued, maybe lost: whichever, the worker closes its descriptors
// and no connection is ever served by two workers). Nothing is handed off after that; the watcher's
// death sends `death_signal`, so the worker is replaced.
class BusyHandOff {
 public:
  // How long End waits for a look of the watcher's to finish: one look is a few loads and at most
  // one sendmsg(2), microseconds; a watcher that has not finished after this is hung (or stopped)
  // and is ended.
  static constexpr std::chrono::milliseconds kMaxWait{1000};

  // Points where a test stops time or ends the watcher
  // (tests/unit/fcgi/connection_handoff_test.cc): a preemption or a death there is what the
  // protocol above must survive. Null in production, where each is a branch on the rare path only.
  struct Seams {
    void (*worker_settling)() = nullptr;  // End: between reading the state and changing it
    void (*watcher_handing)() = nullptr;  // the watcher, in its process: in the middle of a look
  };

  // Starts the watcher; without one (it could not be started: logged), nothing is handed off.
  BusyHandOff(const ConnectionHandoff& handoff, std::chrono::microseconds tick, int death_signal);
  BusyHandOff(const ConnectionHandoff& handoff, std::chrono::microseconds tick, int death_signal,
              Seams seams);
  ~BusyHandOff();  // ends the watcher (which sends `death_signal`)
  BusyHandOff(const BusyHandOff&) = delete;
  BusyHandOff& operator=(const BusyHandOff&) = delete;

  // A request begins; `fds` (at most ConnectionHandoff::kMaxPerMessage are kept) are the worker's
  // other idle connections.
  void Begin(const int* fds, std::size_t count);
  // The request has ended. True when the connections passed to Begin are gone from this worker
  // (handed off, or lost with a watcher that died or hung while handing them off).
  bool End();

  pid_t watcher() const { return watcher_; }  // -1 when it could not be started, or was ended

  struct Shared;  // the page the worker and its watcher share (connection_handoff.cc)

 private:
  // End's rare path: the watcher has moved the state to `state` (handing or handed).
  bool Settle(int state);
  // Waits until the watcher has finished the look in progress; false when it died first or
  // kMaxWait passed.
  bool AwaitHandOff();
  // Whether the watcher has exited (it is then reaped).
  bool WatcherExited();
  // Ends a watcher that died or hung in a hand-off; nothing is handed off after this.
  void GiveUpWatcher();

  Shared* shared_ = nullptr;
  pid_t watcher_ = -1;
  bool watcher_reaped_ = false;
  std::chrono::microseconds tick_;
  Seams seams_;
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_CONNECTION_HANDOFF_H_
