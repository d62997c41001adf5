// The data generation a FastCGI pool shares (core/api/read_cache.h): one counter in a small
// anonymous MAP_SHARED mapping of its own, created by the pool's master before it forks, so every
// worker and the outbox relay process read and advance the same counter. A worker advances it
// after committing a change, before its response is written; the relay advances it when PostgreSQL
// announces a change committed by anyone else (fcgi/pool/outbox_relay_process.h). Lock-free atomics
// on shared memory need no lock that a killed process could leave held.
#ifndef NETGRAPH_FCGI_POOL_DATA_GENERATION_H_
#define NETGRAPH_FCGI_POOL_DATA_GENERATION_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/api/read_cache.h"
#include "core/status.h"

namespace netgraph::fcgi {

class SharedDataGeneration : public api::DataGeneration {
 public:
  // Maps the counter; call before forking. The mapping is shared with every child forked later.
  static Result<std::unique_ptr<SharedDataGeneration>> Create();
  ~SharedDataGeneration() override;
  SharedDataGeneration(const SharedDataGeneration&) = delete;
  SharedDataGeneration& operator=(const SharedDataGeneration&) = delete;

  std::uint64_t Current() const override { return counter_->load(std::memory_order_acquire); }
  void Advance() override { counter_->fetch_add(1, std::memory_order_acq_rel); }

 private:
  explicit SharedDataGeneration(std::atomic<std::uint64_t>* counter) : counter_(counter) {}

  std::atomic<std::uint64_t>* counter_;
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_DATA_GENERATION_H_
