// Redeeming vouchers: the credit, refusals, races (core/domain/redemption.h).
#include "tests/database/domain/domain_store_test.h"

#include <atomic>
#include <optional>
#include <thread>

#include "core/crypto/elgamal.h"
#include "core/crypto/elgamal_decryptor.h"
#include "core/crypto/receipt.h"
#include "core/domain/internal/amount.h"
#include "core/domain/portfolio.h"
#include "core/domain/redemption.h"
#include "core/store/ledger.h"

namespace netgraph::domain {
namespace {

constexpr store::Statement kReceipt{
    "test_receipt", "SELECT receipt, signature FROM redemptions WHERE signature = $1"};
constexpr store::Statement kAccount{
    "test_account",
    "SELECT balance, encrypted_balance FROM token_accounts WHERE wallet_address = $1"};
constexpr store::Statement kWalletNodeLabels{
    "test_wallet_node_labels",
    "SELECT array_to_string(n.labels, ',') FROM graph_nodes n JOIN wallets w ON w.public_id = n.id "
    "WHERE w.address = $1"};
constexpr store::Statement kRemoveWalletNode{
    "test_remove_wallet_node",
    "DELETE FROM graph_nodes n USING wallets w WHERE w.public_id = n.id AND w.address = $1"};

TEST_F(DomainStoreTest, ARedemptionCreditsEveryClaimedVoucherOnceUnderTheOwnersKey) {
  std::unique_ptr<Token2022Ledger> ledger = MakeLedger();
  User alice = NewUser("did:privy:alice");
  const std::string wallet = RandomWallet();
  ASSERT_TRUE(Claim(alice, Issue("10"), wallet).ok());
  ASSERT_TRUE(Claim(alice, Issue("2.5"), wallet).ok());
  const crypto::ElGamalSecretKey secret = crypto::ElGamalSecretKey::Generate();
  const std::string key = crypto::ElGamalPublicKey::FromSecretKey(secret).ToBase64();
  const crypto::ElGamalDecryptor decryptor(secret);

  Outcome<Redemption> first = RedeemVouchers(*db_, ledger.get(), alice, wallet, key);
  ASSERT_TRUE(first.ok());
  EXPECT_DOUBLE_EQ(first->amount, 12.5);
  EXPECT_EQ(first->wallet_address, wallet);
  EXPECT_EQ(first->token_account, *ledger->TokenAccountOf(wallet));
  EXPECT_EQ(*decryptor.Decrypt(*crypto::ElGamalCiphertext::Parse(first->encrypted_amount)), 1250u);

  // The receipt behind txSignature verifies with the treasury key.
  Result<store::Rows> receipt = db_->Run(kReceipt, {first->tx_signature});
  ASSERT_TRUE(receipt.ok());
  ASSERT_EQ(receipt->size(), 1);
  EXPECT_TRUE(crypto::VerifyReceipt(receipt->Text(0, 0),
                                    *crypto::ParseBase58Signature(first->tx_signature),
                                    treasury_public_key_)
                  .ok());

  EXPECT_EQ(RedeemVouchers(*db_, ledger.get(), alice, wallet, key).failure(),
            Failure::kNoClaimedVouchers);
  ASSERT_TRUE(Claim(alice, Issue("1"), wallet).ok());
  Outcome<Redemption> second = RedeemVouchers(*db_, ledger.get(), alice, wallet, key);
  ASSERT_TRUE(second.ok());
  EXPECT_DOUBLE_EQ(second->amount, 1);

  Result<Portfolio> portfolio = ReadPortfolio(*db_, alice);
  ASSERT_TRUE(portfolio.ok());
  EXPECT_TRUE(portfolio->has_confidential_balance);
  EXPECT_EQ(portfolio->confidential_public_key, key);
  EXPECT_EQ(portfolio->token_account, first->token_account);
  EXPECT_EQ(*decryptor.Decrypt(*crypto::ElGamalCiphertext::Parse(*portfolio->encrypted_balance)),
            1350u);
  for (const Voucher& v : portfolio->vouchers) EXPECT_TRUE(v.redeemed());

  Result<InvestmentData> figures = ReadInvestmentData(*db_);
  EXPECT_DOUBLE_EQ(figures->market_cap, 13.5 * 0.05);
}

TEST_F(DomainStoreTest, RedemptionRefusalsWriteNothing) {
  std::unique_ptr<Token2022Ledger> ledger = MakeLedger();
  User alice = NewUser("did:privy:alice");
  User bob = NewUser("did:privy:bob");
  const std::string wallet = RandomWallet();
  const std::string key = RandomConfidentialKey();
  const std::string other_key = RandomConfidentialKey();
  auto redeem = [&](const User& u, const std::string& w, const std::string& k) {
    return RedeemVouchers(*db_, ledger.get(), u, w, k).failure();
  };

  EXPECT_EQ(redeem(alice, "nope", key), Failure::kInvalidWalletAddress);
  EXPECT_EQ(redeem(alice, wallet, "not base64"), Failure::kInvalidConfidentialPublicKey);
  EXPECT_EQ(redeem(alice, wallet, std::string(43, 'A') + "="),
            Failure::kInvalidConfidentialPublicKey)
      << "the identity is not a key";
  EXPECT_EQ(redeem(alice, wallet, key), Failure::kNoClaimedVouchers) << "an unknown wallet";

  Outcome<Voucher> big = Claim(alice, Issue("30000000"), wallet);
  Outcome<Voucher> bigger = Claim(alice, Issue("20000000"), wallet);
  ASSERT_TRUE(big.ok() && bigger.ok());
  EXPECT_EQ(redeem(bob, wallet, key), Failure::kWalletBelongsToAnotherUser);
  EXPECT_EQ(redeem(alice, wallet, key), Failure::kBalanceLimitExceeded);
  EXPECT_EQ(VoucherStatus(big->id), "CLAIMED");
  EXPECT_EQ(VoucherStatus(bigger->id), "CLAIMED");
  EXPECT_TRUE(db_->Run(kAccount, {wallet})->empty());

  ASSERT_TRUE(RevokeVoucher(*db_, bigger->code).ok());
  ASSERT_TRUE(RedeemVouchers(*db_, ledger.get(), alice, wallet, key).ok());
  ASSERT_TRUE(Claim(alice, Issue("1"), wallet).ok());
  EXPECT_EQ(redeem(alice, wallet, other_key), Failure::kConfidentialKeyMismatch);
  Result<store::Rows> account = db_->Run(kAccount, {wallet});
  EXPECT_EQ(account->Int(0, 0), 3000000000);
}

TEST_F(DomainStoreTest, ConcurrentRedemptionsOfAWalletTakeEachVoucherOnce) {
  std::unique_ptr<Token2022Ledger> ledger = MakeLedger();
  User alice = NewUser("did:privy:alice");
  const std::string wallet = RandomWallet();
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(Claim(alice, Issue("3"), wallet).ok());
  const std::string key = RandomConfidentialKey();
  constexpr int kRedeemers = 20;
  std::atomic<int> succeeded{0}, empty{0};
  std::atomic<long long> credited{0};
  RunConcurrently(kRedeemers, [&](store::Connection& db, int) {
    Outcome<Redemption> r = RedeemVouchers(db, ledger.get(), alice, wallet, key);
    if (r.ok()) {
      ++succeeded;
      credited += static_cast<long long>(r->amount * 100);
    } else if (r.failure() == Failure::kNoClaimedVouchers) {
      ++empty;
    }
  });
  EXPECT_EQ(succeeded, 1);
  EXPECT_EQ(empty, kRedeemers - 1);
  EXPECT_EQ(credited, 1500);
  EXPECT_EQ(db_->Run(kAccount, {wallet})->Int(0, 0), 1500);
}

// What a redemption reads and takes in its first statement (store::StartRedemption, migration
// 0014): nothing of a wallet that is not the caller's or whose account has another key; otherwise
// every claimed voucher of the wallet, under a redemption id of its own, with the wallet locked.
TEST_F(DomainStoreTest, ARedemptionStartsInOneStatementThatTakesOnlyWhatItMayRedeem) {
  std::unique_ptr<Token2022Ledger> ledger = MakeLedger();
  User alice = NewUser("did:privy:alice");
  User bob = NewUser("did:privy:bob");
  const std::string wallet = RandomWallet();
  const std::string key = RandomConfidentialKey();
  ASSERT_TRUE(Claim(alice, Issue("2"), wallet).ok());
  ASSERT_TRUE(RedeemVouchers(*db_, ledger.get(), alice, wallet, key).ok());
  Outcome<Voucher> first = Claim(alice, Issue("3"), wallet);
  Outcome<Voucher> second = Claim(alice, Issue("4"), wallet);
  ASSERT_TRUE(first.ok() && second.ok());
  const auto start = [&](const User& user, const std::string& with_key) {
    Result<store::RedemptionStart> started =
        store::StartRedemption(*db_, user.id, wallet, with_key);
    EXPECT_TRUE(started.ok()) << started.status().message();
    return started.ok() ? *started : store::RedemptionStart{};
  };

  ASSERT_TRUE(db_->ExecuteScript("BEGIN").ok());
  const store::RedemptionStart of_bob = start(bob, key);
  ASSERT_TRUE(of_bob.wallet.has_value());
  EXPECT_EQ(of_bob.wallet->user_id, alice.id);
  EXPECT_FALSE(of_bob.account.has_value()) << "another user's account is not read";
  EXPECT_EQ(of_bob.vouchers, 0);
  const store::RedemptionStart other_key = start(alice, RandomConfidentialKey());
  ASSERT_TRUE(other_key.account.has_value());
  EXPECT_EQ(other_key.account->confidential_public_key, key);
  EXPECT_EQ(other_key.account->balance, 200);
  EXPECT_EQ(other_key.vouchers, 0);
  EXPECT_EQ(VoucherStatus(first->id), "CLAIMED");

  const store::RedemptionStart taken = start(alice, key);
  EXPECT_EQ(taken.vouchers, 2);
  EXPECT_EQ(taken.amount, 700);
  EXPECT_GT(taken.redemption_id, 0);
  EXPECT_EQ(taken.token.decimals, 2);
  EXPECT_EQ(VoucherStatus(first->id), "REDEEMED");
  EXPECT_EQ(VoucherStatus(second->id), "REDEEMED");
  // The wallet stays locked against another redemption until the transaction ends.
  store::Connection other(url_);
  ASSERT_TRUE(other.ExecuteScript("SET lock_timeout = '100ms'").ok());
  EXPECT_EQ(
      other.ExecuteScript("SELECT FROM wallets WHERE address = '" + wallet + "' FOR NO KEY UPDATE")
          .code(),
      StatusCode::kDeadlineExceeded);
  ASSERT_TRUE(db_->ExecuteScript("ROLLBACK").ok());
  EXPECT_EQ(VoucherStatus(first->id), "CLAIMED");
}

// The graph labels a wallet Confidential while it holds a confidential balance (docs/api.md): a
// claim to it after a redemption leaves the label, so that claim and the next redemption change
// nothing in the graph and announce nothing.
TEST_F(DomainStoreTest, AWalletStaysConfidentialThroughTheClaimsAfterItsRedemption) {
  std::unique_ptr<Token2022Ledger> ledger = MakeLedger();
  User alice = NewUser("did:privy:alice");
  const std::string wallet = RandomWallet();
  const std::string key = RandomConfidentialKey();
  const auto labels = [&] {
    Result<store::Rows> rows = db_->Run(kWalletNodeLabels, {wallet});
    EXPECT_TRUE(rows.ok()) << rows.status().message();
    return rows.ok() && !rows->empty() ? std::string(rows->Text(0, 0)) : "(no node)";
  };
  ASSERT_TRUE(Claim(alice, Issue("3"), wallet).ok());
  EXPECT_EQ(labels(), "Wallet");
  ASSERT_TRUE(RedeemVouchers(*db_, ledger.get(), alice, wallet, key).ok());
  EXPECT_EQ(labels(), "Wallet,Confidential");
  const std::size_t announced = OutboxPayloads().size();

  ASSERT_TRUE(Claim(alice, Issue("1"), wallet).ok());
  EXPECT_EQ(labels(), "Wallet,Confidential") << "the wallet still holds its balance";
  EXPECT_EQ(OutboxPayloads().size(), announced) << "the claim changed nothing in the graph";
  ASSERT_TRUE(RedeemVouchers(*db_, ledger.get(), alice, wallet, key).ok());
  EXPECT_EQ(OutboxPayloads().size(), announced) << "nor did the redemption after it";

  // A claim that writes the wallet's node (here, after an operator removed it) writes it as the
  // wallet is: confidential.
  ASSERT_EQ(db_->Run(kRemoveWalletNode, {wallet})->affected(), 1);
  ASSERT_TRUE(Claim(alice, Issue("1"), wallet).ok());
  EXPECT_EQ(labels(), "Wallet,Confidential");
  EXPECT_EQ(OutboxPayloads().size(), announced + 1);
}

// A claim that writes the wallet's node while the wallet's first redemption is in flight waits for
// it, and so labels the wallet Confidential: the redemption's account is then committed.
TEST_F(DomainStoreTest, AClaimThatWritesTheWalletsNodeWaitsForARedemptionInFlight) {
  User alice = NewUser("did:privy:alice");
  const std::string wallet = RandomWallet();
  ASSERT_TRUE(Claim(alice, Issue("3"), wallet).ok());
  ASSERT_EQ(db_->Run(kRemoveWalletNode, {wallet})->affected(), 1);
  // What a redemption holds before it commits (migration 0014's start_redemption, then
  // store::InsertRedemption): the wallet's lock and the account it saved.
  store::Connection redemption(url_);
  ASSERT_TRUE(redemption.ExecuteScript("BEGIN").ok());
  ASSERT_TRUE(
      redemption
          .ExecuteScript(
              "SELECT FROM wallets WHERE address = '" + wallet +
              "' FOR NO KEY UPDATE; INSERT INTO token_accounts (wallet_address, account_address, "
              "confidential_public_key, encrypted_balance, balance, "
              "last_receipt_hash) VALUES ('" +
              wallet + "', '" + RandomWallet() + "', 'key', 'balance', 300, 'hash')")
          .ok());

  const std::string code = Issue("1");
  std::optional<Outcome<Voucher>> claimed;
  std::thread claiming([&] {
    store::Connection db(url_);
    claimed = ClaimVoucher(db, ClaimPolicy{}, alice, code, wallet);
  });
  EXPECT_TRUE(AwaitALockWaiter()) << "the claim waits for the redemption";
  ASSERT_TRUE(redemption.ExecuteScript("COMMIT").ok());
  claiming.join();
  ASSERT_TRUE(claimed.has_value());
  ASSERT_TRUE(claimed->ok());
  Result<store::Rows> labels = db_->Run(kWalletNodeLabels, {wallet});
  ASSERT_TRUE(labels.ok() && !labels->empty());
  EXPECT_EQ(labels->Text(0, 0), "Wallet,Confidential");
}

}  // namespace
}  // namespace netgraph::domain
