// store::Connection against the PostgreSQL that DATABASE_URL names: transactions, session limits.
#include "core/store/connection.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/log.h"

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
constexpr Statement kRename{"test_rename_first_note",
                            "UPDATE connection_test_notes SET note = $1 WHERE id = 1"};
constexpr Statement kFirstNote{"test_first_note",
                               "SELECT note FROM connection_test_notes WHERE id = 1"};

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
  EXPECT_TRUE(slept.status().IsDeadlineExceeded()) << slept.status().message();
  EXPECT_FALSE(slept.status().IsRetryable());
  EXPECT_TRUE(db.Run(kSessionLimits).ok()) << "the connection is usable after the cancel";
}

TEST_F(ConnectionTest, ALockTimeoutIsADeadlineNotARetry) {
  Connection holder(url_);
  ConnectionOptions impatient;
  impatient.lock_timeout_ms = 200;
  Connection waiter(url_, impatient);
  Status held = holder.InTransaction(Isolation::kReadCommitted, [&]() -> Status {
    NETGRAPH_RETURN_IF_ERROR(holder.Run(kLockFirst));
    int attempts = 0;
    Status waited = waiter.InTransaction(Isolation::kReadCommitted, [&]() -> Status {
      ++attempts;
      return waiter.Execute(kLockFirst);
    });
    EXPECT_TRUE(waited.IsDeadlineExceeded()) << waited.message();
    EXPECT_EQ(attempts, 1) << "a lock timeout is not retried";
    return Status::Ok();
  });
  EXPECT_TRUE(held.ok()) << held.message();
}

// A write that loses a REPEATABLE READ race fails with kAborted, and InTransaction runs the body
// again (in a fresh snapshot, where it succeeds) because of that code.
TEST_F(ConnectionTest, ASerializationFailureIsAbortedAndTheTransactionIsRetried) {
  Connection racer(url_);
  Connection rival(url_);
  int attempts = 0;
  std::vector<Status> failures;
  Status committed = racer.InTransaction(Isolation::kRepeatableRead, [&]() -> Status {
    ++attempts;
    NETGRAPH_RETURN_IF_ERROR(racer.Run(kFirstNote));  // takes the snapshot
    if (attempts == 1) {
      Status rival_wrote = rival.Execute(kRename, {"the rival's"});
      EXPECT_TRUE(rival_wrote.ok()) << rival_wrote.message();
    }
    Status renamed = racer.Execute(kRename, {"the racer's"});
    if (!renamed.ok()) failures.push_back(renamed);
    return renamed;
  });
  ASSERT_TRUE(committed.ok()) << committed.message();
  EXPECT_EQ(attempts, 2);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_TRUE(failures[0].IsAborted()) << failures[0].message();
  EXPECT_TRUE(failures[0].IsRetryable());
  Result<Rows> note = rival.Run(kFirstNote);
  ASSERT_TRUE(note.ok()) << note.status().message();
  EXPECT_EQ(note->Text(0, 0), "the racer's");
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

// Server notices are logged at their severity, read from the notice's non-localized field: a
// WARNING as a warning, a NOTICE as detail.
TEST_F(ConnectionTest, ServerNoticesAreLoggedAtTheirSeverity) {
  char path[] = "/tmp/netgraph-notices-XXXXXX";
  const int captured = ::mkstemp(path);
  ASSERT_GE(captured, 0);
  ::unlink(path);
  const int saved_stderr = ::dup(STDERR_FILENO);
  ::dup2(captured, STDERR_FILENO);
  log::SetLevel(log::Level::kDebug);
  Connection db(url_);
  Status ran = db.ExecuteScript(
      "DO $$ BEGIN RAISE WARNING 'careful now'; RAISE NOTICE 'just so you know'; END $$");
  log::SetLevel(log::Level::kInfo);
  ::dup2(saved_stderr, STDERR_FILENO);
  ::close(saved_stderr);
  ASSERT_TRUE(ran.ok()) << ran.message();
  std::string logged(4096, '\0');
  const ssize_t length = ::pread(captured, logged.data(), logged.size(), 0);
  ::close(captured);
  ASSERT_GT(length, 0);
  logged.resize(static_cast<std::size_t>(length));
  EXPECT_NE(logged.find("<4>warn "), std::string::npos) << logged;
  EXPECT_NE(logged.find("]: PostgreSQL WARNING:  careful now\n"), std::string::npos) << logged;
  EXPECT_LT(logged.find("<4>warn "), logged.find("careful now")) << logged;
  const std::size_t notice = logged.find("PostgreSQL NOTICE:  just so you know");
  ASSERT_NE(notice, std::string::npos) << logged;
  EXPECT_EQ(logged.rfind("<7>debug ", notice), logged.rfind('\n', notice) + 1) << logged;
}

constexpr Statement kServerPort{"test_server_port", "SELECT current_setting('port')"};

// netgraphctl migrate --wait keeps waiting only for a server that did not answer or is not ready;
// the answer comes from the server's reply, not from libpq's wording (cli/migrate_command.cc).
TEST_F(ConnectionTest, AskServerTellsARunningServerFromNoneAndAMalformedAddress) {
  EXPECT_EQ(AskServer(url_), ServerAnswer::kAccepting);
  Connection db(url_);
  Result<Rows> port = db.Run(kServerPort);
  ASSERT_TRUE(port.ok() && port->size() == 1) << port.status().message();
  const std::string here = "host=127.0.0.1 port=" + std::string(port->Text(0, 0));
  EXPECT_EQ(AskServer(here + " user=no_such_role dbname=no_such_database"),
            ServerAnswer::kAccepting)
      << "a running server that refuses this login is running: not worth waiting for";
  EXPECT_EQ(AskServer("host=127.0.0.1 port=1 connect_timeout=2"), ServerAnswer::kUnreachable);
  EXPECT_EQ(AskServer("postgresql://[not a url"), ServerAnswer::kInvalid);
}

}  // namespace
}  // namespace netgraph::store
