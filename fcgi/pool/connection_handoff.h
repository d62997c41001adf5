// Idle FastCGI connections passed between the workers of a pool. nginx keeps its connections to
// the pool open (upstream keepalive), and a connection belongs to the process holding it: a request
// nginx sends on an idle connection held by a worker that is busy with another request would wait
// for that request, with other workers idle. A worker therefore hands the idle connections it holds
// to this queue when it will not read them soon (fcgi/pool/hand_off_watcher.h says when), and any
// worker that is waiting for work takes them (docs/architecture.md, "Connections from nginx").
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

#include <atomic>
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

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_CONNECTION_HANDOFF_H_
