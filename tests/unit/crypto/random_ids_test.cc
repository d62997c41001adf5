#include "core/crypto/random_ids.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <set>
#include <vector>

namespace netgraph::crypto {
namespace {

using Id = std::array<std::uint8_t, 16>;

Id NextId() {
  Id id{};
  FillRandomIdBytes(id);
  return id;
}

TEST(RandomIdsTest, IdsDoNotRepeatAcrossManyBufferRefills) {
  std::set<Id> seen;
  for (int i = 0; i < 2000; ++i) EXPECT_TRUE(seen.insert(NextId()).second);
}

TEST(RandomIdsTest, ALengthLongerThanTheBufferIsFilledWhole) {
  std::vector<std::uint8_t> out(10000, 0);
  FillRandomIdBytes(out);
  // 10,000 random bytes with no zero in the last 4 KiB would be a 1-in-10^7 event: zeros left
  // there mean the tail was never written.
  std::size_t zeros = 0;
  for (std::size_t i = out.size() - 4096; i < out.size(); ++i) zeros += out[i] == 0;
  EXPECT_GT(zeros, 0u);
  EXPECT_LT(zeros, 64u);
}

// The pool's master may mint ids before it forks its workers; a child handing out the bytes left
// in the parent's buffer would give parent and child the same ids.
TEST(RandomIdsTest, AForkedChildNeverHandsOutItsParentsRemainingBytes) {
  (void)NextId();  // the buffer now holds bytes the parent has not used
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const Id id = NextId();
    const bool written =
        ::write(pipe_fds[1], id.data(), id.size()) == static_cast<ssize_t>(id.size());
    ::_exit(written ? 0 : 1);
  }
  ::close(pipe_fds[1]);
  Id from_child{};
  ASSERT_EQ(::read(pipe_fds[0], from_child.data(), from_child.size()),
            static_cast<ssize_t>(from_child.size()));
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(NextId(), from_child);
}

}  // namespace
}  // namespace netgraph::crypto
