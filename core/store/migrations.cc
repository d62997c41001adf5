#include "core/store/migrations.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "core/embedded_file.h"

namespace netgraph::store {

const std::vector<EmbeddedFile>& EmbeddedMigrations();  // generated from migrations/*.sql

namespace {

// Any constant works; it only has to be the same for every netgraph process.
constexpr const char* kCreateTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())";
constexpr Statement kLock{"migrations_lock", "SELECT pg_advisory_lock(7305218764021)"};
constexpr Statement kUnlock{"migrations_unlock", "SELECT pg_advisory_unlock(7305218764021)"};
constexpr Statement kApplied{"migrations_applied", "SELECT version FROM schema_migrations"};
constexpr Statement kRecord{"migrations_record",
                            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)"};
constexpr Statement kCurrent{"migrations_current",
                             "SELECT COALESCE(max(version), 0) FROM schema_migrations"};
constexpr Statement kTableExists{"migrations_table_exists",
                                 "SELECT to_regclass('schema_migrations') IS NOT NULL"};

int VersionOf(std::string_view file_name) { return std::atoi(std::string(file_name).c_str()); }

}  // namespace

std::vector<Migration> KnownMigrations() {
  std::vector<Migration> all;
  for (const EmbeddedFile& file : EmbeddedMigrations()) {
    all.push_back(Migration{VersionOf(file.name), std::string(file.name)});
  }
  return all;
}

Result<std::vector<Migration>> Migrate(Connection& connection) {
  // The lock first: CREATE TABLE IF NOT EXISTS is no guard against a concurrent creation (the
  // second fails on the catalog's unique index once the first commits), and every app host of a
  // cluster migrates as its pool starts (netgraph-fcgi.service), so two may start at once.
  NETGRAPH_RETURN_IF_ERROR(connection.Run(kLock));

  std::vector<Migration> applied_now;
  Status outcome = [&]() -> Status {
    NETGRAPH_RETURN_IF_ERROR(connection.ExecuteScript(kCreateTable));
    NETGRAPH_ASSIGN_OR_RETURN(Rows rows, connection.Run(kApplied));
    std::vector<int> done;
    for (int i = 0; i < rows.size(); ++i) done.push_back(static_cast<int>(rows.Int(i, 0)));

    for (const EmbeddedFile& file : EmbeddedMigrations()) {
      const int version = VersionOf(file.name);
      if (std::find(done.begin(), done.end(), version) != done.end()) continue;
      Status s = connection.InTransaction(
          Isolation::kReadCommitted,
          [&]() -> Status {
            if (Status script = connection.ExecuteScript(std::string(file.content)); !script.ok()) {
              return script.WithContext(file.name);
            }
            Result<Rows> recorded =
                connection.Run(kRecord, {std::to_string(version), std::string(file.name)});
            return recorded.ok() ? Status::Ok() : recorded.status();
          },
          /*max_attempts=*/1);
      if (!s.ok()) return s;
      applied_now.push_back(Migration{version, std::string(file.name)});
    }
    return Status::Ok();
  }();

  (void)connection.Run(kUnlock);
  if (!outcome.ok()) return outcome;
  return applied_now;
}

Result<int> SchemaVersion(Connection& connection) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows exists, connection.Run(kTableExists));
  if (!exists.Bool(0, 0)) return 0;
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, connection.Run(kCurrent));
  return static_cast<int>(rows.Int(0, 0));
}

int RequiredSchemaVersion() {
  const std::vector<Migration> known = KnownMigrations();
  return known.empty() ? 0 : known.back().version;
}

Status RequireSchema(Connection& connection) {
  NETGRAPH_ASSIGN_OR_RETURN(int version, SchemaVersion(connection));
  if (version >= RequiredSchemaVersion()) return Status::Ok();
  return Status::FailedPrecondition(
      "the database schema is at version " + std::to_string(version) + ", older than the " +
      std::to_string(RequiredSchemaVersion()) +
      " this release needs: run the migrations first (systemctl restart netgraph-migrate, or "
      "netgraphctl migrate as the schema's owner)");
}

}  // namespace netgraph::store
