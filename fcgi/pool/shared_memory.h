// The pool's shared memory, after php-fpm's fpm_shm.c: one anonymous MAP_SHARED region the master
// maps before its first fork, from which each structure the pool's processes share takes its part
// (the scoreboard, fcgi/pool/scoreboard.h; the data generation, fcgi/pool/data_generation.h; the
// count of workers waiting for work, fcgi/pool/connection_handoff.h). Every child inherits the
// mapping, so all of them see the same bytes: a child's own later mappings would be its alone.
//
// - The region is sized once, for the parts the master will take (Bytes), and never grows.
// - A part is zeroed, aligned to a cache line (parts written by different processes share none),
//   and never given back: the region lives until the SharedMemory is destroyed, which unmaps it.
// - Pages of it never touched (the slots of workers never started) cost no memory.
// - What lives in it is lock-free: a process killed in the middle of an update must leave no lock
//   held (each part's header says how it is written and read).
//
// The watcher page each worker shares with its watcher (BusyHandOff) is not here: it is made by
// the worker after the fork, for the two of them only.
#ifndef NETGRAPH_FCGI_POOL_SHARED_MEMORY_H_
#define NETGRAPH_FCGI_POOL_SHARED_MEMORY_H_

#include <cstddef>
#include <initializer_list>
#include <memory>

#include "core/status.h"

namespace netgraph::fcgi {

class SharedMemory {
 public:
  // The alignment of every part.
  static constexpr std::size_t kAlignment = 64;

  // The bytes a region needs to hold parts of `sizes` (each rounded up to kAlignment).
  static constexpr std::size_t Bytes(std::initializer_list<std::size_t> sizes) {
    std::size_t total = 0;
    for (std::size_t size : sizes) total += RoundUp(size);
    return total;
  }

  // Maps a region of `bytes` (shared with the children forked afterwards).
  static Result<std::unique_ptr<SharedMemory>> Create(std::size_t bytes);
  ~SharedMemory();
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  // `bytes` of the region, zeroed and aligned to kAlignment; an error when too little is left
  // (the region was sized for fewer parts: a programming error).
  Result<void*> Allocate(std::size_t bytes);

 private:
  static constexpr std::size_t RoundUp(std::size_t bytes) {
    return (bytes + kAlignment - 1) / kAlignment * kAlignment;
  }
  SharedMemory(void* region, std::size_t bytes) : region_(region), bytes_(bytes) {}

  void* region_;
  std::size_t bytes_;
  std::size_t used_ = 0;
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_SHARED_MEMORY_H_
