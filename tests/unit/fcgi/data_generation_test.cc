// The pool's shared data generation (fcgi/pool/data_generation.h): an advance in one forked process
// is seen by the others.
#include "fcgi/pool/data_generation.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace netgraph::fcgi {
namespace {

TEST(SharedDataGenerationTest, AnAdvanceInAForkedChildIsSeenByItsParent) {
  std::unique_ptr<SharedMemory> memory =
      SharedMemory::Create(SharedMemory::Bytes({SharedDataGeneration::kSharedBytes})).value();
  Result<std::unique_ptr<SharedDataGeneration>> generation = SharedDataGeneration::Create(*memory);
  ASSERT_TRUE(generation.ok()) << generation.status().message();
  const std::uint64_t before = (*generation)->Current();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    (*generation)->Advance();
    (*generation)->Advance();
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ((*generation)->Current(), before + 2);
}

}  // namespace
}  // namespace netgraph::fcgi
