// The schema's constraints, and voucher states as the store reads them (core/store/vouchers.h).
#include "tests/database/domain/domain_store_test.h"

#include <string>

namespace netgraph::domain {
namespace {

TEST_F(DomainStoreTest, TheSchemaRefusesStatesTheRulesForbid) {
  const std::string round = "(SELECT id FROM rounds LIMIT 1)";
  const std::string code = "'0123456789ABCDEFGHJK'";
  for (const std::string& sql : std::vector<std::string>{
           // not a normalised code
           "INSERT INTO vouchers (code, amount, round_id) VALUES ('abc', 1, " + round + ")",
           // a non-positive amount, and one at the balance limit
           "INSERT INTO vouchers (code, amount, round_id) VALUES (" + code + ", 0, " + round + ")",
           "INSERT INTO vouchers (code, amount, round_id) VALUES (" + code + ", 4294967296, " +
               round + ")",
           // CLAIMED without an owner
           "INSERT INTO vouchers (code, amount, round_id, status) VALUES (" + code + ", 1, " +
               round + ", 'CLAIMED')",
           // an unknown status
           "INSERT INTO vouchers (code, amount, round_id, status) VALUES (" + code + ", 1, " +
               round + ", 'LOST')",
           // a wallet address that is not base58
           "INSERT INTO users (idp_did) VALUES ('did:x'); INSERT INTO wallets (address, user_id) "
           "VALUES ('0OIl0OIl0OIl0OIl0OIl0OIl0OIl0OIl', (SELECT id FROM users))",
       }) {
    EXPECT_FALSE(db_->ExecuteScript(sql).ok()) << sql;
  }
  ASSERT_TRUE(db_->ExecuteScript("INSERT INTO vouchers (code, amount, round_id) VALUES (" + code +
                                 ", 1, " + round + ")")
                  .ok());
  EXPECT_FALSE(db_->ExecuteScript("INSERT INTO vouchers (code, amount, round_id) VALUES (" + code +
                                  ", 2, " + round + ")")
                   .ok())
      << "codes are unique";
  // A voucher's wallet must be its owner's.
  EXPECT_TRUE(db_->ExecuteScript("INSERT INTO users (idp_did) VALUES ('did:a'), ('did:b')").ok());
  EXPECT_TRUE(db_->ExecuteScript("INSERT INTO wallets (address, user_id) VALUES "
                                 "('HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp', "
                                 "(SELECT id FROM users WHERE idp_did = 'did:a'))")
                  .ok());
  EXPECT_FALSE(
      db_->ExecuteScript("UPDATE vouchers SET status = 'CLAIMED', claimed_at = now(), "
                         "wallet_address = 'HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp', "
                         "user_id = (SELECT id FROM users WHERE idp_did = 'did:b')")
          .ok());
}

// A voucher's status is parsed once, in the store: pages filter by the state, readers get the
// enum, and text the schema would refuse (its CHECK dropped here) is an error, not a state.
TEST_F(DomainStoreTest, VoucherStatesAreParsedOnceInTheStore) {
  const std::string code = Issue();
  Issue();
  User owner = NewUser("did:privy:states");
  ASSERT_TRUE(Claim(owner, code, RandomWallet()).ok());
  Result<std::vector<Voucher>> claimed = ListVouchers(*db_, VoucherState::kClaimed, 10, 0);
  ASSERT_TRUE(claimed.ok()) << claimed.status().message();
  ASSERT_EQ(claimed->size(), 1u);
  EXPECT_EQ(claimed->front().status, VoucherState::kClaimed);
  Result<std::vector<Voucher>> available = ListVouchers(*db_, VoucherState::kAvailable, 10, 0);
  ASSERT_TRUE(available.ok());
  EXPECT_EQ(available->size(), 1u);
  Result<std::vector<Voucher>> all = ListVouchers(*db_, std::nullopt, 10, 0);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 2u);

  ASSERT_TRUE(db_->ExecuteScript("ALTER TABLE vouchers DROP CONSTRAINT vouchers_status_check; "
                                 "UPDATE vouchers SET status = 'LOST' WHERE status = 'AVAILABLE'")
                  .ok());
  Result<std::vector<Voucher>> lost = ListVouchers(*db_, std::nullopt, 10, 0);
  ASSERT_FALSE(lost.ok());
  EXPECT_TRUE(lost.status().IsInternal()) << lost.status().message();
}

}  // namespace
}  // namespace netgraph::domain
