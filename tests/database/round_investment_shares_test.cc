// The round figures in shares (migration 0008): claims of different investors of one round do not
// wait for each other, and the release before, which reads round_investment by name, reads the
// same figures across the migration.
#include <algorithm>
#include <string>
#include <vector>

#include "core/store/migrations.h"
#include "tests/database/domain/domain_store_test.h"

namespace netgraph::domain {
namespace {

constexpr store::Statement kSharesWritten{"test_shares_written",
                                          "SELECT count(*) FROM round_investment_shares"};

// Before migration 0008 every claim updated its round's one row of round_investment and held it
// until its commit, so a second investor's claim waited for the first's commit (here: until its
// lock_timeout, an error).
TEST_F(DomainStoreTest, ClaimsOfDifferentInvestorsOfOneRoundDoNotWaitForEachOther) {
  const User alice = NewUser("did:shares:alice");
  const User bob = NewUser("did:shares:bob");
  ASSERT_NE(alice.id % 32, bob.id % 32) << "consecutive users fall in different shares";
  const std::string alice_wallet = RandomWallet();
  const std::string bob_wallet = RandomWallet();
  // Both are investors with their wallets and graph nodes already, as in the common claim.
  ASSERT_TRUE(Claim(alice, Issue(), alice_wallet).ok());
  ASSERT_TRUE(Claim(bob, Issue(), bob_wallet).ok());
  std::string alice_code = Issue();
  std::erase(alice_code, '-');  // as stored: Issue returns it formatted
  const std::string bob_code = Issue();

  // Alice's claim has updated its voucher (and, by the trigger, the figures) and not committed.
  store::Connection alice_db(url_);
  constexpr store::Statement kClaimOpen{
      "test_claim_open",
      "UPDATE vouchers SET status = 'CLAIMED', user_id = $1, wallet_address = $2, "
      "claimed_at = now() WHERE code = $3"};
  ASSERT_TRUE(alice_db.ExecuteScript("BEGIN").ok());
  Result<store::Rows> opened =
      alice_db.Run(kClaimOpen, {std::to_string(alice.id), alice_wallet, alice_code});
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  ASSERT_EQ(opened->affected(), 1);

  store::Connection bob_db(url_);
  ASSERT_TRUE(bob_db.ExecuteScript("SET lock_timeout = '5s'").ok());
  Outcome<Voucher> bobs = ClaimVoucher(bob_db, ClaimPolicy{}, bob, bob_code, bob_wallet);
  ASSERT_TRUE(bobs.ok()) << (bobs.error() != nullptr ? bobs.error()->message() : "refused");

  ASSERT_TRUE(alice_db.ExecuteScript("COMMIT").ok());
  Result<store::InvestmentFigures> figures = store::ReadInvestmentFigures(*db_);
  ASSERT_TRUE(figures.ok()) << figures.status().message();
  EXPECT_DOUBLE_EQ(figures->round_raised, 4 * 10 * 0.05);
  EXPECT_EQ(figures->investor_count, 2);
}

// A database at the schema before 0008, with claims counted in round_investment.
class RoundInvestmentSharesMigrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    TestDatabase* server = TestDatabase::Get();
    ASSERT_NE(server, nullptr) << TestDatabase::problem();
    url_ = server->EmptyDatabase();
    migrator_ = std::make_unique<store::Connection>(url_);
    // Migrate skips the versions schema_migrations lists: 0008 is listed until the test runs it.
    ASSERT_TRUE(migrator_
                    ->ExecuteScript("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                                    "name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT "
                                    "now()); INSERT INTO schema_migrations (version, name) "
                                    "VALUES (8, 'held back by the test')")
                    .ok());
    ASSERT_TRUE(store::Migrate(*migrator_).ok());
    ASSERT_TRUE(store::EnsureRound(*migrator_,
                                   {"Seed", "0.05", "500000", "2025-01-01T00:00:00Z", std::nullopt})
                    .ok());
  }

  Status MigrateTo0008() {
    NETGRAPH_RETURN_IF_ERROR(
        migrator_->ExecuteScript("DELETE FROM schema_migrations WHERE version = 8"));
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::Migration> applied, store::Migrate(*migrator_));
    if (applied.size() != 1 || applied.front().version != 8) {
      return Status::Internal("Migrate applied other migrations than 0008");
    }
    return Status::Ok();
  }

  // A user claiming one new voucher of 10 to a new wallet, on `db`.
  Status ClaimOneOn(store::Connection& db, const std::string& did) {
    Outcome<User> user = UserForPrincipal(db, Principal{did, std::nullopt, false});
    if (!user.ok()) return Status::Internal("no user");
    IssueRequest request;
    request.amount = "10";
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<Voucher> issued, IssueVouchers(db, request));
    Outcome<Voucher> claimed =
        ClaimVoucher(db, ClaimPolicy{}, user.value(), issued.front().code, RandomWallet());
    return claimed.ok() ? Status::Ok() : Status::Internal("the claim failed");
  }

  std::string url_;
  std::unique_ptr<store::Connection> migrator_;
};

// The release before keeps serving during an upgrade: its statement reading round_investment,
// prepared on its connection before the migration, reads the view after it, with the same figures,
// and its claims (the trigger now writes the shares) keep counting.
TEST_F(RoundInvestmentSharesMigrationTest, TheReleaseBeforeReadsTheSameFiguresAcrossTheMigration) {
  store::Connection release_before(url_);
  ASSERT_TRUE(ClaimOneOn(release_before, "did:before:1").ok());
  ASSERT_TRUE(ClaimOneOn(release_before, "did:before:2").ok());
  Result<store::InvestmentFigures> before = store::ReadInvestmentFigures(release_before);
  ASSERT_TRUE(before.ok()) << before.status().message();
  EXPECT_DOUBLE_EQ(before->round_raised, 2 * 10 * 0.05);

  Status migrated = MigrateTo0008();
  ASSERT_TRUE(migrated.ok()) << migrated.message();

  Result<store::InvestmentFigures> after = store::ReadInvestmentFigures(release_before);
  ASSERT_TRUE(after.ok()) << after.status().message();
  EXPECT_DOUBLE_EQ(after->round_raised, before->round_raised);
  EXPECT_EQ(after->investor_count, 2);

  ASSERT_TRUE(ClaimOneOn(release_before, "did:after:1").ok());
  ASSERT_TRUE(ClaimOneOn(release_before, "did:after:2").ok());
  Result<store::InvestmentFigures> later = store::ReadInvestmentFigures(release_before);
  ASSERT_TRUE(later.ok()) << later.status().message();
  EXPECT_DOUBLE_EQ(later->round_raised, 4 * 10 * 0.05);
  EXPECT_EQ(later->investor_count, 4);
  Result<store::Rows> shares = migrator_->Run(kSharesWritten);
  ASSERT_TRUE(shares.ok());
  EXPECT_GE(shares->Int(0, 0), 3) << "the copied row and the two new investors' shares";
}

}  // namespace
}  // namespace netgraph::domain
