#include "core/auth/internal/verified_token_cache.h"

#include <gtest/gtest.h>

namespace netgraph::auth {
namespace {

TEST(VerifiedTokenCacheTest, FindsExactlyTheInsertedToken) {
  VerifiedTokenCache cache(4);
  cache.Insert("a.b.c", {{"sub", "alice"}});
  EXPECT_EQ(cache.Find("a.b.c"), (nlohmann::json{{"sub", "alice"}}));
  EXPECT_EQ(cache.Find("a.b.cd"), std::nullopt);
  EXPECT_EQ(cache.Find("a.b."), std::nullopt);
}

TEST(VerifiedTokenCacheTest, DropsTheOldestEntryWhenFull) {
  VerifiedTokenCache cache(2);
  cache.Insert("t1", {{"n", 1}});
  cache.Insert("t2", {{"n", 2}});
  cache.Insert("t1", {{"n", 9}});  // already there: neither replaced nor counted twice
  cache.Insert("t3", {{"n", 3}});
  EXPECT_EQ(cache.Find("t1"), std::nullopt);
  EXPECT_EQ(cache.Find("t2"), (nlohmann::json{{"n", 2}}));
  EXPECT_EQ(cache.Find("t3"), (nlohmann::json{{"n", 3}}));
  cache.Insert("t4", {{"n", 4}});
  EXPECT_EQ(cache.Find("t2"), std::nullopt);
  EXPECT_EQ(cache.Find("t4"), (nlohmann::json{{"n", 4}}));
}

TEST(VerifiedTokenCacheTest, ATokenVerifiedWithAnotherKeySetIsAMiss) {
  VerifiedTokenCache cache(4);
  cache.Insert("a.b.c", {{"sub", "alice"}}, 1);
  EXPECT_EQ(cache.Find("a.b.c", 1), (nlohmann::json{{"sub", "alice"}}));
  EXPECT_EQ(cache.Find("a.b.c", 2), std::nullopt);
  cache.Insert("a.b.c", {{"sub", "alice"}}, 2);
  EXPECT_EQ(cache.Find("a.b.c", 2), (nlohmann::json{{"sub", "alice"}}));
  EXPECT_EQ(cache.Find("a.b.c", 1), std::nullopt);
}

TEST(VerifiedTokenCacheTest, ZeroCapacityKeepsNothing) {
  VerifiedTokenCache cache(0);
  cache.Insert("t1", {{"n", 1}});
  EXPECT_EQ(cache.Find("t1"), std::nullopt);
}

}  // namespace
}  // namespace netgraph::auth
