// store::Connection against the PostgreSQL that DATABASE_URL names: transactions, session limits.
#include "core/store/connection.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace netgraph::store {
namespace {

// A scratch table of this test only, created afresh by each test.
constexpr const char* kCreateTable =
    "DROP TABLE IF EXISTS connection_test_notes; "
    "CREATE TABLE connection_test_notes (id integer PRIMARY KEY, note text NOT NULL); "
    "INSERT INTO connection_test_notes VALUES (1, 'present from the start')";
constexpr Statement kInsert{"test_insert_note",
                            "INSERT INTO connection_test_notes (id, note) VALUES ($1, $2)"};
constexpr Statement kLockFirst{"test_lock_first_note",
                               "SELECT note FROM connection_test_notes WHERE id = 1 FOR UPDATE"};
constexpr Statement kLockFirstNowait{
    "test_lock_first_note_nowait",
    "SELECT note FROM connection_test_notes WHERE id = 1 FOR UPDATE NOWAIT"};
constexpr Statement kIds{"test_note_ids", "SELECT id FROM connection_test_notes ORDER BY id"};
constexpr Statement kSessionLimits{
    "test_session_limits",
    "SELECT current_setting('statement_timeout'), current_setting('lock_timeout'), "
    "current_setting('idle_in_transaction_session_timeout')"};
constexpr Statement kSleep{"test_sleep", "SELECT pg_sleep(30)"};

std::string DatabaseUrl() {
  const char* url = std::getenv("DATABASE_URL");
  return url == nullptr ? "" : url;
}

class ConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(url_.empty())
        << "DATABASE_URL must name the PostgreSQL to test against (scripts/test sets the stack's)";
    Connection setup(url_);
    Status created = setup.ExecuteScript(kCreateTable);
    ASSERT_TRUE(created.ok()) << created.message();
  }
  void TearDown() override {
    if (url_.empty()) return;
    Connection cleanup(url_);
    (void)cleanup.ExecuteScript("DROP TABLE IF EXISTS connection_test_notes");
  }

  std::vector<std::int64_t> Ids(Connection& db) {
    Result<Rows> rows = db.Run(kIds);
    EXPECT_TRUE(rows.ok()) << rows.status().message();
    std::vector<std::int64_t> ids;
    if (rows.ok()) {
      for (int i = 0; i < rows->size(); ++i) ids.push_back(rows->Int(i, 0));
    }
    return ids;
  }

  const std::string url_ = DatabaseUrl();
};

TEST_F(ConnectionTest, ABodyThatThrowsIsRolledBackAndNeverCommittedLater) {
  Connection db(url_);
  auto write_lock_and_throw = [&]() -> Status {
    EXPECT_TRUE(db.Execute(kInsert, {"2", "written, then thrown"}).ok());
    EXPECT_TRUE(db.Run(kLockFirst).ok());
    throw std::runtime_error("the body fails");
  };
  EXPECT_THROW(db.InTransaction(Isolation::kReadCommitted, write_lock_and_throw),
               std::runtime_error);
  EXPECT_FALSE(db.in_transaction());

  // The row lock the body took is released: the session is not left inside its transaction.
  Connection other(url_);
  Result<Rows> locked = other.Run(kLockFirstNowait);
  EXPECT_TRUE(locked.ok()) << locked.status().message();
  EXPECT_EQ(Ids(other), (std::vector<std::int64_t>{1}));

  // The next transaction on the same connection works and commits its own write only.
  Status next = db.InTransaction(Isolation::kReadCommitted, [&]() {
    return db.Execute(kInsert, {"3", "committed"});
  });
  ASSERT_TRUE(next.ok()) << next.message();
  EXPECT_EQ(Ids(other), (std::vector<std::int64_t>{1, 3}));
}

TEST_F(ConnectionTest, SessionsRunUnderTheDefaultLimits) {
  Connection db(url_);
  Result<Rows> limits = db.Run(kSessionLimits);
  ASSERT_TRUE(limits.ok()) << limits.status().message();
  EXPECT_EQ(limits->Text(0, 0), "5s");   // statement_timeout
  EXPECT_EQ(limits->Text(0, 1), "2s");   // lock_timeout
  EXPECT_EQ(limits->Text(0, 2), "10s");  // idle_in_transaction_session_timeout
}

TEST_F(ConnectionTest, ConfiguredLimitsApplyAndTheOperatorsOwnSettingsWin) {
  ConnectionOptions options;
  options.statement_timeout_ms = 1500;
  options.lock_timeout_ms = 700;
  options.idle_in_transaction_timeout_ms = 0;  // the server's default stays
  std::string url = url_;
  url += url.find('?') == std::string::npos ? "?" : "&";
  url += "options=-c%20lock_timeout%3D900";
  Connection db(url, options);
  Result<Rows> limits = db.Run(kSessionLimits);
  ASSERT_TRUE(limits.ok()) << limits.status().message();
  EXPECT_EQ(limits->Text(0, 0), "1500ms");
  EXPECT_EQ(limits->Text(0, 1), "900ms");  // DATABASE_URL's options win
  EXPECT_EQ(limits->Text(0, 2), "0");

  // The limit is enforced: a long statement is cancelled with SQLSTATE 57014.
  Result<Rows> slept = db.Run(kSleep);
  ASSERT_FALSE(slept.ok());
  EXPECT_EQ(db.last_error().sqlstate, "57014") << slept.status().message();
  EXPECT_FALSE(db.last_error().connection_lost);
  EXPECT_TRUE(db.Run(kSessionLimits).ok()) << "the connection is usable after the cancel";
}

TEST(ConnectionParametersTest, AddsTheLimitsTheOperatorDidNotSet) {
  ::unsetenv("PGOPTIONS");
  ConnectionOptions options;
  options.tcp_user_timeout_ms = 7000;
  Result<std::vector<std::pair<std::string, std::string>>> added =
      ConnectionParameters("postgresql://db.example/netgraph?keepalives_idle=60", options);
  ASSERT_TRUE(added.ok()) << added.status().message();
  auto value = [&](const std::string& keyword) -> std::string {
    for (const auto& [k, v] : *added) {
      if (k == keyword) return v;
    }
    return "(unset)";
  };
  EXPECT_EQ(value("dbname"), "postgresql://db.example/netgraph?keepalives_idle=60");
  EXPECT_EQ(value("tcp_user_timeout"), "7000");
  EXPECT_EQ(value("keepalives"), "1");
  EXPECT_EQ(value("keepalives_idle"), "(unset)") << "DATABASE_URL's value is not overridden";
  EXPECT_EQ(value("keepalives_interval"), "5");
  EXPECT_EQ(value("keepalives_count"), "3");
  EXPECT_EQ(value("options"),
            "-c statement_timeout=5000 -c lock_timeout=2000 "
            "-c idle_in_transaction_session_timeout=10000");

  // libpq's own variable for `options` is kept (passing the keyword would shadow it), after ours.
  ::setenv("PGOPTIONS", "-c lock_timeout=50", 1);
  added = ConnectionParameters("host=db.example dbname=netgraph", options);
  ::unsetenv("PGOPTIONS");
  ASSERT_TRUE(added.ok()) << added.status().message();
  EXPECT_EQ(value("options"),
            "-c statement_timeout=5000 -c lock_timeout=2000 "
            "-c idle_in_transaction_session_timeout=10000 -c lock_timeout=50");

  EXPECT_FALSE(ConnectionParameters("postgresql://db.example/x?bogus=1", options).ok());
}

}  // namespace
}  // namespace netgraph::store
