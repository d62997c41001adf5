// InAttemptTransaction (core/domain/failure.h): an attempt that is a transaction of its own.
#include "core/domain/failure.h"

#include <string>

#include "tests/database/domain/domain_store_test.h"

namespace netgraph::domain {
namespace {

constexpr const char* kCreateTable =
    "CREATE TABLE attempt_test_notes (id integer PRIMARY KEY, note text NOT NULL)";
constexpr store::Statement kInsert{"test_attempt_insert",
                                   "INSERT INTO attempt_test_notes (id, note) VALUES ($1, 'x')"};
constexpr store::Statement kCount{"test_attempt_count", "SELECT count(*) FROM attempt_test_notes"};
// The transaction ids this session holds: a savepoint that has written holds one of its own
// besides its transaction's.
constexpr store::Statement kOwnTransactionIds{
    "test_attempt_own_transaction_ids",
    "SELECT count(*) FROM pg_locks WHERE locktype = 'transactionid' AND pid = pg_backend_pid()"};

class AttemptTransactionTest : public DomainStoreTest {
 protected:
  void SetUp() override {
    DomainStoreTest::SetUp();
    ASSERT_TRUE(db_->ExecuteScript(kCreateTable).ok());
  }
  std::int64_t Notes() { return db_->Run(kCount)->Int(0, 0); }
};

TEST_F(AttemptTransactionTest, AValueCommitsARefusalAndAnErrorKeepNothing) {
  Outcome<int> kept = InAttemptTransaction<int>(*db_, store::Isolation::kReadCommitted, [&] {
    Status inserted = db_->Execute(kInsert, {"1"});
    return inserted.ok() ? Outcome<int>(1) : Outcome<int>(inserted);
  });
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(kept.value(), 1);
  EXPECT_EQ(Notes(), 1);

  Outcome<int> refused = InAttemptTransaction<int>(*db_, store::Isolation::kReadCommitted, [&] {
    EXPECT_TRUE(db_->Execute(kInsert, {"2"}).ok());
    return Outcome<int>(Failure::kNoClaimedVouchers);
  });
  EXPECT_EQ(refused.failure(), Failure::kNoClaimedVouchers);
  EXPECT_EQ(Notes(), 1) << "the refused attempt's write is undone";
  EXPECT_FALSE(db_->in_transaction());

  Outcome<int> failed = InAttemptTransaction<int>(*db_, store::Isolation::kReadCommitted, [&] {
    EXPECT_TRUE(db_->Execute(kInsert, {"3"}).ok());
    return Outcome<int>(db_->Execute(kInsert, {"1"}));  // a duplicate key
  });
  ASSERT_NE(failed.error(), nullptr);
  EXPECT_TRUE(failed.error()->IsAlreadyExists()) << failed.error()->message();
  EXPECT_EQ(Notes(), 1);
}

// The attempt runs in the transaction itself, with no savepoint around it: two round trips fewer
// (SAVEPOINT, RELEASE) for each redemption and wallet proof.
TEST_F(AttemptTransactionTest, TheAttemptRunsWithoutASavepoint) {
  Outcome<std::int64_t> held =
      InAttemptTransaction<std::int64_t>(*db_, store::Isolation::kReadCommitted, [&] {
        EXPECT_TRUE(db_->Execute(kInsert, {"1"}).ok());
        Result<store::Rows> ids = db_->Run(kOwnTransactionIds);
        return ids.ok() ? Outcome<std::int64_t>(ids->Int(0, 0))
                        : Outcome<std::int64_t>(ids.status());
      });
  ASSERT_TRUE(held.ok());
  EXPECT_EQ(held.value(), 1);
}

}  // namespace
}  // namespace netgraph::domain
