// The threads that run queries and mutations sent over WebSocket. Each thread owns an api::Service
// of its own (engine, and the PostgreSQL connection resolvers use), so a statement that waits on a
// lock or a slow plan holds up its thread only: the event loop keeps answering pings, fanning out
// updates and starting other operations. A finished operation is handed back to the loop (through
// a uv_async_t), where its completion runs; nothing of a session is touched off the loop.
//
// Jobs wait in an OperationQueue (ws/operation_queue.h): bounded per connection, per client address
// and for the process, in number and in the bytes their requests hold (which count in the same
// memory bounds as subscriptions); taken in turn by address and connection, not in arrival order;
// and a job cancelled while it waits is dropped at once and never runs. A job counts against its
// connection and address until a thread has finished it, so `complete` (or a closed socket) frees
// the client's slot in the session but not its share of the database threads.
//
// The queue's size and what it refused and skipped are in /ws/metrics (ws/metrics.h).
#ifndef NETGRAPH_WS_DATABASE_WORKERS_H_
#define NETGRAPH_WS_DATABASE_WORKERS_H_

#include <uv.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <vector>

#include "core/api/service.h"
#include "core/status.h"
#include "ws/operation_queue.h"
#include "ws/options.h"

namespace netgraph::ws {

class DatabaseWorkers {
 public:
  using Job = OperationQueue::Job;

  // `threads` services created from `config`, and their threads, started; the queue bounded by
  // `limits`, `per_connection` (Options::max_operations) and `memory`.
  static Result<std::unique_ptr<DatabaseWorkers>> Start(uv_loop_t* loop,
                                                        const api::ServiceConfig& config,
                                                        std::size_t threads, OperationLimits limits,
                                                        std::size_t per_connection,
                                                        MemoryLimits memory);
  // Finishes the jobs in hand, drops the queued ones and joins the threads.
  ~DatabaseWorkers();
  DatabaseWorkers(const DatabaseWorkers&) = delete;
  DatabaseWorkers& operator=(const DatabaseWorkers&) = delete;

  // On the loop. Queues `job` (its completion runs on the loop once a thread has done its work),
  // or refuses it past a bound (OperationQueue::Push; `elsewhere`: what the job's connection,
  // address and process hold in subscriptions).
  std::optional<OperationQueue::Refusal> Submit(Job job, const HeldBytes& elsewhere);
  // On the loop. Drops the job `ticket` of `connection` if it still waits, or all of the
  // connection's waiting jobs; a running job finishes (the caller ignores its completion).
  OperationQueue::Removed Cancel(OperationQueue::ConnectionId connection, std::uint64_t ticket);
  OperationQueue::Removed CancelAll(OperationQueue::ConnectionId connection);
  // What the queue holds for `connection`, `address` and the process.
  HeldBytes HeldBy(OperationQueue::ConnectionId connection, std::string_view address) const;

 private:
  DatabaseWorkers(uv_loop_t* loop, OperationQueue queue);
  void Run(api::Service& service);
  // On the loop: runs the completions of the finished jobs.
  void Complete();
  // Publishes the queue's sizes to /ws/metrics; under mutex_.
  void ReportSizes() const;

  std::vector<std::unique_ptr<api::Service>> services_;
  std::vector<std::thread> threads_;
  uv_async_t* wakeup_;  // heap: libuv closes it asynchronously
  mutable std::mutex mutex_;
  std::condition_variable queued_;
  OperationQueue queue_;
  std::deque<Job> done_;
  bool stopping_ = false;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_DATABASE_WORKERS_H_
