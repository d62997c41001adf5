// Claiming a voucher: binding, retries, refusals, the rate limit, races (core/domain/voucher.h).
#include "tests/database/domain/domain_store_test.h"

#include <atomic>
#include <optional>
#include <thread>

#include "core/domain/portfolio.h"
#include "core/store/graph.h"
#include "core/store/users.h"

namespace netgraph::domain {
namespace {

TEST_F(DomainStoreTest, AClaimBindsTheVoucherAndWalletAndAnnouncesTheGraphChange) {
  User alice = NewUser("did:privy:alice", "alice@example.com");
  const std::string wallet = RandomWallet();
  const std::string code = Issue("12.5");
  std::string typed = code;
  std::transform(typed.begin(), typed.end(), typed.begin(), ::tolower);
  std::replace(typed.begin(), typed.end(), '-', ' ');

  Outcome<Voucher> claimed = Claim(alice, typed, wallet);
  ASSERT_TRUE(claimed.ok());
  EXPECT_EQ(claimed->code, code);
  EXPECT_EQ(claimed->status, domain::VoucherState::kClaimed);
  EXPECT_DOUBLE_EQ(claimed->amount, 12.5);
  EXPECT_EQ(claimed->wallet_address, wallet);
  EXPECT_TRUE(claimed->claimed_at.has_value());

  Result<Portfolio> portfolio = ReadPortfolio(*db_, alice);
  ASSERT_TRUE(portfolio.ok());
  EXPECT_EQ(portfolio->wallets, std::vector<std::string>{wallet});
  EXPECT_EQ(portfolio->total_vouchers, 1);
  EXPECT_DOUBLE_EQ(portfolio->total_investments, 12.5 * 0.05);

  std::vector<nlohmann::json> updates = OutboxPayloads();
  ASSERT_EQ(updates.size(), 1u);
  const nlohmann::json& update = updates[0];
  EXPECT_EQ(update["sequence"], 1);
  EXPECT_EQ(update["metadata"]["nodeCount"], 3);
  EXPECT_EQ(update["metadata"]["linkCount"], 2);
  const std::string text = update.dump();
  EXPECT_NE(text.find(alice.public_id), std::string::npos);
  for (const char* secret : {"did:privy:alice", "alice@example.com"}) {
    EXPECT_EQ(text.find(secret), std::string::npos) << secret;
  }
  EXPECT_EQ(text.find(wallet), std::string::npos) << "wallets appear under opaque ids";

  Result<InvestmentData> figures = ReadInvestmentData(*db_);
  ASSERT_TRUE(figures.ok());
  EXPECT_EQ(figures->current_round, "Seed");
  EXPECT_DOUBLE_EQ(figures->round_raised, 12.5 * 0.05);
  EXPECT_EQ(figures->investor_count, 1);
  EXPECT_DOUBLE_EQ(figures->market_cap, 0) << "nothing redeemed yet";
}

TEST_F(DomainStoreTest, RetryingTheSameClaimReturnsTheSameVoucher) {
  User alice = NewUser("did:privy:alice");
  const std::string wallet = RandomWallet();
  const std::string code = Issue();
  Outcome<Voucher> first = Claim(alice, code, wallet);
  Outcome<Voucher> again = Claim(alice, code, wallet);
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(first->id, again->id);
  EXPECT_EQ(again->status, domain::VoucherState::kClaimed);
  EXPECT_EQ(OutboxPayloads().size(), 1u) << "a replay changes nothing";
}

TEST_F(DomainStoreTest, ClaimRefusalsSayWhyAsTheCallerMayLearnIt) {
  User alice = NewUser("did:privy:alice");
  User bob = NewUser("did:privy:bob");
  const std::string alice_wallet = RandomWallet();
  const std::string code = Issue();
  ASSERT_TRUE(Claim(alice, code, alice_wallet).ok());

  EXPECT_EQ(Claim(alice, code, RandomWallet()).failure(), Failure::kVoucherAlreadyClaimed);
  EXPECT_EQ(Claim(bob, code, RandomWallet()).failure(), Failure::kVoucherNotFound);
  EXPECT_EQ(Claim(bob, "ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ", RandomWallet()).failure(),
            Failure::kVoucherNotFound);
  EXPECT_EQ(Claim(bob, "not-a-code", RandomWallet()).failure(), Failure::kInvalidVoucherCode);
  EXPECT_EQ(Claim(bob, Issue(), "0xdeadbeef").failure(), Failure::kInvalidWalletAddress);
  EXPECT_EQ(Claim(bob, Issue(), alice_wallet).failure(), Failure::kWalletBelongsToAnotherUser);

  const std::string expired = Issue("10", "2000-01-01T00:00:00Z");
  EXPECT_EQ(Claim(bob, expired, RandomWallet()).failure(), Failure::kVoucherExpired);
  const std::string revoked = Issue();
  ASSERT_TRUE(RevokeVoucher(*db_, revoked).ok());
  EXPECT_EQ(Claim(bob, revoked, RandomWallet()).failure(), Failure::kVoucherRevoked);
  EXPECT_EQ(RevokeVoucher(*db_, revoked).failure(), Failure::kVoucherRevoked);

  // A claimed voucher that expires reads EXPIRED to its owner, and to others stays not found.
  const std::string soon = Issue("10", "2s");
  const std::string bob_wallet = RandomWallet();
  ASSERT_TRUE(Claim(bob, soon, bob_wallet).ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  EXPECT_EQ(Claim(bob, soon, RandomWallet()).failure(), Failure::kVoucherExpired);
  EXPECT_EQ(Claim(alice, soon, RandomWallet()).failure(), Failure::kVoucherNotFound);
  Result<std::int64_t> swept = ExpireDueVouchers(*db_);
  ASSERT_TRUE(swept.ok());
  EXPECT_EQ(*swept, 2);  // `expired` and `soon`

  // None of the refusals registered a wallet.
  Result<Portfolio> portfolio = ReadPortfolio(*db_, bob);
  EXPECT_EQ(portfolio->wallets, std::vector<std::string>{bob_wallet});
}

TEST_F(DomainStoreTest, FailedClaimsAreRateLimitedPerUser) {
  User mallory = NewUser("did:privy:mallory");
  User alice = NewUser("did:privy:alice");
  const ClaimPolicy strict{3, 600};
  const std::string wallet = RandomWallet();
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(
        Claim(mallory, "AAAA-AAAA-AAAA-AAAA-AAA" + std::to_string(i), wallet, strict).failure(),
        Failure::kVoucherNotFound);
  }
  const std::string code = Issue();
  EXPECT_EQ(Claim(mallory, code, wallet, strict).failure(), Failure::kTooManyAttempts)
      << "even a good code, once the limit is reached";
  EXPECT_TRUE(Claim(alice, code, RandomWallet(), strict).ok()) << "other users are not affected";
}

TEST_F(DomainStoreTest, AClaimWaitingForTheUsersLockCountsTheFailureRecordedMeanwhile) {
  // The user's lock and the count of their failures are one round trip (migration 0009); the
  // count must still be read after the lock is granted, or a user with claims in flight at once
  // would pass the limit. One failure is allowed: the claim that held the lock records it.
  User mallory = NewUser("did:privy:mallory");
  const ClaimPolicy one_failure{1, 600};
  store::Connection holder(url_);
  ASSERT_TRUE(holder.ExecuteScript("BEGIN").ok());
  ASSERT_TRUE(store::LockUser(holder, mallory.id).ok());
  ASSERT_TRUE(holder
                  .ExecuteScript("INSERT INTO claim_failures (user_id) VALUES (" +
                                 std::to_string(mallory.id) + ")")
                  .ok());

  const std::string code = Issue();
  std::optional<Outcome<Voucher>> waited;
  std::thread waiting([&] {
    store::Connection db(url_);
    waited = ClaimVoucher(db, one_failure, mallory, code, RandomWallet());
  });
  EXPECT_TRUE(AwaitALockWaiter()) << "the claim waits for the user's lock";
  ASSERT_TRUE(holder.ExecuteScript("COMMIT").ok());
  waiting.join();
  ASSERT_TRUE(waited.has_value());
  EXPECT_EQ(waited->failure(), Failure::kTooManyAttempts)
      << "the failure committed while the claim waited counts";
  EXPECT_TRUE(Claim(NewUser("did:privy:alice"), code, RandomWallet()).ok())
      << "the voucher stayed available";
}

TEST_F(DomainStoreTest, ExactlyOneOfManyConcurrentClaimsWins) {
  constexpr int kClaimants = 40;
  const std::string code = Issue();
  std::vector<User> users;
  for (int i = 0; i < kClaimants; ++i) users.push_back(NewUser("did:race:" + std::to_string(i)));
  std::atomic<int> won{0}, lost{0}, other{0};
  RunConcurrently(kClaimants, [&](store::Connection& db, int i) {
    Outcome<Voucher> claimed =
        ClaimVoucher(db, ClaimPolicy{}, users[static_cast<std::size_t>(i)], code, RandomWallet());
    if (claimed.ok()) {
      ++won;
    } else if (claimed.failure() == Failure::kVoucherNotFound) {
      ++lost;
    } else {
      ++other;
    }
  });
  EXPECT_EQ(won, 1);
  EXPECT_EQ(lost, kClaimants - 1);
  EXPECT_EQ(other, 0);
  EXPECT_EQ(OutboxPayloads().size(), 1u);
}

}  // namespace
}  // namespace netgraph::domain
