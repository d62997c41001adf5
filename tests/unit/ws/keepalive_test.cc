#include "ws/keepalive.h"

#include <gtest/gtest.h>

#include <chrono>

namespace netgraph::ws {
namespace {

using std::chrono::milliseconds;
using Due = Keepalive::Due;

TEST(KeepaliveTest, PingsOnceAfterTheIntervalAndHangsUpWithoutAPong) {
  const auto opened = Keepalive::Clock::now();
  Keepalive keepalive(opened, milliseconds(30000), milliseconds(10000));
  EXPECT_EQ(keepalive.Check(opened), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(29999)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(30000)), Due::kPing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(31000)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(39999)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(40000)), Due::kHangUp);
}

// The server checks at intervals, so a ping may go out late: the pong still has its whole timeout.
TEST(KeepaliveTest, ThePongTimeoutCountsFromThePing) {
  const auto opened = Keepalive::Clock::now();
  Keepalive keepalive(opened, milliseconds(1000), milliseconds(1000));
  EXPECT_EQ(keepalive.Check(opened + milliseconds(1990)), Due::kPing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(2500)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(2989)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(2990)), Due::kHangUp);
}

TEST(KeepaliveTest, APongStartsTheNextRound) {
  const auto opened = Keepalive::Clock::now();
  Keepalive keepalive(opened, milliseconds(30000), milliseconds(10000));
  EXPECT_EQ(keepalive.Check(opened + milliseconds(30500)), Due::kPing);
  keepalive.Confirmed(opened + milliseconds(31000));
  EXPECT_EQ(keepalive.Check(opened + milliseconds(45000)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(60999)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(61000)), Due::kPing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(70999)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(71000)), Due::kHangUp);
}

TEST(KeepaliveTest, AnUnaskedPongCountsToo) {
  const auto opened = Keepalive::Clock::now();
  Keepalive keepalive(opened, milliseconds(1000), milliseconds(1000));
  keepalive.Confirmed(opened + milliseconds(900));
  EXPECT_EQ(keepalive.Check(opened + milliseconds(1800)), Due::kNothing);
  EXPECT_EQ(keepalive.Check(opened + milliseconds(1900)), Due::kPing);
}

}  // namespace
}  // namespace netgraph::ws
