#include "fcgi/pool/data_generation.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <string>

namespace netgraph::fcgi {

// An atomic that needed a lock would keep it in this process, not in the shared page.
static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

Result<std::unique_ptr<SharedDataGeneration>> SharedDataGeneration::Create() {
  void* page = ::mmap(nullptr, sizeof(std::atomic<std::uint64_t>), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    return Status::Error(std::string("mapping the shared data generation: ") +
                         std::strerror(errno));
  }
  auto* counter = new (page) std::atomic<std::uint64_t>(0);
  return std::unique_ptr<SharedDataGeneration>(new SharedDataGeneration(counter));
}

SharedDataGeneration::~SharedDataGeneration() {
  ::munmap(static_cast<void*>(counter_), sizeof(std::atomic<std::uint64_t>));
}

}  // namespace netgraph::fcgi
