// The data generation a FastCGI pool shares (core/api/read_cache.h): one counter in the pool's
// shared memory (fcgi/pool/shared_memory.h), taken by the pool's master before it forks, so every
// worker and the outbox relay process read and advance the same counter. A worker advances it
// after committing a change, before its response is written; the relay advances it when PostgreSQL
// announces a change committed by anyone else, and when it may have missed announcements: once it
// is up after a (re)start, after a reconnection, after a rewound database
// (fcgi/pool/outbox_relay_process.h). Lock-free atomics on shared memory need no lock that a killed
// process could leave held.
#ifndef NETGRAPH_FCGI_POOL_DATA_GENERATION_H_
#define NETGRAPH_FCGI_POOL_DATA_GENERATION_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/api/read_cache.h"
#include "core/status.h"
#include "fcgi/pool/shared_memory.h"

namespace netgraph::fcgi {

class SharedDataGeneration : public api::DataGeneration {
 public:
  // The bytes of shared memory it takes.
  static constexpr std::size_t kSharedBytes = sizeof(std::atomic<std::uint64_t>);
  // Takes the counter from `memory` (fcgi/pool/shared_memory.h, mapped before forking: shared with
  // every child forked later), which must outlive it.
  static Result<std::unique_ptr<SharedDataGeneration>> Create(SharedMemory& memory);
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
