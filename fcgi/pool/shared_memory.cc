#include "fcgi/pool/shared_memory.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace netgraph::fcgi {

Result<std::unique_ptr<SharedMemory>> SharedMemory::Create(std::size_t bytes) {
  // Anonymous shared memory starts zeroed, which is every atomic's initial value: no constructor
  // needs to run in it.
  void* region = ::mmap(nullptr, bytes == 0 ? 1 : bytes, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (region == MAP_FAILED) {
    return Status::ResourceExhausted("mapping the pool's shared memory (" + std::to_string(bytes) +
                                     " bytes): " + std::strerror(errno));
  }
  return std::unique_ptr<SharedMemory>(new SharedMemory(region, bytes));
}

SharedMemory::~SharedMemory() { ::munmap(region_, bytes_ == 0 ? 1 : bytes_); }

Result<void*> SharedMemory::Allocate(std::size_t bytes) {
  const std::size_t size = RoundUp(bytes);
  if (size > bytes_ - used_) {
    return Status::Internal("the pool's shared memory has " + std::to_string(bytes_ - used_) +
                            " bytes left, not " + std::to_string(size));
  }
  void* part = static_cast<char*>(region_) + used_;
  used_ += size;
  return part;
}

}  // namespace netgraph::fcgi
