// What a FastCGI connection owes a peer that has not taken it yet
// (fcgi/fastcgi/connection_output.h), with a socket pair standing in for the peer: the worker never
// waits on a peer that does not read, unless it lets a response wait, and then only until the
// deadline.
#include "fcgi/fastcgi/connection_output.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>

namespace netgraph::fcgi::fastcgi {
namespace {

using Clock = ConnectionOutput::Clock;

struct Pair {
  Pair() {
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds), 0);
    // A small buffer, so that a few KiB fill it.
    const int bytes = 4096;
    ::setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &bytes, sizeof(bytes));
    ::setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &bytes, sizeof(bytes));
  }
  ~Pair() {
    ::close(fds[0]);
    ::close(fds[1]);
  }
  int ours() const { return fds[0]; }
  int peers() const { return fds[1]; }
  int fds[2] = {-1, -1};
};

// Everything the peer can read now.
std::string Drain(int fd) {
  std::string got;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n <= 0) return got;
    got.append(buffer, static_cast<std::size_t>(n));
  }
}

// A time already past: no waiting.
Clock::time_point Now() { return Clock::now(); }

TEST(ConnectionOutputTest, WhatTheSocketTakesAtOnceIsNotKept) {
  Pair pair;
  ConnectionOutput output(1024);
  ASSERT_TRUE(output.Send(pair.ours(), std::string_view("hello"), Now()));
  EXPECT_TRUE(output.empty());
  EXPECT_EQ(Drain(pair.peers()), "hello");
}

TEST(ConnectionOutputTest, APeerThatDoesNotReadGetsTheRestLaterInOrderWithinTheCap) {
  Pair pair;
  ConnectionOutput output(1 << 20);
  std::string sent;
  // Until the socket is full: the rest is kept, and Send returned at once each time.
  for (int i = 0; output.empty(); ++i) {
    const std::string chunk(1000, static_cast<char>('a' + i % 26));
    const auto started = Clock::now();
    ASSERT_TRUE(output.Send(pair.ours(), chunk, Now()));
    EXPECT_LT(Clock::now() - started, std::chrono::milliseconds(100));
    sent += chunk;
  }
  const auto since = output.since();
  ASSERT_TRUE(output.Send(pair.ours(), std::string_view("after"), Now()));
  sent += "after";
  EXPECT_EQ(output.since(), since) << "the oldest byte kept sets the deadline";
  std::string received;
  while (!output.empty()) {
    received += Drain(pair.peers());
    ASSERT_TRUE(output.Flush(pair.ours()));
  }
  received += Drain(pair.peers());
  EXPECT_EQ(received, sent);
}

TEST(ConnectionOutputTest, MoreThanTheCapFailsAtOnceWithoutWaiting) {
  Pair pair;
  ConnectionOutput output(4096);
  const std::string replies(1 << 20, 'r');  // replies to a flood of management records
  const auto started = Clock::now();
  EXPECT_FALSE(output.Send(pair.ours(), replies, Now()));
  EXPECT_LT(Clock::now() - started, std::chrono::milliseconds(100));
}

TEST(ConnectionOutputTest, AResponseWaitsForThePeerUntilTheDeadlineOnly) {
  Pair pair;
  ConnectionOutput output(4096);
  const std::string response(1 << 20, 'x');
  const auto started = Clock::now();
  EXPECT_FALSE(output.Send(pair.ours(), response, started + std::chrono::milliseconds(300)));
  const auto waited = Clock::now() - started;
  EXPECT_GE(waited, std::chrono::milliseconds(300));
  EXPECT_LT(waited, std::chrono::seconds(5));
}

TEST(ConnectionOutputTest, AResponseLargerThanTheCapGoesToAPeerThatReads) {
  Pair pair;
  ConnectionOutput output(4096);
  const std::string response(1 << 20, 'x');
  std::string received;
  std::thread reader([&] {
    while (received.size() < response.size()) {
      pollfd wait = {pair.peers(), POLLIN, 0};
      if (::poll(&wait, 1, 5000) != 1) return;
      received += Drain(pair.peers());
    }
  });
  const bool sent = output.Send(pair.ours(), response, Clock::now() + std::chrono::seconds(20));
  while (sent && !output.empty()) {
    pollfd wait = {pair.ours(), POLLOUT, 0};
    ASSERT_EQ(::poll(&wait, 1, 5000), 1);
    ASSERT_TRUE(output.Flush(pair.ours()));
  }
  reader.join();
  EXPECT_TRUE(sent);
  EXPECT_LE(output.size(), 4096u);
  EXPECT_EQ(received.size(), response.size());
}

TEST(ConnectionOutputTest, AClosedPeerFailsTheSend) {
  Pair pair;
  ConnectionOutput output(1024);
  ::shutdown(pair.peers(), SHUT_RDWR);
  ::close(pair.fds[1]);
  pair.fds[1] = ::dup(pair.fds[0]);  // the destructor closes something valid
  ::signal(SIGPIPE, SIG_IGN);
  EXPECT_FALSE(output.Send(pair.ours(), std::string_view("to nobody"), Now()));
}

}  // namespace
}  // namespace netgraph::fcgi::fastcgi
