// The threads that run queries and mutations sent over WebSocket. Each thread owns an api::Service
// of its own (engine, and the PostgreSQL connection resolvers use), so a statement that waits on a
// lock or a slow plan holds up its thread only: the event loop keeps answering pings, fanning out
// updates and starting other operations. A finished operation is handed back to the loop (through
// a uv_async_t), where its completion runs; nothing of a session is touched off the loop.
//
// Jobs queue without bound here: sessions bound them (an operation counts as running until its
// result arrives, ws/session.h, so each connection has at most NETGRAPH_WS_MAX_SUBSCRIPTIONS).
#ifndef NETGRAPH_WS_DATABASE_WORKERS_H_
#define NETGRAPH_WS_DATABASE_WORKERS_H_

#include <uv.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/api/service.h"
#include "core/status.h"
#include "ws/session.h"

namespace netgraph::ws {

class DatabaseWorkers {
 public:
  // What a job computes on a worker thread, with that thread's service.
  using Work = std::function<StartResult(api::Service& service)>;
  // What runs on the loop with the job's result.
  using Completion = std::function<void(StartResult result)>;

  // `threads` services created from `config`, and their threads, started.
  static Result<std::unique_ptr<DatabaseWorkers>> Start(uv_loop_t* loop,
                                                        const api::ServiceConfig& config,
                                                        std::size_t threads);
  // Finishes the jobs in hand, drops the queued ones and joins the threads.
  ~DatabaseWorkers();
  DatabaseWorkers(const DatabaseWorkers&) = delete;
  DatabaseWorkers& operator=(const DatabaseWorkers&) = delete;

  // Queues `work`; `completion` runs on the loop once it is done.
  void Submit(Work work, Completion completion);

 private:
  struct Job {
    Work work;
    Completion completion;
    StartResult result;
  };

  explicit DatabaseWorkers(uv_loop_t* loop);
  void Run(api::Service& service);
  // On the loop: runs the completions of the finished jobs.
  void Complete();

  std::vector<std::unique_ptr<api::Service>> services_;
  std::vector<std::thread> threads_;
  uv_async_t* wakeup_;  // heap: libuv closes it asynchronously
  std::mutex mutex_;
  std::condition_variable queued_;
  std::deque<Job> jobs_;
  std::deque<Job> done_;
  bool stopping_ = false;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_DATABASE_WORKERS_H_
