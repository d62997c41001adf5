// The fixture of the domain's tests against a real PostgreSQL (test_database.h): a fresh database
// per test with one funding round, and the helpers the tests of each operation share. The tests are
// split by operation, one file each in this folder, named after the core/domain file they test.
#ifndef NETGRAPH_TESTS_DATABASE_DOMAIN_DOMAIN_STORE_TEST_H_
#define NETGRAPH_TESTS_DATABASE_DOMAIN_DOMAIN_STORE_TEST_H_

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/crypto/base58.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/elgamal.h"
#include "core/crypto/solana_keypair.h"
#include "core/domain/token2022_ledger.h"
#include "core/domain/user.h"
#include "core/domain/voucher.h"
#include "core/domain/voucher_admin.h"
#include "core/store/connection.h"
#include "core/store/token.h"
#include "tests/database/test_database.h"

namespace netgraph::domain {

using testing::TestDatabase;

// Test-only reads of rows no production code reads back.
inline constexpr store::Statement kOutboxRows{
    "test_outbox_rows",
    "SELECT id, payload, published_at IS NOT NULL FROM outbox "
    "ORDER BY id"};
inline constexpr store::Statement kVoucherStatus{"test_voucher_status",
                                                 "SELECT status FROM vouchers WHERE id = $1"};
// For a test that lets one transaction wait for another's lock before it goes on.
inline constexpr store::Statement kWaitingForALock{
    "test_waiting_for_a_lock", "SELECT count(*) FROM pg_locks WHERE NOT granted"};

inline std::string RandomWallet() {
  Result<crypto::Ed25519Keypair> keypair = crypto::Ed25519Keypair::Generate();
  return crypto::Base58Encode(keypair->public_key());
}

// A new twisted-ElGamal public key, base64, as a wallet's owner registers it.
inline std::string RandomConfidentialKey() {
  return crypto::ElGamalPublicKey::FromSecretKey(crypto::ElGamalSecretKey::Generate()).ToBase64();
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

  // Waits until a transaction waits for another's lock (at most 10 s); false when none did.
  bool AwaitALockWaiter() {
    for (int i = 0; i < 500; ++i) {
      Result<store::Rows> waiting = db_->Run(kWaitingForALock);
      if (waiting.ok() && waiting->Int(0, 0) > 0) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  std::string VoucherStatus(std::int64_t id) {
    Result<store::Rows> rows = db_->Run(kVoucherStatus, {std::to_string(id)});
    return rows.ok() && !rows->empty() ? std::string(rows->Text(0, 0)) : "";
  }

  // Runs act(db, i) for each i below `count`, each on a thread and a connection of its own; they
  // start together once every connection is open, so that they race in the database rather than
  // in connecting. Returns when all have finished.
  void RunConcurrently(int count, const std::function<void(store::Connection&, int)>& act) {
    std::atomic<int> connected{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < count; ++i) {
      threads.emplace_back([&, i] {
        store::Connection db(url_);
        Status opened = db.EnsureConnected();
        EXPECT_TRUE(opened.ok()) << opened.message();
        ++connected;
        while (!go) std::this_thread::yield();
        if (opened.ok()) act(db, i);
      });
    }
    while (connected < count) std::this_thread::yield();
    go = true;
    for (std::thread& t : threads) t.join();
  }

  TestDatabase* server_ = nullptr;
  std::string url_;
  std::unique_ptr<store::Connection> db_;
  crypto::Bytes32 treasury_public_key_{};
};

}  // namespace netgraph::domain

#endif  // NETGRAPH_TESTS_DATABASE_DOMAIN_DOMAIN_STORE_TEST_H_
