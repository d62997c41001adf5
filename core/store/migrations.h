// Versioned schema migrations. Each file core/store/migrations/NNNN_description.sql is one version,
// compiled into the binary; Migrate applies the missing ones in version order, each in its own
// transaction, and records them in schema_migrations. Concurrent runs serialise on an advisory
// lock, so starting several processes that all migrate is safe.
//
// Expand, then contract: during an upgrade the new release's migrations run while the previous
// release still serves (netgraph-migrate.service, then the services restart: docs/operations.md,
// "Upgrading"), so a migration may only add what the previous release does not notice (tables,
// nullable columns or columns with defaults, indexes, functions). Removing or renaming what the
// previous release uses waits for a later release, which no longer uses it, and the file says so
// on a line starting "-- contract:" (tests/unit/store/migration_rules_test.cc checks migrations
// after 0004 for DROP, RENAME, type changes and NOT NULL without such a line). A binary needs the
// schema its newest migration makes and runs on any newer one.
#ifndef NETGRAPH_CORE_STORE_MIGRATIONS_H_
#define NETGRAPH_CORE_STORE_MIGRATIONS_H_

#include <string>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

struct Migration {
  int version;
  std::string name;  // the file name
};

// Every migration this binary knows, in version order.
std::vector<Migration> KnownMigrations();

// Applies the missing migrations and returns the ones it applied.
Result<std::vector<Migration>> Migrate(Connection& connection);

// The highest applied version, 0 when none. Reads only: the services' role may not create tables.
Result<int> SchemaVersion(Connection& connection);

// The version this binary needs: its newest migration's.
int RequiredSchemaVersion();

// Ok when the database's schema is at RequiredSchemaVersion() or newer; kFailedPrecondition, saying
// what to run, when it is older; the connection's error (kUnavailable: PostgreSQL is unreachable)
// when it cannot tell.
Status RequireSchema(Connection& connection);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_MIGRATIONS_H_
