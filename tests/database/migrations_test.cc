// Migrating a database (core/store/migrations.h) against a real PostgreSQL (test_database.h).
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "core/store/connection.h"
#include "core/store/migrations.h"
#include "tests/database/test_database.h"

namespace netgraph::store {
namespace {

using testing::TestDatabase;

// The app hosts of a cluster each migrate as their pool starts (netgraph-fcgi.service runs
// `netgraphctl migrate`), so on a new database two migrations can start at once. The second must
// wait for the first, not fail on the schema_migrations table the first has created and not yet
// committed (tests/cluster met this as "duplicate key value violates unique constraint
// pg_type_typname_nsp_index"). Here the first is caught at that instant: it holds the migrations'
// lock and an uncommitted CREATE TABLE schema_migrations while the second starts.
TEST(MigrationsTest, ASecondMigrationOfANewDatabaseWaitsForTheFirst) {
  TestDatabase* server = TestDatabase::Get();
  if (server == nullptr) GTEST_SKIP() << TestDatabase::problem();
  const std::string url = server->EmptyDatabase();
  Connection first(url);
  ASSERT_TRUE(first.ExecuteScript("SELECT pg_advisory_lock(7305218764021)").ok());
  ASSERT_TRUE(first
                  .ExecuteScript("BEGIN; CREATE TABLE schema_migrations (version INTEGER PRIMARY "
                                 "KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL "
                                 "DEFAULT now())")
                  .ok());

  std::future<Result<std::vector<Migration>>> second = std::async(std::launch::async, [&url] {
    Connection connection(url);
    return Migrate(connection);
  });
  // The second migration is waiting (on the lock, or on the first's uncommitted table); asked on a
  // connection of its own, as pg_stat_activity stays as it was for the rest of a transaction.
  constexpr Statement kWaiting{"waiting_sessions",
                               "SELECT count(*) FROM pg_stat_activity WHERE datname = "
                               "current_database() AND wait_event_type = 'Lock'"};
  Connection observer(url);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    Result<Rows> waiting = observer.Run(kWaiting);
    ASSERT_TRUE(waiting.ok()) << waiting.status().message();
    if (waiting->Int(0, 0) > 0) break;
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the second migration never waited";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_TRUE(first.ExecuteScript("COMMIT").ok());
  ASSERT_TRUE(first.ExecuteScript("SELECT pg_advisory_unlock(7305218764021)").ok());

  Result<std::vector<Migration>> applied = second.get();
  ASSERT_TRUE(applied.ok()) << applied.status().message();
  EXPECT_EQ(applied->size(), KnownMigrations().size());
  Result<int> version = SchemaVersion(first);
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(*version, KnownMigrations().back().version);
}

}  // namespace
}  // namespace netgraph::store
