#include "ws/database_workers.h"

#include <utility>

#include "core/log.h"
#include "ws/metrics.h"

namespace netgraph::ws {

static_assert(static_cast<std::size_t>(OperationQueue::Bound::kProcess) + 1 ==
                  kQueueBoundNames.size(),
              "every bound has its metric label");

DatabaseWorkers::DatabaseWorkers(uv_loop_t* loop, OperationQueue queue)
    : wakeup_(new uv_async_t), queue_(std::move(queue)) {
  uv_async_init(loop, wakeup_, [](uv_async_t* handle) {
    static_cast<DatabaseWorkers*>(handle->data)->Complete();
  });
  wakeup_->data = this;
  // Only the loop's other handles decide when it ends: pending results of a stopping process are
  // not waited for.
  uv_unref(reinterpret_cast<uv_handle_t*>(wakeup_));
}

Result<std::unique_ptr<DatabaseWorkers>> DatabaseWorkers::Start(
    uv_loop_t* loop, const api::ServiceConfig& config, std::size_t threads, OperationLimits limits,
    std::size_t per_connection, MemoryLimits memory) {
  std::unique_ptr<DatabaseWorkers> workers(
      new DatabaseWorkers(loop, OperationQueue(limits, per_connection, memory)));
  for (std::size_t i = 0; i < threads; ++i) {
    NETGRAPH_ASSIGN_OR_RETURN(std::unique_ptr<api::Service> service, api::Service::Create(config));
    workers->services_.push_back(std::move(service));
  }
  for (const std::unique_ptr<api::Service>& service : workers->services_) {
    workers->threads_.emplace_back(
        [&workers = *workers, &service = *service] { workers.Run(service); });
  }
  return workers;
}

DatabaseWorkers::~DatabaseWorkers() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  wakeup_->data = nullptr;
  uv_close(reinterpret_cast<uv_handle_t*>(wakeup_),
           [](uv_handle_t* handle) { delete reinterpret_cast<uv_async_t*>(handle); });
}

std::optional<OperationQueue::Refusal> DatabaseWorkers::Submit(Job job,
                                                               const HeldBytes& elsewhere) {
  std::optional<OperationQueue::Refusal> refusal;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    refusal = queue_.Push(std::move(job), elsewhere);
    ReportSizes();
  }
  if (refusal) {
    ++WsMetrics().queue_refusals_total[static_cast<std::size_t>(refusal->bound)];
  } else {
    queued_.notify_one();
  }
  return refusal;
}

OperationQueue::Removed DatabaseWorkers::Cancel(OperationQueue::ConnectionId connection,
                                                std::uint64_t ticket) {
  OperationQueue::Removed removed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    removed = queue_.Cancel(connection, ticket);
    ReportSizes();
  }
  WsMetrics().queue_skipped_total += removed.jobs;
  return removed;
}

OperationQueue::Removed DatabaseWorkers::CancelAll(OperationQueue::ConnectionId connection) {
  OperationQueue::Removed removed;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    removed = queue_.CancelAll(connection);
    ReportSizes();
  }
  WsMetrics().queue_skipped_total += removed.jobs;
  return removed;
}

HeldBytes DatabaseWorkers::HeldBy(OperationQueue::ConnectionId connection,
                                  std::string_view address) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.HeldBy(connection, address);
}

void DatabaseWorkers::ReportSizes() const {
  WsCounters& metrics = WsMetrics();
  metrics.queue_waiting = queue_.waiting();
  metrics.queue_running = queue_.running();
  metrics.queue_bytes = queue_.bytes();
}

void DatabaseWorkers::Run(api::Service& service) {
  for (;;) {
    std::optional<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      while (!stopping_ && !(job = queue_.Take())) queued_.wait(lock);
      if (stopping_) return;
      ReportSizes();
    }
    try {
      job->result = job->work(service);
    } catch (const std::exception& e) {
      // The loop's own handlers close the connection with 4500 on an exception; here the one
      // operation fails instead, the same way a request that failed inside does.
      log::Error(std::string("an operation over WebSocket failed: ") + e.what());
      job->result = StartResult{
          StartResult::Kind::kRequestError,
          graphql::ExecutionResult{false, {}, R"([{"message":"Internal server error"}])"}};
    }
    job->work = nullptr;  // the request, freed before the job stops counting
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      queue_.Finish(*job);
      ReportSizes();
      done_.push_back(std::move(*job));
    }
    uv_async_send(wakeup_);
  }
}

void DatabaseWorkers::Complete() {
  std::deque<Job> done;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done.swap(done_);
  }
  for (Job& job : done) job.completion(std::move(job.result));
}

}  // namespace netgraph::ws
