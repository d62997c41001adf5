// The store and the domain against a real PostgreSQL (test_database.h): the schema's constraints,
// claims and redemptions with every refusal, their races, the graph and the outbox.
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "core/crypto/base58.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/elgamal.h"
#include "core/crypto/elgamal_decryptor.h"
#include "core/crypto/offchain_message.h"
#include "core/crypto/receipt.h"
#include "core/crypto/solana_keypair.h"
#include "core/domain/internal/amount.h"
#include "core/domain/network_graph.h"
#include "core/domain/outbox_relay.h"
#include "core/domain/portfolio.h"
#include "core/domain/redemption.h"
#include "core/domain/token2022_ledger.h"
#include "core/domain/update_message.h"
#include "core/domain/user.h"
#include "core/domain/voucher.h"
#include "core/domain/voucher_admin.h"
#include "core/domain/wallet_proof.h"
#include "core/store/connection.h"
#include "core/store/graph.h"
#include "core/store/outbox.h"
#include "core/store/redis.h"
#include "core/store/token.h"
#include "tests/database/test_database.h"

namespace netgraph::domain {
namespace {

using testing::TestDatabase;

store::RedisAddress UnixSocketAddress(const std::string& path) {
  store::RedisAddress address;
  address.port = 0;
  address.socket_path = path;
  return address;
}

// Test-only reads of rows no production code reads back.
constexpr store::Statement kOutboxRows{"test_outbox_rows",
                                       "SELECT id, payload, published_at IS NOT NULL FROM outbox "
                                       "ORDER BY id"};
constexpr store::Statement kReceipt{
    "test_receipt", "SELECT receipt, signature FROM redemptions WHERE signature = $1"};
constexpr store::Statement kVoucherStatus{"test_voucher_status",
                                          "SELECT status FROM vouchers WHERE id = $1"};
constexpr store::Statement kAccount{
    "test_account",
    "SELECT balance, encrypted_balance FROM token_accounts WHERE wallet_address = $1"};

std::string RandomWallet() {
  Result<crypto::Ed25519Keypair> keypair = crypto::Ed25519Keypair::Generate();
  return crypto::Base58Encode(keypair->public_key());
}

class DomainStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = TestDatabase::Get();
    ASSERT_NE(server_, nullptr) << TestDatabase::problem();
    url_ = server_->FreshDatabase();
    db_ = std::make_unique<store::Connection>(url_);
    Result<store::RoundRow> round =
        store::EnsureRound(*db_, {"Seed", "0.05", "500000", "2025-01-01T00:00:00Z", std::nullopt});
    ASSERT_TRUE(round.ok()) << round.status().message();
  }

  User NewUser(const std::string& did, std::optional<std::string> email = std::nullopt) {
    Outcome<User> user = UserForPrincipal(*db_, Principal{did, std::move(email), false});
    EXPECT_TRUE(user.ok());
    return user.value();
  }

  std::string Issue(const std::string& amount = "10",
                    std::optional<std::string> expires = std::nullopt) {
    IssueRequest request;
    request.amount = amount;
    request.expires = std::move(expires);
    Result<std::vector<Voucher>> issued = IssueVouchers(*db_, request);
    EXPECT_TRUE(issued.ok()) << issued.status().message();
    return issued->front().code;
  }

  Outcome<Voucher> Claim(const User& user, const std::string& code, const std::string& wallet,
                         ClaimPolicy policy = {}) {
    return ClaimVoucher(*db_, policy, user, code, wallet);
  }

  std::unique_ptr<Token2022Ledger> MakeLedger() {
    static int ledgers = 0;
    const std::string file =
        server_->directory() + "/treasury-" + std::to_string(++ledgers) + ".json";
    Result<crypto::Ed25519Keypair> treasury = crypto::Ed25519Keypair::Generate();
    EXPECT_TRUE(crypto::WriteSolanaKeypairFile(file, *treasury).ok());
    treasury_public_key_ = treasury->public_key();
    Result<std::unique_ptr<Token2022Ledger>> ledger =
        Token2022Ledger::Create(LedgerConfig{file, RandomWallet()});
    EXPECT_TRUE(ledger.ok()) << ledger.status().message();
    return std::move(ledger.value());
  }

  std::vector<nlohmann::json> OutboxPayloads() {
    Result<store::Rows> rows = db_->Run(kOutboxRows);
    EXPECT_TRUE(rows.ok());
    std::vector<nlohmann::json> payloads;
    for (int i = 0; i < rows->size(); ++i) {
      payloads.push_back(nlohmann::json::parse(rows->Text(i, 1)));
    }
    return payloads;
  }

  std::string VoucherStatus(std::int64_t id) {
    Result<store::Rows> rows = db_->Run(kVoucherStatus, {std::to_string(id)});
    return rows.ok() && !rows->empty() ? std::string(rows->Text(0, 0)) : "";
  }

  TestDatabase* server_ = nullptr;
  std::string url_;
  std::unique_ptr<store::Connection> db_;
  crypto::Bytes32 treasury_public_key_{};
};

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

TEST_F(DomainStoreTest, ExactlyOneOfManyConcurrentClaimsWins) {
  constexpr int kClaimants = 40;
  const std::string code = Issue();
  std::vector<User> users;
  for (int i = 0; i < kClaimants; ++i) users.push_back(NewUser("did:race:" + std::to_string(i)));
  std::atomic<int> won{0}, lost{0}, other{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < kClaimants; ++i) {
    threads.emplace_back([&, i] {
      store::Connection db(url_);
      ASSERT_TRUE(db.EnsureConnected().ok());
      while (!go) std::this_thread::yield();
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
  }
  go = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(won, 1);
  EXPECT_EQ(lost, kClaimants - 1);
  EXPECT_EQ(other, 0);
  EXPECT_EQ(OutboxPayloads().size(), 1u);
}

// Test-only statements of the graph tests below.
constexpr store::Statement kLockNodeNoWait{
    "test_lock_node_nowait", "SELECT id FROM graph_nodes WHERE id = $1 FOR UPDATE NOWAIT"};
constexpr store::Statement kNodeLabels{
    "test_node_labels", "SELECT to_json(labels)::text FROM graph_nodes WHERE id = $1"};
constexpr store::Statement kWaitingForALock{"test_waiting_for_a_lock",
                                            "SELECT count(*) FROM pg_locks WHERE NOT granted"};
constexpr store::Statement kInsertNode{
    "test_insert_node", "INSERT INTO graph_nodes (id, type, labels) VALUES ($1, 'T', ARRAY[$2])"};

TEST_F(DomainStoreTest, AGraphChangeLocksNoNodeItLeavesUnchanged) {
  // Every claim names its round's node: a claim holding it until its commit would queue all others.
  User alice = NewUser("did:privy:alice");
  ASSERT_TRUE(Claim(alice, Issue(), RandomWallet()).ok());
  Result<std::optional<store::RoundRow>> round = store::CurrentRound(*db_);
  ASSERT_TRUE(round.ok() && round->has_value());
  const std::string round_node = "round-" + std::to_string((*round)->id);

  const std::vector<store::NodeRow> same = {{round_node, "Round", {"Round", "Seed"}, 0}};
  Status held = db_->InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<std::int64_t> changed,
                              store::WriteGraph(*db_, same, {}));
    EXPECT_FALSE(changed.has_value()) << "the node was already as given";
    store::Connection other(url_);
    Result<store::Rows> locked = other.Run(kLockNodeNoWait, {round_node});
    EXPECT_TRUE(locked.ok()) << "another transaction can lock the node: "
                             << locked.status().message();
    return Status::Ok();
  });
  ASSERT_TRUE(held.ok()) << held.message();
}

TEST_F(DomainStoreTest, AGraphChangeRacingAnInsertOfItsNodeStillAppliesItsLabels) {
  // A inserts node x and has not committed; B's change of x waits for A, and must then update
  // the row A committed, which B's snapshot did not see.
  store::Connection a(url_);
  ASSERT_TRUE(a.ExecuteScript("BEGIN").ok());
  ASSERT_TRUE(a.Execute(kInsertNode, {"x", "from-a"}).ok());
  Result<std::optional<std::int64_t>> b_changed = Status::Internal("not run");
  std::thread b([&] {
    store::Connection db(url_);
    b_changed = store::WriteGraph(db, {{"x", "T", {"from-b"}, 0}}, {});
  });
  for (int i = 0; i < 500; ++i) {  // until B waits for A's row (at most 10 s)
    Result<store::Rows> waiting = db_->Run(kWaitingForALock);
    ASSERT_TRUE(waiting.ok());
    if (waiting->Int(0, 0) > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(a.ExecuteScript("COMMIT").ok());
  b.join();
  ASSERT_TRUE(b_changed.ok()) << b_changed.status().message();
  EXPECT_TRUE(b_changed->has_value()) << "B changed the node's labels";
  Result<store::Rows> labels = db_->Run(kNodeLabels, {"x"});
  ASSERT_TRUE(labels.ok() && !labels->empty());
  EXPECT_EQ(labels->Text(0, 0), R"(["from-b"])");
}

TEST_F(DomainStoreTest, AGraphChangeNamingANodeTwiceWritesItsLastForm) {
  Result<std::optional<std::int64_t>> changed = store::WriteGraph(
      *db_, {{"y", "T", {"first"}, 0}, {"z", "T", {}, 0}, {"y", "T", {"last"}, 0}},
      {{"y", "z", "L", 0}, {"y", "z", "L", 0}});
  ASSERT_TRUE(changed.ok()) << changed.status().message();
  EXPECT_TRUE(changed->has_value());
  Result<store::Rows> labels = db_->Run(kNodeLabels, {"y"});
  ASSERT_TRUE(labels.ok() && !labels->empty());
  EXPECT_EQ(labels->Text(0, 0), R"(["last"])");
  Result<std::optional<std::int64_t>> again =
      store::WriteGraph(*db_, {{"y", "T", {"last"}, 0}}, {{"y", "z", "L", 0}});
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->has_value()) << "nothing differs";
}

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
  const std::string key =
      crypto::ElGamalPublicKey::FromSecretKey(crypto::ElGamalSecretKey::Generate()).ToBase64();
  const std::string other_key =
      crypto::ElGamalPublicKey::FromSecretKey(crypto::ElGamalSecretKey::Generate()).ToBase64();
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
  const std::string key =
      crypto::ElGamalPublicKey::FromSecretKey(crypto::ElGamalSecretKey::Generate()).ToBase64();
  constexpr int kRedeemers = 20;
  std::atomic<int> succeeded{0}, empty{0};
  std::atomic<bool> go{false};
  std::atomic<long long> credited{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kRedeemers; ++i) {
    threads.emplace_back([&] {
      store::Connection db(url_);
      ASSERT_TRUE(db.EnsureConnected().ok());
      while (!go) std::this_thread::yield();
      Outcome<Redemption> r = RedeemVouchers(db, ledger.get(), alice, wallet, key);
      if (r.ok()) {
        ++succeeded;
        credited += static_cast<long long>(r->amount * 100);
      } else if (r.failure() == Failure::kNoClaimedVouchers) {
        ++empty;
      }
    });
  }
  go = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(succeeded, 1);
  EXPECT_EQ(empty, kRedeemers - 1);
  EXPECT_EQ(credited, 1500);
  EXPECT_EQ(db_->Run(kAccount, {wallet})->Int(0, 0), 1500);
}

TEST_F(DomainStoreTest, NetworkGraphReturnsTheNewestNodesAndTheLinksAmongThem) {
  Result<ImportSummary> imported = ImportGraph(*db_, R"({
    "nodes": [{"id": "a", "type": "Hub", "labels": ["A"]}, {"id": "b", "type": "Hub"},
              {"id": "c", "type": "Hub"}],
    "links": [{"source": "a", "target": "b", "type": "LINK"}, {"source": "b", "target": "c",
               "type": "LINK"}]})");
  ASSERT_TRUE(imported.ok()) << imported.status().message();
  EXPECT_EQ(imported->sequence, 1);
  // A later change makes "b" and "c" the newest nodes.
  ASSERT_TRUE(ImportGraph(*db_, R"({"nodes": [{"id": "b", "type": "Hub", "labels": ["B"]},
                                              {"id": "c", "type": "Hub", "labels": ["new"]}]})")
                  .ok());

  Result<NetworkGraph> two = ReadNetworkGraph(*db_, 2);
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->nodes.size(), 2u);
  EXPECT_EQ(two->nodes[0].id, "b");
  EXPECT_EQ(two->nodes[1].id, "c");
  EXPECT_EQ(two->nodes[1].labels, std::vector<std::string>{"new"});
  ASSERT_EQ(two->links.size(), 1u) << "only links with both ends returned";
  EXPECT_EQ(two->links[0].source, "b");
  EXPECT_TRUE(two->last_updated.has_value());
  Result<NetworkGraph> all = ReadNetworkGraph(*db_, 1000);
  EXPECT_EQ(all->nodes.size(), 3u);
  EXPECT_EQ(all->links.size(), 2u);

  // A file the import refuses is the caller's mistake: InvalidArgument.
  EXPECT_TRUE(ImportGraph(*db_, R"({"nodes": [{"id": "did:privy:x", "type": "T"}]})")
                  .status()
                  .IsInvalidArgument());
  EXPECT_TRUE(ImportGraph(*db_, R"({"nodes": [{"id": "x", "type": "T", "labels": ["a@b.c"]}]})")
                  .status()
                  .IsInvalidArgument());
  EXPECT_FALSE(
      ImportGraph(*db_, R"({"links": [{"source": "a", "target": "zz", "type": "L"}]})").ok())
      << "a link to an unknown node";
  EXPECT_TRUE(ImportGraph(*db_, "[1, 2]").status().IsInvalidArgument());
  EXPECT_EQ(ReadNetworkGraph(*db_, 1000)->nodes.size(), 3u) << "failed imports wrote nothing";
}

// Rows this backend has read from `table` by sequential scans and through indexes and not yet
// reported to the statistics collector. Since PostgreSQL 15 pg_stat_xact_user_tables shows a
// backend's pending counts, which hold earlier transactions' reads until the backend flushes them
// (at most once a second, and only between transactions): a test takes the difference of two
// readings inside one transaction, where no flush can come between them.
constexpr store::Statement kRowsRead{"test_rows_read",
                                     "SELECT COALESCE(seq_tup_read, 0), COALESCE(idx_tup_fetch, 0) "
                                     "FROM pg_stat_xact_user_tables WHERE relname = $1"};

struct RowsRead {
  std::int64_t sequential = 0;
  std::int64_t by_index = 0;

  RowsRead operator-(const RowsRead& earlier) const {
    return RowsRead{sequential - earlier.sequential, by_index - earlier.by_index};
  }
};

RowsRead RowsReadFrom(store::Connection& db, const std::string& table) {
  Result<store::Rows> rows = db.Run(kRowsRead, {table});
  EXPECT_TRUE(rows.ok() && rows->size() == 1) << table;
  if (!rows.ok() || rows->empty()) return {};
  return RowsRead{rows->Int(0, 0), rows->Int(0, 1)};
}

// Issue 11: the public reads cost what their answer holds, not what the database holds.
TEST_F(DomainStoreTest, PublicReadsReadRowsInProportionToTheAnswerNotToTheData) {
  // 20,000 nodes and 40,000 links (each node to the next two), and 20,000 vouchers of which
  // 5,000 are claimed by 100 investors, with statistics the planner sees.
  ASSERT_TRUE(db_->ExecuteScript(R"(
    INSERT INTO graph_nodes (id, type, changed_at)
      SELECT 'n' || i, 'Bulk', now() - i * interval '1 second' FROM generate_series(1, 20000) i;
    INSERT INTO graph_links (source, target, type)
      SELECT 'n' || i, 'n' || (1 + (i + d - 1) % 20000), 'NEXT'
      FROM generate_series(1, 20000) i, generate_series(1, 2) d;
    INSERT INTO users (idp_did) SELECT 'did:bulk:' || i FROM generate_series(1, 100) i;
    INSERT INTO wallets (address, user_id)
      SELECT '1111111111111111111111111111111' || translate(id::text, '0', 'z'), id
      FROM users WHERE idp_did LIKE 'did:bulk:%';
    INSERT INTO vouchers (code, amount, round_id)
      SELECT lpad(upper(to_hex(i)), 20, '0'), 100, (SELECT max(id) FROM rounds)
      FROM generate_series(1, 20000) i;
    UPDATE vouchers v SET status = 'CLAIMED', user_id = w.user_id, wallet_address = w.address,
                          claimed_at = now()
      FROM wallets w WHERE v.id % 4 = 0 AND w.user_id = (SELECT min(id) FROM users) + v.id / 4 % 100;
    ANALYZE)")
                  .ok());
  Status read = db_->InTransaction(store::Isolation::kRepeatableRead, [&]() -> Status {
    const RowsRead links_before = RowsReadFrom(*db_, "graph_links");
    const RowsRead nodes_before = RowsReadFrom(*db_, "graph_nodes");
    const RowsRead vouchers_before = RowsReadFrom(*db_, "vouchers");
    // networkGraph's statements (ReadNetworkGraph runs them in a transaction of its own).
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::NodeRow> nodes, store::RecentNodes(*db_, 100));
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::LinkRow> links,
                              store::LinksAmongRecentNodes(*db_, 100));
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<std::int64_t> last, store::LastGraphChange(*db_));
    EXPECT_EQ(nodes.size(), 100u);
    EXPECT_EQ(links.size(), 197u) << "n1..n100, each linked to the next two";
    EXPECT_TRUE(last.has_value());
    const RowsRead links_read = RowsReadFrom(*db_, "graph_links") - links_before;
    EXPECT_EQ(links_read.sequential, 0) << "no scan of every link";
    EXPECT_LE(links_read.by_index, 2 * 100 + 2) << "the 100 nodes' outgoing links, and the newest";
    const RowsRead nodes_read = RowsReadFrom(*db_, "graph_nodes") - nodes_before;
    EXPECT_EQ(nodes_read.sequential, 0);
    EXPECT_LE(nodes_read.by_index, 2 * (100 + 1));

    NETGRAPH_ASSIGN_OR_RETURN(store::InvestmentFigures figures, store::ReadInvestmentFigures(*db_));
    EXPECT_EQ(figures.investor_count, 100);
    const RowsRead vouchers = RowsReadFrom(*db_, "vouchers") - vouchers_before;
    EXPECT_EQ(vouchers.sequential, 0) << "no scan of every voucher";
    EXPECT_LE(vouchers.by_index, 10) << "only the overdue claims, of which there are none";
    return Status::Ok();
  });
  ASSERT_TRUE(read.ok()) << read.message();
}

TEST_F(DomainStoreTest, OutboxSequencesAreGapFreeInCommitOrder) {
  // Concurrent graph changes: every id is taken exactly once and ids match commit order.
  constexpr int kWriters = 10;
  std::vector<std::thread> threads;
  for (int i = 0; i < kWriters; ++i) {
    threads.emplace_back([&, i] {
      store::Connection db(url_);
      const std::string id = "node-" + std::to_string(i);
      EXPECT_TRUE(ImportGraph(db, R"({"nodes": [{"id": ")" + id + R"(", "type": "T"}]})").ok());
    });
  }
  for (std::thread& t : threads) t.join();
  std::vector<nlohmann::json> updates = OutboxPayloads();
  ASSERT_EQ(updates.size(), static_cast<std::size_t>(kWriters));
  for (int i = 0; i < kWriters; ++i)
    EXPECT_EQ(updates[static_cast<std::size_t>(i)]["sequence"], i + 1);
}

// A private redis-server on a unix socket in the test server's directory, and a subscriber.
class TestRedis {
 public:
  explicit TestRedis(const std::string& directory)
      : socket_(directory + "/redis-" + std::to_string(::getpid()) + ".sock"),
        pidfile_(directory + "/redis-" + std::to_string(::getpid()) + ".pid") {
    const std::string command = "redis-server --port 0 --unixsocket " + socket_ +
                                " --save '' --appendonly no --daemonize yes --pidfile " + pidfile_ +
                                " --logfile /dev/null";
    started_ = std::system(command.c_str()) == 0;
    for (int i = 0; started_ && i < 100 && ::access(socket_.c_str(), F_OK) != 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~TestRedis() {
    if (subscriber_ != nullptr) redisFree(subscriber_);
    std::system(("kill $(cat " + pidfile_ + ") 2>/dev/null").c_str());
  }
  bool started() const { return started_ && ::access(socket_.c_str(), F_OK) == 0; }
  store::RedisAddress address() const { return UnixSocketAddress(socket_); }

  void Subscribe(const char* channel) {
    subscriber_ = redisConnectUnix(socket_.c_str());
    redisReply* reply =
        static_cast<redisReply*>(redisCommand(subscriber_, "SUBSCRIBE %s", channel));
    freeReplyObject(reply);
    timeval timeout{5, 0};
    redisSetTimeout(subscriber_, timeout);
  }
  // The next message's payload; "" after 5 s without one.
  std::string NextMessage() {
    void* raw = nullptr;
    if (redisGetReply(subscriber_, &raw) != REDIS_OK || raw == nullptr) return "";
    redisReply* reply = static_cast<redisReply*>(raw);
    std::string payload = reply->type == REDIS_REPLY_ARRAY && reply->elements == 3
                              ? std::string(reply->element[2]->str, reply->element[2]->len)
                              : "";
    freeReplyObject(reply);
    return payload;
  }

 private:
  std::string socket_;
  std::string pidfile_;
  bool started_ = false;
  redisContext* subscriber_ = nullptr;
};

TEST_F(DomainStoreTest, TheRelayPublishesCommittedChangesInOrderAndKeepsThemWhileRedisIsDown) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(
        ImportGraph(*db_, R"({"nodes": [{"id": "n)" + std::to_string(i) + R"(", "type": "T"}]})")
            .ok());
  }
  // Redis unreachable: nothing is marked published.
  store::RedisClient nowhere(UnixSocketAddress(server_->directory() + "/no-such.sock"), 200);
  // The key both daemons share; the relay signs what it publishes (update_message.h).
  Result<UpdateAuthenticator> updates = UpdateAuthenticator::FromHexKey(std::string(64, '7'));
  ASSERT_TRUE(updates.ok());
  OutboxRelay unreachable(*db_, nowhere, *updates, RelayOptions{});
  Result<OutboxRelay::Pass> failed = unreachable.PublishPending();
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->published, 0);
  EXPECT_FALSE(failed->redis.ok());

  TestRedis redis(server_->directory());
  if (!redis.started()) GTEST_SKIP() << "redis-server is not available";
  redis.Subscribe("netgraph:graph");
  store::RedisClient client(redis.address());
  RelayOptions options;
  options.batch_size = 2;
  OutboxRelay relay(*db_, client, *updates, options);
  Result<OutboxRelay::Pass> pass = relay.PublishPending();
  ASSERT_TRUE(pass.ok());
  EXPECT_EQ(pass->published, 2);
  EXPECT_TRUE(pass->more_pending) << "a full batch: more may wait";
  pass = relay.PublishPending();
  EXPECT_EQ(pass->published, 1);
  EXPECT_FALSE(pass->more_pending);
  EXPECT_EQ(relay.PublishPending()->published, 0) << "published rows are marked";
  for (int sequence = 1; sequence <= 3; ++sequence) {
    const std::string message = redis.NextMessage();
    ASSERT_FALSE(message.empty());
    Result<std::string_view> payload = updates->Open("netgraph:graph", message);
    ASSERT_TRUE(payload.ok()) << "signed: " << message;
    EXPECT_EQ(nlohmann::json::parse(*payload)["sequence"], sequence);
  }

  // A pass listens for appends, so a commit after it wakes the relay's wait (LISTEN/NOTIFY).
  RelayOptions slow;
  slow.poll_interval = std::chrono::milliseconds(60000);  // only a NOTIFY can wake it in time
  store::Connection relay_db(url_);
  store::RedisClient relay_redis(redis.address());
  OutboxRelay waiting(relay_db, relay_redis, *updates, slow);
  ASSERT_EQ(waiting.PublishPending()->published, 0);
  std::thread commit([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_TRUE(ImportGraph(*db_, R"({"nodes": [{"id": "late", "type": "T"}]})").ok());
  });
  Result<bool> woken = waiting.AwaitAppend(slow.poll_interval);
  commit.join();
  ASSERT_TRUE(woken.ok());
  EXPECT_TRUE(*woken) << "woken by the commit, not by the 60 s timeout";
  EXPECT_EQ(waiting.PublishPending()->published, 1);
  const std::string late = redis.NextMessage();
  ASSERT_FALSE(late.empty());
  EXPECT_EQ(nlohmann::json::parse(*updates->Open("netgraph:graph", late))["sequence"], 4);
}

}  // namespace
}  // namespace netgraph::domain

namespace netgraph::domain {
namespace {

// What pg_restore of a dump taken when the outbox stood at `last_id` does to the outbox: the rows
// after it and the ids taken since are gone; the epoch is the one of the dump.
constexpr store::Statement kRewindOutbox{
    "test_rewind_outbox",
    "WITH gone AS (DELETE FROM outbox WHERE id > $1) UPDATE outbox_sequence SET last_id = $1"};
// As if the relay's mark had not committed after its PUBLISH (the at-least-once case).
constexpr store::Statement kUnpublish{"test_unpublish",
                                      "UPDATE outbox SET published_at = NULL WHERE id >= $1"};
constexpr store::Statement kDeleteRow{"test_delete_outbox_row", "DELETE FROM outbox WHERE id = $1"};

std::string ImportOne(store::Connection& db, const std::string& id) {
  EXPECT_TRUE(ImportGraph(db, R"({"nodes": [{"id": ")" + id + R"(", "type": "T"}]})").ok());
  return id;
}

class RelayEpochTest : public DomainStoreTest {
 protected:
  void SetUp() override {
    DomainStoreTest::SetUp();
    redis_ = std::make_unique<TestRedis>(server_->directory());
    if (!redis_->started()) GTEST_SKIP() << "redis-server is not available";
    redis_->Subscribe("netgraph:graph");
    client_ = std::make_unique<store::RedisClient>(redis_->address());
  }

  // A relay as a process starts it: knowing nothing but what Redis holds.
  std::unique_ptr<OutboxRelay> NewRelay() {
    return std::make_unique<OutboxRelay>(*db_, *client_, updates_, RelayOptions{});
  }
  // The next message published, opened: its payload.
  nlohmann::json NextPublished() {
    const std::string message = redis_->NextMessage();
    EXPECT_FALSE(message.empty()) << "a message was published";
    Result<std::string_view> payload = updates_.Open("netgraph:graph", message);
    EXPECT_TRUE(payload.ok()) << message;
    return payload.ok() ? nlohmann::json::parse(*payload) : nlohmann::json();
  }
  store::OutboxPosition Head() { return *store::OutboxHead(*db_); }

  UpdateAuthenticator updates_ = *UpdateAuthenticator::FromHexKey(std::string(64, '7'));
  std::unique_ptr<TestRedis> redis_;
  std::unique_ptr<store::RedisClient> client_;
};

TEST_F(RelayEpochTest, ARestoredDatabaseGetsANewEpochBeforeItsUpdatesGoOut) {
  for (const char* id : {"a", "b", "c"}) ImportOne(*db_, id);
  const std::string before = Head().epoch;
  ASSERT_EQ(NewRelay()->PublishPending()->published, 3);
  for (int sequence = 1; sequence <= 3; ++sequence) {
    EXPECT_EQ(NextPublished()["epoch"], before);
  }

  // Restored from a dump taken after update 1; a claim then takes id 2 again.
  ASSERT_TRUE(db_->Execute(kRewindOutbox, {"1"}).ok());
  ImportOne(*db_, "d");
  std::unique_ptr<OutboxRelay> restarted = NewRelay();  // it knows only Redis's note
  Result<OutboxRelay::Pass> pass = restarted->PublishPending();
  ASSERT_TRUE(pass.ok()) << pass.status().message();
  EXPECT_EQ(pass->published, 0) << "nothing goes out before the new epoch is committed";
  EXPECT_TRUE(pass->more_pending);
  ASSERT_FALSE(pass->new_epoch.empty());
  const store::OutboxPosition head = Head();
  EXPECT_EQ(head.epoch, pass->new_epoch);
  EXPECT_NE(head.epoch, before);
  EXPECT_EQ(head.epoch_start, 1) << "the new epoch's ids start with the update taken again";

  pass = restarted->PublishPending();
  EXPECT_EQ(pass->published, 1);
  EXPECT_TRUE(pass->new_epoch.empty());
  const nlohmann::json update = NextPublished();
  EXPECT_EQ(update["sequence"], 2);
  EXPECT_EQ(update["epoch"], head.epoch) << "published under the new epoch, under the MAC";
  EXPECT_EQ(update["nodes"][0]["id"], "d");
}

// The relay that published remembers it even when Redis lost its note; and a rewind past the
// last id (no update taken again yet) is found as soon as one is.
TEST_F(RelayEpochTest, TheRelayThatPublishedFindsTheRewindWithoutRedisNote) {
  for (const char* id : {"a", "b", "c"}) ImportOne(*db_, id);
  std::unique_ptr<OutboxRelay> relay = NewRelay();
  ASSERT_EQ(relay->PublishPending()->published, 3);
  ASSERT_TRUE(client_->Set(kPublishedMarkKey, "not a note").ok());
  ASSERT_TRUE(db_->Execute(kRewindOutbox, {"0"}).ok());
  ImportOne(*db_, "d");
  Result<OutboxRelay::Pass> pass = relay->PublishPending();
  ASSERT_TRUE(pass.ok());
  EXPECT_FALSE(pass->new_epoch.empty());
  EXPECT_EQ(Head().epoch_start, 0);
}

// Publishing again what went out (the mark of the batch did not commit), pruning, a database reset
// under a new epoch: none of them is a rewind.
TEST_F(RelayEpochTest, RepeatsPrunedRowsAndResetsStartNoEpoch) {
  for (const char* id : {"a", "b", "c"}) ImportOne(*db_, id);
  const std::string epoch = Head().epoch;
  ASSERT_EQ(NewRelay()->PublishPending()->published, 3);
  ASSERT_TRUE(db_->Execute(kUnpublish, {"2"}).ok());
  Result<OutboxRelay::Pass> again = NewRelay()->PublishPending();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->published, 2);
  EXPECT_TRUE(again->new_epoch.empty());

  ASSERT_TRUE(db_->Execute(kDeleteRow, {"3"}).ok());  // pruned
  ImportOne(*db_, "d");
  again = NewRelay()->PublishPending();
  EXPECT_EQ(again->published, 1);
  EXPECT_TRUE(again->new_epoch.empty());
  EXPECT_EQ(Head().epoch, epoch);

  // A reset: ids start over under a new epoch of its own; the note of the old one says nothing.
  Result<std::string> reset = store::StartOutboxEpoch(*db_, 0);
  ASSERT_TRUE(reset.ok());
  ASSERT_TRUE(db_->Execute(kRewindOutbox, {"0"}).ok());
  ImportOne(*db_, "e");
  again = NewRelay()->PublishPending();
  EXPECT_EQ(again->published, 1);
  EXPECT_TRUE(again->new_epoch.empty());
  EXPECT_EQ(Head().epoch, *reset);
}

TEST_F(DomainStoreTest, AnEpochCannotStartPastTheLastIdTaken) {
  ImportOne(*db_, "a");
  EXPECT_TRUE(store::StartOutboxEpoch(*db_, 1).ok());
  Result<std::string> beyond = store::StartOutboxEpoch(*db_, 2);
  ASSERT_FALSE(beyond.ok());
  EXPECT_NE(beyond.status().message().find("outbox_epoch_start_reached"), std::string::npos)
      << beyond.status().message();
}

}  // namespace
}  // namespace netgraph::domain

namespace netgraph::domain {
namespace {

// A phishing page elsewhere cannot have a challenge of this service issued in its name; and one
// issued under another origin (another deployment on the same database, or before the setting
// changed) does not prove a wallet here, signature or not.
TEST_F(DomainStoreTest, AWalletChallengeNamesTheOriginAndIsAcceptedOnlyUnderIt) {
  const User user = NewUser("did:test:origin");
  Result<crypto::Ed25519Keypair> key = crypto::Ed25519Keypair::Generate();
  ASSERT_TRUE(key.ok());
  const std::string wallet = crypto::Base58Encode(key->public_key());
  const WalletProofPolicy here{"https://netgraph.example"};
  const WalletProofPolicy elsewhere{"https://netgraph.example.evil.test"};

  Outcome<WalletChallenge> theirs = IssueWalletChallenge(*db_, elsewhere, user, wallet);
  ASSERT_TRUE(theirs.ok());
  EXPECT_TRUE(theirs->message.starts_with("https://netgraph.example.evil.test wants you"));
  Result<crypto::Bytes64> signed_theirs = crypto::SignOffchainMessage(*key, theirs->message);
  ASSERT_TRUE(signed_theirs.ok());
  Outcome<ProvenWallet> refused =
      VerifyWallet(*db_, here, user, wallet, crypto::SignatureToBase58(*signed_theirs));
  EXPECT_EQ(refused.failure(), Failure::kNoWalletChallenge);

  Outcome<WalletChallenge> ours = IssueWalletChallenge(*db_, here, user, wallet);
  ASSERT_TRUE(ours.ok());
  EXPECT_TRUE(ours->message.starts_with("https://netgraph.example wants you"));
  EXPECT_EQ(
      VerifyWallet(*db_, here, user, wallet, crypto::SignatureToBase58(*signed_theirs)).failure(),
      Failure::kInvalidWalletSignature)
      << "a signature over the other origin's text";
  Result<crypto::Bytes64> signed_ours = crypto::SignOffchainMessage(*key, ours->message);
  Outcome<ProvenWallet> proven =
      VerifyWallet(*db_, here, user, wallet, crypto::SignatureToBase58(*signed_ours));
  ASSERT_TRUE(proven.ok());
  EXPECT_EQ(proven->wallet_address, wallet);

  Outcome<WalletChallenge> unset = IssueWalletChallenge(*db_, WalletProofPolicy{}, user, wallet);
  ASSERT_NE(unset.error(), nullptr);
  EXPECT_NE(unset.error()->message().find("NETGRAPH_PUBLIC_ORIGIN"), std::string::npos);
}

}  // namespace
}  // namespace netgraph::domain
