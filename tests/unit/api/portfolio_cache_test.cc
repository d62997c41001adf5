// The portfolio cache's rules (core/api/portfolio_cache.h) with users' generations in memory.
#include "core/api/portfolio_cache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "core/api/read_cache.h"
#include "tests/unit/api/counting_user_generations.h"

namespace netgraph::api {
namespace {

using graphql::Value;
using std::chrono::seconds;

domain::User UserNumbered(std::int64_t id, std::optional<std::string> email = std::nullopt) {
  return domain::User{id, "did:test:" + std::to_string(id), std::move(email), false,
                      "investor-" + std::to_string(id)};
}

domain::Principal PrincipalOf(const domain::User& user,
                              std::optional<std::string> email = std::nullopt) {
  return domain::Principal{user.idp_did, std::move(email), false};
}

Value AnswerOf(const domain::User& user, std::size_t padding = 0) {
  return Value::MakeObject({{"idpDid", Value::String(user.idp_did)},
                            {"padding", Value::String(std::string(padding, 'p'))}});
}

// The idpDid of the answer Find hands out for `principal`; empty for none.
std::string Found(PortfolioCache& cache, const domain::Principal& principal,
                  PortfolioCache::Clock::time_point now) {
  const Value* answer = cache.Find(principal, now);
  return answer == nullptr ? std::string() : answer->as_object().front().second.as_string();
}

class PortfolioCacheTest : public ::testing::Test {
 protected:
  // Keeps `user`'s answer as a reader does: the generation taken before the read.
  void Keep(PortfolioCache& cache, const domain::User& user, std::size_t padding = 0,
            std::optional<PortfolioCache::Clock::time_point> valid_until = std::nullopt) {
    const std::uint64_t generation = cache.Generation(user.id);
    cache.Keep(user, generation, AnswerOf(user, padding), valid_until);
  }

  static constexpr PortfolioCache::Clock::time_point kNow =
      PortfolioCache::Clock::time_point(seconds(1000));
  CountingUserGenerations generations;
};

TEST_F(PortfolioCacheTest, HandsOutEachUsersOwnAnswerUntilThatUsersGenerationMoves) {
  PortfolioCache cache(8, 1 << 20);
  cache.Attach(&generations);
  const domain::User alice = UserNumbered(1);
  const domain::User bob = UserNumbered(2);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), "");
  Keep(cache, alice);
  Keep(cache, bob);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), alice.idp_did);
  EXPECT_EQ(Found(cache, PrincipalOf(bob), kNow), bob.idp_did);
  EXPECT_EQ(Found(cache, domain::Principal{"did:test:3", std::nullopt, false}, kNow), "");

  generations.Advance(alice.id);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), "") << "alice's data changed";
  EXPECT_EQ(Found(cache, PrincipalOf(bob), kNow), bob.idp_did) << "bob's did not";
  EXPECT_EQ(cache.size(), 1u) << "a stale answer is dropped";

  generations.AdvanceAll();
  EXPECT_EQ(Found(cache, PrincipalOf(bob), kNow), "") << "every user's data changed";
}

TEST_F(PortfolioCacheTest, CountsHitsAndMisses) {
  PortfolioCache cache(8, 1 << 20);
  cache.Attach(&generations);
  const domain::User alice = UserNumbered(1);
  const std::uint64_t hits = kPortfolioCacheHits.Read();
  const std::uint64_t misses = kPortfolioCacheMisses.Read();
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), "");
  Keep(cache, alice);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), alice.idp_did);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), alice.idp_did);
  EXPECT_EQ(kPortfolioCacheHits.Read(), hits + 2);
  EXPECT_EQ(kPortfolioCacheMisses.Read(), misses + 1);
}

TEST_F(PortfolioCacheTest, AnAnswerReadWhileTheUsersDataChangedIsNotKept) {
  PortfolioCache cache(8, 1 << 20);
  cache.Attach(&generations);
  const domain::User alice = UserNumbered(1);
  const std::uint64_t before_read = cache.Generation(alice.id);
  generations.Advance(alice.id);  // a change commits while the answer is read
  cache.Keep(alice, before_read, AnswerOf(alice), std::nullopt);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), "");
}

TEST_F(PortfolioCacheTest, AnAnswerThatChangesWithTimeIsHandedOutOnlyUntilThen) {
  PortfolioCache cache(8, 1 << 20);
  cache.Attach(&generations);
  const domain::User alice = UserNumbered(1);
  Keep(cache, alice, 0, kNow + seconds(10));
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow + seconds(9)), alice.idp_did);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow + seconds(10)), "") << "a claim expired";
}

TEST_F(PortfolioCacheTest, ATokenCarryingAnotherEmailFindsNoAnswer) {
  PortfolioCache cache(8, 1 << 20);
  cache.Attach(&generations);
  const domain::User alice = UserNumbered(1, "alice@example.com");
  Keep(cache, alice);
  EXPECT_EQ(Found(cache, PrincipalOf(alice, "alice@example.com"), kNow), alice.idp_did);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), alice.idp_did) << "no email claim";
  EXPECT_EQ(Found(cache, PrincipalOf(alice, "not an address"), kNow), alice.idp_did)
      << "an email claim the user would not take";
  EXPECT_EQ(Found(cache, PrincipalOf(alice, "new@example.com"), kNow), "")
      << "the user's email is to be updated first";
}

TEST_F(PortfolioCacheTest, KeepsAtMostMaxEntriesDroppingTheLeastRecentlyUsed) {
  PortfolioCache cache(3, 1 << 20);
  cache.Attach(&generations);
  for (std::int64_t id = 1; id <= 3; ++id) Keep(cache, UserNumbered(id));
  EXPECT_EQ(Found(cache, PrincipalOf(UserNumbered(1)), kNow), "did:test:1");  // 2 is now oldest
  Keep(cache, UserNumbered(4));
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(Found(cache, PrincipalOf(UserNumbered(2)), kNow), "");
  for (std::int64_t id : {1, 3, 4}) {
    EXPECT_EQ(Found(cache, PrincipalOf(UserNumbered(id)), kNow), "did:test:" + std::to_string(id));
  }
  Keep(cache, UserNumbered(4));  // kept again: replaces its own entry
  EXPECT_EQ(cache.size(), 3u);
}

TEST_F(PortfolioCacheTest, KeepsAtMostMaxBytesAndNoAnswerLargerThanThat) {
  constexpr std::size_t kMaxBytes = 64 * 1024;
  PortfolioCache cache(100, kMaxBytes);
  cache.Attach(&generations);
  for (std::int64_t id = 1; id <= 10; ++id) Keep(cache, UserNumbered(id), 10 * 1024);
  EXPECT_LE(cache.bytes(), kMaxBytes);
  EXPECT_GT(cache.bytes(), ReadCache::ApproximateBytes(AnswerOf(UserNumbered(1), 10 * 1024)));
  EXPECT_LT(cache.size(), 10u);
  EXPECT_EQ(Found(cache, PrincipalOf(UserNumbered(10)), kNow), "did:test:10") << "the newest";
  EXPECT_EQ(Found(cache, PrincipalOf(UserNumbered(1)), kNow), "") << "the oldest went first";
  EXPECT_EQ(kPortfolioCacheBytes.Read(), cache.bytes());

  Keep(cache, UserNumbered(11), kMaxBytes);
  EXPECT_EQ(Found(cache, PrincipalOf(UserNumbered(11)), kNow), "") << "larger than the bound";
  EXPECT_LE(cache.bytes(), kMaxBytes);
}

TEST_F(PortfolioCacheTest, AUserMadeAgainUnderTheSameSubjectReplacesTheOldEntry) {
  PortfolioCache cache(8, 1 << 20);
  cache.Attach(&generations);
  domain::User first = UserNumbered(1);
  domain::User again = first;
  again.id = 7;
  Keep(cache, first);
  Keep(cache, again);
  EXPECT_EQ(cache.size(), 1u);
  generations.Advance(first.id);
  EXPECT_EQ(Found(cache, PrincipalOf(again), kNow), again.idp_did) << "the entry of id 7";
}

TEST_F(PortfolioCacheTest, WithoutGenerationsItKeepsNothing) {
  PortfolioCache cache(8, 1 << 20);
  const domain::User alice = UserNumbered(1);
  Keep(cache, alice);
  EXPECT_FALSE(cache.enabled());
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(Found(cache, PrincipalOf(alice), kNow), "");
}

}  // namespace
}  // namespace netgraph::api
