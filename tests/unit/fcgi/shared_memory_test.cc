// The pool's shared memory (fcgi/pool/shared_memory.h): one region, parts taken from it in turn,
// what a forked child writes seen by its parent, and a refusal once the region is spent.
#include "fcgi/pool/shared_memory.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace netgraph::fcgi {
namespace {

TEST(SharedMemoryTest, PartsAreZeroedAlignedAndApart) {
  const std::size_t bytes = SharedMemory::Bytes({1, 100, 64});
  EXPECT_EQ(bytes, 64u + 128u + 64u);
  std::unique_ptr<SharedMemory> memory = SharedMemory::Create(bytes).value();
  char* first = static_cast<char*>(memory->Allocate(1).value());
  char* second = static_cast<char*>(memory->Allocate(100).value());
  char* third = static_cast<char*>(memory->Allocate(64).value());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % SharedMemory::kAlignment, 0u);
  EXPECT_EQ(second - first, 64);
  EXPECT_EQ(third - second, 128);
  for (const char* part : {first, second, third}) EXPECT_EQ(part[0], 0);
  std::memset(second, 0x7f, 100);
  EXPECT_EQ(first[0], 0);
  EXPECT_EQ(third[0], 0);
}

TEST(SharedMemoryTest, AChildWritesWhatItsParentReads) {
  std::unique_ptr<SharedMemory> memory =
      SharedMemory::Create(SharedMemory::Bytes({sizeof(std::atomic<int>)})).value();
  auto* word = static_cast<std::atomic<int>*>(memory->Allocate(sizeof(std::atomic<int>)).value());
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    word->store(42);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_EQ(word->load(), 42);
}

TEST(SharedMemoryTest, ARegionSizedForFewerPartsRefusesTheNext) {
  std::unique_ptr<SharedMemory> memory = SharedMemory::Create(SharedMemory::Bytes({64})).value();
  EXPECT_TRUE(memory->Allocate(64).ok());
  Result<void*> refused = memory->Allocate(1);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsInternal()) << refused.status().message();
}

}  // namespace
}  // namespace netgraph::fcgi
