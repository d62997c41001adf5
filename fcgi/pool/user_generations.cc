#include "fcgi/pool/user_generations.h"

#include <new>

namespace netgraph::fcgi {

Result<std::unique_ptr<SharedUserGenerations>> SharedUserGenerations::Create(SharedMemory& memory) {
  NETGRAPH_ASSIGN_OR_RETURN(void* part, memory.Allocate(kSharedBytes));
  auto* counters = static_cast<std::atomic<std::uint64_t>*>(part);
  for (std::size_t i = 0; i <= kSlots; ++i) new (&counters[i]) std::atomic<std::uint64_t>(0);
  return std::unique_ptr<SharedUserGenerations>(
      new SharedUserGenerations(&counters[0], &counters[1]));
}

}  // namespace netgraph::fcgi
