// The pool's shared users' generations (fcgi/pool/user_generations.h): an advance in one forked
// process is seen by the others, a user's advance moves that user's generation and not every
// other's, and an advance for every user moves each.
#include "fcgi/pool/user_generations.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace netgraph::fcgi {
namespace {

TEST(SharedUserGenerationsTest, AdvancesInAForkedChildAreSeenByItsParent) {
  std::unique_ptr<SharedMemory> memory =
      SharedMemory::Create(SharedMemory::Bytes({SharedUserGenerations::kSharedBytes})).value();
  Result<std::unique_ptr<SharedUserGenerations>> created = SharedUserGenerations::Create(*memory);
  ASSERT_TRUE(created.ok()) << created.status().message();
  SharedUserGenerations& generations = **created;
  const std::int64_t alice = 42;
  const std::int64_t bob = 43;
  const std::int64_t alices_neighbour = alice + SharedUserGenerations::kSlots;  // same slot
  const std::uint64_t alice_before = generations.Current(alice);
  const std::uint64_t bob_before = generations.Current(bob);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    generations.Advance(alice);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(generations.Current(alice), alice_before);
  EXPECT_NE(generations.Current(alices_neighbour), alice_before) << "more than asked, never less";
  EXPECT_EQ(generations.Current(bob), bob_before);

  const std::uint64_t alice_now = generations.Current(alice);
  generations.AdvanceAll();
  EXPECT_NE(generations.Current(alice), alice_now);
  EXPECT_NE(generations.Current(bob), bob_before);
}

}  // namespace
}  // namespace netgraph::fcgi
