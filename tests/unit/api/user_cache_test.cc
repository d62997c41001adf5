// The user cache's rules (core/api/user_cache.h) with users' generations in memory.
#include "core/api/user_cache.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "tests/unit/api/counting_user_generations.h"

namespace netgraph::api {
namespace {

domain::User Stored(std::int64_t id, std::optional<std::string> email = std::nullopt,
                    bool is_admin = false) {
  return domain::User{id, "did:test:alice", std::move(email), is_admin, "investor-alice"};
}

domain::Principal Alice(std::optional<std::string> email = std::nullopt,
                        bool admin_by_claim = false) {
  return domain::Principal{"did:test:alice", std::move(email), admin_by_claim};
}

class UserCacheTest : public ::testing::Test {
 protected:
  UserCacheTest() { cache.Attach(&generations); }

  // A read as CurrentUser does it: Before, then the database (`row`), then Keep.
  void Read(const domain::User& row) { cache.Keep(row, cache.Before(row.idp_did)); }

  CountingUserGenerations generations;
  UserCache cache{8};
};

TEST_F(UserCacheTest, TheFirstReadOnlyLearnsTheIdAndTheSecondIsKept) {
  Read(Stored(7, "a@example.com"));
  EXPECT_EQ(cache.Find(Alice()), std::nullopt)
      << "no generation was taken before the first read: a change during it would be missed";
  Read(Stored(7, "a@example.com"));
  const std::optional<domain::User> found = cache.Find(Alice());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->id, 7);
  EXPECT_EQ(found->email, "a@example.com");
  EXPECT_EQ(found->public_id, "investor-alice");
}

TEST_F(UserCacheTest, AChangeOfTheUserOrOfEveryUserLeavesTheRowBehind) {
  Read(Stored(7));
  Read(Stored(7));
  ASSERT_TRUE(cache.Find(Alice()).has_value());
  generations.Advance(8);
  EXPECT_TRUE(cache.Find(Alice()).has_value()) << "another user's change";
  generations.Advance(7);
  EXPECT_EQ(cache.Find(Alice()), std::nullopt);
  Read(Stored(7, std::nullopt, true));
  EXPECT_TRUE(cache.Find(Alice())->is_admin) << "read again under the new generation";
  generations.AdvanceAll();
  EXPECT_EQ(cache.Find(Alice()), std::nullopt);
}

TEST_F(UserCacheTest, ARowReadWhileItChangedIsNotKept) {
  Read(Stored(7));
  const std::optional<UserCache::ReadAt> read_at = cache.Before("did:test:alice");
  generations.Advance(7);  // a change commits and is announced while the row is read
  cache.Keep(Stored(7, "old@example.com"), read_at);
  EXPECT_EQ(cache.Find(Alice()), std::nullopt);
}

TEST_F(UserCacheTest, AUserMadeAgainUnderTheSameSubjectIsNotTakenForTheOldOne) {
  Read(Stored(7));
  Read(Stored(9));  // deleted and made again: the generation taken was user 7's
  EXPECT_EQ(cache.Find(Alice()), std::nullopt);
  Read(Stored(9));
  EXPECT_EQ(cache.Find(Alice())->id, 9);
}

TEST_F(UserCacheTest, ATokenWithAnotherEmailMissesAndTheRoleClaimIsPerToken) {
  Read(Stored(7, "a@example.com"));
  Read(Stored(7, "a@example.com"));
  EXPECT_EQ(cache.Find(Alice("b@example.com")), std::nullopt) << "the user is updated first";
  EXPECT_TRUE(cache.Find(Alice("a@example.com")).has_value());
  EXPECT_TRUE(cache.Find(Alice(std::nullopt, true))->is_admin);
  EXPECT_FALSE(cache.Find(Alice())->is_admin) << "the claim of one token is not kept for the next";
}

TEST_F(UserCacheTest, AtMostMaxEntriesTheLeastRecentlyUsedGoingFirst) {
  const auto numbered = [](std::int64_t id) {
    domain::User row = Stored(id);
    row.idp_did = "did:test:" + std::to_string(id);
    return row;
  };
  const auto principal = [](std::int64_t id) {
    return domain::Principal{"did:test:" + std::to_string(id), std::nullopt, false};
  };
  for (int i = 0; i < 2; ++i) {
    for (std::int64_t id = 1; id <= 8; ++id) Read(numbered(id));
  }
  ASSERT_TRUE(cache.Find(principal(1)).has_value()) << "1 is used again: 2 is the least recent";
  Read(numbered(9));
  EXPECT_EQ(cache.size(), 8u);
  EXPECT_EQ(cache.Find(principal(2)), std::nullopt);
  EXPECT_TRUE(cache.Find(principal(1)).has_value());
  EXPECT_TRUE(cache.Find(principal(3)).has_value());
}

TEST(UserCacheOffTest, WithoutGenerationsNothingIsKept) {
  UserCache cache(8);
  cache.Keep(Stored(7), std::nullopt);
  cache.Keep(Stored(7), UserCache::ReadAt{7, 0});
  EXPECT_EQ(cache.Find(Alice()), std::nullopt);
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
}  // namespace netgraph::api
