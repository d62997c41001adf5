// The start-up both daemons share (daemon/startup.h).
#include "daemon/startup.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <string>

namespace netgraph::daemon {
namespace {

// In a child, so that this test process stays as it was: LoadService makes the process
// non-dumpable first, whatever follows (here a configuration it refuses: nothing is set).
TEST(LoadService, MakesTheProcessNonDumpableBeforeReadingAnything) {
  ASSERT_EQ(::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 1) << "a process starts dumpable";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    config::Environment env(
        [](const std::string&) -> std::optional<std::string> { return std::nullopt; });
    const bool refused = !LoadService(env).ok();
    ::_exit(refused && ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the child stayed dumpable, or its configuration loaded";
}

}  // namespace
}  // namespace netgraph::daemon
