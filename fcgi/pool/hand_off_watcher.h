// A pool worker's watcher: a small process the worker clones sharing its descriptor table
// (CLONE_FILES), which hands the worker's idle connections to the pool's queue
// (fcgi/pool/connection_handoff.h) when the worker cannot serve them:
//
// - while it is busy and another worker waits for work: all of them once a request has kept the
//   worker busy for a whole tick, so a slow request (a claim waiting on a lock) holds up no request
//   but its own for more than a tick or two; otherwise, half (rounded up) of those whose next
//   request has already arrived. That second rule is for a backlog of fast requests: nginx sends a
//   request on the kept connection freed last (its keep-alive cache is last in, first out), which
//   is one of the worker that answers, so once the other has run out of requests, all of them can
//   queue on one worker while the other waits (docs/benchmarks.md, "Issue 27: one worker idle
//   while the other had a backlog"). Fast requests with nothing waiting behind them pass nothing,
//   and while every worker is busy nothing moves (the connections would only go round);
// - when it dies (killed, crashed): all of them, so a dead worker costs only the request it was
//   serving. nginx retries no POST that fails on a kept connection closed under it; with the
//   descriptor table shared, the worker's connections are still open when the watcher learns of
//   its death (PR_SET_PDEATHSIG: SIGUSR2 once it has a new parent; the same signal from anyone
//   else while the worker lives is ignored), and the watcher exits once it has queued them.
//
// A process, and nothing else: it can pass the worker's connections by their numbers and outlive
// the worker, where a thread would make the whole worker pay for thread safety (atomic reference
// counts, locked allocations) and a timer signal would interrupt the worker's system calls. The two
// talk through a page of shared memory. The watcher ticks while the worker serves and sleeps on a
// futex once the worker has been idle for two ticks; only the first request after that wakes it,
// so a busy worker makes no system call per request for this. The worker is sent `death_signal`
// when the watcher dies (a worker asks for SIGTERM: it stops gracefully and its master replaces
// it, watcher and all).
//
// Which connections: the worker offers each idle connection it holds (Offer: nothing of it read,
// nothing owed, so another worker can take it over as it is) and withdraws it before it reads,
// closes or hands it off itself (Withdraw). The page keeps a mark per descriptor, each a word the
// worker writes at once, so at whatever instant the worker dies, every offered connection is one
// another worker can take over. Descriptors from kMaxOffered on are never offered: they stay with
// their worker (a worker holds at most 256 connections, kMaxConnections in held_connections.h).
//
// The page holds one state word, and each side moves it only along its own edges:
//   worker:  idle -> serving (Begin);  serving -> idle and handed -> idle (End)
//   watcher: serving -> handing -> serving or handed (one look, one hand-off at most)
// Leaving "serving" is a compare-and-swap on both sides, so a move of one is never overwritten by
// the other's: a worker preempted anywhere in End either ends the request before the watcher looks
// (nothing goes) or sees the hand-off it lost the race to (then the connections went). A death of
// the worker that comes in the middle of a look is acted on once the look is over, so no
// connection is queued twice.
//
// Contract: Begin and End are called by the worker in pairs around a request, and between them the
// worker offers, withdraws and touches no offered connection; End tells whether some went
// (HandedOff lists them: the worker closes its descriptors of them) and waits out a hand-off in
// progress, for kMaxWait at most: a watcher that dies or hangs in the middle of a hand-off is
// ended, and the connections it had chosen count as gone (maybe queued, maybe lost: whichever, the
// worker closes its descriptors and no connection is ever served by two workers). Nothing is
// handed off after that, not even at the worker's death; the watcher's death sends `death_signal`,
// so the worker is replaced.
#ifndef NETGRAPH_FCGI_POOL_HAND_OFF_WATCHER_H_
#define NETGRAPH_FCGI_POOL_HAND_OFF_WATCHER_H_

#include <sys/types.h>

#include <chrono>
#include <span>
#include <vector>

#include "fcgi/pool/connection_handoff.h"

namespace netgraph::fcgi {

class HandOffWatcher {
 public:
  // How long End waits for a look of the watcher's to finish: one look is a few loads and at most
  // one sendmsg(2), microseconds; a watcher that has not finished after this is hung (or stopped)
  // and is ended.
  static constexpr std::chrono::milliseconds kMaxWait{1000};
  // Descriptors below this can be offered.
  static constexpr int kMaxOffered = 4096;

  // Points where a test stops time or ends the watcher
  // (tests/unit/fcgi/hand_off_watcher_test.cc): a preemption or a death there is what the
  // protocol above must survive. Null in production, where each is a branch on the rare path only.
  struct Seams {
    void (*worker_settling)() = nullptr;  // End: between reading the state and changing it
    // The watcher, in its process, in each look: after choosing what to hand off, before sending.
    void (*watcher_handing)() = nullptr;
  };

  // Starts the watcher; without one (it could not be started: logged), nothing is handed off.
  HandOffWatcher(const ConnectionHandoff& handoff, std::chrono::microseconds tick,
                 int death_signal);
  HandOffWatcher(const ConnectionHandoff& handoff, std::chrono::microseconds tick, int death_signal,
                 Seams seams);
  ~HandOffWatcher();  // ends the watcher (which sends `death_signal`) without handing anything off
  HandOffWatcher(const HandOffWatcher&) = delete;
  HandOffWatcher& operator=(const HandOffWatcher&) = delete;

  // `fd` is an idle connection of the worker's, which the watcher may hand off from now on.
  void Offer(int fd);
  // The worker is about to read, close or hand off `fd` itself: it is no longer offered.
  void Withdraw(int fd);
  bool Offered(int fd) const;

  // A request begins.
  void Begin();
  // The request has ended. True when connections went from this worker (handed off, or lost with
  // a watcher that died or hung while handing them off): HandedOff() lists them.
  bool End();
  std::span<const int> HandedOff() const { return handed_; }

  pid_t watcher() const { return watcher_; }  // -1 when it could not be started, or was ended

  struct Shared;  // the page the worker and its watcher share (hand_off_watcher.cc)

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
  // handed_ becomes what the watcher's last look chose.
  void CopyHanded();

  Shared* shared_ = nullptr;
  pid_t watcher_ = -1;
  bool watcher_reaped_ = false;
  std::chrono::microseconds tick_;
  Seams seams_;
  std::vector<int> handed_;
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_HAND_OFF_WATCHER_H_
