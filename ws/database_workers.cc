#include "ws/database_workers.h"

#include <utility>

#include "core/log.h"

namespace netgraph::ws {

DatabaseWorkers::DatabaseWorkers(uv_loop_t* loop) : wakeup_(new uv_async_t) {
  uv_async_init(loop, wakeup_, [](uv_async_t* handle) {
    static_cast<DatabaseWorkers*>(handle->data)->Complete();
  });
  wakeup_->data = this;
  // Only the loop's other handles decide when it ends: pending results of a stopping process are
  // not waited for.
  uv_unref(reinterpret_cast<uv_handle_t*>(wakeup_));
}

Result<std::unique_ptr<DatabaseWorkers>> DatabaseWorkers::Start(uv_loop_t* loop,
                                                                const api::ServiceConfig& config,
                                                                std::size_t threads) {
  std::unique_ptr<DatabaseWorkers> workers(new DatabaseWorkers(loop));
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
    jobs_.clear();
  }
  queued_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  wakeup_->data = nullptr;
  uv_close(reinterpret_cast<uv_handle_t*>(wakeup_),
           [](uv_handle_t* handle) { delete reinterpret_cast<uv_async_t*>(handle); });
}

void DatabaseWorkers::Submit(Work work, Completion completion) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(Job{std::move(work), std::move(completion), {}});
  }
  queued_.notify_one();
}

void DatabaseWorkers::Run(api::Service& service) {
  for (;;) {
    Job job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      queued_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    try {
      job.result = job.work(service);
    } catch (const std::exception& e) {
      // The loop's own handlers close the connection with 4500 on an exception; here the one
      // operation fails instead, the same way a request that failed inside does.
      log::Error(std::string("an operation over WebSocket failed: ") + e.what());
      job.result = StartResult{
          StartResult::Kind::kRequestError,
          graphql::ExecutionResult{false, {}, R"([{"message":"Internal server error"}])"}};
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      done_.push_back(std::move(job));
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
