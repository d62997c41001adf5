// The claim as one statement (migration 0010's claim_voucher, store::ClaimVoucherInOneStatement):
// a claim, a second claim of the same voucher refused and counted, the rate limit, a claim that
// must change the graph left to the caller with nothing written, and the graph's shapes agreeing
// with what core/domain writes. Then what migration 0011 cut from a claim's cost: no INSERT into
// wallets for a known wallet, and instants read without a function call.
#include <algorithm>
#include <string>

#include "core/store/vouchers.h"
#include "tests/database/domain/domain_store_test.h"

namespace netgraph::domain {
namespace {

constexpr store::Statement kFailures{"test_claim_failures",
                                     "SELECT count(*) FROM claim_failures WHERE user_id = $1"};
constexpr store::Statement kWalletOwner{"test_wallet_owner",
                                        "SELECT user_id FROM wallets WHERE address = $1"};

class ClaimFunctionTest : public DomainStoreTest {
 protected:
  store::ClaimRequest Request(const User& user, const std::string& code, const std::string& wallet,
                              std::int64_t max_failures = 10) {
    store::ClaimRequest request;
    request.user_id = user.id;
    request.user_public_id = user.public_id;
    request.code = code;
    std::erase(*request.code, '-');  // normalised, as stored: Issue returns it formatted
    request.wallet = wallet;
    request.window_seconds = 600;
    request.max_failures = max_failures;
    return request;
  }

  store::ClaimResult Run(const store::ClaimRequest& request) {
    Result<store::ClaimResult> result = store::ClaimVoucherInOneStatement(*db_, request);
    EXPECT_TRUE(result.ok()) << result.status().message();
    return result.ok() ? *result : store::ClaimResult{};
  }

  std::int64_t Failures(const User& user) {
    Result<store::Rows> rows = db_->Run(kFailures, {std::to_string(user.id)});
    EXPECT_TRUE(rows.ok()) << rows.status().message();
    return rows.ok() ? rows->Int(0, 0) : -1;
  }

  bool WalletRegistered(const std::string& wallet) {
    Result<store::Rows> rows = db_->Run(kWalletOwner, {wallet});
    EXPECT_TRUE(rows.ok()) << rows.status().message();
    return rows.ok() && !rows->empty();
  }
};

TEST_F(ClaimFunctionTest, AClaimToAKnownWalletIsOneStatementAndTheSecondClaimIsRefused) {
  const User alice = NewUser("did:function:alice");
  const User bob = NewUser("did:function:bob");
  const std::string wallet = RandomWallet();
  // The first claim to the wallet adds it to the graph (ClaimVoucher's transaction).
  ASSERT_TRUE(Claim(alice, Issue(), wallet).ok());
  ASSERT_EQ(OutboxPayloads().size(), 1u);

  const std::string code = Issue("7");
  const store::ClaimResult claimed = Run(Request(alice, code, wallet));
  ASSERT_EQ(claimed.outcome, store::ClaimOutcome::kClaimed)
      << "the graph holds what core/domain wrote for the first claim, in the same shapes";
  ASSERT_TRUE(claimed.voucher.has_value());
  EXPECT_EQ(claimed.voucher->state, store::VoucherState::kClaimed);
  EXPECT_EQ(claimed.voucher->user_id, alice.id);
  EXPECT_EQ(claimed.voucher->wallet_address, wallet);
  EXPECT_EQ(claimed.voucher->amount, 700);
  EXPECT_EQ(claimed.decimals, 2);
  EXPECT_EQ(claimed.round.name, "Seed");
  EXPECT_EQ(VoucherStatus(claimed.voucher->id), "CLAIMED");
  EXPECT_EQ(OutboxPayloads().size(), 1u) << "the graph did not change";

  const store::ClaimResult again = Run(Request(alice, code, wallet));
  EXPECT_EQ(again.outcome, store::ClaimOutcome::kClaimedBefore) << "a retry is the same claim";
  EXPECT_EQ(again.voucher->id, claimed.voucher->id);
  EXPECT_EQ(Failures(alice), 0);

  const std::string bob_wallet = RandomWallet();
  const store::ClaimResult refused = Run(Request(bob, code, bob_wallet));
  EXPECT_EQ(refused.outcome, store::ClaimOutcome::kUnclaimable);
  ASSERT_TRUE(refused.voucher.has_value());
  EXPECT_EQ(refused.voucher->user_id, alice.id) << "the voucher, for the caller to say why";
  EXPECT_EQ(Failures(bob), 1) << "a refused claim counts";
  EXPECT_FALSE(WalletRegistered(bob_wallet)) << "and undoes the wallet it registered";
  EXPECT_EQ(Claim(bob, code, bob_wallet).failure(), Failure::kVoucherNotFound);
}

TEST_F(ClaimFunctionTest, FailedClaimsAreCountedUntilTheLimitRefusesEvenAGoodCode) {
  const User mallory = NewUser("did:function:mallory");
  const std::string wallet = RandomWallet();
  store::ClaimRequest absent = Request(mallory, "AAAA-AAAA-AAAA-AAAA-AAAA", wallet, 3);
  EXPECT_EQ(Run(absent).outcome, store::ClaimOutcome::kUnclaimable);
  store::ClaimRequest invalid_code = absent;
  invalid_code.code.reset();
  EXPECT_EQ(Run(invalid_code).outcome, store::ClaimOutcome::kInvalidVoucherCode);
  store::ClaimRequest invalid_wallet = absent;
  invalid_wallet.wallet.reset();
  EXPECT_EQ(Run(invalid_wallet).outcome, store::ClaimOutcome::kInvalidWalletAddress);
  EXPECT_EQ(Failures(mallory), 3);

  const std::string code = Issue();
  EXPECT_EQ(Run(Request(mallory, code, wallet, 3)).outcome, store::ClaimOutcome::kTooManyAttempts);
  EXPECT_EQ(Failures(mallory), 3) << "a refusal at the limit is not counted";
  EXPECT_FALSE(WalletRegistered(wallet));
  EXPECT_TRUE(Claim(NewUser("did:function:alice"), code, RandomWallet()).ok())
      << "the voucher stayed available";
}

TEST_F(ClaimFunctionTest, AClaimThatChangesTheGraphIsLeftToTheCallerWithNothingWritten) {
  const User alice = NewUser("did:function:alice");
  const User bob = NewUser("did:function:bob");
  const std::string wallet = RandomWallet();
  const std::string code = Issue();

  store::ClaimRequest request = Request(alice, code, wallet);
  EXPECT_EQ(Run(request).outcome, store::ClaimOutcome::kGraphToWrite) << "a new wallet";
  EXPECT_FALSE(WalletRegistered(wallet));
  EXPECT_EQ(Failures(alice), 0);
  EXPECT_TRUE(OutboxPayloads().empty());

  request.graph_by_caller = true;
  ASSERT_TRUE(db_->ExecuteScript("BEGIN").ok());
  const store::ClaimResult claimed = Run(request);
  ASSERT_TRUE(db_->ExecuteScript("ROLLBACK").ok());
  EXPECT_EQ(claimed.outcome, store::ClaimOutcome::kClaimed) << "the caller writes the graph";
  EXPECT_FALSE(claimed.wallet_public_id.empty());

  // The wallet belongs to alice once her claim commits (ClaimVoucher writes the graph's change).
  ASSERT_TRUE(Claim(alice, code, wallet).ok());
  const store::ClaimResult taken = Run(Request(bob, Issue(), wallet));
  EXPECT_EQ(taken.outcome, store::ClaimOutcome::kWalletBelongsToAnotherUser);
  EXPECT_EQ(Failures(bob), 1);
}

TEST_F(ClaimFunctionTest, AClaimToAKnownWalletInsertsNoWallet) {
  // A statement trigger of the test's own counts the INSERT statements run on wallets, rows or not.
  ASSERT_TRUE(
      db_->ExecuteScript(
             "CREATE TABLE test_wallet_inserts (n INTEGER NOT NULL);"
             "CREATE FUNCTION test_count_wallet_insert() RETURNS trigger LANGUAGE plpgsql AS "
             "$$ BEGIN INSERT INTO test_wallet_inserts VALUES (1); RETURN NULL; END $$;"
             "CREATE TRIGGER test_wallet_insert AFTER INSERT ON wallets FOR EACH STATEMENT "
             "EXECUTE FUNCTION test_count_wallet_insert()")
          .ok());
  constexpr store::Statement kWalletInserts{"test_wallet_inserts",
                                            "SELECT count(*) FROM test_wallet_inserts"};
  const auto wallet_inserts = [&] {
    Result<store::Rows> rows = db_->Run(kWalletInserts, {});
    EXPECT_TRUE(rows.ok()) << rows.status().message();
    return rows.ok() ? rows->Int(0, 0) : -1;
  };
  const User alice = NewUser("did:function:alice");
  const std::string wallet = RandomWallet();
  ASSERT_TRUE(Claim(alice, Issue(), wallet).ok());
  ASSERT_EQ(wallet_inserts(), 1) << "a new wallet is inserted";

  EXPECT_EQ(Run(Request(alice, Issue(), wallet)).outcome, store::ClaimOutcome::kClaimed);
  EXPECT_EQ(wallet_inserts(), 1) << "a known one is not, not even as an INSERT of no row";
}

TEST_F(ClaimFunctionTest, InstantsAreReadWithoutAFunctionCall) {
  // epoch_us, inlined by the planner, is its expression in the plan rather than a call.
  ASSERT_TRUE(db_->ExecuteScript("CREATE TABLE test_plan (line TEXT);"
                                 "DO $$ DECLARE line TEXT; BEGIN FOR line IN EXPLAIN (VERBOSE) "
                                 "SELECT epoch_us(claimed_at) FROM vouchers LOOP "
                                 "INSERT INTO test_plan VALUES (line); END LOOP; END $$")
                  .ok());
  constexpr store::Statement kPlan{"test_plan", "SELECT string_agg(line, E'\\n') FROM test_plan"};
  Result<store::Rows> plan = db_->Run(kPlan, {});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const std::string text(plan->Text(0, 0));
  EXPECT_NE(text.find("EXTRACT(epoch FROM claimed_at)"), std::string::npos) << text;
  EXPECT_EQ(text.find("epoch_us"), std::string::npos) << text;
}

}  // namespace
}  // namespace netgraph::domain
