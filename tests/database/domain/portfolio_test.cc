// What a portfolio shows and who hears of its changes (core/domain/portfolio.h, migration 0007):
// every committed write that changes a user's portfolio announces that user on
// store::kPortfolioNotifyChannel, a change of the rounds announces every user, and a write that
// rolls back announces nothing. A write of a user's row, and only that, also announces the user on
// store::kUserRowNotifyChannel (migration 0012).
#include <chrono>
#include <set>
#include <string>

#include "core/crypto/elgamal.h"
#include "core/domain/portfolio.h"
#include "core/domain/redemption.h"
#include "core/store/users.h"
#include "tests/database/domain/domain_store_test.h"

namespace netgraph::domain {
namespace {

class PortfolioChangesTest : public DomainStoreTest {
 protected:
  explicit PortfolioChangesTest(const char* channel = store::kPortfolioNotifyChannel)
      : channel_(channel) {}

  void SetUp() override {
    DomainStoreTest::SetUp();
    listener_ = std::make_unique<store::Connection>(url_);
    ASSERT_TRUE(listener_->Listen(channel_).ok());
  }

  // The payloads announced since the last call (every announcement is delivered at its commit, so
  // a short wait after the writer returned is enough).
  std::set<std::string> Heard() {
    std::set<std::string> heard;
    for (;;) {
      Result<bool> woken = listener_->AwaitNotification(
          std::chrono::milliseconds(200), [&](std::string_view channel, std::string_view payload) {
            EXPECT_EQ(channel, channel_);
            heard.emplace(payload);
          });
      EXPECT_TRUE(woken.ok());
      if (!woken.ok() || !*woken) return heard;
    }
  }

  static std::string Id(const User& user) { return std::to_string(user.id); }

  const char* channel_;
  std::unique_ptr<store::Connection> listener_;
};

class UserRowChangesTest : public PortfolioChangesTest {
 protected:
  UserRowChangesTest() : PortfolioChangesTest(store::kUserRowNotifyChannel) {}
};

TEST_F(UserRowChangesTest, OnlyAWriteOfAUsersRowAnnouncesThatUser) {
  const User alice = NewUser("did:privy:alice");
  const User bob = NewUser("did:privy:bob");
  Heard();
  ASSERT_TRUE(Claim(alice, Issue("10"), RandomWallet()).ok());
  EXPECT_EQ(Heard(), std::set<std::string>{}) << "a claim changes a portfolio, not a row";

  NewUser("did:privy:alice", "alice@example.com");
  EXPECT_EQ(Heard(), std::set<std::string>{Id(alice)}) << "a new email";
  ASSERT_TRUE(GrantAdmin(*db_, "did:privy:alice").ok());
  EXPECT_EQ(Heard(), std::set<std::string>{Id(alice)}) << "the administrator flag";
  ASSERT_TRUE(db_->ExecuteScript("DELETE FROM users WHERE id = " + Id(bob)).ok());
  EXPECT_EQ(Heard(), std::set<std::string>{Id(bob)}) << "a user deleted";
}

TEST_F(PortfolioChangesTest, EveryWriteOfAUsersPortfolioAnnouncesThatUser) {
  User alice = NewUser("did:privy:alice");
  User bob = NewUser("did:privy:bob");
  Heard();
  const std::string wallet = RandomWallet();
  const std::string code = Issue("10");
  EXPECT_EQ(Heard(), std::set<std::string>{}) << "an issued voucher is nobody's";

  ASSERT_TRUE(Claim(alice, code, wallet).ok());
  EXPECT_EQ(Heard(), std::set<std::string>{Id(alice)}) << "a claim (voucher and wallet)";

  std::unique_ptr<Token2022Ledger> ledger = MakeLedger();
  const std::string key = RandomConfidentialKey();
  ASSERT_TRUE(RedeemVouchers(*db_, ledger.get(), alice, wallet, key).ok());
  EXPECT_EQ(Heard(), std::set<std::string>{Id(alice)}) << "a redemption (token account)";

  ASSERT_TRUE(Claim(alice, Issue("5"), wallet).ok());
  Heard();
  const std::string claimed = Issue("3");
  ASSERT_TRUE(Claim(bob, claimed, RandomWallet()).ok());
  Heard();
  ASSERT_TRUE(RevokeVoucher(*db_, claimed).ok());
  EXPECT_EQ(Heard(), std::set<std::string>{Id(bob)}) << "an administrator's revocation";

  NewUser("did:privy:alice", "alice@example.com");
  EXPECT_EQ(Heard(), std::set<std::string>{Id(alice)}) << "a new email";

  // Whatever statement writes a wallet (a proof, a takeover): its users before and after hear of
  // it.
  const std::string spare = RandomWallet();
  ASSERT_TRUE(db_->ExecuteScript("INSERT INTO wallets (address, user_id) VALUES ('" + spare +
                                 "', " + Id(alice) + ")")
                  .ok());
  EXPECT_EQ(Heard(), std::set<std::string>{Id(alice)});
  ASSERT_TRUE(db_->ExecuteScript("UPDATE wallets SET user_id = " + Id(bob) + " WHERE address = '" +
                                 spare + "'")
                  .ok());
  EXPECT_EQ(Heard(), (std::set<std::string>{Id(alice), Id(bob)}));
  ASSERT_TRUE(db_->ExecuteScript("DELETE FROM wallets WHERE address = '" + spare + "'").ok());
  EXPECT_EQ(Heard(), std::set<std::string>{Id(bob)});

  ASSERT_TRUE(db_->ExecuteScript("UPDATE rounds SET price = price * 2").ok());
  EXPECT_EQ(Heard(), std::set<std::string>{std::string(store::kEveryPortfolio)})
      << "a round's price is in every portfolio";
}

TEST_F(PortfolioChangesTest, AWriteThatRollsBackAnnouncesNothing) {
  User alice = NewUser("did:privy:alice");
  ASSERT_TRUE(Claim(alice, Issue("10"), RandomWallet()).ok());
  Heard();
  const std::string touch = "UPDATE vouchers SET amount = amount WHERE user_id = " + Id(alice);
  ASSERT_TRUE(db_->ExecuteScript("BEGIN; " + touch + "; ROLLBACK").ok());
  EXPECT_EQ(Heard(), std::set<std::string>{});
  ASSERT_TRUE(db_->ExecuteScript(touch).ok());
  EXPECT_EQ(Heard(), std::set<std::string>{Id(alice)}) << "the same write, committed";
}

TEST_F(PortfolioChangesTest, APortfolioReadsTheStoredEmailAndSaysWhenItsFirstOpenClaimExpires) {
  User alice = NewUser("did:privy:alice");
  ASSERT_TRUE(Claim(alice, Issue("10", "2099-01-01T00:00:00Z"), RandomWallet()).ok());
  ASSERT_TRUE(Claim(alice, Issue("10", "2098-01-01T00:00:00Z"), RandomWallet()).ok());
  ASSERT_TRUE(Claim(alice, Issue("10"), RandomWallet()).ok());
  NewUser("did:privy:alice", "alice@example.com");  // alice, as read before, has no email
  Result<Portfolio> portfolio = ReadPortfolio(*db_, alice);
  ASSERT_TRUE(portfolio.ok()) << portfolio.status().message();
  EXPECT_EQ(portfolio->user.email, "alice@example.com");
  ASSERT_TRUE(portfolio->next_change.has_value());
  EXPECT_EQ(FormatDateTime(*portfolio->next_change), "2098-01-01T00:00:00.000Z");
}

}  // namespace
}  // namespace netgraph::domain
