// Users on first sight of a token (core/domain/user.h).
#include "tests/database/domain/domain_store_test.h"

namespace netgraph::domain {
namespace {

TEST_F(DomainStoreTest, UsersAppearOnFirstSightAndTheirEmailFollowsTheToken) {
  User first = NewUser("did:privy:alice", "alice@example.com");
  User again = NewUser("did:privy:alice");
  EXPECT_EQ(first.id, again.id);
  EXPECT_EQ(again.email, "alice@example.com") << "a token without email keeps the stored one";
  User changed = NewUser("did:privy:alice", "alice@new.example");
  EXPECT_EQ(changed.email, "alice@new.example");
  EXPECT_EQ(changed.public_id, first.public_id);
  EXPECT_EQ(first.public_id.find("alice"), std::string::npos);
  EXPECT_FALSE(first.is_admin);

  Outcome<User> by_claim = UserForPrincipal(*db_, Principal{"did:privy:alice", {}, true});
  EXPECT_TRUE(by_claim->is_admin);
  ASSERT_TRUE(GrantAdmin(*db_, "did:privy:bob").ok());
  EXPECT_TRUE(NewUser("did:privy:bob").is_admin);

  Outcome<User> too_long = UserForPrincipal(*db_, Principal{std::string(513, 'x'), {}, false});
  EXPECT_EQ(too_long.failure(), Failure::kAuthenticationRequired);
}

}  // namespace
}  // namespace netgraph::domain
