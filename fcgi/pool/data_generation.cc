#include "fcgi/pool/data_generation.h"

#include <new>

namespace netgraph::fcgi {

// An atomic that needed a lock would keep it in this process, not in the shared page.
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

Result<std::unique_ptr<SharedDataGeneration>> SharedDataGeneration::Create(SharedMemory& memory) {
  NETGRAPH_ASSIGN_OR_RETURN(void* part, memory.Allocate(kSharedBytes));
  auto* counter = new (part) std::atomic<std::uint64_t>(0);
  return std::unique_ptr<SharedDataGeneration>(new SharedDataGeneration(counter));
}

}  // namespace netgraph::fcgi
