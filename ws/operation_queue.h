// The queries and mutations sent over WebSocket that wait for a database thread
// (ws/database_workers.h): bounded, fair between clients, and cancellable. Bookkeeping only, with
// no thread, socket or database of its own: DatabaseWorkers calls it under its mutex, and the unit
// tests drive it directly.
//
// Bounded. A job counts against its connection, its client address and the process from Push
// until a database thread has finished it (Finish), or until it is cancelled while it still waits:
// in number (Options::max_operations per connection, OperationLimits per address and process), and
// in the bytes its request holds, which count in the same MemoryLimits as the subscriptions of that
// connection, address and process (ws/hub.h). A job past a bound is refused, and the client's
// operation gets a GraphQL error with extensions.code kQueueFullCode. Counting until the thread is
// done, not until the client loses interest, is what keeps a client that sends `complete` (or
// closes the socket) right after each `subscribe` from queueing unbounded work (issue 22).
//
// Fair. Threads take jobs from the client addresses in turn and, within an address, from its
// connections in turn (round robin at both levels; a connection's own jobs in order): an
// operation waits for at most one job of each other address with work waiting, however many
// operations or connections that address has.
//
// Cancellable. Cancel removes a waiting job at once: its request is freed and it never runs. A job
// a thread has taken runs to its end, and whoever cancelled it drops its outcome (GraphqlBackend);
// the queue only goes on counting it until Finish.
#ifndef NETGRAPH_WS_OPERATION_QUEUE_H_
#define NETGRAPH_WS_OPERATION_QUEUE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ws/options.h"
#include "ws/session.h"

namespace netgraph::api {
class Service;
}  // namespace netgraph::api

namespace netgraph::ws {

// The extensions.code of an operation refused by a bound of the queue: stable, for clients to
// recognise "try again later" by.
inline constexpr std::string_view kQueueFullCode = "OPERATION_QUEUE_FULL";

class OperationQueue {
 public:
  // Each connection's number: never reused, so a job that outlives its connection cannot count
  // against a later one.
  using ConnectionId = std::uint64_t;
  // What a job computes on a database thread, with that thread's service.
  using Work = std::function<StartResult(api::Service& service)>;
  // What runs on the event loop with the job's result.
  using Completion = std::function<void(StartResult result)>;

  struct Job {
    ConnectionId connection = 0;
    std::string address;       // the connection's client address (ClientAddress, ws/handshake.h)
    std::uint64_t ticket = 0;  // the caller's name for it, unique: what Cancel finds it by
    std::size_t bytes = 0;     // what it holds (its request), counted until it is done
    Work work;
    Completion completion;
    StartResult result;  // set by the thread that ran it
  };

  // The bound a job was refused by, and a message for the client naming it and its setting.
  enum class Bound { kConnection, kAddress, kProcess };
  struct Refusal {
    Bound bound;
    std::string message;
  };

  // What Cancel or CancelAll removed: jobs that will never run, and the bytes they held.
  struct Removed {
    std::size_t jobs = 0;
    std::size_t bytes = 0;
  };

  // `per_connection`: Options::max_operations.
  OperationQueue(OperationLimits limits, std::size_t per_connection, MemoryLimits memory)
      : limits_(limits), per_connection_(per_connection), memory_(memory) {}

  // Queues `job` unless one more job would pass a bound in number, or its bytes, on top of what its
  // connection, its address and the process hold here and `elsewhere` (their subscriptions), would
  // pass one in MemoryLimits: then `job` is dropped and the refusal says which.
  std::optional<Refusal> Push(Job job, const HeldBytes& elsewhere);
  // The next job to run (from the next address in turn, its next connection in turn), or nullopt
  // when none waits. It counts until Finish.
  std::optional<Job> Take();
  // A thread is done with `job`, which Take gave (its work may be gone already).
  void Finish(const Job& job);
  // Removes the job `ticket` of `connection` if it still waits; one that is running, done or
  // unknown is left alone (nothing removed).
  Removed Cancel(ConnectionId connection, std::uint64_t ticket);
  // Removes every waiting job of `connection`.
  Removed CancelAll(ConnectionId connection);

  // What `connection` and `address` hold here, and the process.
  HeldBytes HeldBy(ConnectionId connection, std::string_view address) const;
  std::size_t waiting() const { return waiting_; }
  std::size_t running() const { return running_; }
  std::size_t bytes() const { return total_.bytes; }

 private:
  struct Usage {
    std::size_t jobs = 0;  // waiting and running
    std::size_t bytes = 0;
  };
  // A connection's jobs. Its id is in its address's turns while `in_turn`, which holds whenever
  // jobs wait (and may hold a while after they were cancelled: Take clears it); it is forgotten
  // once it has no job and no turn.
  struct Line {
    std::string address;
    std::deque<Job> waiting;
    Usage usage;
    bool in_turn = false;
  };
  // An address's connections in turn; the address is in turns_ while `in_turn`, which holds
  // whenever its turns are not empty. Forgotten, like a line, once it has no job and no turn.
  using Lines = std::map<ConnectionId, Line>;
  struct Address {
    Usage usage;
    std::deque<Lines::iterator> turns;
    bool in_turn = false;
  };
  using Addresses = std::map<std::string, Address, std::less<>>;

  // Why one more job of `bytes` may not join a connection and an address that hold `line` and
  // `address`; nullopt when it may.
  std::optional<Refusal> Refuse(std::size_t bytes, const Usage& line, const Usage& address,
                                const HeldBytes& elsewhere) const;
  // Stops counting `jobs` of `line` (waiting ones already removed, or a running one).
  void Release(Lines::iterator line, const Removed& jobs);
  // Forgets a line or an address that has neither a job nor a turn.
  void ForgetIfIdle(Lines::iterator line);
  void ForgetIfIdle(Addresses::iterator address);

  const OperationLimits limits_;
  const std::size_t per_connection_;
  const MemoryLimits memory_;
  Lines lines_;
  Addresses addresses_;
  std::deque<Addresses::iterator> turns_;  // addresses with jobs waiting, the next first
  Usage total_;
  std::size_t waiting_ = 0;
  std::size_t running_ = 0;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_OPERATION_QUEUE_H_
