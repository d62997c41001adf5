// The users' generations a FastCGI pool shares (core/api/portfolio_cache.h; the pool has two sets,
// one for the portfolios and one for the user rows of core/api/user_cache.h): kSlots counters and
// one for every user, in the pool's shared memory (fcgi/pool/shared_memory.h), taken by the
// pool's master before it forks, so every worker and the outbox relay process read and advance the
// same ones. A user's generation is the sum of the counter of every user and of the user's slot
// (the id modulo kSlots): both only grow, so the sum moves whenever either does. Users sharing a
// slot invalidate each other's answers now and then, never keep one too long. A worker advances a
// user's after committing a change of that user's portfolio, before its response is written; the
// relay advances them as PostgreSQL announces changes (fcgi/pool/outbox_relay_process.h).
#ifndef NETGRAPH_FCGI_POOL_USER_GENERATIONS_H_
#define NETGRAPH_FCGI_POOL_USER_GENERATIONS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/api/portfolio_cache.h"
#include "core/status.h"
#include "fcgi/pool/shared_memory.h"

namespace netgraph::fcgi {

class SharedUserGenerations : public api::UserGenerations {
 public:
  // 64 KiB: with 1,024 users cached per worker (core/api/service.cc), a change of one user drops
  // another's answer about once in 64 changes.
  static constexpr std::size_t kSlots = 8192;
  // The bytes of shared memory it takes.
  static constexpr std::size_t kSharedBytes = (kSlots + 1) * sizeof(std::atomic<std::uint64_t>);
  // Takes the counters from `memory` (mapped before forking: shared with every child forked
  // later), which must outlive them.
  static Result<std::unique_ptr<SharedUserGenerations>> Create(SharedMemory& memory);
  SharedUserGenerations(const SharedUserGenerations&) = delete;
  SharedUserGenerations& operator=(const SharedUserGenerations&) = delete;

  std::uint64_t Current(std::int64_t user_id) const override {
    return every_->load(std::memory_order_acquire) +
           slots_[Slot(user_id)].load(std::memory_order_acquire);
  }
  void Advance(std::int64_t user_id) override {
    slots_[Slot(user_id)].fetch_add(1, std::memory_order_acq_rel);
  }
  void AdvanceAll() override { every_->fetch_add(1, std::memory_order_acq_rel); }

 private:
  SharedUserGenerations(std::atomic<std::uint64_t>* every, std::atomic<std::uint64_t>* slots)
      : every_(every), slots_(slots) {}
  static std::size_t Slot(std::int64_t user_id) {
    return static_cast<std::size_t>(static_cast<std::uint64_t>(user_id) % kSlots);
  }

  std::atomic<std::uint64_t>* every_;
  std::atomic<std::uint64_t>* slots_;  // kSlots of them
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_USER_GENERATIONS_H_
