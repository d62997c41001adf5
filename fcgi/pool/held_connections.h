// The FastCGI connections a pool worker holds (fcgi/fastcgi/connection.h), the epoll set it waits
// on, and the hand-offs of the idle ones to the other workers (fcgi/pool/connection_handoff.h).
//
// A worker's idle connections go to the others: through its watcher (fcgi/pool/hand_off_watcher.h)
// while another worker waits for work (all once a request has run a whole tick, otherwise half of
// those on which a request has arrived), and when the worker dies;
// from the worker itself when it stops, instead of closing connections nginx may be sending on. A
// slow request holds up the others for at most two ticks; the watcher wakes 500 times a second
// while its worker is busy. Every idle connection is offered to the watcher, and withdrawn before
// the worker reads, closes or hands it off: Add, Update, BeforeReading and Close keep that true.
// The epoll set holds every connection (its events carry the Connection) and, while the worker
// wants them, the listening socket and the hand-off queue (their events carry a tag of the
// caller's).
#ifndef NETGRAPH_FCGI_POOL_HELD_CONNECTIONS_H_
#define NETGRAPH_FCGI_POOL_HELD_CONNECTIONS_H_

#include <chrono>
#include <cstddef>
#include <list>
#include <memory>
#include <span>
#include <vector>

#include "fcgi/fastcgi/connection.h"
#include "fcgi/fastcgi/record.h"
#include "fcgi/pool/connection_handoff.h"
#include "fcgi/pool/hand_off_watcher.h"

namespace netgraph::fcgi {

// The watcher's tick: how long a request runs before its worker's idle connections go.
inline constexpr std::chrono::microseconds kHandOffTick{2000};

// Connections held by a worker, accepted and taken over together (FCGI_MAX_CONNS says so). At the
// limit, a new connection pushes out the one whose request has been on its way the longest.
inline constexpr std::size_t kMaxConnections = 256;

class HeldConnections {
 public:
  using Connection = fastcgi::Connection;
  using Clock = fastcgi::Clock;
  using Iterator = std::list<Connection>::iterator;

  // `handoff` null: nothing is handed off; idle connections are closed when the worker stops.
  HeldConnections(fastcgi::Limits limits, const ConnectionHandoff* handoff);
  ~HeldConnections();  // ends the watcher, then closes every connection still held
  HeldConnections(const HeldConnections&) = delete;
  HeldConnections& operator=(const HeldConnections&) = delete;

  std::list<Connection>& list() { return list_; }
  // A new connection (`accepted`), or one another worker handed off.
  void Add(int fd, bool accepted, Clock::time_point now);
  // Closes a connection (its epoll registration goes too); returns the next one.
  Iterator Close(Iterator at);
  void Close(const Connection& connection);

  // After a change of `connection`: one that owes its peer output waits until it can write, and
  // is not read meanwhile (its peer is behind already); the others wait for input. An idle one is
  // offered to the watcher.
  void Update(Connection& connection);
  // Before the worker reads `connection`: it is no longer offered.
  void BeforeReading(Connection& connection);

  // Whether to wait on `fd` (the listening socket or the hand-off queue, which all workers share:
  // EPOLLEXCLUSIVE wakes one waiting worker per event instead of all); its events carry `tag`.
  void Watch(int fd, const void* tag, bool wanted, bool* watched);
  int epoll_fd() const { return epoll_fd_; }

  // Hands off every idle connection (a stopping worker's); those the queue does not take stay.
  void HandOffIdle();
  // Around a request: the watcher may hand off the offered connections meanwhile, which are then
  // forgotten.
  void BeforeServing();
  void AfterServing();

  // Whether a message of the hand-off queue would fit: taken connections count against the limit.
  bool RoomToTake() const;
  // Takes one queued message's connections.
  void TakeHandedOff(Clock::time_point now);

 private:
  // The queue holds the connections `fds` now: this worker's descriptors of them go.
  void ForgetHandedOff(std::span<const int> fds);

  fastcgi::Limits limits_;
  const ConnectionHandoff* handoff_;
  std::list<Connection> list_;
  std::vector<int> taken_;
  std::vector<int> idle_;  // the connections the worker hands off itself, a message's worth
  std::unique_ptr<HandOffWatcher> watcher_;
  int epoll_fd_;  // the connections (data.ptr) and, while wanted, the listening socket and queue
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_HELD_CONNECTIONS_H_
