#include "ws/backoff.h"

#include <gtest/gtest.h>

#include <chrono>

namespace netgraph::ws {
namespace {

using std::chrono::milliseconds;

TEST(BackoffTest, DoublesFromTheMinimumToTheCap) {
  Backoff backoff(milliseconds(100), milliseconds(1000), [] { return 0.999999; });
  EXPECT_NEAR(backoff.Next().count(), 100, 1);
  EXPECT_NEAR(backoff.Next().count(), 200, 1);
  EXPECT_NEAR(backoff.Next().count(), 400, 1);
  EXPECT_NEAR(backoff.Next().count(), 800, 1);
  EXPECT_NEAR(backoff.Next().count(), 1000, 1);
  EXPECT_NEAR(backoff.Next().count(), 1000, 1);
}

TEST(BackoffTest, JitterDrawsFromTheUpperHalf) {
  Backoff low(milliseconds(100), milliseconds(1000), [] { return 0.0; });
  EXPECT_EQ(low.Next(), milliseconds(50));
  EXPECT_EQ(low.Next(), milliseconds(100));
  Backoff random(milliseconds(100), milliseconds(100000));
  for (int attempt = 0; attempt < 8; ++attempt) {
    long long ceiling = 100LL << attempt;
    long long delay = random.Next().count();
    EXPECT_GE(delay, ceiling / 2);
    EXPECT_LE(delay, ceiling);
  }
}

TEST(BackoffTest, ResetStartsOverFromTheMinimum) {
  Backoff backoff(milliseconds(100), milliseconds(5000), [] { return 0.999999; });
  backoff.Next();
  backoff.Next();
  backoff.Next();
  backoff.Reset();
  EXPECT_NEAR(backoff.Next().count(), 100, 1);
}

TEST(BackoffTest, AMaximumBelowTheMinimumIsTheMinimum) {
  Backoff backoff(milliseconds(300), milliseconds(100), [] { return 0.999999; });
  EXPECT_NEAR(backoff.Next().count(), 300, 1);
  EXPECT_NEAR(backoff.Next().count(), 300, 1);
}

}  // namespace
}  // namespace netgraph::ws
