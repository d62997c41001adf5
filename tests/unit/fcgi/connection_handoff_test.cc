// The queue that passes idle FastCGI connections between a pool's workers
// (fcgi/pool/connection_handoff.h), with socket pairs standing in for nginx's connections.
#include "fcgi/pool/connection_handoff.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "tests/unit/fcgi/handoff_support.h"

namespace netgraph::fcgi {
namespace {

// The peer sees neither data nor the end of the connection.
bool StillOpenAndQuiet(int fd) {
  pollfd wait = {fd, POLLIN, 0};
  return ::poll(&wait, 1, 0) == 0;
}

TEST(ConnectionHandoffTest, ATakenConnectionIsTheOneThatWasPutWithWhatWasSentOnIt) {
  auto handoff = MakeHandoff();
  Pair connection;
  ASSERT_EQ(::write(connection.peers(), "request", 7), 7);  // sent before the hand-off
  ASSERT_TRUE(handoff->Put(&connection.ours(), 1));
  ::close(connection.ours());
  connection.ours() = -1;
  EXPECT_TRUE(StillOpenAndQuiet(connection.peers())) << "the queue holds the connection open";

  std::vector<int> taken;
  ASSERT_TRUE(handoff->Take(&taken));
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(ReadSome(taken[0]), "request");
  ASSERT_EQ(::write(taken[0], "answer", 6), 6);
  EXPECT_EQ(ReadSome(connection.peers()), "answer");
  ::close(taken[0]);
}

TEST(ConnectionHandoffTest, OneMessageCarriesManyConnectionsInOrder) {
  auto handoff = MakeHandoff();
  Pair first, second, third;
  const int fds[] = {first.ours(), second.ours(), third.ours()};
  ASSERT_TRUE(handoff->Put(fds, 3));
  std::vector<int> taken;
  ASSERT_TRUE(handoff->Take(&taken));
  ASSERT_EQ(taken.size(), 3u);
  Pair* pairs[] = {&first, &second, &third};
  for (int i = 0; i < 3; ++i) {
    const std::string word = "c" + std::to_string(i);
    ASSERT_EQ(::write(taken[i], word.data(), word.size()), 2);
    EXPECT_EQ(ReadSome(pairs[i]->peers()), word);
    ::close(taken[i]);
  }
  EXPECT_FALSE(handoff->Take(&taken)) << "one message, taken once";
}

TEST(ConnectionHandoffTest, AnEmptyQueueGivesNothingAndDoesNotBlock) {
  auto handoff = MakeHandoff();
  std::vector<int> taken = {42};
  EXPECT_FALSE(handoff->Take(&taken));
  EXPECT_EQ(taken, std::vector<int>{42});
  pollfd wait = {handoff->take_fd(), POLLIN, 0};
  EXPECT_EQ(::poll(&wait, 1, 0), 0) << "not readable while empty";
}

TEST(ConnectionHandoffTest, PutRefusesNoConnectionsAndMoreThanAMessageCarries) {
  auto handoff = MakeHandoff();
  Pair connection;
  EXPECT_FALSE(handoff->Put(&connection.ours(), 0));
  std::vector<int> many(ConnectionHandoff::kMaxPerMessage + 1, connection.ours());
  EXPECT_FALSE(handoff->Put(many.data(), many.size()));
  EXPECT_EQ(errno, EINVAL);
  EXPECT_TRUE(handoff->Put(many.data(), ConnectionHandoff::kMaxPerMessage));
}

TEST(ConnectionHandoffTest, AFullQueueRefusesAtOnceAndTheCallerKeepsItsConnection) {
  auto handoff = MakeHandoff();
  Pair connection;
  int queued = 0;
  while (handoff->Put(&connection.ours(), 1)) {
    ASSERT_LT(++queued, 100000) << "the queue never filled";
  }
  EXPECT_TRUE(errno == EAGAIN || errno == EWOULDBLOCK) << errno;
  ASSERT_EQ(::write(connection.ours(), "still ours", 10), 10);
  EXPECT_EQ(ReadSome(connection.peers()), "still ours");
  // Taking one message makes room for one more.
  std::vector<int> taken;
  ASSERT_TRUE(handoff->Take(&taken));
  EXPECT_TRUE(handoff->Put(&connection.ours(), 1));
  for (int fd : taken) ::close(fd);
}

TEST(ConnectionHandoffTest, AConnectionPutByOneProcessIsServedByAnother) {
  auto handoff = MakeHandoff();
  Pair connection;
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The taker: waits for the message as a worker does, then answers on the connection.
    pollfd wait = {handoff->take_fd(), POLLIN, 0};
    std::vector<int> taken;
    handoff->BeginWait();
    const bool woke = ::poll(&wait, 1, 5000) == 1;
    handoff->EndWait();
    if (!woke || !handoff->Take(&taken) || taken.size() != 1) ::_exit(2);
    ::_exit(::write(taken[0], "from the child", 14) == 14 ? 0 : 3);
  }
  // The child counts itself as waiting before the connection arrives.
  for (int i = 0; i < 500 && handoff->waiting() == 0; ++i) ::usleep(10000);
  EXPECT_EQ(handoff->waiting(), 1);
  ASSERT_TRUE(handoff->Put(&connection.ours(), 1));
  ::close(connection.ours());
  connection.ours() = -1;
  EXPECT_EQ(ReadSome(connection.peers()), "from the child");
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(handoff->waiting(), 0);
}

}  // namespace
}  // namespace netgraph::fcgi
