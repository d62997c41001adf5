#include "core/crypto/internal/discrete_log.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>

namespace netgraph::crypto {
namespace {

class DiscreteLogTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { discrete_log_ = std::make_unique<DiscreteLog>(); }
  static void TearDownTestSuite() { discrete_log_.reset(); }

  static Result<std::uint32_t> Solve(const RistrettoPoint& point) {
    return discrete_log_->Solve(point);
  }
  static RistrettoPoint TimesG(std::uint64_t m) {
    return RistrettoPoint::MultiplyBase(Scalar::FromU64(m));
  }

  static std::unique_ptr<DiscreteLog> discrete_log_;
};

std::unique_ptr<DiscreteLog> DiscreteLogTest::discrete_log_;

TEST_F(DiscreteLogTest, SolvesAcrossTheTableBoundaries) {
  for (std::uint32_t m : {0u, 1u, 2u, 3u, 65535u, 65536u, 65537u, 131077u, 123456789u, 2147483648u,
                          4294901760u, 4294967294u, 4294967295u}) {
    Result<std::uint32_t> solved = Solve(TimesG(m));
    ASSERT_TRUE(solved.ok()) << m << ": " << solved.status().message();
    EXPECT_EQ(*solved, m);
  }
}

TEST_F(DiscreteLogTest, SolvesRandomValues) {
  std::mt19937 random(11);
  for (int i = 0; i < 8; ++i) {
    std::uint32_t m = random();
    Result<std::uint32_t> solved = Solve(TimesG(m));
    ASSERT_TRUE(solved.ok()) << m;
    EXPECT_EQ(*solved, m);
  }
}

TEST_F(DiscreteLogTest, RejectsLogarithmsFrom2To32) {
  EXPECT_FALSE(Solve(TimesG(std::uint64_t{1} << 32)).ok());
  EXPECT_FALSE(Solve(TimesG((std::uint64_t{1} << 32) + 65536)).ok());
  EXPECT_FALSE(Solve(PedersenH()).ok());
}

// -P has the same search key as P; the search must not mistake -5·G for 5·G.
TEST_F(DiscreteLogTest, DoesNotConfuseAPointWithItsNegative) {
  EXPECT_FALSE(Solve(RistrettoPoint() - TimesG(5)).ok());
  EXPECT_FALSE(Solve(RistrettoPoint() - TimesG(65536 * 7)).ok());
}

}  // namespace
}  // namespace netgraph::crypto
